"""Staged import: keyword-searchable first, vectors chapter by chapter, resumable, equal to a one-shot cut."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.errors import ModelUnavailableError
from core.index import staged_import
from core.index.chunker import chunk_book, plan
from core.index.rows import iter_vectors
from core.ingest.read import read_book
from core.library import Library
from core.models import ImportStatus, SearchMode
from tests.fakes import HashingEmbedder

CHAPTER = """# Chapter {n}: {topic}

## {n}.1 Basics of {topic}

{sentences}

## {n}.2 More on {topic}

{more}
"""


def _book(tmp_path: Path) -> Path:
    parts = []
    for n, topic in enumerate(("Cells", "Energy", "Genetics"), start=1):
        sentences = " ".join(f"{topic} fact number {i} concerns the {topic.lower()} of living things." for i in range(30))
        more = " ".join(f"Another {topic.lower()} detail {i} is explained with care here." for i in range(30))
        parts.append(CHAPTER.format(n=n, topic=topic, sentences=sentences, more=more))
    path = tmp_path / "bio.md"
    path.write_text("---\ntitle: Staged Biology\n---\n\n" + "\n".join(parts), encoding="utf-8")
    return path


class FailingEmbedder(HashingEmbedder):
    """Tokenises (so planning works) but cannot run the model."""

    def embed_windows(self, windows, **_):
        raise ModelUnavailableError("The embedding model could not be loaded (simulated).")
        yield  # pragma: no cover  (a generator, as the real one)


@pytest.fixture
def lib(tmp_path: Path):
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as library:
        yield library


def test_a_book_is_keyword_searchable_before_its_vectors_exist(lib: Library, tmp_path: Path):
    seen = []

    def on_searchable(book):
        hits = lib.search("genetics fact", 3, mode=SearchMode.KEYWORD)
        seen.append((book.pending, lib.embedding_share(book.id), lib.vector_index().ntotal, bool(hits),
                     lib.doctor().ok))
    result = lib.import_book(_book(tmp_path), on_searchable=on_searchable)
    assert result.status is ImportStatus.IMPORTED and not result.book.pending
    assert seen == [(True, 0.0, 0, True, True)]  # pending, no vectors, found by keyword, healthy
    assert [name for name, _ in result.timings][:2] == ["read", "searchable"]
    assert lib.embedding_share(result.book.id) == 1.0 and lib.pending_books() == []


def test_the_staged_result_equals_a_one_shot_cut(lib: Library, tmp_path: Path):
    path = _book(tmp_path)
    book = lib.import_book(path).book
    drafts, vectors = chunk_book(read_book(path), HashingEmbedder())
    stored = lib.study_chunks(book.id)
    assert [c.text for c in stored] == [d.text for d in drafts]
    assert [c.ordinal for c in stored] == list(range(len(drafts)))
    held = {int(i): v for ids, m in iter_vectors(lib.reader, lib.embedder.dimension) for i, v in zip(ids, m)}
    assert np.allclose(np.stack([held[c.id] for c in stored]), vectors, atol=1e-6)
    assert lib.vector_index().ntotal == len(drafts) and lib.doctor().ok


def test_a_cancel_after_the_book_is_searchable_keeps_it_and_complete_book_finishes_it(lib: Library, tmp_path: Path):
    path = _book(tmp_path)
    stop = []
    result = lib.import_book(path, progress=lambda stage, d, t: stage == "embedding" and d and stop.append(1),
                             cancel=lambda: bool(stop))
    assert result.status is ImportStatus.SEARCHABLE and result.error_code == "paused"
    assert "keyword" in result.error and result.book.pending
    assert [b.id for b in lib.pending_books()] == [result.book.id]
    assert lib.search("energy detail", 3, mode=SearchMode.KEYWORD) and lib.doctor().ok
    done = lib.complete_book(result.book.id)
    assert not done.pending and lib.embedding_share(done.id) == 1.0
    assert lib.vector_index().ntotal == lib.chunk_count() and lib.doctor().ok


def test_a_model_failure_leaves_the_book_searchable_by_keyword(tmp_path: Path):
    path = _book(tmp_path)
    with Library(tmp_path / "lib", embedder=FailingEmbedder()) as lib:
        result = lib.import_book(path)
        assert result.status is ImportStatus.SEARCHABLE and "could not be loaded" in result.error
        assert lib.search("cells fact", 3, mode=SearchMode.KEYWORD) and lib.doctor().ok
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as lib:  # the next start finishes it
        again = lib.import_book(path)
        assert again.status is ImportStatus.IMPORTED and not again.book.pending


def test_find_on_a_pending_book_gives_hits_the_cosines_coverage_reads(lib: Library, tmp_path: Path):
    cosines = []

    def on_searchable(book):
        hits = lib.find("What is genetics fact number 3 about?", 3, book_id=book.id)
        cosines.extend(dict(h.stage_scores).get("vector") for h in hits)
    lib.import_book(_book(tmp_path), on_searchable=on_searchable)
    assert cosines and all(c is not None and 0 < c <= 1.0001 for c in cosines)


def test_chapter_groups_keep_chapters_apart_and_split_long_ones(tmp_path: Path):
    prep = plan(read_book(_book(tmp_path)), HashingEmbedder())
    everything = list(range(len(prep.segments)))
    groups = staged_import.chapter_groups(prep, everything)
    assert [si for g in groups for si in g] == everything
    assert len(groups) == 3  # one per chapter (each holds two sections)
    tiny = staged_import.chapter_groups(prep, everything, max_tokens=1)
    assert [len(g) for g in tiny] == [1] * len(everything)  # a group never splits a segment


def test_another_library_on_the_same_folder_searches_while_the_book_fills_in(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(staged_import, "GROUP_TOKENS", 1)  # one commit per segment: several moments to look
    root = tmp_path / "lib"
    seen = []
    with Library(root, embedder=HashingEmbedder()) as importer, Library(root, embedder=HashingEmbedder()) as other:
        def look(stage, done, total):
            if stage == "embedding":
                seen.append((bool(other.search("energy detail", 3, mode=SearchMode.KEYWORD)),
                             other.vector_index().ntotal))
        importer.import_book(_book(tmp_path), progress=look)
        assert seen and all(found for found, _ in seen)  # keyword search throughout
        counts = [n for _, n in seen]
        assert counts == sorted(counts) and counts[0] < counts[-1]  # dense search grows chapter by chapter
        assert other.vector_index().ntotal == other.chunk_count() and other.doctor().ok
