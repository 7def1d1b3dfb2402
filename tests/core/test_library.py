"""The Library facade: atomic imports, duplicates, removal, schema and reopen."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from core.index import rows
from core.index import schema as store
from core.errors import BookNotFoundError, LibraryError
from core.library import Library
from core.models import ImportStatus, SectionKind
from tests.fakes import HashingEmbedder as FakeEmbedder

BOOK_MD = """---
title: Tiny Biology
authors: [Ada Reader]
---

# Chapter 1: Cells

## 1.1 What Is a Cell?

A **cell** is the smallest unit of life. Every organism is made of cells.

## 1.2 Membranes

The membrane controls what enters and leaves the cell.

# Chapter 2: Energy

## 2.1 Photosynthesis

Plants turn light into chemical energy.
"""


@pytest.fixture
def book_md(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.md"
    path.write_text(BOOK_MD, encoding="utf-8")
    return path


@pytest.fixture
def lib(tmp_path: Path):
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as library:
        yield library


def test_import_stores_book_tree_pages_and_file(lib: Library, book_md: Path):
    result = lib.import_book(book_md)
    assert result.status is ImportStatus.IMPORTED, result.error
    book = result.book
    assert book.title == "Tiny Biology"
    assert book.authors == ("Ada Reader",)
    assert (book.chapter_count, book.section_count) == (2, 3)
    sections = lib.sections(book.id)
    chapters = [s for s in sections if s.kind is SectionKind.CHAPTER]
    assert [c.number for c in chapters] == ["1", "2"]
    children = [s for s in sections if s.parent_id == chapters[0].id]
    assert [(s.number, s.title) for s in children] == [("1.1", "What Is a Cell?"), ("1.2", "Membranes")]
    assert lib.pages(book.id)[0].index == 1
    stored = lib.book_file(book.id)
    assert stored.read_bytes() == book_md.read_bytes()
    assert stored.parent == lib.root / "books"


def test_same_file_twice_is_a_duplicate(lib: Library, book_md: Path, tmp_path: Path):
    first = lib.import_book(book_md)
    copy = tmp_path / "renamed.md"
    copy.write_bytes(book_md.read_bytes())
    second = lib.import_book(copy)
    assert second.status is ImportStatus.DUPLICATE
    assert second.book.id == first.book.id
    assert len(lib.books()) == 1


def test_book_id_is_content_hash_prefix(lib: Library, book_md: Path):
    import hashlib

    book = lib.import_book(book_md).book
    assert book.id == hashlib.sha256(book_md.read_bytes()).hexdigest()[:16]
    assert lib.book(book.id[:8]).id == book.id  # unique prefixes work like git's


def test_remove_deletes_everything_in_one_go(lib: Library, book_md: Path):
    book = lib.import_book(book_md).book
    stored = lib.book_file(book.id)
    lib.remove(book.id)
    assert lib.books() == []
    assert not stored.exists()
    for table in ("pages", "sections", "blocks"):
        assert lib.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0
    with pytest.raises(BookNotFoundError):
        lib.book(book.id)


def test_failed_import_leaves_library_untouched(lib: Library, tmp_path: Path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    result = lib.import_book(bad)
    assert result.status is ImportStatus.ERROR
    assert result.error and "broken.pdf" in result.error
    assert lib.books() == []
    assert list((lib.root / "books").iterdir()) == []


def test_cancelled_import_leaves_nothing(lib: Library, book_md: Path):
    result = lib.import_book(book_md, cancel=lambda: True)
    assert result.status is ImportStatus.ERROR
    assert result.error_code == "cancelled"
    assert lib.books() == []
    assert list((lib.root / "books").iterdir()) == []


def test_crash_during_insert_rolls_back(lib: Library, book_md: Path, monkeypatch):
    original = rows.insert_book

    def insert_then_fail(*args, **kwargs):
        original(*args, **kwargs)  # every row is written inside the open transaction...
        raise sqlite3.OperationalError("disk I/O error (simulated)")  # ...then the disk fails

    monkeypatch.setattr(rows, "insert_book", insert_then_fail)
    with pytest.raises(sqlite3.OperationalError):
        lib.import_book(book_md)
    assert lib.books() == []
    assert lib.db.execute("SELECT COUNT(*) FROM sections").fetchone()[0] == 0
    assert list((lib.root / "books").iterdir()) == []


def test_reopen_keeps_books_and_schema_version(tmp_path: Path, book_md: Path):
    root = tmp_path / "lib"
    with Library(root, embedder=FakeEmbedder()) as lib:
        book_id = lib.import_book(book_md).book.id
    with Library(root, embedder=FakeEmbedder()) as again:
        assert [b.id for b in again.books()] == [book_id]
        assert again.db.execute("PRAGMA user_version").fetchone()[0] == len(store.MIGRATIONS)
        assert again.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_newer_schema_is_refused(tmp_path: Path):
    root = tmp_path / "lib"
    Library(root).close()
    conn = sqlite3.connect(root / Library.DB_NAME)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(LibraryError, match="newer Lantern"):
        Library(root)


def test_reader_sees_no_half_book_during_import(lib: Library, book_md: Path):
    seen: list[tuple[int, int]] = []
    stop = threading.Event()
    reader = Library(lib.root, embedder=FakeEmbedder())

    def watch():
        while not stop.is_set():
            # one statement = one snapshot, as a search or the GUI would read
            seen.append(reader.db.execute(
                "SELECT (SELECT COUNT(*) FROM books), (SELECT COUNT(*) FROM sections)").fetchone())

    t = threading.Thread(target=watch)
    t.start()
    lib.import_book(book_md)
    stop.set()
    t.join()
    reader.close()
    assert all((b, s) in {(0, 0), (1, 5)} for b, s in seen), set(seen)
