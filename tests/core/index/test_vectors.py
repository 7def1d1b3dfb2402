"""FAISS index wrapper: manifest checks, atomic save/load, rebuild, filtered search."""
from __future__ import annotations

import json

import numpy as np
import pytest

from core.errors import ManifestMismatchError
from core.index.vectors import Manifest, VectorIndex

M = Manifest("test-model", 4, "v1")


def unit(rows):
    a = np.asarray(rows, dtype=np.float32)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


def test_search_returns_ids_by_cosine_and_respects_allowed(tmp_path):
    idx = VectorIndex(tmp_path, M)
    idx.add([10, 11, 12], unit([[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]]))
    q = unit([[1, 0.1, 0, 0]])[0]
    assert [i for i, _ in idx.search(q, 3)] == [10, 12, 11]
    assert [i for i, _ in idx.search(q, 3, allowed=[11, 12])] == [12, 11]
    assert idx.search(q, 3, allowed=[]) == []


def test_save_load_roundtrip_and_staleness(tmp_path):
    idx = VectorIndex(tmp_path, M)
    idx.add([1, 2], unit([[1, 0, 0, 0], [0, 1, 0, 0]]))
    idx.save(generation=7)
    assert json.loads((tmp_path / "manifest.json").read_text())["count"] == 2
    again = VectorIndex(tmp_path, M)
    assert again.load(generation=7, count=2)
    assert again.ntotal == 2
    assert not VectorIndex(tmp_path, M).load(generation=8, count=2)  # database moved on: rebuild
    assert not VectorIndex(tmp_path, M).load(generation=7, count=3)
    assert not list(tmp_path.glob("*.tmp"))


def test_other_model_is_refused(tmp_path):
    idx = VectorIndex(tmp_path, M)
    idx.add([1], unit([[1, 0, 0, 0]]))
    idx.save(1)
    with pytest.raises(ManifestMismatchError, match="import them again"):
        VectorIndex(tmp_path, Manifest("other-model", 4, "v1")).load(1, 1)


def test_corrupt_file_means_rebuild(tmp_path):
    idx = VectorIndex(tmp_path, M)
    idx.add([1], unit([[1, 0, 0, 0]]))
    idx.save(1)
    (tmp_path / VectorIndex.FILE).write_bytes(b"garbage")
    assert not VectorIndex(tmp_path, M).load(1, 1)


def test_rebuild_and_remove(tmp_path):
    idx = VectorIndex(tmp_path, M)
    idx.rebuild([(np.array([5, 6]), unit([[1, 0, 0, 0], [0, 0, 1, 0]]))])
    assert idx.ntotal == 2
    idx.remove([5])
    assert [i for i, _ in idx.search(unit([[1, 0, 0, 0]])[0], 5)] == [6]
