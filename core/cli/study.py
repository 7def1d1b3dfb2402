"""``lantern practice``, ``cards``, ``quiz``, ``guide`` and ``progress``: the study tools on the command line."""
from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from core.cli.output import emit, json_flag
from core.errors import LanternError, ModelUnavailableError
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings
from core.study.cards import card_from_citation
from core.study.lesson_cards import lesson_cards
from core.study.drills import drill_chapter, find_drill, lesson_practice
from core.study.export import export_cards
from core.study.guide import chapter_guide, format_guide
from core.study.lesson import book_chapters, chapter_lesson, merge_lessons
from core.study.practice import exercises_like, feedback, find_exercise, find_exercises
from core.study.progress import heat, section_progress
from core.study.drills import by_meaning
from core.study.quizgen import lesson_quiz, save_quiz, saved_quiz
from core.study.schedule import Rating, new_schedule, now_iso, review

log = logging.getLogger("lantern.study")


def add_parsers(sub: Any) -> None:
    """Add the study sub-commands to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("practice", help="practise with the book's exercises, or items made from its text "
                                        "(answers from the book; feedback cites the page)")
    p.add_argument("book_id", metavar="BOOK_ID")
    p.add_argument("--chapter", metavar="N", help='only chapter N, or an exam scope: "3-5", "3,5"')
    p.add_argument("--like", metavar="EXERCISE", help='exercises like this one ("3.14")')
    p.add_argument("--exercise", metavar="EXERCISE", help="the exercise you answer (with --answer)")
    p.add_argument("--answer", metavar="TEXT", help="your answer: checked against the book's key, with feedback")
    _model_flags(p)
    json_flag(p)

    p = sub.add_parser("cards", help="flashcards from the book's definitions and key terms (FSRS scheduling)")
    p.add_argument("book_id", metavar="BOOK_ID")
    p.add_argument("--chapter", metavar="N", help='only chapter N, or an exam scope: "3-5", "3,5"')
    p.add_argument("--due", action="store_true", help="only cards due now")
    p.add_argument("--rate", nargs=2, metavar=("CARD_ID", "RATING"),
                   help="record a review: RATING is again, hard, good or easy (1-4)")
    p.add_argument("--export", metavar="PATH", help="write the cards to PATH.apkg (Anki) or PATH.csv")
    p.add_argument("--from-conversation", metavar="ID", type=int,
                   help="make a card of each answer in this stored conversation (question -> cited quote)")
    json_flag(p)

    p = sub.add_parser("quiz", help="a generated quiz; every answer is verified against its source passage")
    p.add_argument("book_id", metavar="BOOK_ID")
    p.add_argument("--chapter", metavar="N", help='only chapter N, or an exam scope: "3-5", "3,5"')
    p.add_argument("-n", type=int, default=5, help="number of questions (default 5)")
    p.add_argument("--seed", type=int, default=0, help="choose other passages / terms")
    p.add_argument("--saved", action="store_true",
                   help="the quiz last made for this scope (kept by the library; a course pack carries it)")
    _model_flags(p)
    json_flag(p)

    p = sub.add_parser("progress", help="per section: exercises practised, quiz score, cards due, questions asked")
    p.add_argument("book_id", metavar="BOOK_ID")
    json_flag(p)

    p = sub.add_parser("guide", help="a chapter's study guide: per section the book's key sentences, key terms, "
                                     "practice to try; every line cited")
    p.add_argument("book_id", metavar="BOOK_ID")
    p.add_argument("--chapter", metavar="N", required=True, help="the chapter")
    p.add_argument("--refresh", action="store_true", help="rebuild instead of using the cached guide")
    _model_flags(p)
    json_flag(p)


def parse_chapters(text: str | None) -> tuple[str, ...] | None:
    """An exam scope: ``"3"``, ``"3-5"``, ``"3,5,A"`` -> chapter numbers; None = the whole book."""
    if text is None or not str(text).strip():
        return None
    out: list[str] = []
    for part in str(text).replace("–", "-").split(","):
        a, sep, b = part.strip().partition("-")
        if sep and a.strip().isdigit() and b.strip().isdigit():
            lo, hi = sorted((int(a), int(b)))
            if hi - lo > 60:
                raise LanternError(f"The chapter range {part.strip()!r} is too wide.")
            out += [str(i) for i in range(lo, hi + 1)]
        elif part.strip():
            out.append(part.strip())
    return tuple(dict.fromkeys(out))


def scoped_chunks(lib, book_id: str, scope: tuple[str, ...] | None) -> list:
    """The book's chunks in reading order, only the scope's chapters (all when ``scope`` is None)."""
    if scope is None:
        return lib.study_chunks(book_id)
    return [c for ch in scope for c in lib.study_chunks(book_id, chapter=ch)]


def _model_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", metavar="PATH", help="a .gguf file or catalogue key (default: $LANTERN_CHAT_MODEL "
                   "or the bundled model)")
    p.add_argument("--no-model", action="store_true", help="no language model: extractive / glossary-based only")


def _open_model(args: argparse.Namespace):
    """The chat model, or None when --no-model is given or no model file is available."""
    if getattr(args, "no_model", False):
        return None
    model = LocalModel(LLMSettings.from_env(model=args.model))
    try:
        model.model_path()
    except ModelUnavailableError as exc:
        log.warning("no chat model, continuing without it: %s", exc.message)
        model.close()
        return None
    return model


def _progress(stage: str, done: int, total: int) -> None:
    if sys.stderr.isatty() and total:
        sys.stderr.write(f"\r{stage} {done}/{total}")
        sys.stderr.flush()
        if done >= total:
            sys.stderr.write("\n")


def _find_item(lib, book_id: str, exercises: list, label: str):
    """A book exercise, or a practice item made from the text ("5.Q3")."""
    try:
        return find_exercise(exercises, label)
    except LanternError:
        chapter = drill_chapter(label)
        found = find_drill(chapter_lesson(lib, book_id, chapter), label) if chapter else None
        if found is None:
            raise
        return found


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 card", "2 cards"."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def cmd_practice(lib, args: argparse.Namespace) -> int:

    book = lib.book(args.book_id)
    exercises = find_exercises(lib.study_chunks(book.id))
    if args.answer is not None or args.exercise:
        if not (args.answer is not None and args.exercise):
            raise LanternError("Give both --exercise LABEL and --answer TEXT.")
        exercise = _find_item(lib, book.id, exercises, args.exercise)
        model = _open_model(args) if by_meaning(exercise) or not exercise.kind.generated else None
        try:
            fb = feedback(lib, exercise, args.answer, model=model)
        finally:
            if model is not None:
                model.close()
        lib.record_attempt(book.id, "practice", exercise.id, exercise.source.section_id, fb.score)
        lines = [f"Exercise {exercise.label}: {fb.verdict.value}", fb.text, ""]
        lines += [f"[{c.n}] {c.label}" for c in fb.citations]
        emit(args, fb.to_json(), "\n".join(lines))
        return 0
    if args.like:
        target = _find_item(lib, book.id, exercises, args.like)
        pool = exercises if not target.kind.generated else lesson_practice(chapter_lesson(lib, book.id,
                                                                                          target.source.chapter))
        chosen = exercises_like(pool, target, k=3)
        header = f"Practice like {target.label} ({target.source.label}):"
    else:
        scope = parse_chapters(args.chapter)
        own = [e for e in exercises if scope is None or e.source.chapter in scope]
        chapters = scope if scope is not None else (() if own else tuple(book_chapters(lib, book.id)))
        made = [e for ch in chapters for e in lesson_practice(chapter_lesson(lib, book.id, ch))]
        chosen = own + made
        where = f"chapter {args.chapter}" if args.chapter else "the book"
        header = (f"{plural(len(chosen), 'practice item')} in {where}: {len(own)} from the book's exercises, "
                  f"{len(made)} made from its text (answers from the book)") if chosen else \
            f"No practice in {where}: it has no exercises and no sentences or code examples to ask about."
    lines = [header]
    for e in chosen:
        key = "  (answer in the book)" if e.answer else ""
        lines.append(f"\n[{e.label}] {e.source.label}{key}\n    {' '.join(e.text.split())[:400]}")
    emit(args, [e.to_json() for e in chosen], "\n".join(lines))
    return 0


def cmd_cards(lib, args: argparse.Namespace) -> int:

    book = lib.book(args.book_id)
    if args.rate:
        card_id, rating_text = args.rate
        try:
            rating = Rating.parse(rating_text)
            cid = int(card_id)
        except ValueError as exc:
            raise LanternError(str(exc)) from None
        current = {c.id: c for c in lib.cards(book.id)}.get(cid)
        if current is None:
            raise LanternError(f"No flashcard {card_id} in this book.")
        schedule, due = review(current.schedule, rating)
        lib.save_review(cid, int(rating), schedule, due, now_iso())
        emit(args, {"id": cid, "rating": rating.name.lower(), "due": due}, f"card {cid}: next review {due}")
        return 0
    scope = parse_chapters(args.chapter)
    schedule, due = new_schedule()
    if args.from_conversation is not None:
        added = lib.add_cards(book.id, _answer_cards(lib, book.id, args.from_conversation), schedule, due)
    else:
        made = [card for ch in (scope or book_chapters(lib, book.id))
                for card in lesson_cards(chapter_lesson(lib, book.id, ch))]
        added = lib.add_cards(book.id, made, schedule, due)
    cards = [c for c in lib.cards(book.id, due_before=now_iso() if args.due else None)
             if scope is None or c.card.source.chapter in scope]
    lines = [f"{plural(len(cards), 'card')} ({added} new)"]
    if args.export:
        path = export_cards(cards, args.export, deck_name=f"Lantern: {book.title}", book_id=book.id,
                            book_title=book.title)
        lines.append(f"exported to {path}")
    for c in cards[:200]:
        lines.append(f"[{c.id}] {c.card.front} — {' '.join(c.card.back.split())[:160]}  ({c.card.source.label})")
    emit(args, [c.to_json() for c in cards], "\n".join(lines))
    return 0


def _answer_cards(lib, book_id: str, conversation_id: int) -> list:
    """"Make a card" from a conversation: each answered question with its first verifiable cited quote."""
    cards = []
    for turn in lib.load_conversation(conversation_id).turns:
        chunks = lib.chunks([c.chunk_id for c in turn.citations if c.book_id == book_id])
        for cit in turn.citations:
            card = card_from_citation(turn.question, cit, chunks[cit.chunk_id]) if cit.chunk_id in chunks else None
            if card is not None and not turn.refused:
                cards.append(card)
                break
    return cards


def cmd_quiz(lib, args: argparse.Namespace) -> int:

    book = lib.book(args.book_id)
    key = str(args.chapter or "all")
    if args.saved:
        run = saved_quiz(lib, book.id, key)
        if run is None:
            raise LanternError(f"No saved quiz for {'chapter ' + key if args.chapter else 'this book'}; make one "
                               f"with: lantern quiz {book.id}" + (f" --chapter {args.chapter}" if args.chapter else ""))
        return _print_quiz(args, run)
    scope = parse_chapters(args.chapter) or tuple(book_chapters(lib, book.id))
    lesson = merge_lessons([chapter_lesson(lib, book.id, ch) for ch in scope])
    if not lesson.statements and not lesson.examples:
        raise LanternError(f"Chapter {args.chapter} has no text to ask about." if args.chapter else
                           "This book has no text to ask about.")
    n = max(1, args.n)
    model = _open_model(args)
    try:
        run = lesson_quiz(lesson, n, model=model, seed=args.seed, progress=_progress)
    finally:
        if model is not None:
            model.close()
    per_item = run.seconds / max(1, len(run.questions))
    log.info("quiz: %d of %d in %.1f s (%.1f s per item), %d attempts; rejected %s", len(run.questions), n,
             run.seconds, per_item, run.attempted, dict(run.rejected))
    save_quiz(lib, book.id, key, run)
    return _print_quiz(args, run)


def _print_quiz(args: argparse.Namespace, run) -> int:
    lines = []
    for i, q in enumerate(run.questions, 1):
        lines.append(f"{i}. [{q.type.value.replace('_', ' ')}] {q.question}")
        if q.code:
            lines += [f"      {ln}" for ln in q.code.splitlines()]
        lines += [f"   {chr(65 + j)}) {' / '.join(c.splitlines())}" for j, c in enumerate(q.choices)] or \
            ["   (type the missing term)"]
        lines.append(f"   answer: {' / '.join(q.answer.splitlines())}  ({q.source.label})")
        lines.append(f"   the book: {' '.join(q.evidence.split())[:300]}\n")
    if run.note:
        lines.append(run.note)
        if getattr(args, "json", False):
            log.warning("%s", run.note)  # the JSON stays a list of questions; the reason goes to stderr
    emit(args, [q.to_json() for q in run.questions], "\n".join(lines) or run.note)
    return 0


def cmd_guide(lib, args: argparse.Namespace) -> int:

    guide = chapter_guide(lib, args.book_id, str(args.chapter), refresh=args.refresh, progress=_progress)
    emit(args, guide.to_json(), format_guide(guide))
    return 0


def cmd_progress(lib, args: argparse.Namespace) -> int:

    rows = section_progress(lib, args.book_id)
    lines = []
    for r in rows:
        bar = "#" * round(heat(r) * 10)
        score = f"{r.quiz_score:.0%}" if r.quiz_score is not None else "–"
        lines.append(f"{'  ' * r.section.level}{r.section.display[:48]:48} [{bar:10}] practised {r.practised}/"
                     f"{r.exercises}, quiz {score} ({r.quiz_answered}), cards due {r.cards_due}/{r.cards}, "
                     f"asked {r.asked}")
    emit(args, [r.to_json() for r in rows], "\n".join(lines))
    return 0


COMMANDS = {"practice": cmd_practice, "cards": cmd_cards, "quiz": cmd_quiz, "guide": cmd_guide,
            "progress": cmd_progress}
