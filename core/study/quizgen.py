"""Quizzes from a chapter's lesson: every item is checked against the book's sentence before it is shown.

Kinds (``QuestionType``):

* multiple choice, answer first: Lantern picks a statement and its term (the keyed answer, printed in
  the sentence); the chat model writes the question and three wrong answers under a JSON schema
  (``LocalModel.complete_json``).  Kept only when the question does not give the answer away, is not
  negated and is about that sentence, and no wrong answer is printed in the sentence or is a term whose
  own sentence answers the question (such distractors are replaced by other terms of the chapter);
* true/false: the book's own sentence (true), or the model's one-word change of it (false), kept only
  when the change is small and no sentence of the chapter states the changed version; the book's
  sentence is the proof either way;
* code output: "What does this code print?" from the book's code examples whose output it prints; the
  wrong answers change the printed numbers or are other results the chapter shows;
* cloze: the book's sentence with its term blanked, when there is no model (or to fill up).

The items made without a model (concepts, true/false from definitions, clozes, code) are
``core.study.book_items``. ``lesson_quiz`` returns a ``QuizRun`` whose ``note`` says exactly why it has fewer items than asked.
"""
from __future__ import annotations

import json
import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from core.errors import LanternError
from core.study.book_items import CHOICE_TF, _issue, cloze_item, code_item, concept_item, swap_item
from core.study.concepts import sibling_concepts, term_forms
from core.study.lesson import ChapterLesson
from core.study.models import QuestionType, QuizQuestion
from core.study.quiz import ANCHORED_SCHEMA, QuizRun, _choices, _NEGATED, asks_to_define, on_topic, verify_candidate
from core.study.quizchecks import (QUIZ_SYSTEM, askable, is_ident, clause_of, fair_distractors, false_ok, gives_away,
                                   sentence_answers)
from core.study.prose import line_problem
from core.study.statements import Statement, StatementKind
from core.study.text import loose, round_robin

log = logging.getLogger(__name__)

FALSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"false_statement": {"type": "string", "minLength": 10, "maxLength": 420}},
    "required": ["false_statement"],
}
QUIZ_BUDGET_S = 45.0  # the app's model writes items this long; the book's own sentences fill up (a quiz <= 60 s)


def mc_item(model, statement: Statement, lesson: ChapterLesson, seed: int, reasons: dict[str, int]
            ) -> QuizQuestion | None:
    """A model-written multiple-choice question keyed to ``statement.term`` (None when it fails verification)."""
    term, sentence = statement.term, statement.text
    user = (f"Task: question\nSection: \"{statement.source.section_title}\"\nSentence: \"{sentence}\"\n"
            f"Correct answer: \"{term}\"\n" 'JSON: {"question": "...?", "distractors": ["...", "...", "..."]}')
    try:
        data = model.complete_json([{"role": "system", "content": QUIZ_SYSTEM}, {"role": "user", "content": user}],
                                   ANCHORED_SCHEMA, max_tokens=160, temperature=0.3)
    except LanternError as exc:
        log.info("quiz: generation failed: %s", exc)
        _issue(reasons, "generation failed")
        return None
    question = " ".join(str(data.get("question", "")).split()) if isinstance(data, dict) else ""
    offered = [str(d) for d in (data.get("distractors") or [])] if isinstance(data, dict) else []
    log.debug("quiz: model wrote %r %r for %r", question, offered, term)
    if _NEGATED.search(question):
        _issue(reasons, "negated question")
        return None
    if not on_topic(question, clause_of(sentence, term)) or asks_to_define(question, [term]):
        _issue(reasons, "question not about the sentence")
        return None
    if gives_away(question, term):
        _issue(reasons, "answer given away in the question")
        return None
    known = f" {loose(sentence)} {loose(statement.context)} {loose(statement.source.section_title)} {loose(lesson.title)} "
    if any(f" {loose(w)} " not in known for w in re.findall(r"(?<=\s)[A-Z][A-Za-z]{2,}\b", question)):
        _issue(reasons, "question names what the book does not")  # "What function in Python ..." (an R manual)
        return None
    distractors = fair_distractors(term, offered, statement, lesson, question, seed,
                                   siblings=sibling_concepts(statement, lesson.concepts, seed, lesson.kin))
    v = verify_candidate(question, term, distractors, sentence, semantic=False)
    if not v.ok:
        _issue(reasons, v.reason)
        return None
    choices = _choices(term, distractors, question)
    if not sentence_answers(model, sentence, question, choices, term):
        _issue(reasons, "the sentence does not answer it with the key")
        return None
    return QuizQuestion(question, choices, term, statement.source, statement.context,
                        sentence, QuestionType.MULTIPLE_CHOICE, getattr(model, "display_name", "model"),
                        verified="answer printed in the sentence; the sentence picks it among the choices")


def tf_item(model, statement: Statement, lesson: ChapterLesson, truth: bool, reasons: dict[str, int]
            ) -> QuizQuestion | None:
    """True: the book's sentence; false: the model's small change of it, verified (see ``false_ok``)."""
    sentence = statement.text
    text = sentence
    if not truth:
        if model is None:
            return None
        user = f"Task: false\nSentence: \"{sentence}\"\nJSON: {{\"false_statement\": \"...\"}}"
        try:
            data = model.complete_json([{"role": "system", "content": QUIZ_SYSTEM},
                                        {"role": "user", "content": user}], FALSE_SCHEMA, max_tokens=160,
                                       temperature=0.3)
        except LanternError as exc:
            log.info("quiz: generation failed: %s", exc)
            _issue(reasons, "generation failed")
            return None
        text = " ".join(str(data.get("false_statement", "")).split()) if isinstance(data, dict) else ""
        problem = false_ok(sentence, text, lesson)
        if problem:
            _issue(reasons, problem)
            return None
    answer = "True" if truth else "False"
    return QuizQuestion(f"True or false: “{text}”", CHOICE_TF, answer, statement.source, statement.context,
                        sentence, QuestionType.TRUE_FALSE,
                        "book sentence" if truth else getattr(model, "display_name", "model"),
                        verified="the book's sentence" if truth else "changed sentence not stated in the chapter")


def _spread(statements: Sequence[Statement], rng: random.Random) -> list[Statement]:
    """Statements round-robin over sections, best first within each (a little shuffled by the seed)."""
    by_section: dict[object, list[Statement]] = {}
    for s in sorted(statements, key=lambda s: -s.score):
        by_section.setdefault(s.source.section_id, []).append(s)
    for group in by_section.values():
        head = group[:3]
        rng.shuffle(head)
        group[:3] = head
    return round_robin(by_section.values())


def _concepts_first(pool: Sequence[Statement], lesson: ChapterLesson) -> list[Statement]:
    """The pool with statements about the chapter's key concepts first, most central first (stable)."""
    rank = {f: i for i, c in reversed(list(enumerate(lesson.concepts))) for f in term_forms(c.term)}
    return sorted(pool, key=lambda s: min((rank.get(f, len(rank)) for f in term_forms(s.term)), default=len(rank)))


def lesson_quiz(lesson: ChapterLesson, n: int, *, model=None, seed: int = 0,
                progress: Callable[[str, int, int], None] | None = None,
                cancel: Callable[[], bool] | None = None,
                on_item: Callable[[QuizQuestion], None] | None = None,
                budget_s: float | None = None) -> QuizRun:
    """Up to ``n`` verified questions on the chapter (see the module docstring); ``note`` says why fewer.

    No waiting: the first item is a key concept asked from the book's own sentence (no model), and each
    item goes to ``on_item`` as soon as it is verified, so a student answers while the rest are written.
    The model writes items while ``budget_s`` seconds last; the book's sentences fill up the rest."""
    started = time.monotonic()
    rng = random.Random(seed)
    reasons: dict[str, int] = {}
    kept: list[QuizQuestion] = []
    used_terms: set[str] = set()
    shown: list[str] = []  # the sentences the kept items rest on
    attempted = 0
    code_quota = min(len(lesson.examples), max(1, n // 4)) if n >= 2 else 0
    tf_quota = max(1, n // 5) if n >= 3 and model is not None else 0
    pool = _concepts_first(_spread(askable(lesson), rng), lesson)
    spare = _spread([s for s in askable(lesson, strict=False) if s not in pool], rng)
    examples = list(lesson.examples)
    rng.shuffle(examples)

    def tick(stage: str) -> None:
        if progress:
            progress(stage, len(kept), n)

    def keep(item: QuizQuestion, *keys: str) -> None:
        kept.append(item)
        used_terms.update(loose(k) for k in (*keys, item.answer))
        shown.append(loose(item.evidence))
        if on_item:
            on_item(item)

    def fresh(s: Statement) -> bool:
        """Neither its term nor its sentence has been asked yet."""
        text = loose(s.text)
        return not ({loose(s.term), text, loose(s.context)} & used_terms
                    or any(text in e or e in text for e in shown if e))

    def model_time() -> bool:
        return model is not None and (budget_s is None or time.monotonic() - started < budget_s)

    def instant(c: Statement, swap: bool = False) -> QuizQuestion | None:
        """A concept asked from the book's words alone: choices among its siblings, or (``swap``: too few
        of its kind) true or false with its own or another concept's definition."""
        nonlocal attempted
        attempted += 1
        if not swap:
            return concept_item(c, lesson, seed + attempted, reasons)
        return swap_item(c, lesson, rng.random() < 0.4, seed + attempted, reasons) \
            if c.kind is StatementKind.DEFINITION else None

    def stop() -> bool:
        return len(kept) >= n or bool(cancel and cancel())

    def concept_fill(swap: bool, among: Sequence[Statement] = lesson.concepts, upto: int = n) -> None:
        for c in among:
            if stop() or len(kept) >= upto:
                break
            if fresh(c) and (item := instant(c, swap)):
                keep(item, c.term, c.text)

    def cloze_fill(upto: int = n, about: Callable[[Statement], bool] = lambda _s: True, typed: bool = False
                   ) -> None:
        for s in pool + spare:
            if stop() or len(kept) >= upto:
                break
            if fresh(s) and about(s) and (item := cloze_item(s, lesson, seed + attempted, reasons, typed)):
                keep(item, s.term, s.text)

    for swap in (False, True):  # the first item at once: the most central concept the book's words can ask
        concept_fill(swap, lesson.concepts[:12], upto=1)

    def code_items(quota: int) -> None:
        nonlocal attempted
        for ex in examples:
            if sum(q.type is QuestionType.CODE_OUTPUT for q in kept) >= quota or stop():
                break
            if any(q.code == ex.code for q in kept):
                continue
            attempted += 1
            item = code_item(ex, lesson, seed + attempted, reasons)
            if item:
                keep(item)

    code_items(max(code_quota, 1 if not kept else 0))  # no concept to ask at once: a code example is first
    if not kept:  # ... or the book's first sentence about one of its terms: never wait for the model
        cloze_fill(1, typed=True)
    tick("code examples")
    tf_pool = [s for s in pool if s.standalone and s.kind is StatementKind.DEFINITION and s not in lesson.glossary
               and line_problem(s.text) is None and fresh(s)]
    for s in tf_pool[:tf_quota * 3]:
        if sum(q.type is QuestionType.TRUE_FALSE for q in kept) >= tf_quota or stop() or not model_time():
            break
        tick("writing a true/false item")
        attempted += 1
        item = tf_item(model, s, lesson, truth=rng.random() < 0.4, reasons=reasons)
        if item:
            keep(item, s.text)
    budget = 2 * n if model is not None else 0
    for s in pool:  # the model writes the questions while its budget lasts ...
        if stop() or budget <= 0 or not model_time():
            break
        if not fresh(s):
            continue
        budget -= 1
        attempted += 1
        tick("writing a question")
        item = mc_item(model, s, lesson, seed + attempted, reasons)
        if item:
            keep(item, s.term, s.text, s.context)
    concept_fill(swap=False)  # ... then the key concepts in the book's own words, among their siblings ...
    concept_fill(swap=True)  # ... then true or false from the book's definitions (no options to get wrong) ...
    cloze_fill(about=lambda s: bool(term_forms(s.term) & lesson.defined_forms) or is_ident(s.term))  # ... a defined concept
    code_items(n)  # or a code name; a chapter with few concepts but code: the book's examples fill up ...
    cloze_fill(typed=True)  # ... and, last, a concept's sentence with the term to type (no options to offer)
    tick("done")
    cancelled = bool(cancel and cancel())
    return QuizRun(tuple(kept), attempted, tuple(sorted(reasons.items())),
                   getattr(model, "display_name", "") or "book sentences",
                   shortfall(lesson, n, len(kept), pool + spare, cancelled, reasons), round(time.monotonic() - started, 2))


SAVED_QUIZ_VERSION = 1


def saved_quiz_key(scope: str) -> str:
    """The study-cache key of the last verified quiz made for a chapter or exam scope ("3", "3-5")."""
    return f"quiz:v{SAVED_QUIZ_VERSION}:{scope}"


def save_quiz(lib, book_id: str, scope: str, run: QuizRun) -> None:
    """Keep a quiz's verified questions (the latest per scope): the student can take it again, and a course
    pack hands a teacher's quiz on to laptops that need no model to take it."""
    if run.questions:
        questions = [{**q.to_json(), "passage": q.passage} for q in run.questions]
        lib.study_cache_put(book_id, saved_quiz_key(scope), json.dumps(
            {"generator": run.generator, "questions": questions}, ensure_ascii=False))


def saved_quiz(lib, book_id: str, scope: str) -> QuizRun | None:
    """The quiz last saved for ``scope`` (None when there is none, or it is of an older shape)."""
    raw = lib.study_cache_get(book_id, saved_quiz_key(scope))
    if not raw:
        return None
    try:
        data = json.loads(raw)
        questions = tuple(QuizQuestion.from_json(q, book_id) for q in data["questions"])
    except (KeyError, TypeError, ValueError) as exc:
        log.info("saved quiz unreadable: %s", exc)
        return None
    return QuizRun(questions, 0, (), str(data.get("generator", "")))


def shortfall(lesson: ChapterLesson, n: int, got: int, pool: Sequence[Statement], cancelled: bool,
              reasons: dict[str, int]) -> str:
    """Why a quiz has ``got`` of ``n`` questions, in words ("" when complete)."""
    if got >= n:
        return ""
    head = f"{got} of {n} questions: " if got else "No questions: "
    if cancelled:
        return head + "cancelled."
    why = [f"{lesson.size_note}, with {len(pool)} sentence{'s' if len(pool) != 1 else ''} that can be asked about"
           f" and {len(lesson.examples)} code example{'s' if len(lesson.examples) != 1 else ''} with printed output"]
    if reasons:
        why.append("rejected by verification: " + ", ".join(f"{k} ×{v}" for k, v in sorted(reasons.items())))
    return head + "; ".join(why) + "."
