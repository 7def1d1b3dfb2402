"""Fusing ranked lists: reciprocal rank fusion of ids and of whole hit lists (a question and its facets), and
the min-max scaling score-level fusion starts from."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from core.models import Hit


def reciprocal_rank_fusion(rankings: Mapping[str, Sequence[int]], *, k: int = 60,
                           weights: Mapping[str, float] | None = None) -> list[tuple[int, float]]:
    """Fuse ranked id lists: score(d) = Σ_r w_r / (k + rank_r(d)), ranks starting at 1.

    ``k`` is explicit because it matters: small k trusts the top of each list more.
    Ties keep the order in which ids were first seen (stable and deterministic).
    """
    scores: dict[int, float] = {}
    for name, ids in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        if w == 0:
            continue
        for rank, doc in enumerate(ids, start=1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


def fuse_hits(rankings: Sequence[Sequence[Hit]], *, k: int = 60, weights: Sequence[float] | None = None
              ) -> list[Hit]:
    """Merge several ranked hit lists (the question and each comparison facet) with RRF.

    A chunk keeps the Hit object of the list where it ranked best; its score becomes the fused one.
    """
    named = {str(i): [h.chunk.id for h in hits] for i, hits in enumerate(rankings)}
    w = {str(i): float(x) for i, x in enumerate(weights)} if weights is not None else None
    best: dict[int, Hit] = {}
    for hits in rankings:
        for h in hits:
            if h.chunk.id not in best or h.rank < best[h.chunk.id].rank:
                best[h.chunk.id] = h
    fused = reciprocal_rank_fusion(named, k=k, weights=w)
    return renumber([replace(best[cid], score=float(score)) for cid, score in fused])


def renumber(hits: Sequence[Hit]) -> list[Hit]:
    """The hits with ranks 1..n in list order (a hit already at its rank is kept as is)."""
    return [h if h.rank == i else replace(h, rank=i) for i, h in enumerate(hits, start=1)]


def minmax(values: Sequence[float | None]) -> np.ndarray:
    """Scale to [0, 1] over the list; a missing value (None/NaN) becomes 0, a constant list all 1."""
    x = np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
    if x.size == 0 or np.all(np.isnan(x)):
        return np.zeros(x.shape)
    lo, hi = np.nanmin(x), np.nanmax(x)
    y = (x - lo) / (hi - lo) if hi > lo else np.where(np.isnan(x), np.nan, 1.0)
    return np.nan_to_num(y, nan=0.0)
