"""Generated quizzes whose answers are verified against their source passage.

With the local model, each question is written from one passage through JSON-schema-constrained
generation (``LocalModel.complete_json``: llama.cpp grammar, so the output always parses); without
one, questions come from the book's own glossary and definitions ("Which term is defined as ...?").
Either way ``verify_candidate`` runs on every question, and a question whose keyed answer cannot be
found in its passage (verbatim, or every content word in one sentence) is discarded, never shown.
"""
from __future__ import annotations

import logging
import random
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import LanternError
from core.models import Chunk, ChunkRole
from core.study.cards import extract_cards
from core.study.concepts import term_forms
from core.study.models import QuestionType, QuizQuestion, SourceRef
from core.study.text import contains_answer, content_words, evidence_sentence, is_prose, loose, support

log = logging.getLogger(__name__)

PASSAGE_CHARS = 1400
SEMANTIC_MIN = 1.0  # share of the answer's content words that one passage sentence must hold

QUESTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "minLength": 10, "maxLength": 300},
        "answer": {"type": "string", "minLength": 1, "maxLength": 80},
        "distractors": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 80},
                        "minItems": 3, "maxItems": 3},
    },
    "required": ["question", "answer", "distractors"],
}

ANCHORED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "minLength": 10, "maxLength": 300},
        "distractors": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 60},
                        "minItems": 3, "maxItems": 3},
    },
    "required": ["question", "distractors"],
}
"""Answer-first generation: Lantern picks the answer (a key term printed in the passage) and the
model only writes the question and three wrong answers, so the key is verbatim by construction."""

_SYSTEM = ("You write quiz questions for students from a textbook passage. Ask about one important fact or idea in "
           "the passage. The answer must be a short phrase (1-6 words) copied exactly from the passage. Give three "
           "wrong but plausible answers (distractors) of the same kind. Reply with JSON only.")


@dataclass(frozen=True)
class Verification:
    ok: bool
    reason: str  # "verbatim", "semantic" or why it was rejected
    evidence: str = ""


@dataclass(frozen=True)
class QuizRun:
    """A generated quiz and what generation cost: questions kept, attempts made, rejections by reason."""

    questions: tuple[QuizQuestion, ...]
    attempted: int
    rejected: tuple[tuple[str, int], ...] = ()
    generator: str = "glossary"
    note: str = ""  # why fewer questions than asked (empty when the quiz is complete)
    seconds: float = 0.0


def verify_candidate(question: str, answer: str, distractors: Sequence[str], passage: str, *,
                     semantic: bool = True) -> Verification:
    """Check one generated question against its passage (pure; see the module docstring).

    The keyed answer must be in the passage verbatim (case, punctuation and spacing ignored) or, with
    ``semantic``, have every content word in one passage sentence."""
    q, a = " ".join(question.split()), " ".join(answer.split())
    if len(q) < 12 or len(q) > 400:
        return Verification(False, "bad question")
    if not a or len(a) > 160 or len(a.split()) > 15:
        return Verification(False, "bad answer")
    la = loose(a)
    if la and f" {la} " in f" {loose(q)} ":
        return Verification(False, "answer given away in the question")
    wrong = [loose(d) for d in distractors]
    if len(wrong) != 3 or any(not d for d in wrong) or len(set(wrong)) != 3 or la in wrong:
        return Verification(False, "bad distractors")
    if any(f" {la} " in f" {d} " or f" {d} " in f" {la} " for d in wrong):
        return Verification(False, "ambiguous distractor")  # "potential energy" vs "gravitational potential energy"
    if contains_answer(passage, a):
        return Verification(True, "verbatim", evidence_sentence(passage, a))
    share, sentence = support(passage, a)
    if semantic and share >= SEMANTIC_MIN and len(content_words(a)) >= 1:
        return Verification(True, "semantic", sentence)
    return Verification(False, "answer not in the passage")


def select_passages(chunks: Sequence[Chunk], limit: int, seed: int = 0, terms: Sequence[str] = ()) -> list[Chunk]:
    """Up to ``limit`` passages worth asking about, spread across sections (round robin, seeded);
    within a section, passages naming more of the book's ``terms`` (or key terms) come first."""
    good = [c for c in chunks if c.role in (ChunkRole.CONCEPT, ChunkRole.SUMMARY, ChunkRole.EXAMPLE)
            and is_prose(c) and len(c.text) >= 300 and "[image" not in c.text[:80]]
    loose_terms = [f" {loose(t)} " for t in terms]

    def weight(c: Chunk) -> int:
        if not loose_terms:
            return len(c.key_terms)
        text = f" {loose(c.text)} "
        return sum(1 for t in loose_terms if t in text)

    by_section: dict[object, list[Chunk]] = {}
    for c in good:
        by_section.setdefault(c.section_id, []).append(c)
    rng = random.Random(seed)
    for group in by_section.values():
        group.sort(key=lambda c: (-weight(c), c.ordinal))
        head = group[:3]
        rng.shuffle(head)
        group[:3] = head
    out: list[Chunk] = []
    while len(out) < limit and any(by_section.values()):
        for group in by_section.values():
            if group and len(out) < limit:
                out.append(group.pop(0))
    return out


def _choices(answer: str, distractors: Sequence[str], key: str) -> tuple[str, ...]:
    options = [answer, *distractors]
    random.Random(zlib.crc32(key.encode())).shuffle(options)
    return tuple(" ".join(o.split()) for o in options)


def glossary_quiz(chunks: Sequence[Chunk], n: int, seed: int = 0) -> QuizRun:
    """A model-free quiz from the book's glossary and definitions: each definition asks for its term,
    three other terms of the same chapter are the distractors."""
    cards = extract_cards(chunks)
    by_id = {c.id: c for c in chunks}
    rng = random.Random(seed)
    pool = cards[:]
    rng.shuffle(pool)
    kept: list[QuizQuestion] = []
    rejected: dict[str, int] = {}
    attempted = 0
    for card in pool:
        if len(kept) >= n:
            break
        others = [c for c in cards if c.key != card.key and loose(c.front) not in loose(card.back)]
        same_chapter = [c.front for c in others if c.source.chapter == card.source.chapter]
        if len(same_chapter) < 3:  # a short chapter: distractors from the whole book
            same_chapter = [c.front for c in others]
        if len(same_chapter) < 3:
            continue
        attempted += 1
        distractors = rng.sample(same_chapter, 3)
        masked = re.sub(re.escape(card.front), "_____", card.back.rstrip(".:"), flags=re.IGNORECASE)
        question = (f"Which term completes the book's definition: “{masked}”?" if masked != card.back.rstrip(".:")
                    else f"Which term does the book define as: “{card.back.rstrip('.:')}”?")
        passage = by_id[card.source.chunk_id].text
        v = verify_candidate(question, card.front, distractors, passage)
        if not v.ok:
            rejected[v.reason] = rejected.get(v.reason, 0) + 1
            continue
        kept.append(QuizQuestion(question, _choices(card.front, distractors, question), " ".join(card.front.split()),
                                 card.source, passage, v.evidence or card.quote, QuestionType.MULTIPLE_CHOICE,
                                 "glossary"))
    return QuizRun(tuple(kept), attempted, tuple(sorted(rejected.items())), "glossary")


def _prompt(passage: str) -> list[Mapping[str, str]]:
    user = (f"Passage:\n\"\"\"\n{passage}\n\"\"\"\n\nWrite one multiple-choice question about this passage as JSON: "
            '{"question": "...?", "answer": "<short phrase copied from the passage>", '
            '"distractors": ["<wrong>", "<wrong>", "<wrong>"]}')
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def _anchored_prompt(passage: str, term: str, sentence: str) -> list[Mapping[str, str]]:
    user = (f"Passage:\n\"\"\"\n{passage}\n\"\"\"\n\nWrite one multiple-choice question whose correct answer is "
            f"\"{term}\". Base it on this sentence of the passage: \"{sentence}\". The question must not contain "
            f"the words \"{term}\". Also give three wrong answers of the same kind. JSON: "
            '{"question": "...?", "distractors": ["<wrong>", "<wrong>", "<wrong>"]}')
    return [{"role": "system", "content": _SYSTEM_ANCHORED}, {"role": "user", "content": user}]


_SYSTEM_ANCHORED = ("You write quiz questions for students from a textbook passage. You are given the correct answer; "
                    "write a clear question that the passage answers with it, and three plausible wrong answers. "
                    "Reply with JSON only.")


def anchor_term(passage: str, terms: Sequence[str], used: set[str], text: str = "") -> tuple[str, str] | None:
    """The first of ``terms`` (the book's glossary terms, longest first) printed in ``passage`` and not
    asked before, with the sentence that holds it (looked up in ``text``, the chunk with its paragraph
    breaks, when given); or None."""
    lp = f" {loose(passage)} "
    for term in terms:
        t = " ".join(term.split())
        lt = loose(t)
        if len(lt) < 3 or lt in used or f" {lt} " not in lp:
            continue
        sentence = " ".join(evidence_sentence(text or passage, t).split())
        if sentence and 30 <= len(sentence) <= 500 and loose(sentence) != lt and contains_answer(passage, sentence):
            clean = _FIGURE.sub("", sentence).strip()  # figure markers the importer left in the text
            if contains_answer(clean, t) and len(clean) >= 30:
                return t, clean
    return None


def book_terms(chunks: Sequence[Chunk]) -> list[str]:
    """The book's own key terms (glossary entries and marked definitions), longest first."""
    terms = {" ".join(c.front.split()) for c in extract_cards(chunks) if len(c.front.split()) <= 6}
    return sorted(terms, key=lambda t: (-len(t.split()), -len(t), t))


_FIGURE = re.compile(r"\[(?:figure|image)[^\]]*\]\s*", re.IGNORECASE)
_NEGATED = re.compile(r"(?i)\b(?:not|except|false|incorrect|untrue|never)\b")
ON_TOPIC_MIN = 0.5


def on_topic(question: str, sentence: str) -> bool:
    """True when at least ``ON_TOPIC_MIN`` of the question's content words (4-letter stems) occur in the
    sentence that holds the keyed answer: a cheap answerability check for model-written questions."""
    stems = lambda text: {w[:4] for w in content_words(text) if w not in _QUESTION_WORDS}  # noqa: E731
    q = stems(question)
    return bool(q) and len(q & stems(sentence)) / len(q) >= ON_TOPIC_MIN


_QUESTION_WORDS = frozenset({"following", "passage", "name", "called", "term", "type", "kind", "primary", "main",
                             "describe", "described", "according", "best"})


_WHAT_IS = re.compile(r"(?i)^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<rest>.+)$")


def asks_to_define(question: str, terms: Sequence[str]) -> bool:
    """True for "What is <a book term> ...?": such a question wants a definition, not a term as its answer."""
    m = _WHAT_IS.match(question)
    if not m:
        return False
    rest = f" {loose(m.group('rest'))} "
    return any(rest.startswith(f" {loose(t)} ") for t in terms)


def cloze(sentence: str, term: str) -> str:
    """``"Fill in the blank: “... _____ ...”"``: the book's sentence with every mention of ``term`` blanked."""
    blanked = re.sub(rf"(?i)(?<!\w){re.escape(term)}(?!\w)", "_____", " ".join(sentence.split()))
    return f"Fill in the blank: “{blanked}”"


def repair_distractors(answer: str, distractors: Sequence[str], terms: Sequence[str], question: str,
                       seed: int = 0) -> list[str]:
    """Drop distractors that are empty, repeated, or overlap the answer; fill up to three from the book's
    other terms (not in the question).  Small models often repeat the answer as a distractor."""
    la, lq = loose(answer), f" {loose(question)} "
    out: list[str] = []
    seen = {la}
    max_words = max(6, 2 * len(answer.split()))
    for d in distractors:
        ld = loose(d)
        if ld and ld not in seen and f" {la} " not in f" {ld} " and f" {ld} " not in f" {la} " and len(d) <= 80 \
                and len(d.split()) <= max_words:
            out.append(" ".join(d.split()))
            seen.add(ld)
    spare = [t for t in terms if loose(t) not in seen and f" {loose(t)} " not in lq
             and la not in loose(t) and loose(t) not in la]
    random.Random(seed).shuffle(spare)
    for t in spare[:max(0, 3 - len(out))]:
        out.append(t)
    return out[:3]


def model_quiz(model, chunks: Sequence[Chunk], n: int, *, attempts: int | None = None, seed: int = 0,
               anchored: bool = True, semantic: bool = False, cloze_fallback: bool = True,
               progress: Callable[[str, int, int], None] | None = None,
               cancel: Callable[[], bool] | None = None) -> QuizRun:
    """Up to ``n`` verified questions written by ``model`` (a ``core.llm.model.LocalModel``), trying at most
    ``attempts`` passages (default 2n).

    ``anchored``: when the passage names one of the book's glossary terms, that term is the answer and
    the model writes the question and distractors (``ANCHORED_SCHEMA``); otherwise (or with
    ``anchored=False``) the model also picks the answer (``QUESTION_SCHEMA``).  Every question goes
    through ``verify_candidate`` (verbatim answers only unless ``semantic``).  When an anchored question
    names its answer, is negated ("which is NOT") or shares too few words with the answer's sentence,
    ``cloze_fallback`` asks that sentence with the term blanked instead.  ``progress(stage, done,
    total)``; ``cancel()`` stops early.
    """
    budget = attempts or 2 * n
    terms = book_terms(chunks) if anchored else []
    passages = select_passages(chunks, budget, seed, terms)
    kept: list[QuizQuestion] = []
    rejected: dict[str, int] = {}
    attempted = 0
    used: set[str] = set()
    name = getattr(model, "display_name", "") or "model"
    for i, chunk in enumerate(passages):
        if len(kept) >= n or (cancel and cancel()):
            break
        if progress:
            progress("quiz", i, len(passages))
        passage = " ".join(chunk.text.split())[:PASSAGE_CHARS]
        anchor = anchor_term(passage, terms, used, chunk.text) if terms else None
        attempted += 1
        try:
            if anchor:
                data = model.complete_json(_anchored_prompt(passage, *anchor), ANCHORED_SCHEMA, max_tokens=200,
                                           temperature=0.3, cancel=cancel)
                if isinstance(data, dict):
                    data["answer"] = anchor[0]
            else:
                data = model.complete_json(_prompt(passage), QUESTION_SCHEMA, max_tokens=200, temperature=0.3,
                                           cancel=cancel)
        except LanternError as exc:  # invalid/cut-off JSON, prompt too long: skip this passage
            log.info("quiz generation skipped a passage: %s", exc)
            rejected["generation failed"] = rejected.get("generation failed", 0) + 1
            continue
        if not isinstance(data, dict):
            rejected["generation failed"] = rejected.get("generation failed", 0) + 1
            continue
        question, answer = str(data.get("question", "")), str(data.get("answer", ""))
        distractors = [str(d) for d in data.get("distractors") or []]
        if anchor:
            distractors = repair_distractors(answer, distractors, terms, question, seed + i)
        v = verify_candidate(question, answer, distractors, passage, semantic=semantic)
        if v.ok and anchor and (_NEGATED.search(question) or not on_topic(question, anchor[1])
                                or asks_to_define(question, terms)):
            v = Verification(False, "question not about the answer's sentence")
        generator = name
        if not v.ok and anchor and cloze_fallback and v.reason in ("answer given away in the question",
                                                                   "question not about the answer's sentence"):
            # The model named the answer in its question: ask the book's own sentence as a cloze instead,
            # keeping the model's (repaired) distractors.
            question = cloze(anchor[1], anchor[0])
            in_sentence = f" {loose(question)} "
            distractors = repair_distractors(answer, [d for d in distractors if f" {loose(d)} " not in in_sentence],
                                             [t for t in terms if f" {loose(t)} " not in in_sentence], question,
                                             seed + i)
            v = verify_candidate(question, answer, distractors, passage, semantic=semantic)
            generator = f"{name} + cloze"
        if not v.ok:
            log.debug("quiz: rejected (%s): %r", v.reason, data)
            rejected[v.reason] = rejected.get(v.reason, 0) + 1
            continue
        answer = " ".join(answer.split())
        used.add(loose(answer))
        kept.append(QuizQuestion(" ".join(question.split()), _choices(answer, distractors, question), answer,
                                 SourceRef.of(chunk), passage, v.evidence, QuestionType.MULTIPLE_CHOICE, generator))
    if progress:
        progress("quiz", len(passages), len(passages))
    return QuizRun(tuple(kept), attempted, tuple(sorted(rejected.items())), name)


def grade(question: QuizQuestion, given: str) -> bool:
    """True when ``given`` (the choice text, or its letter "B" / number "2") is the keyed answer; for an item
    without choices (a term to type), when it names the term (``typed_right``)."""
    g = given.strip()
    if not question.choices:
        return typed_right(g, question.answer)
    if len(g) == 1 and g.isalpha() and question.choices:
        idx = ord(g.upper()) - ord("A")
        g = question.choices[idx] if 0 <= idx < len(question.choices) else g
    elif g.isdigit() and question.choices and 1 <= int(g) <= len(question.choices):
        g = question.choices[int(g) - 1]
    return loose(g) == loose(question.answer)


def typed_right(given: str, term: str) -> bool:
    """Does a typed answer name ``term``: any of its forms (``term_forms``: singular, without or only its
    abbreviation), with an article, backticks or one slip of the keyboard (a letter missing, extra, wrong or
    two swapped, in a word of five letters or more) allowed?"""
    def forms(text: str) -> set[str]:
        bare = re.sub(r"^(?:an?|the)\s+", "", text.strip().strip("`").strip(), flags=re.IGNORECASE)
        return term_forms(bare) | term_forms(re.sub(r"`|<[^>]*>", "", bare))  # `HashMap<K, V>` is HashMap

    want, got = forms(term), forms(given)
    if not got - {""}:
        return False
    return bool(want & got) or any(_one_slip(a, b) for a in want for b in got if min(len(a), len(b)) >= 5)


def _one_slip(a: str, b: str) -> bool:
    """At most one letter inserted, deleted or replaced, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (a[i:i + 2] == b[i:i + 2][::-1] and a[i + 2:] == b[i + 2:])
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[i + 1:] == shorter[i:]
