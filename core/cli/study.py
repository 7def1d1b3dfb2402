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
from core.study.cards import card_from_citation, extract_cards
from core.study.export import export_cards
from core.study.guide import chapter_guide, format_guide
from core.study.practice import exercises_like, feedback, find_exercise, find_exercises
from core.study.progress import heat, section_progress
from core.study.quiz import glossary_quiz, model_quiz
from core.study.schedule import Rating, new_schedule, now_iso, review

log = logging.getLogger("lantern.study")


def add_parsers(sub: Any) -> None:
    """Add the study sub-commands to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("practice", help="practise with the book's own exercises (feedback cites the book)")
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
    _model_flags(p)
    json_flag(p)

    p = sub.add_parser("progress", help="per section: exercises practised, quiz score, cards due, questions asked")
    p.add_argument("book_id", metavar="BOOK_ID")
    json_flag(p)

    p = sub.add_parser("guide", help="a chapter's study guide: objectives, summary points, key terms, cited")
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


def cmd_practice(lib, args: argparse.Namespace) -> int:

    book = lib.book(args.book_id)
    exercises = find_exercises(lib.study_chunks(book.id))
    if args.answer is not None or args.exercise:
        if not (args.answer is not None and args.exercise):
            raise LanternError("Give both --exercise LABEL and --answer TEXT.")
        exercise = find_exercise(exercises, args.exercise)
        model = _open_model(args)
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
        target = find_exercise(exercises, args.like)
        chosen = exercises_like(exercises, target, k=3)
        header = f"Exercises like {target.label} ({target.source.label}):"
    else:
        scope = parse_chapters(args.chapter)
        chosen = [e for e in exercises if scope is None or e.source.chapter in scope]
        where = f"chapter {args.chapter}" if args.chapter else "the book"
        header = f"{len(chosen)} practice items in {where}" if chosen else \
            f"No exercises found in {where}."
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
        added = lib.add_cards(book.id, extract_cards(scoped_chunks(lib, book.id, scope)), schedule, due)
    cards = [c for c in lib.cards(book.id, due_before=now_iso() if args.due else None)
             if scope is None or c.card.source.chapter in scope]
    lines = [f"{len(cards)} cards ({added} new)"]
    if args.export:
        path = export_cards(cards, args.export, deck_name=f"Lantern: {book.title}", book_id=book.id)
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
    chunks = scoped_chunks(lib, book.id, parse_chapters(args.chapter))
    if not chunks:
        raise LanternError(f"Chapter {args.chapter} has no text in this book." if args.chapter else
                           "This book has no text.")
    n = max(1, args.n)
    model = _open_model(args)
    try:
        run = model_quiz(model, chunks, n, seed=args.seed, progress=_progress) if model is not None else None
    finally:
        if model is not None:
            model.close()
    if run is None or len(run.questions) < n:  # top up from the glossary (always verifiable)
        extra = glossary_quiz(chunks, n - (len(run.questions) if run else 0), seed=args.seed)
        questions = (run.questions if run else ()) + extra.questions
    else:
        questions = run.questions
    if run is not None:
        log.info("quiz: %d kept of %d generated; rejected %s", len(run.questions), run.attempted, dict(run.rejected))
    lines = []
    for i, q in enumerate(questions, 1):
        lines.append(f"{i}. {q.question}")
        lines += [f"   {chr(65 + j)}) {c}" for j, c in enumerate(q.choices)]
        lines.append(f"   answer: {q.answer}  ({q.source.label})\n")
    emit(args, [q.to_json() for q in questions], "\n".join(lines) or "No verifiable questions could be made.")
    return 0


def cmd_guide(lib, args: argparse.Namespace) -> int:

    model = _open_model(args)
    try:
        guide = chapter_guide(lib, args.book_id, str(args.chapter), refresh=args.refresh, model=model,
                              progress=_progress)
    finally:
        if model is not None:
            model.close()
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
