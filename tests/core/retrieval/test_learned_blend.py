"""Fusion that adapts: candidate features, the agreement of the two retrievers, the pairwise fit."""
from __future__ import annotations

import numpy as np

from core.models import Hit
from core.retrieval.learned_blend import FEATURES, LearnedBlend, agreement, candidate_features, fit_pairwise
from tests.core.retrieval.chunks import make_chunk


def hit(i: int, keyword: float | None, vector: float | None) -> Hit:
    stages = tuple((n, v) for n, v in (("keyword", keyword), ("vector", vector)) if v is not None)
    return Hit(rank=i, chunk=make_chunk(i), score=0.0, stage_scores=stages)


def test_agreement_is_the_overlap_of_the_two_top_lists():
    same = [hit(i, 10 - i, 1 - i / 10) for i in range(1, 11)]
    assert agreement(same) == 1.0
    apart = [hit(i, 5.0, None) for i in range(1, 6)] + [hit(i, None, 0.5) for i in range(6, 11)]
    assert agreement(apart) == 0.0


def test_features_are_scaled_over_the_candidates():
    x = candidate_features([hit(1, 8.0, 0.9), hit(2, None, 0.5), hit(3, 2.0, None)])
    col = {f: x[:, i] for i, f in enumerate(FEATURES)}
    assert col["keyword"].tolist() == [1.0, 0.0, 0.0] and col["vector"].tolist() == [1.0, 0.0, 0.0]
    assert col["keyword_missing"].tolist() == [0.0, 1.0, 0.0] and col["cross_encoder"].tolist() == [0, 0, 0]
    assert candidate_features([]).shape == (0, len(FEATURES))


def test_the_fit_learns_which_signal_finds_the_gold():
    rng = np.random.default_rng(1)
    rows = []
    for _ in range(100):
        x = rng.random((10, 3))
        y = np.zeros(10)
        y[np.argmax(x[:, 1])] = 1  # the second signal is the one that matters
        rows.append((x, y))
    w = fit_pairwise(rows)
    assert w[1] > 5 * abs(w[0]) and w[1] > 5 * abs(w[2])


def test_the_blend_ranks_by_its_weights():
    blend = LearnedBlend({"vector": 1.0})
    scores = blend.scores("q", [hit(1, 9.0, 0.1), hit(2, 1.0, 0.9)])
    assert scores[1] > scores[0]
