"""Practice for books without exercises, made from what a chapter teaches.

``lesson_practice`` turns a ``ChapterLesson`` into practice items (``Exercise`` records of a generated
kind) whose answer the book states:

* short answer: "What is a dimension vector?" (the book's defining sentence is the model answer) and
  "Complete the book's rule: ... _____ ..." (the blanked term is the answer);
* predict the output: a code example of the book, the output it prints is the answer;
* worked example: the book's example with its printed result (a console session ending in a command).

``check_drill`` compares a student's answer with the book's: outputs token by token (ignoring spacing
and ``[1]`` row labels), terms exactly (up to case and punctuation), definitions by the share of the
book sentence's content words the answer gives.  ``drill_feedback`` cites the page.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from core.models import Citation
from core.study.checking import check_answer
from core.study.grading import grade
from core.study.lesson import ChapterLesson
from core.study.models import Exercise, ExerciseKind, Feedback, SourceRef, Verdict
from core.study.prose import narrative, split_sentences
from core.study.statements import Statement, StatementKind
from core.study.text import content_words, contains_answer, loose, round_robin

MAX_ITEMS = 16
_LABELS = re.compile(r"^(?P<chapter>[^.\s]+(?:\.[^.\s]+)*)\.(?P<kind>[QPW])(?P<n>\d+)$")


def _is_ident(term: str) -> bool:
    return bool(re.search(r"^[\w.:]+\(\)$|`|%|_", term))


# A head word with one of these endings names an activity, a doctrine or a quality, which takes no "a"/"an"
# (learning, behaviorism, validity, kinetics, psychology); endings such as -tion or -ment are as often countable
# ("a reaction", "an element"), so they keep theirs.
_MASS_NOUN = re.compile(r"(?:ing|ism|ness|ity|ics|ogy)$")


# "a vector", "each vector": counted; "the energy", "its energy": determined, which says nothing either way.
# Either may have one word between it and the term ("an attractive model", "the live model").
_COUNTING = re.compile(r"\b(?:a|an|each|every|one|another)\s+(?:[\w-]+\s+)?$")
_DETERMINED = re.compile(r"\b(?:the|this|that|these|those|its|their|our|his|her|your|my|whose|which|what)\s+"
                         r"(?:[\w-]+\s+)?$")


def uses_bare(term: str, text: str) -> bool:
    """Does ``text`` (the chapter's sentences) use ``term`` as a mass noun: at least once with no article at all
    ("In continuous reinforcement, …", "Energy is conserved") and never after "a", "an" or another word that
    counts it?  ("the electromagnetic spectrum" alone decides nothing: a countable thing, named once.)"""
    before = [text[max(0, m.start() - 30):m.start()].lower()
              for m in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])(?!\s*:)", text, re.I)]  # "model: …" labels
    return not any(_COUNTING.search(b) for b in before) and any(not _DETERMINED.search(b) for b in before)


def _question(s: Statement, usage: str = "") -> str:
    """The question of a definition item; ``usage``: the chapter's sentences, to see how the book writes the term."""
    term = s.term
    if _is_ident(term):
        return f"What does {term} do? Answer as the book puts it."
    if term == term.lower() and len(term.split()) <= 4 and "(" not in term:
        if term.endswith("s") and not term.endswith(("ss", "sis", "us", "ics", "ous")):
            return f"What are {term}?"
        if _MASS_NOUN.search(term) or uses_bare(term, usage):  # "What is classical conditioning?", not "a …"
            return f"What is {term}?"
        return f"What is {'an' if term[:1] in 'aeiou' else 'a'} {term}?"
    return f"Define “{term}” as the book does."


def _opens(s: Statement) -> bool:
    """A defining sentence that starts with its term ("A vector is ...", "The function sum() ...")."""
    head = loose(s.text.replace("()", ""))[:len(s.term) + 30]
    return loose(s.term.replace("()", "")) in head and not re.match(r"(?i)^(?:the|an?) \w+ is called", s.text)


def _blank(s: Statement) -> str:
    blanked = re.sub(rf"(?i)(?<!\w){re.escape(s.term)}(?!\w)", "_____", s.text)
    return f"Complete the book's statement: “{blanked}”"


def _spread(items: list[tuple[object, Exercise]]) -> list[Exercise]:
    """Round robin over sections so a chapter's practice covers all of it."""
    groups: dict[object, list[Exercise]] = {}
    for key, e in items:
        groups.setdefault(key, []).append(e)
    return round_robin(groups.values())


def lesson_practice(lesson: ChapterLesson, limit: int = MAX_ITEMS) -> list[Exercise]:
    """Practice items of one chapter whose answer the book states (see the module docstring)."""
    made: list[tuple[object, Exercise]] = []
    seen: set[str] = set()
    counters = {"Q": 0, "P": 0, "W": 0}

    def add(tag: str, kind: ExerciseKind, text: str, answer: str, source: SourceRef, term: str = "") -> None:
        key = loose(text)
        if key in seen:
            return
        seen.add(key)
        counters[tag] += 1
        label = f"{lesson.chapter}.{tag}{counters[tag]}"
        made.append((source.section_id, Exercise(f"{source.chunk_id}:{label}", None, label, text, kind, source,
                                                 answer, source, term)))

    for ex in lesson.examples:
        if len(ex.output) > 400:
            continue
        console = ex.code.lstrip().startswith((">", "octave", "gnuplot"))
        said = split_sentences(ex.intro)[-1] if ex.intro and not ex.intro.rstrip().endswith(":") else ""
        context = f" (The book, just before: “{said}”)" if said and len(said) < 300 else ""
        if ex.error:
            text = f"Predict what happens when this code is compiled:{context}\n\n{ex.code}"
        elif console:
            text = f"Work through the book's example: what is printed after the last command?{context}\n\n{ex.code}"
        else:
            text = f"Predict the output of this program:{context}\n\n{ex.code}"
        add("W" if console and ex.code.count("\n") >= 3 else "P", ExerciseKind.WORKED_EXAMPLE if console and
            ex.code.count("\n") >= 3 else ExerciseKind.PREDICT_OUTPUT, text, ex.output, ex.source)
    for w in lesson.worked:
        add("W", ExerciseKind.WORKED_EXAMPLE, f"Rework the book's example:\n\n{w.problem}", w.answer, w.source)
    defined: set[str] = set()
    usage = " ".join(s.text for s in lesson.statements)
    for s in (*lesson.glossary, *lesson.by_kind(StatementKind.DEFINITION)):
        if not (s in lesson.glossary or s.standalone and not narrative(s.text) and _opens(s)):
            continue  # "The resulting explosion is called a supernova." does not say what a supernova is
        if s.term and loose(s.term) not in defined and (s in lesson.glossary or contains_answer(s.text, s.term)):
            defined.add(loose(s.term))
            add("Q", ExerciseKind.SHORT_ANSWER, _question(s, usage), s.text, s.source, s.term)
    for s in lesson.by_kind(StatementKind.RULE, StatementKind.FACT):
        if s.standalone and not narrative(s.text) and s.term and loose(s.term) not in defined and contains_answer(s.text, s.term) \
                and len(s.text) <= 260:
            if "_____" in _blank(s):
                defined.add(loose(s.term))
                add("Q", ExerciseKind.SHORT_ANSWER, _blank(s), s.term, s.source)
    return _spread(made)[:limit]


def find_drill(lesson: ChapterLesson, label: str) -> Exercise | None:
    """The practice item ``label`` ("5.Q3", "5.P1") of the lesson's chapter, or None."""
    return next((e for e in lesson_practice(lesson, limit=10_000) if label in (e.label, e.id)), None)


def drill_chapter(label: str) -> str | None:
    """The chapter a generated item's label names ("5.Q3" -> "5"), or None for other labels."""
    m = _LABELS.match(label.strip())
    return m.group("chapter") if m else None


_ROW_LABEL = re.compile(r"\[\d*,?\d*\]")


def _tokens(text: str) -> list[str]:
    return re.findall(r"[^\s,]+", _ROW_LABEL.sub(" ", text).replace("`", ""))


def check_drill(exercise: Exercise, student: str) -> tuple[Verdict, float]:
    """The student's answer against the book's (see the module docstring): verdict and a 0..1 score."""
    key = exercise.answer or ""
    if not student.strip():
        return Verdict.INCORRECT, 0.0
    if exercise.kind is ExerciseKind.WORKED_EXAMPLE and exercise.text.startswith("Rework"):
        return check_answer(key, student)  # a value: numbers within 2 %
    if exercise.kind in (ExerciseKind.PREDICT_OUTPUT, ExerciseKind.WORKED_EXAMPLE):
        want, got = _tokens(key), _tokens(student)
        if want == got:
            return Verdict.CORRECT, 1.0
        common = sum(min(want.count(t), got.count(t)) for t in set(want))
        f1 = 2 * common / (len(want) + len(got)) if want and got else 0.0
        return (Verdict.PARTLY if f1 >= 0.6 else Verdict.INCORRECT), round(f1, 3)
    if len(key) <= 60 and "_____" in exercise.text:  # a blanked term
        ok = loose(student) == loose(key) or contains_answer(student, key) and len(student) <= 2 * len(key) + 10
        return (Verdict.CORRECT, 1.0) if ok else (Verdict.INCORRECT, 0.0)
    term = exercise.text
    stems = lambda text: {w[:5] for w in content_words(text)}  # noqa: E731
    want = stems(key) - stems(term) - {"book", "answe", "puts"}
    if not want:
        return Verdict.UNCHECKED, 0.0
    share = len(want & stems(student)) / len(want)
    verdict = Verdict.CORRECT if share >= 0.5 else Verdict.PARTLY if share >= 0.25 else Verdict.INCORRECT
    return verdict, round(share, 3)


def _citation(ref: SourceRef, quote: str) -> Citation:
    return Citation(n=1, chunk_id=ref.chunk_id, book_id=ref.book_id, chapter=ref.chapter, section=ref.section,
                    section_title=ref.section_title, page_start=ref.page_start, page_end=ref.page_start,
                    printed_page=ref.printed_page, quote=quote, label=ref.label)


def by_meaning(exercise: Exercise) -> bool:
    """Is this an item whose answer is a sentence of the book in the student's own words (a definition,
    a rule), so that it is graded by meaning (``core.study.grading``) rather than by shared words?"""
    return exercise.kind is ExerciseKind.SHORT_ANSWER and "_____" not in exercise.text and bool(exercise.answer)


def drill_feedback(exercise: Exercise, student: str, *, encode=None, siblings=(), model=None) -> Feedback:
    """Feedback on a generated item: the verdict against the book's answer and that answer, with its page.

    With ``encode`` (the embedding model), a definition or rule in the student's own words is graded by
    meaning against the book's sentence and ``siblings`` ((term, definition) of the chapter's other
    concepts), with the chat ``model``'s judgement when there is one (``core.study.grading.grade``); a wrong or
    partial answer says why: the opposite, another concept, or the words it misses."""
    why = ""
    if encode is not None and by_meaning(exercise) and student.strip():
        graded = grade(exercise.answer or "", student, term=exercise.term, siblings=siblings, encode=encode,
                       model=model)
        verdict, score = graded.verdict, graded.score
        why = " ".join(filter(None, [graded.reason, ("Missing: " + ", ".join(graded.missing) + ".")
                                     if graded.missing and verdict is not Verdict.CORRECT else ""]))
    else:
        verdict, score = check_drill(exercise, student)
    ref = exercise.answer_source or exercise.source
    page = ref.printed_page or str(ref.page_start)
    head = {Verdict.CORRECT: "Right: your answer agrees with the book.",
            Verdict.PARTLY: "Partly right; compare with the book.",
            Verdict.INCORRECT: "Not quite; here is what the book says.",
            Verdict.UNCHECKED: "Compare your answer with the book."}[verdict]
    if why:
        head = f"{head} {why}"
    answer = exercise.answer or ""
    where = f"{ref.label}" if ref.section_title else f"p. {page}"
    text = f"{head}\nThe book ({where}): {answer} [1]"
    return Feedback(exercise.id, verdict, text, (_citation(ref, answer),), answer, True, score)


def practice_for(exercises: Sequence[Exercise], lessons: Sequence[ChapterLesson]) -> list[Exercise]:
    """A chapter's practice: the book's own exercises first, then items made from its text."""
    out = list(exercises)
    for lesson in lessons:
        out += lesson_practice(lesson)
    return out
