"""Does the book answer this question?  A score from the retrieval signals, and a verdict.

The answer step declines honestly when ``covered`` is False (small local models answer from memory
otherwise) and names ``nearest`` sections instead.  The score is a logistic model over three
signals of the best few hits, fitted on the dev benchmark by ``benchmarks/coverage.py`` (in-book:
each book's own questions; off-book: the other book's questions and a hand-written set of generic
ones).  This module is pure: it reads the hits' stage scores and text only, no model, no database.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.index.fts import term_patterns
from core.models import Hit
from core.retrieval.mentions import Absence, TermKind
from core.retrieval.plan import plan_query

# Fitted by ``benchmarks/coverage.py --fit --evidence`` on all five dev books (2026-11-26): a weighted logistic
# regression of in-book questions (150 per book, asked of their own library exactly as ``Tutor.retrieve`` asks)
# against near-domain questions the books do not answer (``benchmarks/data/offbook``, 40 per book), the other
# books' questions and generic ones; L2 0.1.  The threshold is the highest that declines at most 5 % of any
# book's in-book questions, both as the book asks them and as students reword them
# (``benchmarks/data/paraphrased``, 40 per keyed book).  This decision only declines what it is sure of: the
# rest is decided after the model, from the evidence (``Tutor._finish``: nothing the model wrote is carried by an
# evidence sentence).  Leave one book out, before the model, near-domain declined .525 / .600 / .550 / .650 /
# .550 with in-book .013 / .020 / .007 / .040 / .013 and paraphrased in-book 0 / .075 / 0 / — / 0 (README "Not in
# your book").  The cosines are those of the bundled all-MiniLM-L6-v2: another embedding model needs a refit.
WEIGHTS = {"vector_max": 6.24, "vector_mean": 3.11, "named_absent": -2.39, "rare_word_absent": -0.92,
           "word_absent": -0.65, "phrase_absent_share": -1.86, "evidence_best": 7.21, "evidence_top": -1.73,
           "evidence_terms": -0.53}
BIAS = -6.13
DEFAULT_THRESHOLD = 0.055
TOP_HITS = 5  # the signals look at this many best hits (what an answer cites)


@dataclass(frozen=True)
class CoverageSignals:
    """The retrieval signals the score is computed from (exposed for ``--explain`` and the benchmark).

    ``vector_max`` / ``vector_mean``: best and mean question-chunk cosine over the top hits (0 for a
    hit the vector search did not return); ``term_coverage``: share of the question's content words
    found in the top hits' text, titles or key terms.
    """

    vector_max: float = 0.0
    vector_mean: float = 0.0
    term_coverage: float = 0.0
    named_absent: float = 0.0  # 1: it names a specific term (code, name, acronym, quote) the books never mention
    rare_word_absent: float = 0.0  # 1: ... a rare word (several word pieces) the books never use
    word_absent: float = 0.0  # 1: one of its content words (five letters or more) occurs nowhere in the books
    phrase_absent_share: float = 0.0  # its content-word pairs the books never put together, as a share
    # Of the single sentences the answer would be read from (``core.answer.evidence.evidence_signals``):
    evidence_best: float = 0.0  # the highest question-sentence cosine
    evidence_top: float = 0.0  # the mean of the three highest
    evidence_terms: float = 0.0  # the share of the question's content words those three sentences hold


@dataclass(frozen=True)
class Coverage:
    """How well the retrieved passages cover a question: ``score`` in [0, 1], higher = better covered.

    ``score`` is calibrated on the dev set: roughly the probability that the book answers the question.
    """

    score: float
    covered: bool
    nearest: tuple[Hit, ...] = ()  # the best hits, one per section, for "the nearest sections are …"
    signals: CoverageSignals = CoverageSignals()
    absent_terms: tuple[str, ...] = ()  # specific terms the question names that the books never mention
    unused: tuple[str, ...] = ()  # what the question names (terms, rare words) that the books never use, covered or not
    unused_words: tuple[str, ...] = ()  # any content word of the question the books never use ("typos")


def _vector_score(hit: Hit) -> float:
    return float(dict(hit.stage_scores).get("vector", 0.0) or 0.0)


def nearest_sections(hits: Sequence[Hit], n: int = 3) -> tuple[Hit, ...]:
    """The first hit of each of the first ``n`` distinct sections, in rank order."""
    seen: set[tuple[str, object]] = set()
    out: list[Hit] = []
    for h in hits:
        key = (h.chunk.book_id, h.chunk.section_id)
        if key not in seen:
            seen.add(key)
            out.append(h)
        if len(out) == n:
            break
    return tuple(out)


def term_coverage(question: str, hits: Sequence[Hit]) -> float:
    """Share of the question's content words that some hit mentions (text, section title, key terms).

    Words are matched with a short inflection ("hypothesis" ~ "hypotheses"); intent cues ("define",
    "quiz") and bare numbers are ignored — a number in an exercise says nothing about the topic.
    """
    terms = [t for t in plan_query(question).key_terms if not t.isdigit()]
    if not terms or not hits:
        return 0.0
    text = " ".join(" ".join((h.chunk.text, h.chunk.section_title, *h.chunk.key_terms)) for h in hits)
    stems = term_patterns(terms)
    return sum(1 for rx in stems if rx.search(text)) / len(stems)


def signals(question: str, hits: Sequence[Hit], *, absence: Absence | None = None,
            top: int = TOP_HITS, evidence: Mapping[str, float] | None = None) -> CoverageSignals:
    """The coverage signals of the best ``top`` hits, of what the books never mention (``absence``) and of the
    evidence sentences (``evidence``: ``evidence_best``, ``evidence_top``, ``evidence_terms``)."""
    a = absence or Absence()
    named = [term for term in a.terms if term.kind != TermKind.RARE]
    missing = {"named_absent": float(bool(named)),
               "rare_word_absent": float(bool(a.rare_words) or len(named) < len(a.terms)),
               "word_absent": float(bool(a.words)),
               "phrase_absent_share": a.phrases_missing / a.phrases if a.phrases else 0.0}
    missing.update({k: float(v) for k, v in (evidence or {}).items()})
    best = list(hits[:top])
    if not best:
        return CoverageSignals(**missing)
    cos = [_vector_score(h) for h in best]
    return CoverageSignals(vector_max=max(cos), vector_mean=sum(cos) / len(cos),
                           term_coverage=term_coverage(question, best), **missing)


def score(sig: CoverageSignals) -> float:
    """The calibrated coverage probability for a set of signals (logistic model, ``WEIGHTS``/``BIAS``)."""
    z = BIAS + sum(w * getattr(sig, name) for name, w in WEIGHTS.items())
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


TOPIC_QUESTION_WORDS = 25  # longer, or more than one sentence: an exercise that sets up its own scenario
_SENTENCE_END = re.compile(r"[.?!](?:\s+|$)")


def topic_terms(question: str, absence: Absence | None) -> tuple[str, ...]:
    """The specific terms (code, names, acronyms, quoted) the books never mention that a short, one-sentence
    question asks about — "What did NANOGrav find …?", "When should I return anyhow::Result …?".  Such a
    question is about something the book does not cover, whatever the passages' cosines say.  A longer
    question or an exercise of several sentences names people, places and programs of its own ("Carson
    enjoys writing …", "Say you are given `wait_all(a, b)` …"), so there a missing name is only a signal."""
    text = question.strip()
    if absence is None or not absence.terms or "```" in text or "\n" in text:
        return ()
    if len(text.split()) > TOPIC_QUESTION_WORDS or len(_SENTENCE_END.findall(text.rstrip(".?! ") + "?")) > 1:
        return ()
    return tuple(t.text for t in absence.terms if t.kind != TermKind.RARE)


def assess(question: str, hits: Sequence[Hit], *, absence: Absence | None = None,
           threshold: float = DEFAULT_THRESHOLD, evidence: Mapping[str, float] | None = None) -> Coverage:
    """Coverage of ``question`` by ``hits`` (as returned by ``Library.find``, best first) and what the books
    never mention (``absence``, from ``core.retrieval.mentions.absence``).  A short question about a
    specific term the books never mention (``topic_terms``) is not covered, whatever the score.

    No hits at all means not covered (score 0).  ``nearest`` names the best sections either way, so
    an answer that declines can still point the student somewhere; ``absent_terms`` names what the
    books never mention when that is part of the reason.
    """
    sig = signals(question, hits, absence=absence, evidence=evidence)
    s = score(sig) if hits else 0.0
    covered = bool(hits) and s >= threshold and not topic_terms(question, absence)
    named = absence.named if absence is not None and not covered else ()
    # Named terms only: an everyday word the student uses and the book does not ("typos") is no absent topic.
    unused = absence.named if absence is not None else ()
    return Coverage(score=s, covered=covered, nearest=nearest_sections(hits), signals=sig, absent_terms=named,
                    unused=unused, unused_words=absence.words if absence is not None else ())


__all__ = ["BIAS", "Coverage", "CoverageSignals", "DEFAULT_THRESHOLD", "TOP_HITS", "TOPIC_QUESTION_WORDS", "WEIGHTS",
           "assess", "nearest_sections", "score", "signals", "term_coverage", "topic_terms"]
