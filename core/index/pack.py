"""Course packs: a teacher's prepared books (and study sets) in one file another library adds in seconds.

``export_pack`` writes the chosen books' original files, their rows (pages, sections, blocks, chunks with
their roles) and vectors, and optionally their study sets (cards without anyone's review history, cached
lessons and guides) and, only when asked, the student's own records (card schedules and reviews, attempts,
conversations) into a ``core.index.pack_format`` zip.

``import_pack`` checks every member's hash and the versions first, then adds every new book in one
transaction with fresh row ids (the ids of the library the pack came from mean nothing here; references
inside rows and cached study JSON are mapped), moves the book files into place after the COMMIT (a kill
leaves ``.part`` files the next open puts in place or deletes: ``core.index.doctor``), and puts the vectors
into FAISS.  When the pack's embedding model or chunker differs from this library's, the books are stored
keyword-searchable and embedded again as a dropped book is (``staged_import.complete``).  The section
signals are rebuilt from the chunks and vectors (their keys hold row ids); a book already here is a
duplicate and is left as it is, with the student's records.

Used only by ``core.library`` (``Library.export_pack`` / ``import_pack``).
"""
from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core import __version__
from core.errors import CoursePackError, ImportCancelled, LanternError, PackVersionError
from core.index import rows as row_sql
from core.index import schema as store
from core.index import sections as section_index
from core.index import staged_import
from core.index.chunker import CHUNKER_VERSION
from core.index.pack_format import FORMAT_VERSION, PackBook, PackManifest, PackReader, PackWriter, book_member
from core.models import Book, ImportResult, ImportStatus
from core.progress import CancelFn, ProgressFn, check_cancel, no_progress

log = logging.getLogger(__name__)

BOOK_TABLES = ("books", "pages", "sections", "blocks", "chunks", "vectors")
STUDY_TABLES = ("study_cards", "study_cache")
PROGRESS_TABLES = ("study_reviews", "study_attempts", "conversations", "turns")
_ALL_TABLES = set(BOOK_TABLES + STUDY_TABLES + PROGRESS_TABLES)
_BINARY_PACKED = {".pdf", ".epub", ".zip", ".png", ".jpg", ".jpeg"}  # already compressed: stored as is


@dataclass(frozen=True)
class PackSummary:
    """What an export wrote."""

    path: Path
    books: tuple[Book, ...]
    size: int
    with_study: bool
    with_progress: bool


# -- export -----------------------------------------------------------------------------------------------
def _select(db, sql: str, params: Sequence[Any]) -> tuple[list[str], Iterator[list[Any]]]:
    cur = db.execute(sql, params)
    return [d[0] for d in cur.description], (list(r) for r in cur)


def _book_queries(book_id: str, with_study: bool, with_progress: bool) -> list[tuple[str, str, list[Any]]]:
    """(table, SELECT, params) for every table of a book the pack holds, parents before children (the vectors
    are written by ``_export_vectors``)."""
    b = [book_id]
    queries = [("books", "SELECT * FROM books WHERE id = ?", b),
               ("pages", "SELECT * FROM pages WHERE book_id = ? ORDER BY idx", b),
               ("sections", "SELECT * FROM sections WHERE book_id = ? ORDER BY ordinal", b),
               ("blocks", "SELECT * FROM blocks WHERE book_id = ? ORDER BY ordinal", b),
               ("chunks", "SELECT * FROM chunks WHERE book_id = ? ORDER BY ordinal", b)]
    if with_study:
        queries += [("study_cards", "SELECT * FROM study_cards WHERE book_id = ? ORDER BY id", b),
                    ("study_cache", "SELECT * FROM study_cache WHERE book_id = ? ORDER BY key", b)]
    if with_progress:
        queries += [("study_reviews", "SELECT r.* FROM study_reviews r JOIN study_cards c ON c.id = r.card_id "
                                      "WHERE c.book_id = ? ORDER BY r.id", b),
                    ("study_attempts", "SELECT * FROM study_attempts WHERE book_id = ? ORDER BY id", b),
                    ("conversations", "SELECT * FROM conversations WHERE book_id = ? ORDER BY id", b),
                    ("turns", "SELECT t.* FROM turns t JOIN conversations c ON c.id = t.conversation_id "
                              "WHERE c.book_id = ? ORDER BY t.id", b)]
    return queries


def _without_history(columns: list[str], rows: Iterator[list[Any]]) -> Iterator[list[Any]]:
    """Cards as a teacher hands them on: no schedule, no due time (the importer starts them as new)."""
    blank = {columns.index(c) for c in ("schedule", "due")}
    for r in rows:
        yield [("" if i in blank else v) for i, v in enumerate(r)]


def export_pack(lib, book_ids: Sequence[str], target: Path, *, with_study: bool, with_progress: bool,
                created_at: str, progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> PackSummary:
    """Write the books (ids, already resolved) to ``target``; a cancel or failure leaves no file there."""
    progress = progress or no_progress
    books = [lib.book(b) for b in dict.fromkeys(book_ids)]
    if not books:
        raise CoursePackError("Choose at least one book for the course pack.")
    for book in books:
        if book.pending:
            raise CoursePackError(f"“{book.title}” is still being indexed; export it when its meaning search "
                                  "is complete.")
    db = lib.reader
    writer = PackWriter(target, cancel)
    try:
        packed: list[PackBook] = []
        for n, book in enumerate(books):
            progress("packing", n, len(books))
            packed.append(_export_book(lib, db, writer, book, with_study, with_progress))
        embedder = lib.embedder
        manifest = PackManifest(FORMAT_VERSION, __version__, store.schema_version(), CHUNKER_VERSION,
                                embedder.model_name, embedder.dimension, created_at, with_study, with_progress,
                                tuple(packed), tuple(writer.members))
        writer.close(manifest)
    except BaseException:
        writer.abort()
        raise
    progress("packing", len(books), len(books))
    return PackSummary(target, tuple(books), target.stat().st_size, with_study, with_progress)


def _export_book(lib, db, writer: PackWriter, book: Book, with_study: bool, with_progress: bool) -> PackBook:
    path = lib.book_file(book.id)
    if not path.is_file():
        raise CoursePackError(f"The stored copy of “{book.title}” is missing; import the file again first.")
    suffix = path.suffix.lower()
    writer.add_file(book_member(book.id, "file"), path, stored=suffix in _BINARY_PACKED)
    tables: dict[str, list[str]] = {}
    for table, sql, params in _book_queries(book.id, with_study, with_progress):
        columns, found = _select(db, sql, params)
        if table == "study_cards" and not with_progress:
            found = _without_history(columns, found)
        tables[table] = columns
        writer.add_lines(book_member(book.id, f"{table}.jsonl"), found)
    tables["vectors"], count = ["chunk_id"], _export_vectors(db, writer, book.id)
    return PackBook(book.id, book.title, book.file_name, suffix, tables, count)


def _export_vectors(db, writer: PackWriter, book_id: str) -> int:
    """The book's vectors in one pass: the float32 matrix streamed, then the chunk ids in its row order."""
    ids: list[int] = []

    def blobs() -> Iterator[bytes]:
        for chunk_id, blob in db.execute("SELECT v.chunk_id, v.vector FROM vectors v JOIN chunks c ON c.id = "
                                         "v.chunk_id WHERE c.book_id = ? ORDER BY c.ordinal", [book_id]):
            ids.append(chunk_id)
            yield blob
    writer.add_blocks(book_member(book_id, "vectors.f32"), _batched(blobs()))
    writer.add_lines(book_member(book_id, "vectors.jsonl"), ([i] for i in ids))
    return len(ids)


def _batched(blobs: Iterator[bytes], size: int = 1024) -> Iterator[bytes]:
    batch: list[bytes] = []
    for blob in blobs:
        batch.append(blob)
        if len(batch) == size:
            yield b"".join(batch)
            batch = []
    if batch:
        yield b"".join(batch)


# -- import -----------------------------------------------------------------------------------------------
@dataclass
class _IdMaps:
    """Old row id -> new row id, per kind of row, for one book."""

    sections: dict[int, int]
    chunks: dict[int, int]
    cards: dict[int, int]
    conversations: dict[int, int]


def import_pack(lib, path: Path, *, new_card_schedule: Callable[[], tuple[str, str]], imported_at: str,
                progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                on_searchable: Callable[[Book], None] | None = None) -> list[ImportResult]:
    """Add a pack's books to the library: every hash and version checked first, then one transaction.

    Raises ``CoursePackError`` (the library unchanged) for a damaged, tampered, hostile or newer pack, and
    ``ImportCancelled`` when cancelled before the COMMIT.  Returns one ``ImportResult`` per book.
    """
    progress = progress or no_progress
    with PackReader(Path(path)) as pack:
        manifest = pack.manifest
        _check_versions(lib, pack)
        pack.verify(progress, cancel)
        duplicates = {b.id: lib.book(b.id) for b in manifest.books if row_sql.book_row(lib.reader, b.id)}
        new = [b for b in manifest.books if b.id not in duplicates]
        embedder = lib.embedder
        same_vectors = (manifest.embedding_model, manifest.embedding_dimension, manifest.chunker_version) == \
            (embedder.model_name, embedder.dimension, CHUNKER_VERSION)
        parts = _copy_files(lib, pack, new, cancel)
        try:
            check_cancel(cancel)
            added = _store(lib, pack, new, parts, same_vectors, new_card_schedule, imported_at, progress)
        finally:
            for part in parts.values():
                part.unlink(missing_ok=True)
    results = [ImportResult(str(path), ImportStatus.DUPLICATE, book=book, error_code="duplicate",
                            error=f"“{book.title}” is already in your library; it was left as it is.")
               for book in duplicates.values()]
    for book_id in added:
        book = lib.book(book_id)
        if on_searchable is not None:
            on_searchable(book)
        results.append(_finish(lib, path, book, progress, cancel))
    return results


def _check_versions(lib, pack: PackReader) -> None:
    manifest = pack.manifest
    if manifest.schema_version > store.schema_version():
        raise PackVersionError(f"{pack.path.name} was made by a newer Lantern ({manifest.app_version}, library "
                               f"schema {manifest.schema_version}). Update Lantern to open it.")
    for book in manifest.books:
        missing = set(BOOK_TABLES) - set(book.tables)
        if missing:
            raise CoursePackError(f"{pack.path.name} is incomplete: “{book.title}” has no {sorted(missing)[0]}.")
        for table, columns in book.tables.items():
            known = {c.name for c in lib.reader[table].columns} if table in _ALL_TABLES else set()
            if not known or not set(columns) <= known:
                raise PackVersionError(f"{pack.path.name} holds data this Lantern does not know ({table}); it "
                                       "was made by a newer Lantern. Update Lantern to open it.")



def _copy_files(lib, pack: PackReader, books: Sequence[PackBook], cancel: CancelFn | None) -> dict[str, Path]:
    """Each new book's file as ``books/<stored>.<pid>.part`` (renamed into place after the COMMIT)."""
    parts: dict[str, Path] = {}
    try:
        for book in books:
            check_cancel(cancel)
            member = pack.manifest.member(book_member(book.id, "file"))
            if member.sha256[:16] != book.id:
                raise CoursePackError(f"{pack.path.name} was tampered with: the file of “{book.title}” is not "
                                      "the book its id names. Nothing was imported.")
            part = lib.root / "books" / f"{book.id}{book.suffix}.{os.getpid()}.part"
            parts[book.id] = part
            try:
                pack.copy_to(member.name, part)
            except OSError as exc:
                raise CoursePackError(f"“{book.title}” could not be copied into the library ({exc.strerror or exc}"
                                      "; is the disk full?). Nothing was imported.") from None
    except BaseException:
        for part in parts.values():
            part.unlink(missing_ok=True)
        raise
    return parts


def _store(lib, pack: PackReader, books: Sequence[PackBook], parts: dict[str, Path], same_vectors: bool,
           new_card_schedule: Callable[[], tuple[str, str]], imported_at: str, progress: ProgressFn) -> list[str]:
    """One transaction for every new book; then the files go into place and the vectors into FAISS."""
    if not books:
        return []
    index = lib.vector_index()
    added_ids: list[int] = []
    added_vectors: list[np.ndarray] = []
    with lib._write_lock:
        try:
            with lib._writing():
                for n, book in enumerate(books):
                    progress("adding books", n, len(books))
                    ids, vectors = _store_book(lib.db, pack, book, same_vectors, new_card_schedule, imported_at)
                    added_ids += ids
                    if vectors is not None:
                        added_vectors.append(vectors)
                generation = store.bump_generation(lib.db)
        except sqlite3.DatabaseError as exc:
            raise CoursePackError(f"{pack.path.name} holds rows this library cannot take ({exc}). "
                                  "Nothing was imported.") from None
        for book in books:  # committed: the files go where the rows say they are
            os.replace(parts[book.id], lib.root / "books" / f"{book.id}{book.suffix}")
        if added_vectors:
            index.add(added_ids, np.vstack(added_vectors))
        index.save(generation)
    progress("adding books", len(books), len(books))
    return [b.id for b in books]


def _store_book(db, pack: PackReader, book: PackBook, same_vectors: bool,
                new_card_schedule: Callable[[], tuple[str, str]], imported_at: str
                ) -> tuple[list[int], np.ndarray | None]:
    def rows(table: str) -> tuple[list[str], Iterable[list[Any]]]:
        if table not in book.tables:
            return [], ()
        return book.tables[table], pack.lines(book_member(book.id, f"{table}.jsonl"))

    columns, found = rows("books")
    book_rows = [dict(zip(columns, _checked(columns, r))) for r in found]
    if len(book_rows) != 1 or book_rows[0].get("id") != book.id:
        raise CoursePackError(f"{pack.path.name} is damaged: the record of “{book.title}” is not its own.")
    record = book_rows[0] | {"stored_name": f"{book.id}{book.suffix}", "imported_at": imported_at,
                             "pending": 0 if same_vectors else 1,
                             "file_hash": pack.manifest.member(book_member(book.id, "file")).sha256}
    _insert(db, "books", list(record), [list(record.values())])
    maps = _IdMaps({}, {}, {}, {})
    _insert(db, "pages", *rows("pages"))
    maps.sections = _insert_sections(db, *rows("sections"))
    _insert(db, "blocks", *rows("blocks"), remap={"section_id": maps.sections}, drop=("id",))
    chunk_columns, chunk_rows = rows("chunks")
    pending = {} if same_vectors else {"pending": 1}
    maps.chunks = _insert(db, "chunks", chunk_columns, chunk_rows, remap={"section_id": maps.sections},
                          drop=("id",), force=pending)
    vector_ids, vectors = _vectors(pack, book, rows("vectors")[1], maps.chunks)
    if same_vectors:
        db.conn.executemany("INSERT INTO vectors (chunk_id, vector) VALUES (?, ?)",
                            ((cid, vec.tobytes()) for cid, vec in zip(vector_ids, vectors)))
    _store_study(db, book, rows, maps, new_card_schedule)
    if same_vectors:
        section_index.index_book(db, book.id)
        return vector_ids, vectors
    return [], None


def _store_study(db, book: PackBook, rows, maps: _IdMaps, new_card_schedule: Callable[[], tuple[str, str]]) -> None:
    fresh = {}
    if "study_cards" in book.tables and "study_reviews" not in book.tables:  # handed on without history
        schedule, due = new_card_schedule()
        fresh = {"schedule": schedule, "due": due}
    maps.cards = _insert(db, "study_cards", *rows("study_cards"), drop=("id",), force=fresh,
                         remap={"chunk_id": maps.chunks, "section_id": maps.sections}, unknown_to_null=True)
    _insert(db, "study_cache", *rows("study_cache"), json_remap=maps)
    _insert(db, "study_reviews", *rows("study_reviews"), drop=("id",), remap={"card_id": maps.cards})
    _insert(db, "study_attempts", *rows("study_attempts"), drop=("id",), remap={"section_id": maps.sections},
            unknown_to_null=True)
    maps.conversations = _insert(db, "conversations", *rows("conversations"), drop=("id",))
    _insert(db, "turns", *rows("turns"), drop=("id",), remap={"conversation_id": maps.conversations},
            json_remap=maps)


def _vectors(pack: PackReader, book: PackBook, id_rows: Iterable[list[Any]], chunk_map: dict[int, int]
             ) -> tuple[list[int], np.ndarray]:
    dim = pack.manifest.embedding_dimension
    raw = pack.read(book_member(book.id, "vectors.f32"))
    old_ids = [_int(r[0], pack) for r in id_rows]
    if dim <= 0 or len(raw) != len(old_ids) * dim * 4 or len(old_ids) != book.vector_count:
        raise CoursePackError(f"{pack.path.name} is damaged: the vectors of “{book.title}” do not match its "
                              "chunks.")
    try:
        new_ids = [chunk_map[i] for i in old_ids]
    except KeyError:
        raise CoursePackError(f"{pack.path.name} is damaged: a vector of “{book.title}” has no chunk.") from None
    matrix = np.frombuffer(raw, dtype="<f4").reshape(len(old_ids), dim).astype(np.float32)
    if not np.isfinite(matrix).all():
        raise CoursePackError(f"{pack.path.name} is damaged: the vectors of “{book.title}” hold non-numbers.")
    return new_ids, matrix


def _insert_sections(db, columns: list[str], found: Iterable[list[Any]]) -> dict[int, int]:
    """Sections with new ids; parents are mapped once every section of the book has its new id."""
    if not columns:
        return {}
    parent = columns.index("parent_id")
    held: list[tuple[int, Any]] = []

    def without_parent() -> Iterator[list[Any]]:
        for r in found:
            held.append((r[columns.index("id")], r[parent]))
            yield [*r[:parent], None, *r[parent + 1:]]
    mapping = _insert(db, "sections", columns, without_parent(), drop=("id",))
    for old, old_parent in held:
        if old_parent is not None:
            if old_parent not in mapping:
                raise CoursePackError("A course pack's section points to a section it does not hold.")
            db.execute("UPDATE sections SET parent_id = ? WHERE id = ?", [mapping[old_parent], mapping[old]])
    return mapping


def _insert(db, table: str, columns: list[str], found: Iterable[list[Any]], *, remap: dict | None = None,
            drop: tuple[str, ...] = (), force: dict | None = None, unknown_to_null: bool = False,
            json_remap: _IdMaps | None = None) -> dict[int, int]:
    """Insert rows given in the pack's column order; returns old ``id`` -> new ``id`` when ``id`` is dropped.

    ``remap`` maps a column's old ids to new ones (a missing id is damage, or NULL with ``unknown_to_null``);
    ``force`` sets columns; ``json_remap`` maps the row ids inside JSON text columns (cached study material).
    """
    if not columns:
        return {}
    remap, force = remap or {}, force or {}
    kept = [c for c in columns if c not in drop and c not in force]
    out_columns = kept + list(force)
    sql = f"INSERT INTO {table} ({', '.join(out_columns)}) VALUES ({', '.join('?' * len(out_columns))})"
    id_at = columns.index("id") if "id" in columns and "id" in drop else None
    mapping: dict[int, int] = {}
    for r in found:
        r = _checked(columns, r)
        values = dict(zip(columns, r))
        for column, ids in remap.items():
            old = values.get(column)
            if old is not None:
                if old not in ids and not unknown_to_null:
                    raise CoursePackError(f"A course pack's {table} row points to a {column} it does not hold.")
                values[column] = ids.get(old)
        if json_remap is not None:
            for column in ("value", "citations"):
                if isinstance(values.get(column), str):
                    values[column] = remap_json_ids(values[column], json_remap.chunks, json_remap.sections)
        cur = db.execute(sql, [values[c] for c in kept] + list(force.values()))
        if id_at is not None:
            mapping[r[id_at]] = cur.lastrowid
    return mapping


def _checked(columns: list[str], row: list[Any]) -> list[Any]:
    """Rows hold JSON scalars only, as many as there are columns (SQL takes them as parameters, never as text)."""
    if len(row) != len(columns) or not all(v is None or isinstance(v, (str, int, float)) for v in row):
        raise CoursePackError("A course pack's row does not match its columns; the pack is damaged.")
    return row


def _int(value: Any, pack: PackReader) -> int:
    if not isinstance(value, int):
        raise CoursePackError(f"{pack.path.name} is damaged: a vector's chunk id is not a number.")
    return value


_ITEM_ID = re.compile(r"^(\d+):(\d+)$")


def remap_json_ids(text: str, chunks: dict[int, int], sections: dict[int, int]) -> str:
    """Cached study JSON with its row ids mapped: ``chunk_id``/``section_id`` values and ``"<chunk>:<n>"``
    item ids.  Text that is not JSON is kept as it is; an id the pack did not hold becomes null."""
    try:
        data = json.loads(text)
    except ValueError:
        return text

    def walk(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if key in ("chunk_id", "chunk_ids") and isinstance(value, int):
            return chunks.get(value)
        if key == "section_id" and isinstance(value, int):
            return sections.get(value)
        if key == "id" and isinstance(value, str) and (m := _ITEM_ID.match(value)) and int(m[1]) in chunks:
            return f"{chunks[int(m[1])]}:{m[2]}"
        return value
    return json.dumps(walk(data), ensure_ascii=False)


def _finish(lib, path: Path, book: Book, progress: ProgressFn, cancel: CancelFn | None) -> ImportResult:
    """A book from a pack made with another embedding model is embedded here, as a dropped book is."""
    if not book.pending:
        return ImportResult(str(path), ImportStatus.IMPORTED, book=book)
    try:
        book = staged_import.complete(lib, book.id, None, progress, cancel)
    except LanternError as exc:
        why = "paused" if isinstance(exc, ImportCancelled) else f"stopped ({exc.message})"
        return ImportResult(str(path), ImportStatus.SEARCHABLE, book=lib.book(book.id), error_code="paused",
                            error=f"“{book.title}” can be searched by keyword; meaning search {why} and finishes "
                                  "the next time Lantern starts.")
    return ImportResult(str(path), ImportStatus.IMPORTED, book=book)
