"""SQL and row mapping of the study tables (migration ``_m4_study`` in ``core.index.schema``).

Only ``core.library.Library`` calls these functions: the facade stays the one owner of SQLite.
"""
from __future__ import annotations

from collections.abc import Iterable

import sqlite_utils

from core.errors import LibraryError
from core.models import BookId, ChunkId
from core.study.models import CardId, CardOrigin, Flashcard, SourceRef, StoredCard


def chunk_ids(db: sqlite_utils.Database, book_id: str, chapter: str | None, roles: tuple[str, ...]) -> list[int]:
    """Ids of a book's chunks in reading order, filtered by chapter number and roles."""
    sql, params = "SELECT id FROM chunks WHERE book_id = ?", [book_id]
    if chapter is not None:
        sql, params = sql + " AND chapter_number = ?", params + [str(chapter)]
    if roles:
        sql, params = sql + f" AND role IN ({','.join('?' * len(roles))})", params + list(roles)
    return [r[0] for r in db.execute(sql + " ORDER BY ordinal", params)]


def insert_cards(db: sqlite_utils.Database, book_id: str, cards: Iterable[Flashcard], schedule: str, due: str,
                 now: str) -> int:
    """Insert cards (skipping fronts the book already has); returns the number inserted."""
    added = 0
    for c in cards:
        cur = db.execute(
            "INSERT OR IGNORE INTO study_cards (book_id, chunk_id, key, front, back, quote, origin, chapter,"
            " section_id, schedule, due, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [book_id, c.source.chunk_id, c.key, c.front, c.back, c.quote, c.origin.value, c.source.chapter,
             c.source.section_id, schedule, due, now])
        added += max(cur.rowcount, 0)
    return added


def list_cards(db: sqlite_utils.Database, book_id: str, labels: dict[int, str], chapter: str | None,
               due_before: str | None) -> list[StoredCard]:
    sql = ("SELECT s.*, (SELECT COUNT(*) FROM study_reviews r WHERE r.card_id = s.id) AS reviews,"
           " c.section_title, c.section_number, c.page_start FROM study_cards s"
           " LEFT JOIN chunks c ON c.id = s.chunk_id WHERE s.book_id = ?")
    params: list = [book_id]
    if chapter is not None:
        sql, params = sql + " AND s.chapter = ?", params + [str(chapter)]
    if due_before is not None:
        sql, params = sql + " AND s.due <= ?", params + [due_before]
    return [_stored_card(r, labels) for r in db.query(sql + " ORDER BY s.due, s.id", params)]


def update_card(db: sqlite_utils.Database, card_id: int, rating: int, schedule: str, due: str,
                reviewed_at: str) -> None:
    cur = db.execute("UPDATE study_cards SET schedule = ?, due = ? WHERE id = ?", [schedule, due, card_id])
    if cur.rowcount != 1:
        raise LibraryError(f"No flashcard with id {card_id}.")
    db.execute("INSERT INTO study_reviews (card_id, rating, reviewed_at) VALUES (?,?,?)",
               [card_id, rating, reviewed_at])


def _stored_card(row: dict, labels: dict[int, str]) -> StoredCard:
    page = row["page_start"] or 0
    source = SourceRef(ChunkId(row["chunk_id"] or 0), BookId(row["book_id"]), row["chapter"],
                       row["section_number"], row["section_title"] or "", page, labels.get(page, str(page or "")),
                       row["section_id"])
    card = Flashcard(row["front"], row["back"], row["quote"], CardOrigin(row["origin"]), source)
    return StoredCard(CardId(row["id"]), card, row["due"], row["schedule"], row["reviews"])


def insert_attempt(db: sqlite_utils.Database, book_id: str, kind: str, item: str, section_id: int | None,
                   score: float | None, now: str) -> None:
    """Remember one practice/quiz attempt."""
    db.execute("INSERT INTO study_attempts (book_id, kind, item, section_id, score, created_at) VALUES (?,?,?,?,?,?)",
               [book_id, kind, item, section_id, score, now])


def list_attempts(db: sqlite_utils.Database, book_id: str) -> list[dict]:
    """A book's attempts, oldest first (dicts: kind, item, section_id, score, created_at)."""
    return list(db.query("SELECT kind, item, section_id, score, created_at FROM study_attempts"
                         " WHERE book_id = ? ORDER BY id", [book_id]))


def cache_get(db: sqlite_utils.Database, book_id: str, key: str) -> str | None:
    """A cached study artefact of a book, or None."""
    row = db.execute("SELECT value FROM study_cache WHERE book_id = ? AND key = ?", [book_id, key]).fetchone()
    return row[0] if row else None


def cache_put(db: sqlite_utils.Database, book_id: str, key: str, value: str, now: str) -> None:
    """Store (or replace) a cached study artefact of a book."""
    db.execute("INSERT OR REPLACE INTO study_cache (book_id, key, value, created_at) VALUES (?,?,?,?)",
               [book_id, key, value, now])
