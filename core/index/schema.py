"""The library database: schema, numbered migrations, connections and transactions.  Only ``core.library``
opens it.

The database is opened in WAL mode so readers (search, the GUI) never wait for an import.
Schema changes are numbered migrations recorded in ``PRAGMA user_version``.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from core.errors import LibraryError
from core.index import sections as sections_index
from core.ingest.language import SNOWBALL, book_language, stems


FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
"""The chunk index's tokenizer (migration 2 created it with this; never change a released migration)."""


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
    db["chunks"].enable_fts(["titles", "key_terms", "text"], create_triggers=True, tokenize=FTS_TOKENIZER)


def _m3_conversations(db: sqlite_utils.Database) -> None:
    # A conversation outlives the book it was about (book_id is set NULL on removal): the student's
    # questions and answers stay readable; citations keep their ids but no longer resolve.
    db.execute("""
        CREATE TABLE conversations (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            book_id TEXT REFERENCES books(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            question TEXT NOT NULL,
            search_question TEXT NOT NULL DEFAULT '',
            answer TEXT NOT NULL,
            refused INTEGER NOT NULL DEFAULT 0,
            beyond_book INTEGER NOT NULL DEFAULT 0,
            extractive INTEGER NOT NULL DEFAULT 0,
            citations TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            UNIQUE (conversation_id, ordinal)
        )""")


def _m4_study(db: sqlite_utils.Database) -> None:
    # Study tools (core/study): flashcards with their FSRS state and review log, practice/quiz
    # attempts (progress per section) and a per-book cache of generated material (chapter guides).
    db.execute("""
        CREATE TABLE study_cards (
            id INTEGER PRIMARY KEY,
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            chunk_id INTEGER REFERENCES chunks(id) ON DELETE SET NULL,
            key TEXT NOT NULL,
            front TEXT NOT NULL,
            back TEXT NOT NULL,
            quote TEXT NOT NULL,
            origin TEXT NOT NULL,
            chapter TEXT,
            section_id INTEGER,
            schedule TEXT NOT NULL DEFAULT '{}',
            due TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (book_id, key)
        )""")
    db.execute("CREATE INDEX study_cards_due ON study_cards(book_id, due)")
    db.execute("""
        CREATE TABLE study_reviews (
            id INTEGER PRIMARY KEY,
            card_id INTEGER NOT NULL REFERENCES study_cards(id) ON DELETE CASCADE,
            rating INTEGER NOT NULL,
            reviewed_at TEXT NOT NULL
        )""")
    db.execute("""
        CREATE TABLE study_attempts (
            id INTEGER PRIMARY KEY,
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            item TEXT NOT NULL,
            section_id INTEGER,
            score REAL,
            created_at TEXT NOT NULL
        )""")
    db.execute("CREATE INDEX study_attempts_book ON study_attempts(book_id, section_id)")
    db.execute("""
        CREATE TABLE study_cache (
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (book_id, key)
        ) WITHOUT ROWID""")


def _m5_segment_keys(db: sqlite_utils.Database) -> None:
    """Which chunker segment a chunk came from (``core.index.chunk_reuse``): a new edition of a book reuses
    the vectors of segments whose tokens did not change instead of embedding them again."""
    db.execute("ALTER TABLE chunks ADD COLUMN segment_key TEXT")
    db.execute("ALTER TABLE chunks ADD COLUMN unit_start INTEGER")
    db.execute("ALTER TABLE chunks ADD COLUMN unit_end INTEGER")
    db.execute("CREATE INDEX chunks_segment_key ON chunks(segment_key) WHERE segment_key IS NOT NULL")


def _m6_section_index(db: sqlite_utils.Database) -> None:
    """Section-level keyword text and centroid vectors for re-ranking (``core.index.sections``),
    built for the books already in the library."""
    sections_index.create_tables(db)
    for (book_id,) in db.execute("SELECT id FROM books").fetchall():
        sections_index.index_book(db, book_id)


def _m7_staged_import(db: sqlite_utils.Database) -> None:
    """A book is stored keyword-searchable first and embedded chapter by chapter behind (``core.library``):
    ``books.pending`` until every chunk has its vector, ``chunks.pending`` for a chunk cut by size alone
    that the embedded cut of its segment will replace."""
    db.execute("ALTER TABLE books ADD COLUMN pending INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE chunks ADD COLUMN pending INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX chunks_pending ON chunks(book_id, ordinal) WHERE pending = 1")


def _m8_role_index(db: sqlite_utils.Database) -> None:
    """Role-filtered searches ("an example of ...") list the chunks of a role across the library: from an
    index instead of a scan of every chunk's row (50 ms -> a few ms at 183k chunks)."""
    db.execute("CREATE INDEX chunks_role ON chunks(role)")


def _m9_figure_chunks(db: sqlite_utils.Database) -> None:
    """A figure's caption or a table is a chunk of its own: what the book calls it ("Figure 3.2") and, in a
    PDF, its rectangle on the page as JSON ``[x0, y0, x1, y1]`` ('' when there is none)."""
    db.execute("ALTER TABLE chunks ADD COLUMN label TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE chunks ADD COLUMN frame TEXT NOT NULL DEFAULT ''")


FTS_COLUMNS = ("titles", "key_terms", "text", "stems")
"""The chunk index's columns since migration 10 (``stems``: Snowball stems of a book not in English)."""


def _fts_triggers(columns: tuple[str, ...]) -> list[str]:
    """The triggers that keep ``chunks_fts`` in step with ``chunks`` (as sqlite-utils' ``enable_fts`` writes
    them, so its ``detect_fts`` and the doctor still find the index)."""
    names = ", ".join(f'"{c}"' for c in columns)
    new, old = (", ".join(f'{side}."{c}"' for c in columns) for side in ("new", "old"))
    insert = f'INSERT INTO "chunks_fts" (rowid, {names}) VALUES (new.rowid, {new});'
    delete = f'INSERT INTO "chunks_fts" ("chunks_fts", rowid, {names}) VALUES(\'delete\', old.rowid, {old});'
    return [f'CREATE TRIGGER "chunks_ai" AFTER INSERT ON "chunks" BEGIN\n  {insert}\nEND',
            f'CREATE TRIGGER "chunks_ad" AFTER DELETE ON "chunks" BEGIN\n  {delete}\nEND',
            f'CREATE TRIGGER "chunks_au" AFTER UPDATE ON "chunks" BEGIN\n  {delete}\n  {insert}\nEND']


def _m10_book_language(db: sqlite_utils.Database) -> None:
    """The language a book is written in (``core.ingest.language``), and a keyword column of Snowball stems
    for books not in English (FTS5's porter stems English only).  Books already stored get theirs now."""
    db.execute("ALTER TABLE books ADD COLUMN language TEXT NOT NULL DEFAULT 'en'")
    db.execute("ALTER TABLE chunks ADD COLUMN stems TEXT NOT NULL DEFAULT ''")
    for trigger in ("chunks_ai", "chunks_ad", "chunks_au"):
        db.execute(f'DROP TRIGGER IF EXISTS "{trigger}"')
    db.execute('DROP TABLE IF EXISTS "chunks_fts"')
    for (book_id,) in db.execute("SELECT id FROM books").fetchall():
        texts = [r[0] for r in db.execute("SELECT text FROM blocks WHERE book_id = ? AND kind = 'text' "
                                          "ORDER BY ordinal", [book_id])]
        language = book_language(texts)
        db.execute("UPDATE books SET language = ? WHERE id = ?", [language, book_id])
        if language in SNOWBALL:
            rows = db.execute("SELECT id, titles, key_terms, text FROM chunks WHERE book_id = ?", [book_id])
            db.conn.executemany("UPDATE chunks SET stems = ? WHERE id = ?",
                                [(stems(" ".join(r[1:]), language), r[0]) for r in rows.fetchall()])
    names = ", ".join(f'"{c}"' for c in FTS_COLUMNS)
    db.execute(f'CREATE VIRTUAL TABLE "chunks_fts" USING FTS5 (\n    {names},\n'
               f"    tokenize='{FTS_TOKENIZER}',\n    content=\"chunks\"\n)")
    db.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
    for trigger in _fts_triggers(FTS_COLUMNS):
        db.execute(trigger)


MIGRATIONS: list[Callable[[sqlite_utils.Database], None]] = [_m1_books, _m2_chunks, _m3_conversations,
                                                            _m4_study, _m5_segment_keys, _m6_section_index,
                                                            _m7_staged_import, _m8_role_index, _m9_figure_chunks,
                                                            _m10_book_language]
"""Append new migrations; never edit a released one.  Index i brings user_version i -> i+1."""


def schema_version() -> int:
    """The schema this Lantern writes (the number of migrations)."""
    return len(MIGRATIONS)


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
    # For ``rows.term_doc_frequencies``: a scratch FTS5 table that stems query terms with the chunk
    # index's own tokenizer, and views of both vocabularies (temp: private to this connection).
    conn.execute(f"CREATE VIRTUAL TABLE temp.query_terms USING fts5(term, tokenize='{FTS_TOKENIZER}')")
    conn.execute("CREATE VIRTUAL TABLE temp.query_terms_vocab USING fts5vocab(temp, query_terms, instance)")
    conn.execute("CREATE VIRTUAL TABLE temp.chunks_vocab USING fts5vocab(main, chunks_fts, row)")
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


def generation(db: sqlite_utils.Database) -> int:
    """How many times the indexes changed (the FAISS manifest records the generation it matches)."""
    return int(db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])


def bump_generation(db: sqlite_utils.Database) -> int:
    """Inside a write transaction: mark the indexes as changed and return the new generation."""
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
    return generation(db)
