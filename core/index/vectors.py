"""The FAISS side of the library: an exact inner-product index keyed by chunk id, plus its manifest.

SQLite holds every vector (the source of truth); the FAISS file is a cache that is rewritten
atomically and rebuilt from SQLite whenever its manifest disagrees with the database.
Only ``core.library`` creates and drives a ``VectorIndex``.
"""
from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import faiss
import numpy as np

from core.errors import ManifestMismatchError

log = logging.getLogger(__name__)

# Single queries are faster single-threaded (OpenMP start-up costs more than a 50k flat scan).
faiss.omp_set_num_threads(1)


@dataclass(frozen=True)
class Manifest:
    """What the vectors were built with; checked every time the index is opened."""

    embedding_model: str
    dimension: int
    chunker_version: str
    count: int = 0
    generation: int = 0  # the library's write generation the file reflects

    def compatible_with(self, other: "Manifest") -> bool:
        return (self.embedding_model, self.dimension, self.chunker_version) == (
            other.embedding_model, other.dimension, other.chunker_version)


class VectorIndex:
    """An ``IndexIDMap2(IndexFlatIP)`` over L2-normalised vectors (so inner product = cosine)."""

    FILE = "vectors.faiss"
    MANIFEST = "manifest.json"

    def __init__(self, folder: Path, expected: Manifest):
        self.folder = folder
        self.expected = expected
        self.manifest = expected
        self._index = self._empty()
        self._lock = threading.RLock()

    def _empty(self) -> faiss.Index:
        return faiss.IndexIDMap2(faiss.IndexFlatIP(self.expected.dimension))

    @property
    def ntotal(self) -> int:
        return int(self._index.ntotal)

    # -- persistence -----------------------------------------------------------------------------
    def read_manifest(self) -> Manifest | None:
        path = self.folder / self.MANIFEST
        try:
            return Manifest(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def load(self, generation: int, count: int) -> bool:
        """Load the saved index if its manifest matches the expected build and the database state.

        Returns False (leaving an empty index) when the caller must rebuild from SQLite.
        Raises ``ManifestMismatchError`` when vectors exist from another model or chunker.
        """
        with self._lock:
            saved = self.read_manifest()
            if saved is not None and saved.count and not saved.compatible_with(self.expected):
                raise ManifestMismatchError(
                    f"The library's vectors were built with {saved.embedding_model} "
                    f"({saved.dimension}-d, chunker {saved.chunker_version}) but this Lantern uses "
                    f"{self.expected.embedding_model} ({self.expected.dimension}-d, chunker "
                    f"{self.expected.chunker_version}). Open it with the Lantern that built it, or remove "
                    "the books and import them again.")
            if saved is None or saved.generation != generation or saved.count != count:
                return False
            try:
                index = faiss.read_index(str(self.folder / self.FILE))
            except (RuntimeError, OSError) as exc:
                log.warning("FAISS index unreadable (%s); it will be rebuilt", exc)
                return False
            if index.ntotal != count or index.d != self.expected.dimension:
                return False
            self._index, self.manifest = index, saved
            return True

    def save(self, generation: int) -> None:
        """Write the index and then its manifest, each atomically (temp file + rename)."""
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            # The pid in temp names lets a later open tell a dead writer's leftovers from a live save.
            tmp = self.folder / f"{self.FILE}.{os.getpid()}.tmp"
            faiss.write_index(self._index, str(tmp))
            _fsync_replace(tmp, self.folder / self.FILE)
            self.manifest = Manifest(**{**asdict(self.expected), "count": self.ntotal, "generation": generation})
            mtmp = self.folder / f"{self.MANIFEST}.{os.getpid()}.tmp"
            mtmp.write_text(json.dumps(asdict(self.manifest), indent=2), encoding="utf-8")
            _fsync_replace(mtmp, self.folder / self.MANIFEST)

    def mark(self, generation: int) -> None:
        """Record that the in-memory index matches ``generation`` without writing the file yet (a staged
        import saves every few seconds; a process that reads the stale file rebuilds from SQLite)."""
        with self._lock:
            self.manifest = Manifest(**{**asdict(self.expected), "count": self.ntotal, "generation": generation})

    def load_or_rebuild(self, generation: int, count: int,
                        batches: Callable[[int], Iterable[tuple[np.ndarray, np.ndarray]]]) -> None:
        """``load`` the saved index, or rebuild it from ``batches(dimension)`` (the stored vectors) and save."""
        if not self.load(generation, count):
            log.info("rebuilding the vector index from %d stored vectors", count)
            self.rebuild(batches(self.expected.dimension))
            self.save(generation)

    # -- mutation ----------------------------------------------------------------------------------
    def rebuild(self, batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> None:
        """Replace the index with vectors streamed from SQLite as (ids, matrix) batches."""
        with self._lock:
            index = self._empty()
            for ids, matrix in batches:
                if len(ids):
                    index.add_with_ids(np.ascontiguousarray(matrix, dtype=np.float32), ids.astype(np.int64))
            self._index = index

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        with self._lock:
            if len(ids):
                self._index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32),
                                         np.asarray(ids, dtype=np.int64))

    def ids(self) -> list[int]:
        """The chunk ids the index holds (for consistency checks)."""
        with self._lock:
            return faiss.vector_to_array(self._index.id_map).tolist() if self.ntotal else []

    def remove(self, ids: Sequence[int]) -> None:
        with self._lock:
            if len(ids):
                self._index.remove_ids(np.asarray(ids, dtype=np.int64))

    # -- search --------------------------------------------------------------------------------------
    def search(self, query: np.ndarray, k: int, allowed: Sequence[int] | None = None) -> list[tuple[int, float]]:
        """Top-``k`` (chunk id, cosine) pairs; ``allowed`` restricts the search to those chunk ids."""
        with self._lock:
            if self.ntotal == 0 or k <= 0:
                return []
            q = np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)
            params = None
            if allowed is not None:
                if len(allowed) == 0:
                    return []
                params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(np.asarray(allowed, dtype=np.int64)))
            scores, ids = self._index.search(q, min(k, self.ntotal), params=params)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]


def _fsync_replace(tmp: Path, target: Path) -> None:
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, target)
