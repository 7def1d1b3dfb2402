"""A new edition of a book re-embeds only what changed, and ends up exactly like a fresh import."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from core.index.chunk_reuse import reusable, segment_key
from core.library import Library
from tests.fakes import FakeEmbedder

SECTION = "{title} is a topic of this book. " + " ".join(
    f"Sentence {{n}}.{i} says something specific about {{title}} and its many details." for i in range(12))


def book_md(edition: int) -> str:
    parts = ["---\ntitle: Tiny Physics\n---\n"]
    for ch in range(1, 4):
        parts.append(f"# Chapter {ch}: Part {ch}\n")
        for sec in range(1, 4):
            title = f"Topic {ch}{sec}"
            text = SECTION.format(title=title, n=f"{ch}{sec}")
            if edition == 2 and (ch, sec) == (2, 2):
                text += " The second edition adds this sentence about friction and heat."
            parts.append(f"## {ch}.{sec} {title}\n\n{text}\n")
    return "\n".join(parts)


class CountingEmbedder(FakeEmbedder):
    """Counts the windows the model really runs over."""

    def __init__(self):
        super().__init__()
        self.windows = 0

    def embed_windows(self, windows, **kwargs):
        self.windows += len(windows)
        return super().embed_windows(windows, **kwargs)


def chunks_of(lib: Library, book_id: str):
    ids = [r[0] for r in lib.reader.execute("SELECT id FROM chunks WHERE book_id = ? ORDER BY ordinal", [book_id])]
    vecs = {r[0]: np.frombuffer(r[1], dtype=np.float32) for r in lib.reader.execute(
        "SELECT chunk_id, vector FROM vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE book_id = ?)", [book_id])}
    found = lib.chunks(ids)
    return [(found[i].text, found[i].page_start, found[i].section_title) for i in ids], np.stack([vecs[i] for i in ids])


def test_a_new_edition_embeds_only_the_changed_section(tmp_path: Path):
    v1, v2 = tmp_path / "physics-1.md", tmp_path / "physics-2.md"
    v1.write_text(book_md(1), encoding="utf-8")
    v2.write_text(book_md(2), encoding="utf-8")
    embedder = CountingEmbedder()
    with Library(tmp_path / "lib", embedder=embedder) as lib:
        first = lib.import_book(v1).book
        full = embedder.windows
        embedder.windows = 0
        second = lib.import_book(v2).book
        assert second.id != first.id
        assert 0 < embedder.windows <= full // 4, (embedder.windows, full)  # one section of nine re-embedded
        texts, vectors = chunks_of(lib, second.id)
        assert any("second edition" in t for t, _, _ in texts)
        hits = lib.search("friction and heat", 3, book_id=second.id)
        assert hits and "second edition" in hits[0].chunk.text
        lib.remove(first.id)
        assert lib.doctor().ok
    fresh_embedder = CountingEmbedder()
    with Library(tmp_path / "fresh", embedder=fresh_embedder) as fresh:
        alone = fresh.import_book(v2).book
        fresh_texts, fresh_vectors = chunks_of(fresh, alone.id)
    assert fresh_embedder.windows == full or fresh_embedder.windows > embedder.windows
    assert texts == fresh_texts  # same chunks, pages and sections as importing the new edition alone
    assert np.allclose(vectors, fresh_vectors, atol=1e-6)


def test_segment_key_depends_on_everything_the_model_sees():
    base = segment_key([1, 2], [(False, [3, 4]), (True, [5])], short=False, salt="v1|m")
    assert base == segment_key([1, 2], [(False, [3, 4]), (True, [5])], short=False, salt="v1|m")
    assert base != segment_key([1, 2], [(False, [3, 4, 5])], short=False, salt="v1|m")  # unit boundary moved
    assert base != segment_key([1, 2], [(False, [3, 4]), (False, [5])], short=False, salt="v1|m")
    assert base != segment_key([1], [(False, [3, 4]), (True, [5])], short=False, salt="v1|m")  # other title
    assert base != segment_key([1, 2], [(False, [3, 4]), (True, [5])], short=True, salt="v1|m")
    assert base != segment_key([1, 2], [(False, [3, 4]), (True, [5])], short=False, salt="v2|m")  # new chunker


def test_reusable_takes_one_whole_copy_and_rejects_misfits():
    v = np.ones(4, dtype=np.float32).tobytes()
    rows = [(0, 3, v), (2, 5, v), (0, 3, v), (2, 5, v)]  # a segment stored twice: take the first copy
    ranges, vecs = reusable(rows, 5, 4)
    assert ranges == [(0, 3), (2, 5)] and vecs.shape == (2, 4)
    assert reusable(rows, 6, 4) is None  # does not reach the last unit
    assert reusable([(1, 5, v)], 5, 4) is None  # does not start at the first
    assert reusable([(0, 5, v)], 4, 4) is None  # past the end
    assert reusable([(0, 5, v)], 5, 8) is None  # another model's vectors
    assert reusable([], 5, 4) is None
