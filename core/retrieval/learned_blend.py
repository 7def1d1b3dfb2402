"""Fusion that adapts to the question: a linear re-scorer over the candidates' own evidence, fitted on the
dev books one book left out at a time (``benchmarks/retrieval_books.py --fit``).

Fixed-weight RRF drags the better retriever down when the other is weak (code, paraphrase, a book whose
keyword index matches little).  ``LearnedBlend`` scores each of the best ``top_n`` hybrid candidates from
``candidate_features``: the keyword and vector scores (min-max scaled over the candidates), the fused
rank, the chunk's section signals (``core.index.sections``), the cross-encoder's logit when Lantern's own
re-ranker is installed (``core.retrieval.cross_encoder``), and how far the two retrievers agree on this
question — the agreement multiplies the keyword score, so keyword evidence counts when both lists agree
and fades when keyword search found little that the vector search also found.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from core.models import Hit
from core.retrieval.cross_encoder import OnnxCrossEncoder, passage_text
from core.retrieval.fusion import minmax

log = logging.getLogger(__name__)

FEATURES = ("keyword", "vector", "fused_rank", "section_keyword", "section_vector", "cross_encoder",
            "keyword_x_agreement", "vector_x_disagreement", "keyword_missing")
AGREEMENT_DEPTH = 10


def agreement(hits: Sequence[Hit], depth: int = AGREEMENT_DEPTH) -> float:
    """Share of the vector search's best ``depth`` candidates that keyword search ranked in its best
    ``depth`` too (1 = the retrievers agree, 0 = keyword search found other things)."""
    stages = [dict(h.stage_scores) for h in hits]

    def top(stage: str) -> set[int]:
        scored = [(s[stage], i) for i, s in enumerate(stages) if s.get(stage) is not None]
        return {i for _, i in sorted(scored, reverse=True)[:depth]}
    vec, kw = top("vector"), top("keyword")
    return len(vec & kw) / max(1, min(depth, len(vec)))


def candidate_features(hits: Sequence[Hit]) -> np.ndarray:
    """One row of ``FEATURES`` per hit (the order of ``FEATURES``); scores are scaled over ``hits``."""
    stages = [dict(h.stage_scores) for h in hits]
    kw = minmax([s.get("keyword") for s in stages])
    vec = minmax([s.get("vector") for s in stages])
    agree = agreement(hits)
    columns = {
        "keyword": kw, "vector": vec,
        "fused_rank": 1.0 / np.arange(1, len(hits) + 1),
        "section_keyword": minmax([s.get("section_keyword") for s in stages]),
        "section_vector": minmax([s.get("section_vector") for s in stages]),
        "cross_encoder": minmax([s.get("cross_encoder") for s in stages]),
        "keyword_x_agreement": kw * agree, "vector_x_disagreement": vec * (1 - agree),
        "keyword_missing": np.array([float(s.get("keyword") is None) for s in stages]),
    }
    return np.stack([columns[f] for f in FEATURES], axis=1) if hits else np.zeros((0, len(FEATURES)))


@dataclass
class LearnedBlend:
    """The default re-scorer: ``weights`` over ``candidate_features`` of the best ``top_n`` candidates, with
    the cross-encoder's scores added first when ``cross_encoder`` is set."""

    weights: Mapping[str, float]
    cross_encoder: OnnxCrossEncoder | None = None
    top_n: int = 20
    name: str = "learned"
    uses_section_scores: bool = True
    _vector: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._vector = np.array([float(self.weights.get(f, 0.0)) for f in FEATURES])

    def with_cross_encoder_scores(self, question: str, hits: Sequence[Hit]) -> list[Hit]:
        """``hits`` with the cross-encoder's logit added as the ``cross_encoder`` stage score."""
        if self.cross_encoder is None or not hits:
            return list(hits)
        logits = self.cross_encoder.scores(question, [passage_text(h.chunk) for h in hits])
        return [replace(h, stage_scores=h.stage_scores + (("cross_encoder", float(s)),)) for h, s in zip(hits, logits)]

    def scores(self, question: str, hits: Sequence[Hit]) -> Sequence[float]:
        hits = self.with_cross_encoder_scores(question, hits)
        return candidate_features(hits) @ self._vector


def fit_pairwise(rows: Sequence[tuple[np.ndarray, np.ndarray]], l2: float = 1.0, steps: int = 200) -> np.ndarray:
    """Weights of a linear scorer that ranks gold above non-gold candidates: RankNet-style logistic loss on
    the feature differences of every (gold, non-gold) pair of each question.  ``rows``: per question,
    (features of its candidates, 1/0 gold labels)."""
    diffs, weights = [], []
    for x, y in rows:
        pos, neg = x[y > 0], x[y <= 0]
        if len(pos) and len(neg):
            d = (pos[:, None, :] - neg[None, :, :]).reshape(-1, x.shape[1])
            diffs.append(d)
            weights.append(np.full(len(d), 1.0 / len(d)))  # every question counts the same
    if not diffs:
        return np.zeros(rows[0][0].shape[1] if rows else len(FEATURES))
    d, scale = np.vstack(diffs), np.concatenate(weights)
    w = np.zeros(d.shape[1])
    for _ in range(steps):  # Newton's method on the convex loss
        p = 1 / (1 + np.exp(np.clip(d @ w, -60, 60)))  # P(pair misordered)
        grad = -(d * (scale * p)[:, None]).sum(axis=0) + l2 * w
        hess = (d * (scale * p * (1 - p))[:, None]).T @ d + l2 * np.eye(d.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


__all__ = ["AGREEMENT_DEPTH", "FEATURES", "LearnedBlend", "agreement", "candidate_features", "fit_pairwise"]
