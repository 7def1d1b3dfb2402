"""Practice from the book's own exercises.

``find_exercises`` turns a book's chunks into practice items: numbered exercises ("Exercise 3.14.",
"Problem 2", or "1." lists under an Exercises/Review Questions heading) are split into separate
items, "Check Your Learning"/"Try it" blocks inside the text become items with the answer printed
after them, and an answer key ("Answers to Selected Exercises", "Solutions") is matched to the
exercises by number.  ``exercises_like`` finds practice similar to one exercise ("an exercise like
3.14"); ``feedback`` checks a student's answer against the key (``core.study.checking``) and explains, grounded
in the exercise's section with citations (with the local model when given one, extractive otherwise).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from core.errors import LanternError
from core.models import Chunk, ChunkRole, Citation
from core.study.checking import check_answer
from core.study.drills import by_meaning, drill_feedback
from core.study.lesson import chapter_lesson
from core.study.models import Exercise, ExerciseKind, Feedback, SourceRef, Verdict
from core.study.statements import StatementKind
from core.study.text import Run, content_words, is_prose, normalize, sentences, stitch

log = logging.getLogger(__name__)

MAX_ITEM_CHARS = 1500
_NUMBERED = re.compile(r"(?m)^[ \t]*(?:\*\*)?(?:Exercise|Problem|Question)\s+(?P<num>[A-Z]?\d+(?:\.\d+)*)"
                       r"(?:\*\*)?[.:)]?(?:\*\*)?[ \t]*")
_PLAIN = re.compile(r"(?m)^[ \t]*(?P<num>\d{1,3})[.)][ \t]+(?=\S)")
_CHECK = re.compile(r"(?mi)^[ \t]*(?:\*\*)?(?:check your (?:learning|understanding)|try it(?: yourself)?|your turn)"
                    r"\b[^\n]*$")
_ANSWER = re.compile(r"(?mi)^[ \t]*(?:\*\*)?answers?(?:\*\*)?[ \t]*[:.]?(?:\*\*)?[ \t]*")
# "Answers to Selected Exercises", "Solutions", "Answer Key" -- not "Acids, Bases and Solutions".
_KEY_TITLE = re.compile(r"^\s*(?:appendix\s+\w+\s*[:.\-]?\s*)?(?:answers?|solutions?)\b|\banswers?\s+(?:to|for)\b|"
                        r"\bsolutions?\s+(?:to|for|manual)\b|\banswer key\b", re.IGNORECASE)
_SUB_ITEM = re.compile(r"^\s*\(?[a-h]\)")


def _para_split(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def _clip(text: str) -> str:
    text = text.strip()
    if len(text) <= MAX_ITEM_CHARS:
        return text
    cut = text.rfind("\n\n", 0, MAX_ITEM_CHARS)
    return text[:cut if cut > 200 else MAX_ITEM_CHARS].strip()


def _is_key_run(run: Run) -> bool:
    c = run.spans[0][1]
    # A chapter title counts only for lettered (appendix) chapters: "11 Solutions and Colloids" is not a key.
    return bool(_KEY_TITLE.search(c.section_title or "")
                or (_KEY_TITLE.search(c.chapter_title or "") and not (c.chapter_number or "").isdigit()))


def _numbered_items(run: Run, pattern: re.Pattern[str]) -> list[tuple[str | None, str, Chunk]]:
    """Split a run at item markers: (number, text, chunk where the item starts)."""
    marks = list(pattern.finditer(run.text))
    items = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(run.text)
        body = _clip(run.text[m.end():end])
        if len(body) >= 8:
            items.append((m.group("num"), body, run.chunk_at(m.start())))
    return items


def _checks(run: Run) -> list[tuple[str, str | None, Chunk, Chunk | None]]:
    """"Check Your Learning" blocks: (question, answer or None, question chunk, answer chunk)."""
    out = []
    for m in _CHECK.finditer(run.text):
        rest = run.text[m.end():m.end() + 4000]
        ans = _ANSWER.search(rest)
        nxt = _CHECK.search(rest)
        if ans and (not nxt or ans.start() < nxt.start()) and ans.start() <= MAX_ITEM_CHARS:
            question = rest[:ans.start()]
            paras = _para_split(rest[ans.end():])
            keep = paras[:1]
            for p in paras[1:]:
                if not _SUB_ITEM.match(p) or sum(map(len, keep)) > 600:
                    break
                keep.append(p)
            answer = "\n".join(keep) or None
            answer_chunk = run.chunk_at(m.end() + ans.end()) if answer else None
        else:
            paras = _para_split(rest[:nxt.start()] if nxt else rest)
            keep = []
            for p in paras:
                if keep and (len(p) < 60 and not p.rstrip().endswith((".", "?", ":"))):
                    break  # a heading: the exercise has ended
                keep.append(p)
                if sum(map(len, keep)) > 600:
                    break
            question, answer, answer_chunk = "\n\n".join(keep), None, None
        question = _clip(question)
        if len(question) >= 8:
            out.append((question, answer, run.chunk_at(m.end()), answer_chunk))
    return out


def answer_key(chunks: Sequence[Chunk]) -> dict[str, tuple[str, SourceRef]]:
    """Numbered answers from the book's answer-key sections: number -> (answer text, where)."""
    keys: dict[str, tuple[str, SourceRef]] = {}
    for run in stitch(chunks):
        if _is_key_run(run):
            for num, body, chunk in _numbered_items(run, _NUMBERED) or _numbered_items(run, _PLAIN):
                if num:
                    keys.setdefault(num, (body, SourceRef.of(chunk)))
    return keys


def find_exercises(chunks: Sequence[Chunk]) -> list[Exercise]:
    """All practice items of a book (pass all its chunks in reading order; see the module docstring)."""
    keys = answer_key(chunks)
    found: list[Exercise] = []
    seen: set[str] = set()
    per_section: dict[str, int] = {}

    def add(number: str | None, text: str, kind: ExerciseKind, chunk: Chunk, answer: str | None = None,
            answer_chunk: Chunk | None = None) -> None:
        key = normalize(text)[:300]
        if key in seen:
            return
        seen.add(key)
        where = chunk.section_number or chunk.chapter_number or "?"
        per_section[where] = per_section.get(where, 0) + 1
        label = number or f"{where}#{per_section[where]}"
        answer_ref = SourceRef.of(answer_chunk) if answer_chunk else None
        if answer is None and number and number in keys:
            answer, answer_ref = keys[number]
        found.append(Exercise(f"{chunk.id}:{len(found)}", number, label, text, kind, SourceRef.of(chunk),
                              answer, answer_ref))

    for run in stitch(chunks):
        if _is_key_run(run) or not any(is_prose(c) for _, c in run.spans):  # a caption or table alone
            continue
        check_spans = []
        for question, answer, chunk, answer_chunk in _checks(run):
            add(None, question, ExerciseKind.CHECK, chunk, answer, answer_chunk)
            check_spans.append(normalize(question)[:80])
        items = _numbered_items(run, _NUMBERED)
        exercise_run = any(c.role is ChunkRole.EXERCISE for _, c in run.spans)
        if not items and exercise_run and not check_spans:
            items = _numbered_items(run, _PLAIN)
            if not items and len(run.text) <= MAX_ITEM_CHARS:
                items = [(None, run.text.strip(), run.spans[0][1])]
        for number, body, chunk in items:
            add(number, body, ExerciseKind.EXERCISE, chunk)
    return found


def exercises_by_chapter(exercises: Sequence[Exercise]) -> dict[str, int]:
    """How many exercises each chapter has (chapter number -> count)."""
    counts: dict[str, int] = {}
    for e in exercises:
        counts[e.source.chapter or "?"] = counts.get(e.source.chapter or "?", 0) + 1
    return counts


def find_exercise(exercises: Sequence[Exercise], label: str) -> Exercise:
    """The exercise a student names: "3.14", "Exercise 3.14", "1.5#2" or an exercise id."""
    want = re.sub(r"(?i)^\s*(?:exercise|problem|question)\s+", "", label).strip().rstrip(".")
    for e in exercises:
        if want in (e.number, e.label, e.id):
            return e
    raise LanternError(f"No exercise {label!r} in this book.")


def exercises_like(exercises: Sequence[Exercise], target: Exercise, k: int = 3) -> list[Exercise]:
    """Up to ``k`` other exercises most like ``target``: same chapter, shared content words, same
    section first."""
    want = set(content_words(target.text))

    def score(e: Exercise) -> float:
        have = set(content_words(e.text))
        overlap = len(want & have) / max(1, len(want | have))
        same_section = 0.15 if e.source.section_id == target.source.section_id else 0.0
        return overlap + same_section + (0.05 if e.kind is target.kind else 0.0)

    pool = [e for e in exercises if e.id != target.id and e.source.chapter == target.source.chapter]
    return sorted(pool, key=score, reverse=True)[:k]


def _citation(n: int, chunk: Chunk, quote: str) -> Citation:
    ref = SourceRef.of(chunk)
    return Citation(n=n, chunk_id=chunk.id, book_id=chunk.book_id, chapter=chunk.chapter_number,
                    section=chunk.section_number, section_title=chunk.section_title, page_start=chunk.page_start,
                    page_end=chunk.page_end, printed_page=chunk.printed_page_start, quote=quote,
                    printed_page_end=chunk.printed_page_end, label=ref.label)


def _contains_exercise(chunk: Chunk, exercise: Exercise) -> bool:
    return normalize(exercise.text)[:80] in normalize(chunk.text)


def grounding(lib, exercise: Exercise, k: int = 3) -> list[Chunk]:
    """The passages feedback is grounded in: the explanation just before the exercise in its section
    (for "Check Your Learning" items, the worked example it follows), then the book's passages
    closest to the exercise in its chapter, own section first.  Chunks holding the exercise itself,
    other exercises and answer keys are left out."""
    roles = tuple(r.value for r in (ChunkRole.CONCEPT, ChunkRole.EXAMPLE, ChunkRole.SUMMARY, ChunkRole.GLOSSARY))
    own = lib.chunks([exercise.source.chunk_id]).get(exercise.source.chunk_id)
    chosen: list[Chunk] = []
    if own is not None:
        before = [c for c in lib.neighbour_chunks([own], radius=2)
                  if c.ordinal < own.ordinal and c.section_id == own.section_id and c.role.value in roles
                  and is_prose(c)]  # the explanation, not a figure or table beside it
        chosen += [c for c in before[-1:] if not _contains_exercise(c, exercise)]
    chapters = (exercise.source.chapter,) if exercise.source.chapter else ()
    hits = lib.find(exercise.text[:600], k=k + 3, book_id=exercise.source.book_id, chapters=chapters, roles=roles)
    found = [h.chunk for h in hits if not _contains_exercise(h.chunk, exercise)]
    found.sort(key=lambda c: c.section_id != exercise.source.section_id)  # stable: own section first
    for c in found:
        if len(chosen) < k and all(c.id != x.id for x in chosen):
            chosen.append(c)
    return chosen


def best_quote(text: str, probe: str, exclude: str = "") -> str:
    """The sentence of ``text`` that shares most content words with ``probe`` (prose, not formulas),
    skipping sentences that are part of ``exclude`` (the exercise itself)."""
    want = set(content_words(probe))
    skip = normalize(exclude)
    best, best_score = "", -1.0
    for sentence in sentences(text):
        s = " ".join(sentence.split())
        letters = sum(ch.isalpha() or ch == " " for ch in s) / max(1, len(s))
        if not 30 <= len(s) <= 350 or letters < 0.7 or (skip and normalize(s) in skip):
            continue
        words = content_words(s)
        score = len(want & set(words)) / max(1.0, len(words)) ** 0.5
        if score > best_score:
            best, best_score = s, score
    return best


_SYSTEM = ("You are a patient tutor. A student answered an exercise from their textbook; the answer has already been "
           "checked against the book. Using ONLY the numbered sources, explain in 2-3 short sentences the idea or "
           "step that leads to the right answer. Cite sources as [1], [2]. Do not judge the answer again.")
_CONTRADICTS = re.compile(r"(?i)\b(?:is|are|was) (?:correct|right)\b|\bwell done\b|\bgreat job\b|\bmatches\b")


def feedback(lib, exercise: Exercise, student_answer: str, *, model=None, k: int = 3) -> Feedback:
    """Feedback on ``student_answer``: checked against the book's key when it has one, explained from
    the exercise's section with citations.  ``model``: a ``core.llm.model.LocalModel`` (or None: extractive)."""
    if exercise.kind.generated:  # made from the text: checked against the book's own sentence or output
        if not by_meaning(exercise):
            return drill_feedback(exercise, student_answer)
        return drill_feedback(exercise, student_answer, encode=lib.embedder.encode,
                              siblings=chapter_definitions(lib, exercise.source), model=model)
    verdict, score = (check_answer(exercise.answer, student_answer) if exercise.answer
                      else (Verdict.UNCHECKED, None))
    chunks = grounding(lib, exercise, k)
    probe = f"{exercise.text} {student_answer} {exercise.answer or ''}"
    citations = tuple(_citation(i, c, best_quote(c.text, probe, exercise.text)) for i, c in enumerate(chunks, 1))
    head = {Verdict.CORRECT: "Your answer agrees with the book's answer.",
            Verdict.PARTLY: "Your answer is partly right.",
            Verdict.INCORRECT: "Your answer does not match the book's answer.",
            Verdict.UNCHECKED: "The book prints no answer to this exercise; compare your answer with this:"}[verdict]
    if model is not None:
        try:
            text = _model_feedback(model, exercise, student_answer, chunks, verdict)
            # A small model sometimes overrules the key ("your answer is correct"): keep the checked verdict.
            if text and not (verdict in (Verdict.INCORRECT, Verdict.PARTLY) and _CONTRADICTS.search(text)):
                key = f" The book's answer: {' '.join(exercise.answer.split())}" if exercise.answer else ""
                return Feedback(exercise.id, verdict, f"{head}{key}\n{text}", citations, exercise.answer, False,
                                score)
        except LanternError as exc:  # no model file, prompt too long...: fall back to extractive
            log.warning("feedback without the model: %s", exc)
    lines = [head]
    if exercise.answer:
        lines.append(f"The book's answer: {' '.join(exercise.answer.split())}")
    lines += [f"{c.quote} [{c.n}]" for c in citations if c.quote]
    return Feedback(exercise.id, verdict, "\n".join(lines), citations, exercise.answer, True, score)


def chapter_definitions(lib, ref: SourceRef) -> list[tuple[str, str]]:
    """(term, definition) of every concept the chapter defines: the siblings a student may confuse."""
    if not ref.chapter:
        return []
    lesson = chapter_lesson(lib, ref.book_id, ref.chapter)
    seen: set[str] = set()
    out = []
    for s in (*lesson.glossary, *lesson.by_kind(StatementKind.DEFINITION)):
        if s.term and s.term.lower() not in seen:
            seen.add(s.term.lower())
            out.append((s.term, s.text))
    return out


def _model_feedback(model, exercise: Exercise, student_answer: str, chunks: Sequence[Chunk],
                    verdict: Verdict) -> str:
    sources = "\n\n".join(f"[{i}] {c.section_title}: {' '.join(c.text.split())[:900]}"
                          for i, c in enumerate(chunks, 1))
    key = f"\nThe book's answer: {exercise.answer}" if exercise.answer else ""
    user = (f"Sources:\n{sources}\n\nExercise: {exercise.text}{key}\n\nStudent's answer: {student_answer}\n"
            f"Checked against the book: {verdict.value}.\n\nExplanation:")
    text = model.chat([{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}],
                      max_tokens=220, temperature=0.2)
    return " ".join(text.split())
