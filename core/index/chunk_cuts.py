"""Where a segment's chunks begin and end: the two pure algorithms of ``core.index.chunker``'s cutting step.

``boundary_similarities`` measures how alike the units either side of every boundary are;
``cut_ranges`` turns those similarities and the units' token counts into chunk ranges (topic valleys
within token limits, with a sentence of overlap).  Both are plain functions of numbers, tested directly.
"""
from __future__ import annotations

import numpy as np


def boundary_similarities(sums: np.ndarray, window: int = 1) -> np.ndarray:
    """Cosine between the ``window`` units before and after each boundary (length ``units - 1``).

    Works in float32 and in slices: a 150-page chapter without headings is one segment of
    thousands of sentences, and one big numpy call would hold the GIL long enough to stall a GUI.
    """
    n = len(sums)
    if n < 2:
        return np.zeros(0, dtype=np.float32)
    sums = np.asarray(sums, dtype=np.float32)
    if window > 1:  # windowed sums via a running total (float32 is ample for cosines)
        csum = np.zeros((n + 1, sums.shape[1]), dtype=np.float32)
        np.cumsum(sums, axis=0, out=csum[1:])
    out = np.empty(n - 1, dtype=np.float32)
    step = 512
    for lo in range(1, n, step):
        b = np.arange(lo, min(lo + step, n))
        if window > 1:
            left = csum[b] - csum[np.maximum(b - window, 0)]
            right = csum[np.minimum(b + window, n)] - csum[b]
        else:
            left, right = sums[b - 1], sums[b]
        num = np.einsum("ij,ij->i", left, right)
        den = np.linalg.norm(left, axis=1) * np.linalg.norm(right, axis=1)
        out[lo - 1:lo - 1 + len(b)] = num / np.maximum(den, 1e-12)
    return out


def cut_ranges(tokens: list[int], sims: np.ndarray, *, budget: int, min_tokens: int, target_tokens: int,
               threshold: float, overlap: int = 1, overlap_max_tokens: int = 60,
               can_overlap: list[bool] | None = None) -> list[tuple[int, int]]:
    """Unit ranges ``[start, end)`` of one segment's chunks; consecutive ranges may overlap.

    ``sims[b - 1]`` is the similarity across the boundary before unit ``b``.  Each chunk fills up
    to ``budget`` tokens (overlap included); it ends at the deepest valley (similarity below
    ``threshold``) once it holds ``min_tokens`` new tokens, else at the boundary that best trades
    low similarity against distance from ``target_tokens``.  A unit larger than ``budget`` is a
    chunk alone.  Up to ``overlap`` overlappable units (each <= ``overlap_max_tokens``) before a
    cut start the next chunk.
    """
    n = len(tokens)
    if n == 0:
        return []
    can_overlap = can_overlap or [True] * n
    cum = np.concatenate([[0], np.cumsum(tokens)])

    def size(a: int, b: int) -> int:
        return int(cum[b] - cum[a])

    if size(0, n) <= budget:
        return [(0, n)]
    ranges: list[tuple[int, int]] = []
    start = fresh = 0
    while fresh < n:
        if size(start, fresh + 1) > budget:
            start = fresh  # overlap does not fit in front of this unit: drop it
        if tokens[fresh] > budget:  # oversized atomic block: a chunk of its own
            ranges.append((fresh, fresh + 1))
            start = fresh = fresh + 1
            continue
        end = fresh + 1
        while end < n and size(start, end + 1) <= budget:
            end += 1
        if end >= n:
            ranges.append((start, n))
            break
        cands = [b for b in range(fresh + 1, end + 1) if size(fresh, b) >= min_tokens] or [end]
        valleys = [b for b in cands if sims[b - 1] < threshold]
        if valleys:
            cut = min(valleys, key=lambda b: float(sims[b - 1]))
        else:
            cut = min(cands, key=lambda b: float(sims[b - 1]) + abs(size(start, b) - target_tokens) / target_tokens)
        ranges.append((start, cut))
        nxt = cut
        while (cut - nxt < overlap and nxt - 1 > fresh and can_overlap[nxt - 1]
               and tokens[nxt - 1] <= overlap_max_tokens):
            nxt -= 1
        start, fresh = nxt, cut
    # A tiny last chunk reads better folded into its predecessor when both fit the budget.
    if len(ranges) >= 2:
        (a0, _), (a1, b1) = ranges[-2], ranges[-1]
        prev_end = ranges[-2][1]
        if size(prev_end, b1) < min_tokens and size(a0, b1) <= budget and a1 <= prev_end:
            ranges[-2:] = [(a0, b1)]
    return ranges
