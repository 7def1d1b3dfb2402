"""Conversations stored in the library: schema migration, create/append/list/load/delete."""
from __future__ import annotations

import sqlite3

import pytest

from core.index import schema as store
from core.errors import LibraryError
from core.library import Library
from core.models import Citation, ChunkId, BookId, Turn
from tests.core.test_library import BOOK_MD
from tests.fakes import FakeEmbedder

CITE = Citation(n=1, chunk_id=ChunkId(3), book_id=BookId("abc"), chapter="2", section="2.1",
                section_title="Photosynthesis", page_start=4, page_end=4, printed_page="4",
                quote="Plants turn light into chemical energy.", label="Tiny › Chapter 2 › 2.1, p. 4", support=0.8)


@pytest.fixture
def lib(tmp_path):
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as library:
        yield library


def test_create_append_list_load_delete(lib):
    conv = lib.create_conversation("  What is   photosynthesis? ")
    assert conv.title == "What is photosynthesis?" and conv.turns == () and conv.book_id is None
    t1 = lib.append_turn(conv.id, Turn("What is photosynthesis?", "Light becomes energy [1].", citations=(CITE,)))
    t2 = lib.append_turn(conv.id, Turn("why?", "Plants need sugar [1].", search_question="Why? ...", refused=False))
    assert (t1.ordinal, t2.ordinal) == (0, 1) and t1.created_at
    other = lib.create_conversation("Cells")
    listed = lib.conversations()
    assert [c.id for c in listed][0] in {conv.id, other.id} and {c.turn_count for c in listed} == {2, 0}
    loaded = lib.load_conversation(conv.id)
    assert [t.question for t in loaded.turns] == ["What is photosynthesis?", "why?"]
    assert loaded.turns[0].citations == (CITE,) and loaded.turns[1].search_question == "Why? ..."
    lib.delete_conversation(conv.id)
    assert [c.id for c in lib.conversations()] == [other.id]
    with pytest.raises(LibraryError):
        lib.load_conversation(conv.id)
    with pytest.raises(LibraryError):
        lib.append_turn(conv.id, Turn("q", "a"))


def test_conversation_outlives_its_book(lib, tmp_path):
    path = tmp_path / "tiny.md"
    path.write_text(BOOK_MD, encoding="utf-8")
    book = lib.import_book(path).book
    conv = lib.create_conversation("Cells", book.id)
    assert conv.book_id == book.id and [c.id for c in lib.conversations(book.id)] == [conv.id]
    lib.append_turn(conv.id, Turn("What is a cell?", "The smallest unit of life."))
    lib.remove(book.id)
    kept = lib.load_conversation(conv.id)
    assert kept.book_id is None and kept.turns[0].answer == "The smallest unit of life."


def test_an_older_library_is_migrated(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.close()
    db = store.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS) >= 3
    db.conn.close()
    # a library written at schema 2 (before conversations) gains the tables without losing data
    path2 = tmp_path / "v2.db"
    raw = store.sqlite_utils.Database(sqlite3.connect(path2, isolation_level=None))
    for m in store.MIGRATIONS[:2]:
        m(raw)
    raw.execute("PRAGMA user_version = 2")
    raw.conn.close()
    db = store.connect(path2)
    assert "conversations" in db.table_names() and "turns" in db.table_names()
    db.conn.close()
