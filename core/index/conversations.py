"""Rows of conversations and their turns (the tutor's memory of a chat).  Used only by ``core.library``."""
from __future__ import annotations

import json
from dataclasses import replace

import sqlite_utils

from core.errors import LibraryError
from core.models import BookId, ChunkId, Citation, Conversation, ConversationId, Turn

_CITATION_FIELDS = ("n", "chunk_id", "book_id", "chapter", "section", "section_title", "page_start", "page_end",
                    "printed_page", "quote", "printed_page_end", "label", "support", "frame", "figure")


def citations_to_json(citations: tuple[Citation, ...]) -> str:
    return json.dumps([{f: getattr(c, f) for f in _CITATION_FIELDS} for c in citations], ensure_ascii=False)


def citations_from_json(text: str) -> tuple[Citation, ...]:
    out = []
    for d in json.loads(text or "[]"):
        values = {f: d[f] for f in _CITATION_FIELDS if f in d}
        values["chunk_id"] = ChunkId(values["chunk_id"])
        values["book_id"] = BookId(values["book_id"])
        if values.get("frame") is not None:
            values["frame"] = tuple(values["frame"])
        out.append(Citation(**values))
    return tuple(out)


def turn_from_row(row: dict) -> Turn:
    return Turn(question=row["question"], answer=row["answer"], search_question=row["search_question"],
                refused=bool(row["refused"]), beyond_book=bool(row["beyond_book"]),
                extractive=bool(row["extractive"]), citations=citations_from_json(row["citations"]),
                ordinal=row["ordinal"], created_at=row["created_at"])


def conversation_from_row(row: dict, turns: tuple[Turn, ...] = ()) -> Conversation:
    return Conversation(id=ConversationId(row["id"]), title=row["title"],
                        book_id=BookId(row["book_id"]) if row["book_id"] else None,
                        created_at=row["created_at"], updated_at=row["updated_at"],
                        turn_count=row.get("turn_count", len(turns)), turns=turns)


# -- conversations (called by ``Library`` inside its write lock / on its reader) ------------------
def insert_conversation(db: sqlite_utils.Database, title: str, book_id: str | None, now: str) -> int:
    cur = db.execute("INSERT INTO conversations (title, book_id, created_at, updated_at) VALUES (?,?,?,?)",
                     [title, book_id, now, now])
    return int(cur.lastrowid)


def insert_turn(db: sqlite_utils.Database, conversation_id: int, turn: Turn, now: str) -> Turn:
    """Append ``turn`` after the conversation's last one; returns it with its ordinal and time."""
    if db.execute("SELECT 1 FROM conversations WHERE id = ?", [conversation_id]).fetchone() is None:
        raise LibraryError(f"No conversation with id {conversation_id} in this library.")
    ordinal = db.execute("SELECT COALESCE(MAX(ordinal), -1) + 1 FROM turns WHERE conversation_id = ?",
                         [conversation_id]).fetchone()[0]
    db.execute(
        "INSERT INTO turns (conversation_id, ordinal, question, search_question, answer, refused, beyond_book,"
        " extractive, citations, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [conversation_id, ordinal, turn.question, turn.search_question, turn.answer, int(turn.refused),
         int(turn.beyond_book), int(turn.extractive), citations_to_json(turn.citations), now])
    db.execute("UPDATE conversations SET updated_at = ? WHERE id = ?", [now, conversation_id])
    return replace(turn, ordinal=ordinal, created_at=now)


def list_conversations(db: sqlite_utils.Database, book_id: str | None = None) -> list[Conversation]:
    where, params = ("WHERE c.book_id = ?", [book_id]) if book_id else ("", [])
    rows = db.query(f"SELECT c.*, (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id) AS turn_count "
                    f"FROM conversations c {where} ORDER BY c.updated_at DESC, c.id DESC", params)
    return [conversation_from_row(r) for r in rows]


def load_conversation(db: sqlite_utils.Database, conversation_id: int) -> Conversation:
    rows = list(db.query("SELECT * FROM conversations WHERE id = ?", [conversation_id]))
    if not rows:
        raise LibraryError(f"No conversation with id {conversation_id} in this library.")
    turns = tuple(turn_from_row(r) for r in db.query(
        "SELECT * FROM turns WHERE conversation_id = ? ORDER BY ordinal", [conversation_id]))
    return conversation_from_row(rows[0], turns)


def delete_conversation(db: sqlite_utils.Database, conversation_id: int) -> None:
    """Remove a conversation and (by cascade) its turns."""
    db.execute("DELETE FROM conversations WHERE id = ?", [conversation_id])
