"""Searching while an import runs: a reader sees the library before or after the book, never half of it."""
from __future__ import annotations

import threading
from pathlib import Path

from core.library import Library
from core.models import ImportStatus, SearchMode
from tests.core.ingest.pdf.fixtures import sample_book
from tests.desktop.conftest import make_pdf
from tests.fakes import HashingEmbedder
from tests.waiting import HANG_GUARD_S


def test_readers_never_see_a_half_imported_book(tmp_path: Path):
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as lib:
        assert lib.import_book(sample_book(tmp_path / "first.pdf")).status is ImportStatus.IMPORTED
        big = make_pdf(tmp_path / "big.pdf", pages_per_chapter=40, repeat=4)
        done = threading.Event()
        importing = threading.Event()
        seen: list[tuple[int, int, int]] = []
        during: list[tuple[int, int, int]] = []  # reads made while the import was under way
        errors: list[BaseException] = []

        def reader() -> None:
            try:
                while not done.is_set():
                    books = lib.books()
                    counts = {b.id: lib.chunk_count(b.id) for b in books}
                    hits = lib.search("chapter section text", 20, mode=SearchMode.HYBRID)
                    # Listed after the search: the book may have committed between the two reads.
                    visible = {b.id for b in lib.books()}
                    assert {h.chunk.book_id for h in hits} <= visible, "a hit from a book not yet visible"
                    seen.append((len(books), sum(counts.values()), len(hits)))
                    if importing.is_set():
                        during.append(seen[-1])
            except BaseException as exc:  # reported on the main thread
                errors.append(exc)

        paused: set[str] = set()

        def progress(stage: str, done_: int, total: int) -> None:
            # The readers really overlap the import: it waits (at its first progress report, and again
            # when embedding starts, after the book became visible) until they have read the library meanwhile.
            importing.set()
            if stage in ("reading pages", "embedding") and stage not in paused:
                paused.add(stage)
                wanted = len(during) + 3
                while len(during) < wanted and not errors:
                    done.wait(0.001)  # yields the GIL to the readers; no time budget

        threads = [threading.Thread(target=reader) for _ in range(2)]
        for t in threads:
            t.start()
        result = lib.import_book(big, progress)
        done.set()
        for t in threads:
            t.join(HANG_GUARD_S)
        assert not errors, errors
        assert result.status is ImportStatus.IMPORTED
        before = lib.chunk_count() - lib.chunk_count(result.book.id)
        states = {(n, total) for n, total, _ in seen}
        assert states <= {(1, before), (2, lib.chunk_count())}, states
        assert (1, before) in states and len(during) >= 6
        ids = lib.vector_index().ids()
        assert len(ids) == len(set(ids)) == lib.chunk_count(), "no vector indexed twice or missed"
        assert lib.doctor().ok
