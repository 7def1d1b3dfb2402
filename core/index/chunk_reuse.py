"""Re-importing a changed edition embeds only what changed.

Every chunker segment (a run of one section's blocks) gets a key: a hash of exactly what the
transformer would see for it (its title-prefix and unit token ids, unit kinds, the chunker version,
configuration and model).  Stored chunks remember their segment's key and their unit range.  When a
new import has a segment whose key the library already holds, the chunker takes that segment's cut
ranges and pooled vectors from the stored chunks instead of running the model over it: identical
input gives identical vectors, so the result equals a fresh import, only faster.  Text, pages and
metadata are always rebuilt from the new file.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

StoredRanges = Sequence[tuple[int, int, bytes]]
"""A stored segment's chunks in reading order: (unit_start, unit_end, float32 vector bytes)."""
SegmentLookup = Callable[[str], StoredRanges]


def segment_key(prefix_ids: Sequence[int], units: Sequence[tuple[bool, Sequence[int]]], *, short: bool,
                salt: str) -> str:
    """The key of a segment: ``units`` are (atomic, token ids); ``salt`` names chunker, config and model."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{salt}|{int(short)}|".encode())
    h.update(np.asarray(prefix_ids, dtype=np.int32).tobytes())
    for atomic, ids in units:
        h.update(b"|A" if atomic else b"|T")
        h.update(np.asarray(ids, dtype=np.int32).tobytes())
    return h.hexdigest()


def reusable(rows: StoredRanges, unit_count: int, dimension: int
             ) -> tuple[list[tuple[int, int]], np.ndarray] | None:
    """The first stored copy of a segment as (ranges, vectors), or None if it does not fit this one.

    ``rows`` may hold several copies of the same segment (a book that repeats it): a copy starts
    again at unit 0.  A copy fits when its ranges lie inside the segment, start at its first unit
    and end at its last.
    """
    ranges: list[tuple[int, int]] = []
    vectors: list[np.ndarray] = []
    for a, b, blob in rows:
        if ranges and a == 0:
            break
        vec = np.frombuffer(blob, dtype=np.float32)
        if not (0 <= a < b <= unit_count) or vec.shape != (dimension,):
            return None
        ranges.append((a, b))
        vectors.append(vec)
    if not ranges or ranges[0][0] != 0 or max(b for _, b in ranges) != unit_count:
        return None
    return ranges, np.stack(vectors).astype(np.float32)
