"""The section index (``core.index.sections``): built at import, removed with its book, backfilled by the
migration, checked and repaired by doctor, and read by ``Library.find``'s re-scoring."""
from __future__ import annotations

import numpy as np
import pytest

from core.index import sections as sections_index
from core.index.schema import FTS_TOKENIZER
from core.library import Library
from core.retrieval.rescoring import SignalBlend
from tests.core.answer.test_tutor import BOOK
from tests.fakes import FakeEmbedder


@pytest.fixture
def lib(tmp_path):
    (tmp_path / "bio.md").write_text(BOOK, encoding="utf-8")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as library:
        library.bio = library.import_book(tmp_path / "bio.md").book
        yield library


def _rows(lib, table):
    return lib.reader.execute(f"SELECT book_id, key FROM {table} ORDER BY key").fetchall()


def test_import_stores_one_row_per_section_with_its_text_and_centroid(lib):
    keys = [k for _, k in _rows(lib, "section_fts")]
    assert keys == ["1.1", "1.2", "2.1", "2.2"] and [k for _, k in _rows(lib, "section_vectors")] == keys
    text = lib.reader.execute("SELECT text FROM section_fts WHERE key = '2.1'").fetchone()[0]
    assert "Photosynthesis" in text.splitlines()[0] and "chloroplasts" in text  # headings first, then the text
    blob = lib.reader.execute("SELECT vector FROM section_vectors WHERE key = '2.1'").fetchone()[0]
    vec = np.frombuffer(blob, dtype=np.float32)
    assert vec.shape == (lib.embedder.dimension,) and abs(float(np.linalg.norm(vec)) - 1) < 1e-4


def test_scores_favour_the_section_about_the_question(lib):
    wanted = {(lib.bio.id, k) for k in ("1.1", "2.1", "2.2")}
    qvec = lib.embedder.encode_query("photosynthesis in chloroplasts")
    kw, vec = sections_index.section_scores(lib.reader, "chloroplasts photosynthesis", qvec, wanted)
    assert set(kw) == {(lib.bio.id, "2.1")} and kw[(lib.bio.id, "2.1")] > 0  # 1.2 is not asked for
    assert max(vec, key=vec.get) == (lib.bio.id, "2.1") and len(vec) == 3
    # bm25 over the wanted rows only equals the same section's score in a ranking of every section
    everything = dict(lib.reader.execute("SELECT key, -bm25(section_fts) FROM section_fts WHERE section_fts "
                                         "MATCH '\"chloroplasts\" OR \"photosynthesis\"'").fetchall())
    assert kw[(lib.bio.id, "2.1")] == pytest.approx(everything["2.1"])
    assert sections_index.section_scores(lib.reader, "   ", qvec, wanted)[0] == {}
    assert sections_index.section_scores(lib.reader, "x", qvec, set()) == ({}, {})


def test_removing_the_book_removes_its_section_rows(lib):
    lib.remove(lib.bio.id)
    assert _rows(lib, "section_fts") == [] and _rows(lib, "section_vectors") == []


def test_find_adds_section_scores_and_the_blend_uses_them(lib):
    hits = lib.find("How does photosynthesis work?", 3)
    top = dict(hits[0].stage_scores)
    assert hits[0].chunk.section_number == "2.1"
    assert {"section_keyword", "section_vector", "blend"} <= set(top)
    # a re-scorer that does not read them (weights 0, or a cross-encoder) costs no section lookups
    plain = lib.find("How does photosynthesis work?", 3,
                     reranker=SignalBlend(section_vector_weight=0.0, section_keyword_weight=0.0))
    assert not any(name.startswith("section_") for h in plain for name, _ in h.stage_scores)


def _undo_book_language(db) -> None:
    """The library as migration 9 left it: no book language, a three-column keyword index."""
    for trigger in ("chunks_ai", "chunks_ad", "chunks_au"):
        db.execute(f"DROP TRIGGER {trigger}")
    db.execute("DROP TABLE chunks_fts")
    db.execute("ALTER TABLE chunks DROP COLUMN stems")
    db.execute("ALTER TABLE books DROP COLUMN language")
    db["chunks"].enable_fts(["titles", "key_terms", "text"], create_triggers=True, tokenize=FTS_TOKENIZER)


def test_the_migration_backfills_libraries_made_before_it(tmp_path):
    (tmp_path / "bio.md").write_text(BOOK, encoding="utf-8")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as library:
        library.import_book(tmp_path / "bio.md")
        db = library.db
        db.execute("DROP TRIGGER section_fts_book_removed")
        db.execute("DROP TABLE section_fts")
        db.execute("DROP TABLE section_vectors")
        _undo_book_language(db)  # and what migrations 7 to 10 added
        db.execute("DROP INDEX chunks_role")
        db.execute("DROP INDEX chunks_pending")
        db.execute("ALTER TABLE chunks DROP COLUMN label")
        db.execute("ALTER TABLE chunks DROP COLUMN frame")
        db.execute("ALTER TABLE chunks DROP COLUMN pending")
        db.execute("ALTER TABLE books DROP COLUMN pending")
        db.execute("PRAGMA user_version = 5")  # as written by an earlier release
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as library:
        assert len(_rows(library, "section_vectors")) == 4 and len(_rows(library, "section_fts")) == 4
        assert library.doctor().ok


def test_doctor_finds_and_repairs_a_missing_section_index(lib):
    with lib._writing():
        lib.db.execute("DELETE FROM section_vectors")
        lib.db.execute("DELETE FROM section_fts")
    report = lib.doctor()
    assert [p.code for p in report.problems] == ["section_index_missing"]
    assert lib.doctor(repair=True).repaired and lib.doctor().ok
    assert len(_rows(lib, "section_vectors")) == 4
