"""Does the book answer this question?  A score from the retrieval signals, and a verdict.

The answer step declines honestly when ``covered`` is False (small local models answer from memory
otherwise) and names ``nearest`` sections instead.  The threshold is chosen on the dev benchmark by
``benchmarks/coverage.py``; this module is pure: it reads the hits' stage scores only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from core.models import Hit

# Placeholder calibration until benchmarks/coverage.py picks it on the dev set.
DEFAULT_THRESHOLD = 0.35


@dataclass(frozen=True)
class Coverage:
    """How well the retrieved passages cover a question: ``score`` in [0, 1], higher = better covered."""

    score: float
    covered: bool
    nearest: tuple[Hit, ...] = ()  # the best hits, one per section, for "the nearest sections are …"


def _vector_score(hit: Hit) -> float:
    return dict(hit.stage_scores).get("vector", 0.0) or 0.0


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


def assess(question: str, hits: Sequence[Hit], *, threshold: float = DEFAULT_THRESHOLD) -> Coverage:
    """Coverage of ``question`` by ``hits`` (as returned by ``Library.find``).

    Placeholder signal: the best cosine similarity between question and a retrieved chunk.
    """
    score = max((_vector_score(h) for h in hits), default=0.0)
    score = min(1.0, max(0.0, float(score)))
    return Coverage(score=score, covered=bool(hits) and score >= threshold, nearest=nearest_sections(hits))
