"""Section-level signals for re-ranking: how well a chunk's whole *section* matches the question.

A chunk is short; the section it belongs to is what a question is usually about (the dev benchmark's
gold is a section).  Two section-level scores, stored at import beside the chunks and read by
``Library.find`` for the sections of its candidates:

* keyword — bm25 of the question over the section's whole text (``section_fts``, FTS5);
* vector — cosine of the question with the section's centroid (the normalised mean of its chunks'
  vectors, ``section_vectors``).

``benchmarks/rescoring.py --section-signals`` measured both on the dev books (see README).  Owned by
``core.library.Library`` (these functions run on its connections, inside its transactions).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
import sqlite_utils

from core.index.fts import fts_match_expression
from core.models import Chunk


def section_key(section_number: str | None, section_id: int | None) -> str:
    """The stored identity of a chunk's section: its number ("2.3", "A"), else its section row id."""
    return section_number if section_number else f"id:{section_id}"


def chunk_section_key(chunk: Chunk) -> str:
    return section_key(chunk.section_number, chunk.section_id)


def create_tables(db: sqlite_utils.Database) -> None:
    """Schema of the section index (migration 6); a removed book takes its rows with it."""
    db.execute("CREATE VIRTUAL TABLE section_fts USING fts5(book_id UNINDEXED, key UNINDEXED, text, "
               "tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("""
        CREATE TABLE section_vectors (
            book_id TEXT NOT NULL REFERENCES books(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            fts_rowid INTEGER NOT NULL,  -- the section's row in section_fts (bm25 is asked for these rows only)
            vector BLOB NOT NULL,
            PRIMARY KEY (book_id, key)
        ) WITHOUT ROWID""")
    # FTS5 tables take no foreign keys: a trigger keeps ``remove`` one atomic statement.
    db.execute("CREATE TRIGGER section_fts_book_removed AFTER DELETE ON books BEGIN "
               "DELETE FROM section_fts WHERE book_id = old.id; END")


def index_book(db: sqlite_utils.Database, book_id: str) -> int:
    """(Re)build one book's section rows from its stored chunks and vectors; return the section count.

    Runs inside the caller's transaction (the import's, or doctor's repair).
    """
    db.execute("DELETE FROM section_fts WHERE book_id = ?", [book_id])
    db.execute("DELETE FROM section_vectors WHERE book_id = ?", [book_id])
    rows = db.execute("SELECT c.section_number, c.section_id, c.titles, c.text, v.vector FROM chunks c JOIN vectors v "
                      "ON v.chunk_id = c.id WHERE c.book_id = ? ORDER BY c.ordinal", [book_id]).fetchall()
    if not rows:
        return 0
    texts: dict[str, list[str]] = defaultdict(list)
    group: list[int] = []
    order: dict[str, int] = {}
    for number, sid, titles, text, _ in rows:
        key = section_key(number, sid)
        if key not in texts and titles:  # the headings once, as the section's first line
            texts[key].append(titles)
        texts[key].append(text)
        group.append(order.setdefault(key, len(order)))
    # one numpy pass for every centroid (a Python loop per chunk would hold the GIL far longer)
    matrix = np.frombuffer(b"".join(r[4] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    sums = np.zeros((len(order), matrix.shape[1]), dtype=np.float64)
    np.add.at(sums, np.asarray(group), matrix)
    sums /= np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
    for key, i in order.items():
        cur = db.execute("INSERT INTO section_fts (book_id, key, text) VALUES (?, ?, ?)",
                         [book_id, key, "\n".join(texts[key])])
        db.execute("INSERT INTO section_vectors (book_id, key, fts_rowid, vector) VALUES (?, ?, ?, ?)",
                   [book_id, key, cur.lastrowid, sums[i].astype(np.float32).tobytes()])
    return len(texts)


def books_missing(db: sqlite_utils.Database) -> list[str]:
    """Complete books with chunks but no section rows (an index to rebuild; ``Library.doctor`` checks this).
    A book still being imported gets its section index when its last chapter is embedded."""
    return [r[0] for r in db.execute(
        "SELECT DISTINCT c.book_id FROM chunks c JOIN books b ON b.id = c.book_id WHERE b.pending = 0 AND NOT EXISTS "
        "(SELECT 1 FROM section_vectors s WHERE s.book_id = c.book_id)")]


def section_scores(db: sqlite_utils.Database, question: str, qvec: np.ndarray, wanted: Iterable[tuple[str, str]]
                   ) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]:
    """For each wanted (book_id, key) section: bm25 of ``question`` over its text (higher = better; only
    sections holding a query term) and the cosine of the normalised ``qvec`` with its centroid.

    bm25 is computed for the wanted rows only (its statistics are the whole table's, so scores stay
    comparable): at 50 books that is ~4 ms instead of ~35 ms for ranking every section.
    """
    wanted = sorted(set(wanted))
    if not wanted:
        return {}, {}
    pairs = ",".join("(?, ?)" for _ in wanted)
    rows = db.execute(f"SELECT book_id, key, fts_rowid, vector FROM section_vectors WHERE (book_id, key) IN "
                      f"(VALUES {pairs})", [x for pair in wanted for x in pair]).fetchall()
    q = np.asarray(qvec, dtype=np.float32).ravel()
    vector: dict[tuple[str, str], float] = {}
    by_rowid: dict[int, tuple[str, str]] = {}
    for book_id, key, rowid, blob in rows:
        by_rowid[rowid] = (book_id, key)
        vec = np.frombuffer(blob, dtype=np.float32)
        if vec.shape == q.shape:
            vector[(book_id, key)] = float(vec @ q)
    keyword: dict[tuple[str, str], float] = {}
    expr = fts_match_expression(question)
    if expr is not None and by_rowid:
        marks = ",".join("?" * len(by_rowid))
        for rowid, score in db.execute(f"SELECT rowid, bm25(section_fts) FROM section_fts WHERE section_fts MATCH ? "
                                       f"AND rowid IN ({marks})", [expr, *by_rowid]):
            keyword[by_rowid[rowid]] = -float(score)
    return keyword, vector


def annotate(hits: Sequence, keyword: dict, vector: dict) -> list:
    """Hits with ``section_keyword``/``section_vector`` stage scores added where known."""
    out = []
    for h in hits:
        key = (h.chunk.book_id, chunk_section_key(h.chunk))
        extra = tuple((name, table[key]) for name, table in (("section_keyword", keyword), ("section_vector", vector))
                      if key in table)
        out.append(replace(h, stage_scores=h.stage_scores + extra) if extra else h)
    return out


__all__ = ["annotate", "books_missing", "chunk_section_key", "create_tables", "index_book", "section_key",
           "section_scores"]
