"""Rows of books, pages, sections and chunks: writing a parsed book and reading records back.  Used only by
``core.library`` (with its connections, inside its transactions).

A chunk row carries its denormalised chapter/section titles so search results need no joins, and
a ``titles`` column so FTS5 can weight titles above body text.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import numpy as np
import sqlite_utils

from core.ingest.language import ENGLISH, book_language, stems
from core.models import (BlockKind, Book, BookId, Chunk, ChunkDraft, ChunkId, ChunkRole, Page, ParsedBook, Section,
                         SectionId, SectionKind, SourceFormat)

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
                  section_ids: Sequence[int], drafts: Sequence[ChunkDraft], vectors: np.ndarray | None) -> list[int]:
    """Insert chunks and their vectors (inside the caller's transaction); return the new chunk ids.

    ``vectors`` None: keyword-only chunks of a staged import, marked pending (no vector rows).
    """
    ids: list[int] = []
    pending = vectors is None
    language = book_language_of(db, book_id)
    for draft, vec in zip(drafts, [None] * len(drafts) if pending else vectors, strict=True):
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
            " has_equation, figure_refs, text, segment_key, unit_start, unit_end, pending, label, frame, stems)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [book_id, section_ids[draft.section] if draft.section is not None else None, draft.ordinal,
             draft.role.value, draft.page_start, draft.page_end, draft.token_count,
             chapter.number if chapter else None, chapter_title,
             section.number if section else None, section_title, titles,
             " ; ".join(draft.key_terms), int(draft.has_equation), json.dumps(list(draft.figure_refs)),
             draft.text, draft.segment_key or None, draft.unit_start, draft.unit_end, int(pending),
             draft.label, json.dumps([round(v, 1) for v in draft.frame]) if draft.frame else "",
             stems(" ".join((titles, " ".join(draft.key_terms), draft.text)), language)])
        ids.append(cur.lastrowid)
        if not pending:
            db.execute("INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)",
                       [cur.lastrowid, np.asarray(vec, dtype=np.float32).tobytes()])
    return ids


# -- staged imports (``core.library``): keyword-only chunks first, replaced segment by segment ----------------
def section_ids(db: sqlite_utils.Database, book_id: str) -> list[int]:
    """A stored book's section ids in ``ParsedBook.sections`` order (reading the same file again)."""
    return [r[0] for r in db.execute("SELECT id FROM sections WHERE book_id = ? ORDER BY ordinal", [book_id])]


def segment_states(db: sqlite_utils.Database, book_id: str, stride: int) -> dict[int, tuple[str, bool]]:
    """Segment index (ordinal // ``stride``) -> (its segment key, still pending) for a book being embedded."""
    found = db.execute(f"SELECT ordinal / {int(stride)} AS s, MIN(COALESCE(segment_key, '')), MAX(pending)"
                       " FROM chunks WHERE book_id = ? GROUP BY s", [book_id]).fetchall()
    return {int(s): (key, bool(pending)) for s, key, pending in found}


def delete_pending(db: sqlite_utils.Database, book_id: str, segments: Sequence[int], stride: int) -> None:
    """Delete the keyword-only chunks of some segments (their embedded cut is inserted next)."""
    for s in segments:
        db.execute("DELETE FROM chunks WHERE book_id = ? AND pending = 1 AND ordinal >= ? AND ordinal < ?",
                   [book_id, s * stride, (s + 1) * stride])


def delete_chunks(db: sqlite_utils.Database, book_id: str) -> list[int]:
    """Delete every chunk of a book (a staged import that must start its chunks over); returns their ids."""
    ids = [r[0] for r in db.execute("SELECT id FROM chunks WHERE book_id = ?", [book_id])]
    db.execute("DELETE FROM chunks WHERE book_id = ?", [book_id])
    return ids


def mark_complete(db: sqlite_utils.Database, book_id: str) -> None:
    """Every chunk embedded: number them 0, 1, 2 ... in reading order and clear the book's pending flag."""
    db.execute("UPDATE chunks SET ordinal = r.n FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY ordinal) - 1 AS n"
               " FROM chunks WHERE book_id = ?) AS r WHERE chunks.id = r.id AND chunks.ordinal != r.n", [book_id])
    db.execute("UPDATE books SET pending = 0 WHERE id = ?", [book_id])


def embedding_share(db: sqlite_utils.Database, book_id: str) -> float:
    """Share of a book's chunks that have their vectors (1.0 for a complete book)."""
    total, pending = db.execute("SELECT COUNT(*), COALESCE(SUM(pending), 0) FROM chunks WHERE book_id = ?",
                                [book_id]).fetchone()
    return 1.0 if not total else 1.0 - pending / total


def pending_chunk_ids(db: sqlite_utils.Database, ids: Sequence[int]) -> list[int]:
    """Which of these chunks are keyword-only (no vector yet)."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return [r[0] for r in db.execute(f"SELECT id FROM chunks WHERE pending = 1 AND id IN ({marks})", list(ids))]


def pending_book_ids(db: sqlite_utils.Database) -> list[str]:
    """Books whose import stored them keyword-searchable but has not embedded them all yet."""
    return [r[0] for r in db.execute("SELECT id FROM books WHERE pending = 1 ORDER BY imported_at, rowid")]


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
        label=row.get("label") or "",
        frame=tuple(json.loads(row["frame"])) if row.get("frame") else None,
    )


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
        pending=bool(row.get("pending", 0)),
        language=row.get("language") or ENGLISH,
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


# -- books -------------------------------------------------------------------------------------------
_CHAPTER_KINDS = (SectionKind.CHAPTER.value,)
_SECTION_KINDS = (SectionKind.SECTION.value, SectionKind.SUBSECTION.value)


def insert_book(db: sqlite_utils.Database, book_id: BookId, parsed: ParsedBook, *, file_name: str, digest: str,
                stored_name: str, file_size: int, imported_at: str, pending: bool = False) -> list[int]:
    """Insert a parsed book's book, page, section and block rows; returns the new section ids in order."""
    db["books"].insert({
        "id": book_id, "title": parsed.title, "authors": json.dumps(list(parsed.authors)),
        "source_format": parsed.source_format.value, "file_name": file_name,
        "stored_name": stored_name, "file_hash": digest, "file_size": file_size,
        "page_count": len(parsed.pages), "paginated": int(parsed.paginated),
        "metadata": json.dumps([list(kv) for kv in parsed.metadata]),
        "imported_at": imported_at, "pending": int(pending),
        "language": book_language(b.text for b in parsed.blocks if b.kind is BlockKind.TEXT),
    })
    db["pages"].insert_all(({"book_id": book_id, "idx": p.index, "label": p.label}
                            for p in parsed.pages), batch_size=1000)
    section_ids: list[int] = []
    for ordinal, s in enumerate(parsed.sections):
        parent = section_ids[s.parent] if s.parent is not None else None
        cur = db.execute(
            "INSERT INTO sections (book_id, ordinal, parent_id, level, kind, number, title,"
            " page_start, page_end) VALUES (?,?,?,?,?,?,?,?,?)",
            [book_id, ordinal, parent, s.level, s.kind.value, s.number, s.title, s.page_start,
             s.page_end if s.page_end is not None else s.page_start])
        section_ids.append(cur.lastrowid)
    db["blocks"].insert_all(({
        "book_id": book_id,
        "section_id": section_ids[b.section] if b.section is not None else None,
        "ordinal": i, "page": b.page, "kind": b.kind.value, "text": b.text,
        "emphasis": json.dumps(list(b.emphasis)),
    } for i, b in enumerate(parsed.blocks)), batch_size=1000)
    return section_ids


def book_row(db: sqlite_utils.Database, book_id: str) -> dict | None:
    """The book row whose id is ``book_id`` or, failing that, the only one it is a prefix of."""
    if not book_id:
        return None
    rows = list(db.query("SELECT * FROM books WHERE id = ? OR id LIKE ? LIMIT 2",
                         [book_id, book_id.replace("%", "") + "%"]))
    exact = [r for r in rows if r["id"] == book_id]
    if exact:
        return exact[0]
    return rows[0] if len(rows) == 1 else None


def book_language_of(db: sqlite_utils.Database, book_id: str) -> str:
    """The language the book ``book_id`` is written in (English when it is not stored)."""
    row = db.execute("SELECT language FROM books WHERE id = ?", [book_id]).fetchone()
    return row[0] if row else ENGLISH


def book_languages(db: sqlite_utils.Database, book_id: str | None = None) -> set[str]:
    """The languages of the library's books (of one book when ``book_id`` is given)."""
    if book_id:
        return {book_language_of(db, book_id)}
    return {r[0] for r in db.execute("SELECT DISTINCT language FROM books")}


def book_rows(db: sqlite_utils.Database, *, file_hash: str | None = None) -> list[dict]:
    """All book rows in import order (only those with ``file_hash`` when given)."""
    if file_hash is not None:
        return list(db.query("SELECT * FROM books WHERE file_hash = ?", [file_hash]))
    return list(db.query("SELECT * FROM books ORDER BY imported_at, rowid"))


def book_record(db: sqlite_utils.Database, row: dict) -> Book:
    """A ``Book`` from its row, with its chapter and section counts."""
    counts = dict(db.execute("SELECT kind, COUNT(*) FROM sections WHERE book_id = ? GROUP BY kind",
                             [row["id"]]).fetchall())
    return book_from_row(row, sum(counts.get(k, 0) for k in _CHAPTER_KINDS),
                         sum(counts.get(k, 0) for k in _SECTION_KINDS))


def page_labels(db: sqlite_utils.Database, book_id: str) -> dict[int, str]:
    """Physical page index -> printed label of one book."""
    return {r["idx"]: r["label"] for r in db.query("SELECT idx, label FROM pages WHERE book_id = ?", [book_id])}


def stored_segment(db: sqlite_utils.Database, key: str) -> list[tuple[int, int, bytes]]:
    """The chunks of one stored copy of chunker segment ``key`` (for ``core.index.chunk_reuse``)."""
    return db.execute(
        "SELECT c.unit_start, c.unit_end, v.vector FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
        " WHERE c.segment_key = ? AND c.book_id = (SELECT book_id FROM chunks WHERE segment_key = ? AND pending = 0"
        " LIMIT 1)"
        " ORDER BY c.ordinal", [key, key]).fetchall()


def chunk_id_bound(db: sqlite_utils.Database) -> int:
    """The largest chunk id: no library holds more chunks than this (read from the primary key, not counted)."""
    return db.execute("SELECT COALESCE(MAX(id), 0) FROM chunks").fetchone()[0]


def term_doc_frequencies(db: sqlite_utils.Database, terms: Sequence[str]) -> dict[str, int]:
    """How many chunks hold each query term, folded exactly as FTS5 folds it: the terms go through a temp
    FTS5 table with the same tokenizer (``schema.connect_reader`` makes it) and their stems are looked up
    in the chunk index's vocabulary."""
    if not terms:
        return {}
    db.execute("DELETE FROM temp.query_terms")
    db.conn.executemany("INSERT INTO temp.query_terms (rowid, term) VALUES (?, ?)",
                        [(i + 1, t) for i, t in enumerate(terms)])
    stems: dict[int, str] = {}
    for stem, row in db.execute("SELECT term, doc FROM temp.query_terms_vocab"):
        stems.setdefault(row - 1, stem)
    wanted = sorted(set(stems.values()))
    counts = dict(db.execute(f"SELECT term, doc FROM temp.chunks_vocab WHERE term IN ({','.join('?' * len(wanted))})",
                             wanted).fetchall()) if wanted else {}
    return {terms[i]: int(counts.get(stem, 0)) for i, stem in stems.items()}


def index_stems(db: sqlite_utils.Database, words: Sequence[str]) -> list[str]:
    """Each word folded as the chunk index folds it (its Porter stem, lower case; "" for none)."""
    db.execute("DELETE FROM temp.query_terms")
    db.conn.executemany("INSERT INTO temp.query_terms (rowid, term) VALUES (?, ?)",
                        [(i + 1, w) for i, w in enumerate(words)])
    stems = {row - 1: stem for stem, row in db.execute("SELECT term, doc FROM temp.query_terms_vocab")}
    return [stems.get(i, "") for i in range(len(words))]


def edits(a: str, b: str) -> int:
    """Damerau–Levenshtein distance (optimal string alignment): insertions, deletions, substitutions and
    swaps of two neighbouring letters."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def typo_budget(word: str) -> int:
    """Edits a misspelling of a word this long may hold: none under four letters (too many real words are one
    letter apart), one up to seven, two beyond — the usual bounds of spelling correctors."""
    return 0 if len(word) < 4 else 1 if len(word) <= 7 else 2


def spelled_like(db: sqlite_utils.Database, stem: str, word: str = "") -> list[str]:
    """Index stems a misspelled word may stand for ("rythm" → "rhythm"), by its ``stem``: same first letter,
    within ``typo_budget`` edits of the word as written (its stem may have lost a suffix the typo changed:
    "compromize" → "comprom"), nearest first (ties: the more common); [] when ``stem`` is itself indexed."""
    budget = typo_budget(word or stem)
    if not budget or db.execute("SELECT 1 FROM temp.chunks_vocab WHERE term = ?", [stem]).fetchone():
        return []
    first = stem[0]
    found = []
    for term, docs in db.execute("SELECT term, doc FROM temp.chunks_vocab WHERE term >= ? AND term < ?",
                                 [first, chr(ord(first) + 1)]):
        if abs(len(term) - len(stem)) <= budget:
            d = edits(stem, term)
            if d <= budget:
                found.append((d, -docs, term))
    return [t for _, _, t in sorted(found)]


def neighbour_ids(db: sqlite_utils.Database, chunks: Sequence[Chunk], radius: int) -> list[int]:
    """Ids of the chunks within ``radius`` ordinals of each given chunk, same book, in id order."""
    ids: set[int] = set()
    for c in chunks:
        ids.update(r[0] for r in db.execute("SELECT id FROM chunks WHERE book_id = ? AND ordinal BETWEEN ? AND ?",
                                            [c.book_id, c.ordinal - radius, c.ordinal + radius]))
    return sorted(ids)


def chunk_count(db: sqlite_utils.Database, book_id: str | None = None) -> int:
    """Chunks in the library, or in one book."""
    if book_id:
        return db.execute("SELECT COUNT(*) FROM chunks WHERE book_id = ?", [book_id]).fetchone()[0]
    return db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]


def vector_count(db: sqlite_utils.Database) -> int:
    """Stored chunk vectors (what the FAISS index must hold)."""
    return db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]


def delete_book(db: sqlite_utils.Database, book_id: str) -> list[int]:
    """Delete a book and (by cascade) everything derived from it; returns its chunks' ids."""
    chunk_ids = [r[0] for r in db.execute("SELECT id FROM chunks WHERE book_id = ?", [book_id])]
    db.execute("DELETE FROM books WHERE id = ?", [book_id])
    return chunk_ids


def stored_name_in_use(db: sqlite_utils.Database, stored_name: str) -> bool:
    """Whether a book row points at the stored file ``books/<stored_name>``."""
    return db.execute("SELECT 1 FROM books WHERE stored_name = ?", [stored_name]).fetchone() is not None
