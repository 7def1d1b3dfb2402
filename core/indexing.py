"""Writing and reading chunk rows (SQLite side of the two indexes).  Used only by ``core.library``.

A chunk row carries its denormalised chapter/section titles so search results need no joins, and
a ``titles`` column so FTS5 can weight titles above body text.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import numpy as np
import sqlite_utils

from core.models import (BookId, Chunk, ChunkDraft, ChunkId, ChunkRole, ParsedBook, SectionId,
                         SectionKind)

_CHAPTERISH = {SectionKind.CHAPTER, SectionKind.APPENDIX, SectionKind.PART}


def chapter_and_section(parsed: ParsedBook, index: int | None) -> tuple[int | None, int | None, int | None]:
    """Indexes of (chapter, section, subsection) for a chunk whose deepest heading is ``index``.

    The chapter is the nearest chapter-like ancestor (or the top of the tree); the section is the
    nearest *numbered* node below the chapter (what citations and the gold data call "2.3"), else the
    deepest node; the subsection is the deepest node when it differs from the section.
    """
    if index is None:
        return None, None, None
    path: list[int] = []
    node: int | None = index
    while node is not None:
        path.append(node)
        node = parsed.sections[node].parent
    path.reverse()  # root ... deepest
    chapter = next((i for i in path if parsed.sections[i].kind in _CHAPTERISH
                    and parsed.sections[i].kind is not SectionKind.PART), path[0])
    below = path[path.index(chapter) + 1:]
    numbered = [i for i in below if parsed.sections[i].number]
    section = numbered[-1] if numbered else (below[0] if below else chapter)
    sub = index if index not in (section, chapter) else None
    return chapter, section, sub


def insert_chunks(db: sqlite_utils.Database, book_id: BookId, parsed: ParsedBook,
                  section_ids: Sequence[int], drafts: Sequence[ChunkDraft], vectors: np.ndarray) -> list[int]:
    """Insert chunks and their vectors (inside the caller's transaction); return the new chunk ids."""
    ids: list[int] = []
    for draft, vec in zip(drafts, vectors, strict=True):
        ch_i, sec_i, sub_i = chapter_and_section(parsed, draft.section)
        chapter = parsed.sections[ch_i] if ch_i is not None else None
        section = parsed.sections[sec_i] if sec_i is not None else None
        chapter_title = chapter.title if chapter else ""
        section_title = section.title if section else ""
        sub_title = parsed.sections[sub_i].title if sub_i is not None else ""
        titles = " · ".join(dict.fromkeys(t for t in (chapter_title, section_title, sub_title) if t))
        cur = db.execute(
            "INSERT INTO chunks (book_id, section_id, ordinal, role, page_start, page_end, token_count,"
            " chapter_number, chapter_title, section_number, section_title, titles, key_terms,"
            " has_equation, figure_refs, text, segment_key, unit_start, unit_end)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [book_id, section_ids[draft.section] if draft.section is not None else None, draft.ordinal,
             draft.role.value, draft.page_start, draft.page_end, draft.token_count,
             chapter.number if chapter else None, chapter_title,
             section.number if section else None, section_title, titles,
             " ; ".join(draft.key_terms), int(draft.has_equation), json.dumps(list(draft.figure_refs)),
             draft.text, draft.segment_key or None, draft.unit_start, draft.unit_end])
        ids.append(cur.lastrowid)
        db.execute("INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)",
                   [cur.lastrowid, np.asarray(vec, dtype=np.float32).tobytes()])
    return ids


def embed_text(chunk: Chunk) -> str:
    """What a stored chunk is embedded from when its vector must be made again: titles, then text
    (import itself pools late-chunked sentence vectors and never calls this)."""
    return f"{chunk.chapter_title} › {chunk.section_title}\n{chunk.text}"


def iter_vectors(db: sqlite_utils.Database, dimension: int, batch: int = 4096
                 ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Stream (ids, matrix) batches of every stored vector, for rebuilding FAISS."""
    last = -1
    while True:
        rows = db.execute("SELECT chunk_id, vector FROM vectors WHERE chunk_id > ? ORDER BY chunk_id LIMIT ?",
                          [last, batch]).fetchall()
        if not rows:
            return
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dimension)
        yield ids, matrix
        last = int(ids[-1])


def chunk_from_row(row: dict, labels: dict[int, str]) -> Chunk:
    return Chunk(
        id=ChunkId(row["id"]),
        book_id=BookId(row["book_id"]),
        section_id=SectionId(row["section_id"]) if row["section_id"] is not None else None,
        ordinal=row["ordinal"],
        text=row["text"],
        role=ChunkRole(row["role"]),
        page_start=row["page_start"],
        page_end=row["page_end"],
        printed_page_start=labels.get(row["page_start"], str(row["page_start"])),
        printed_page_end=labels.get(row["page_end"], str(row["page_end"])),
        chapter_number=row["chapter_number"],
        chapter_title=row["chapter_title"],
        section_number=row["section_number"],
        section_title=row["section_title"],
        token_count=row["token_count"],
        key_terms=tuple(t for t in row["key_terms"].split(" ; ") if t),
        has_equation=bool(row["has_equation"]),
        figure_refs=tuple(json.loads(row["figure_refs"])),
    )
