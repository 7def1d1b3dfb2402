"""Grading a student's own words against the book's answer by meaning, not by shared words.

``grade_meaning(key, answer, term=..., siblings=..., encode=...)`` decides in three steps, most of them
without a threshold:

1. **Polarity.** An answer that moves the other way than the book (increase for decrease, more for less)
   says the opposite: wrong.
2. **Which concept it describes.** The answer is compared (cosine of the embedding model's vectors) with the
   book's answer and with the chapter's other definitions, the concepts a student confuses it with
   (folkways / mores / taboos).  If another one is nearer, the answer describes that concept: wrong, and the
   feedback names it.  Nearest-neighbour needs no threshold.
3. **Enough of the meaning.** The answer must be about as close to the book's answer as a paraphrase is:
   ``MEANING_FLOOR`` (a cosine chosen on ``benchmarks/data/grading``, reported leave one book out by
   ``benchmarks/grading.py``); below it the answer is "partly right" and the feedback lists the book's
   words it is missing.

Pure: ``encode(texts) -> unit vectors`` is passed in (the library's embedding model in the app).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.llm.judge import can_judge, statement_true
from core.retrieval.directions import directions
from core.study.models import Verdict
from core.study.text import content_words

_UP_DOWN = {"up", "down"}  # before/after words are no polarity of a definition ("then" in a paraphrase)

MEANING_FLOOR = 0.375
"""Cosine (all-MiniLM-L6-v2) between an answer and the book's answer from which the meaning is there: chosen on
all five dev books of ``benchmarks/data/grading`` (``benchmarks/grading.py``, which reports each book with the
floor chosen on the other four: 0.375 for four of them, 0.6 for Rust)."""

@dataclass(frozen=True)
class Grade:
    """A verdict with its 0..1 score, what the answer misses, and why (one sentence for the student)."""

    verdict: Verdict
    score: float
    reason: str = ""
    missing: tuple[str, ...] = ()
    confused_with: str = ""  # the sibling concept the answer describes instead


def polarity_conflict(key: str, answer: str) -> bool:
    """Does the answer move the other way than the book (increase for decrease, more for less)?

    A "not" alone decides nothing: students' own words are full of them ("stays the same no matter how much",
    "turns into a gas without melting"). On the grading set, a not-where-the-book-has-none rule caught 9 of the
    40 wrong answers and rejected 8 of the 40 right ones."""
    fam_key, fam_ans = directions(key) & _UP_DOWN, directions(answer) & _UP_DOWN
    return bool(fam_ans) and bool(fam_key) and not (fam_ans & fam_key)


def missing_words(key: str, answer: str, term: str = "", limit: int = 4) -> tuple[str, ...]:
    """The book's content words the answer does not use (first ``limit``, in the book's order)."""
    have = {w[:5] for w in content_words(answer)} | {w[:5] for w in content_words(term)}
    out: list[str] = []
    for w in content_words(key):
        if w[:5] not in have and w not in out and len(w) > 2:
            out.append(w)
    return tuple(out[:limit])


def grade_meaning(key: str, answer: str, *, term: str = "", siblings: Sequence[tuple[str, str]] = (),
                  encode: Callable[[list[str]], np.ndarray], floor: float = MEANING_FLOOR) -> Grade:
    """Grade ``answer`` against the book's ``key`` (the definition of ``term``); ``siblings``: (term, definition)
    of the chapter's other concepts."""
    if not answer.strip():
        return Grade(Verdict.INCORRECT, 0.0, "No answer given.")
    if polarity_conflict(key, answer):
        return Grade(Verdict.INCORRECT, 0.0, "Your answer says the opposite of what the book says.",
                     missing_words(key, answer, term))
    # A sibling is another concept: not the same one under a longer or shorter name ("fusion", "nuclear fusion").
    others = [(t, d) for t, d in siblings if d.strip() and _norm(d) != _norm(key) and not _same_name(t, term)]
    vectors = encode([answer, key] + [d for _, d in others])
    cos = vectors[1:] @ vectors[0]
    to_key = float(cos[0])
    if others:
        best = int(np.argmax(cos[1:]))
        if float(cos[1 + best]) > to_key:
            name = others[best][0]
            return Grade(Verdict.INCORRECT, round(max(to_key, 0.0), 3),
                         f"Your answer describes {name}, not {term or 'this'}.", missing_words(key, answer, term),
                         confused_with=name)
    if to_key >= floor:
        return Grade(Verdict.CORRECT, round(to_key, 3))
    return Grade(Verdict.PARTLY, round(max(to_key, 0.0), 3), "Your answer misses part of the book's meaning.",
                 missing_words(key, answer, term))


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _same_name(a: str, b: str) -> bool:
    """One name is the other with words added ("fusion" / "nuclear fusion"), or they are equal."""
    x, y = f" {_norm(a)} ", f" {_norm(b)} "
    return bool(b.strip()) and (x in y or y in x)


# The chat model is asked whether the student's statement is true according to the book's definition, and its
# probability of "true" is read off (``core.llm.judge``: one prompt evaluation, no sampling, so the
# same answer always gets the same grade).  Of eight wordings tried on ``benchmarks/data/grading`` this one ranked
# right above wrong answers best (AUC .90; the shipped "does it mean the same" .88, a few-shot one .84).  Choosing
# the wording and the floor on four books and grading the fifth: 35 of 40 right answers accepted, 34 of 40 wrong
# ones rejected (``benchmarks/grading.py --model``).
JUDGE_FLOOR = 0.47
"""The judge's probability of "true" from which an answer is right: chosen on all five dev books of
``benchmarks/data/grading`` (every book left out chose 0.47 on the other four)."""


def judge_statement(term: str, answer: str) -> str:
    """The student's answer as a statement about the term ("folkways: everyday norms …"), unless it names it."""
    answer = " ".join(answer.split())
    return answer if term and answer.lower().startswith(term.lower()[:6]) else f"{term}: {answer}" if term else answer


def judge_meaning(model, key: str, answer: str, term: str = "") -> float:
    """How likely the chat model finds the student's ``answer`` true according to the book's ``key`` (the
    definition of ``term``): its probability of replying true rather than false (``core.llm.judge``)."""
    return statement_true(model, f"{term}: {key}" if term else key, judge_statement(term, answer), what="definition")


def grade(key: str, answer: str, *, term: str = "", siblings: Sequence[tuple[str, str]] = (),
          encode: Callable[[list[str]], np.ndarray], model=None) -> Grade:
    """The Practice tab's grade of a definition in the student's words: the chat model's judgement when there
    is a model (``judge_meaning`` at ``JUDGE_FLOOR``), else ``grade_meaning``.  An answer the model does not accept
    gets ``grade_meaning``'s reason (another concept, the words it misses) and is at best "partly right".

    The model alone, not after the nearest-concept check: on the grading set that check rejected 9 more right
    answers and 1 more wrong one (``benchmarks/grading.py --model``, session 20)."""
    by_meaning = grade_meaning(key, answer, term=term, siblings=siblings, encode=encode)
    if not can_judge(model) or not answer.strip():
        return by_meaning  # no model, or one that cannot give its odds: graded by meaning alone
    if judge_meaning(model, key, answer, term) >= JUDGE_FLOOR:
        return Grade(Verdict.CORRECT, max(by_meaning.score, 0.0))
    if by_meaning.verdict is Verdict.CORRECT:
        return Grade(Verdict.PARTLY, by_meaning.score, "Close, but it does not say quite what the book says.",
                     missing_words(key, answer, term))
    return by_meaning
