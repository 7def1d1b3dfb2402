"""SQLite schema, migrations and row <-> dataclass mapping.  Only ``core.library`` uses this module.

The database is opened in WAL mode so readers (search, the GUI) never wait for an import.
Schema changes are numbered migrations recorded in ``PRAGMA user_version``.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from core.errors import LibraryError
from core.models import Book, BookId, Page, Section, SectionId, SectionKind, SourceFormat


def _m1_books(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE books (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            authors TEXT NOT NULL DEFAULT '[]',
            source_format TEXT NOT NULL,
            file_name TEXT NOT NULL,
            stored_name TEXT NOT NULL,
            file_hash TEXT NOT NULL UNIQUE,
            file_size INTEGER NOT NULL,
            page_count INTEGER NOT NULL,
            paginated INTEGER NOT NULL,
            metadata TEXT NOT NULL DEFAULT '[]',
            imported_at TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE pages (
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            label TEXT NOT NULL,
            PRIMARY KEY (book_id, idx)
        ) WITHOUT ROWID""")
    db.execute("""
        CREATE TABLE sections (
            id INTEGER PRIMARY KEY,
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            parent_id INTEGER REFERENCES sections(id) ON DELETE CASCADE,
            level INTEGER NOT NULL,
            kind TEXT NOT NULL,
            number TEXT,
            title TEXT NOT NULL,
            page_start INTEGER NOT NULL,
            page_end INTEGER NOT NULL
        )""")
    db.execute("CREATE INDEX sections_book ON sections(book_id, ordinal)")
    db.execute("""
        CREATE TABLE blocks (
            id INTEGER PRIMARY KEY,
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            section_id INTEGER REFERENCES sections(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            page INTEGER NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            emphasis TEXT NOT NULL DEFAULT '[]'
        )""")
    db.execute("CREATE INDEX blocks_book ON blocks(book_id, ordinal)")


def _m2_chunks(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE chunks (
            id INTEGER PRIMARY KEY,
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            section_id INTEGER REFERENCES sections(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            role TEXT NOT NULL,
            page_start INTEGER NOT NULL,
            page_end INTEGER NOT NULL,
            token_count INTEGER NOT NULL,
            chapter_number TEXT,
            chapter_title TEXT NOT NULL DEFAULT '',
            section_number TEXT,
            section_title TEXT NOT NULL DEFAULT '',
            titles TEXT NOT NULL DEFAULT '',
            key_terms TEXT NOT NULL DEFAULT '',
            has_equation INTEGER NOT NULL DEFAULT 0,
            figure_refs TEXT NOT NULL DEFAULT '[]',
            text TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX chunks_book ON chunks(book_id, ordinal)")
    db.execute("CREATE INDEX chunks_section ON chunks(section_id)")
    db.execute("""
        CREATE TABLE vectors (
            chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
            vector BLOB NOT NULL
        )""")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta VALUES ('generation', '0')")
    # Titles and key terms are separate FTS columns so bm25() can weight them above body text.
    db["chunks"].enable_fts(["titles", "key_terms", "text"], create_triggers=True,
                            tokenize="porter unicode61 remove_diacritics 2")


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [_m1_books, _m2_chunks]
"""Append new migrations; never edit a released one.  Index i brings user_version i -> i+1."""


def connect(path: Path) -> sqlite_utils.Database:
    """Open (creating if needed) the library database with WAL, foreign keys and migrations applied."""
    try:
        conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
    except sqlite3.DatabaseError as exc:
        raise LibraryError(f"The library database {path} cannot be opened: {exc}") from exc
    db = sqlite_utils.Database(conn)
    migrate(db)
    return db


def connect_reader(path: Path) -> sqlite_utils.Database:
    """A second connection for reading; with WAL it never sees another connection's open transaction."""
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return sqlite_utils.Database(conn)


def migrate(db: sqlite_utils.Database) -> int:
    """Apply pending migrations, each in its own transaction; return the resulting schema version."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise LibraryError(
            f"This library was written by a newer Lantern (schema {version}); please update Lantern.")
    for number in range(version, len(MIGRATIONS)):
        with transaction(db):
            MIGRATIONS[number](db)
            db.execute(f"PRAGMA user_version = {number + 1}")
    return len(MIGRATIONS)


class transaction:
    """``with transaction(db):`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception."""

    def __init__(self, db: sqlite_utils.Database):
        self.conn = db.conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")


def book_from_row(row: dict, chapter_count: int, section_count: int) -> Book:
    return Book(
        id=BookId(row["id"]),
        title=row["title"],
        source_format=SourceFormat(row["source_format"]),
        file_name=row["file_name"],
        file_hash=row["file_hash"],
        page_count=row["page_count"],
        chapter_count=chapter_count,
        section_count=section_count,
        paginated=bool(row["paginated"]),
        imported_at=row["imported_at"],
        authors=tuple(json.loads(row["authors"])),
        metadata=tuple(tuple(kv) for kv in json.loads(row["metadata"])),
    )


def section_from_row(row: dict, labels: dict[int, str]) -> Section:
    return Section(
        id=SectionId(row["id"]),
        book_id=BookId(row["book_id"]),
        ordinal=row["ordinal"],
        parent_id=SectionId(row["parent_id"]) if row["parent_id"] is not None else None,
        level=row["level"],
        kind=SectionKind(row["kind"]),
        number=row["number"],
        title=row["title"],
        page_start=row["page_start"],
        page_end=row["page_end"],
        printed_page_start=labels.get(row["page_start"], str(row["page_start"])),
    )


def page_from_row(row: dict) -> Page:
    return Page(index=row["idx"], label=row["label"])
