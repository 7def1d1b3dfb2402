"""The ``Library``'s records of a student's work: conversations and study progress (flashcards, attempts, cache).

A mixin so ``core/library.py`` stays about books and indexes; it is still the ``Library`` facade that
owns the database: these methods use its ``db`` (writes, under ``_writing``), ``reader`` and ``book``.
"""
from __future__ import annotations

import datetime as _dt

from core import store
from core.models import Chunk


def _utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class RecordsMixin:
    """Conversations and study records of ``core.library.Library`` (see the module docstring)."""

    # -- conversations -----------------------------------------------------------------------------
    def create_conversation(self, title: str = "", book_id: str | None = None):
        """Start a conversation (``title``: usually the first question) and return it (no turns yet)."""
        if book_id:
            book_id = self.book(book_id).id
        now = _utc_now()
        with self._writing():
            cid = store.insert_conversation(self.db, " ".join(title.split())[:200], book_id, now)
        return self.load_conversation(cid)

    def append_turn(self, conversation_id: int, turn):
        """Append a question/answer ``Turn`` to a conversation; returns it with its ordinal and time."""
        now = _utc_now()
        with self._writing():
            return store.insert_turn(self.db, conversation_id, turn, now)

    def conversations(self, book_id: str | None = None):
        """Stored conversations, most recently updated first (``turns`` empty, ``turn_count`` set)."""
        return store.list_conversations(self.reader, book_id)

    def load_conversation(self, conversation_id: int):
        """One conversation with all its turns in order (``LibraryError`` if it does not exist)."""
        return store.load_conversation(self.reader, conversation_id)

    def delete_conversation(self, conversation_id: int) -> None:
        """Remove a conversation and its turns."""
        with self._writing():
            self.db.execute("DELETE FROM conversations WHERE id = ?", [conversation_id])

    # -- study tools (SQL in core.study.store, used only from here) -----------------------------
    def study_chunks(self, book_id: str, *, chapter: str | None = None, roles: tuple[str, ...] = ()) -> list[Chunk]:
        """A book's chunks in reading order, optionally one chapter (its number, "3" or "A") and roles."""
        from core.study import store as study_store
        ids = study_store.chunk_ids(self.reader, self.book(book_id).id, chapter, roles)
        found: dict[int, Chunk] = {}
        for i in range(0, len(ids), 500):
            found.update(self.chunks(ids[i:i + 500]))
        return [found[i] for i in ids if i in found]

    def add_cards(self, book_id: str, cards, schedule: str, due: str) -> int:
        """Store new flashcards (``core.study.models.Flashcard``) with an initial schedule (JSON) and due
        time; a card whose front the book already has is skipped.  Returns how many were added."""
        from core.study import store as study_store
        bid = self.book(book_id).id
        with self._writing():
            return study_store.insert_cards(self.db, bid, cards, schedule, due, _utc_now())

    def cards(self, book_id: str, *, chapter: str | None = None, due_before: str | None = None) -> list:
        """Stored flashcards (``core.study.models.StoredCard``), soonest due first; ``due_before``: ISO time."""
        from core.study import store as study_store
        bid = self.book(book_id).id
        return study_store.list_cards(self.reader, bid, self._labels(bid), chapter, due_before)

    def save_review(self, card_id: int, rating: int, schedule: str, due: str, reviewed_at: str) -> None:
        """Record one review of a card with its new schedule (computed by ``core.study.schedule``)."""
        from core.study import store as study_store
        with self._writing():
            study_store.update_card(self.db, card_id, rating, schedule, due, reviewed_at)

    def record_attempt(self, book_id: str, kind: str, item: str, section_id: int | None,
                       score: float | None) -> None:
        """Remember that the student practised ``item`` ("practice" / "quiz") and how well (0..1 or None)."""
        bid = self.book(book_id).id
        with self._writing():
            self.db.execute("INSERT INTO study_attempts (book_id, kind, item, section_id, score, created_at)"
                            " VALUES (?,?,?,?,?,?)", [bid, kind, item, section_id, score, _utc_now()])

    def attempts(self, book_id: str) -> list[dict]:
        """A book's practice/quiz attempts, oldest first (dicts: kind, item, section_id, score, created_at)."""
        return list(self.reader.query("SELECT kind, item, section_id, score, created_at FROM study_attempts"
                                      " WHERE book_id = ? ORDER BY id", [self.book(book_id).id]))

    def study_cache_get(self, book_id: str, key: str) -> str | None:
        """A cached study artefact of a book (e.g. a chapter guide's JSON), or None."""
        row = self.reader.execute("SELECT value FROM study_cache WHERE book_id = ? AND key = ?",
                                  [self.book(book_id).id, key]).fetchone()
        return row[0] if row else None

    def study_cache_put(self, book_id: str, key: str, value: str) -> None:
        """Store (or replace) a cached study artefact of a book."""
        bid = self.book(book_id).id
        with self._writing():
            self.db.execute("INSERT OR REPLACE INTO study_cache (book_id, key, value, created_at) VALUES (?,?,?,?)",
                            [bid, key, value, _utc_now()])
