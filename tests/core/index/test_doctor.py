"""``Library.doctor`` / ``lantern doctor``: each kind of damage is found, and repaired where it can be."""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import faiss
import numpy as np
import pytest

from core.cli.main import main as cli_main
from core.library import Library
from core.models import SearchMode
from tests.core.ingest.pdf.fixtures import sample_book
from tests.fakes import HashingEmbedder


@pytest.fixture()
def lib(tmp_path: Path):
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as library:
        result = library.import_book(sample_book(tmp_path / "book.pdf"))
        assert result.book is not None
        yield library


def codes(report) -> list[str]:
    return [p.code for p in report.problems]


def test_a_healthy_library_is_ok(lib: Library):
    report = lib.doctor()
    assert report.ok and report.problems == () and report.repaired == ()
    assert set(report.checks) == {"sqlite", "fts", "vectors", "sections", "faiss", "files"}


def test_a_keyword_index_out_of_step_is_found_and_rebuilt(lib: Library):
    (cid,) = lib.db.execute("SELECT id FROM chunks LIMIT 1").fetchone()
    lib.db.execute("DROP TRIGGER chunks_au")  # an update the FTS index never hears about
    lib.db.execute("UPDATE chunks SET text = 'xylophonic zeppelins' WHERE id = ?", [cid])
    assert codes(lib.doctor()) == ["fts_mismatch"]
    report = lib.doctor(repair=True)
    assert report.ok and len(report.repaired) == 1
    hits = lib.search("xylophonic zeppelins", 3, mode=SearchMode.KEYWORD)
    assert hits and hits[0].chunk.id == cid


def test_a_missing_vector_is_re_embedded(lib: Library):
    (cid,) = lib.db.execute("SELECT id FROM chunks LIMIT 1").fetchone()
    lib.db.execute("DELETE FROM vectors WHERE chunk_id = ?", [cid])
    assert "missing_vectors" in codes(lib.doctor())
    assert lib.doctor(repair=True).ok
    assert lib.db.execute("SELECT COUNT(*) FROM vectors WHERE chunk_id = ?", [cid]).fetchone()[0] == 1
    assert cid in lib.vector_index().ids()


def test_a_faiss_file_with_the_wrong_ids_is_rebuilt_from_sqlite(lib: Library):
    index = lib.vector_index()
    ids = index.ids()
    wrong = faiss.IndexIDMap2(faiss.IndexFlatIP(index.expected.dimension))
    wrong.add_with_ids(np.ones((len(ids), index.expected.dimension), dtype=np.float32),
                       np.arange(10_000, 10_000 + len(ids), dtype=np.int64))
    index._index = wrong  # same count and generation: only an id check can tell
    assert codes(lib.doctor()) == ["index_mismatch"]
    assert lib.doctor(repair=True).ok
    assert sorted(lib.vector_index().ids()) == sorted(ids)


def test_orphan_and_missing_files(lib: Library):
    stray = lib.root / "books" / "0123456789abcdef.pdf"
    stray.write_bytes(b"%PDF-1.7 left behind by a removal that was killed")
    assert codes(lib.doctor()) == ["orphan_file"]
    assert lib.doctor(repair=True).ok and not stray.exists()
    book = lib.books()[0]
    lib.book_file(book.id).unlink()
    report = lib.doctor(repair=True)
    assert codes(report) == ["missing_book_file"] and not report.problems[0].repairable
    assert book.title in report.problems[0].message


def test_temp_files_of_a_dead_writer_are_swept_on_open_but_a_live_ones_are_kept(tmp_path: Path):
    root = tmp_path / "lib"
    Library(root, embedder=HashingEmbedder()).close()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    leftover = root / "books" / f"abc.pdf.{dead_pid}.part"
    leftover.write_bytes(b"half a copy")
    live = root / "index" / f"vectors.faiss.{os.getpid()}.tmp"
    live.write_bytes(b"being written")
    with Library(root, embedder=HashingEmbedder()) as library:
        assert not leftover.exists() and live.exists()
        assert library.doctor().ok


def test_cli_doctor_json_and_exit_code(lib: Library, capsys, monkeypatch):
    lib.book_file(lib.books()[0].id).unlink()
    lib.close()
    monkeypatch.setattr("core.cli.main.Library", functools.partial(Library, embedder=HashingEmbedder()))
    rc = cli_main(["--library", str(lib.root), "doctor", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["ok"] is False and out["problems"][0]["code"] == "missing_book_file"
    assert out["repaired"] == []
