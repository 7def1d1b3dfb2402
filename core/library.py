"""The ``Library`` facade: the only owner of the SQLite database, the stored book files and the index folder.

Layout of a library folder::

    lantern.db          SQLite (WAL): books, pages, sections, blocks, chunks, FTS, vectors, section index
    books/<id>.<ext>    a private copy of every imported file (the reader opens it)
    index/              the FAISS index and its manifest

Every import is one transaction: a failed or cancelled import leaves nothing behind.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import logging
import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core import sections_index, store
from core.errors import (BookImportError, BookNotFoundError, EmptyDocumentError, LanternError, LibraryError,
                         UnreadablePathError)
from core.importers import read_book
from core.importers.base import CancelFn, ProgressFn, check_cancel, no_progress
from core.indexing import insert_chunks, iter_vectors
from core.library_records import RecordsMixin
from core.models import (Book, BookId, Chunk, Hit, ImportResult, ImportStatus, Page, ParsedBook, SearchMode,
                         Section, SectionKind, SourceFormat)
from core.paths import default_library_dir
from core.retriever import RetrievalConfig, Retriever
from core.search import SearchFilter
from core.vector_index import Manifest, VectorIndex

log = logging.getLogger(__name__)

_CHAPTER_KINDS = (SectionKind.CHAPTER.value,)
_SECTION_KINDS = (SectionKind.SECTION.value, SectionKind.SUBSECTION.value)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Library(RecordsMixin):
    """A student's library of books, stored in one folder.

    Thread-safety: reads may happen from any thread; writes (import, remove) are serialised by an
    internal lock, and SQLite's WAL lets readers see either the old or the new state, never half.
    """

    DB_NAME = "lantern.db"

    def __init__(self, root: str | os.PathLike[str] | None = None, *, embedder=None,
                 retrieval: RetrievalConfig | None = None):
        """Open (or create) the library in ``root``.

        ``embedder`` defaults to the bundled all-MiniLM-L6-v2, loaded on first use (tests pass a fake).
        """
        self.root = Path(root) if root is not None else default_library_dir()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            (self.root / "books").mkdir(exist_ok=True)
            (self.root / "index").mkdir(exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"The library folder {self.root} cannot be created: {exc}") from exc
        self.db = store.connect(self.root / self.DB_NAME)  # the writer's connection
        from core.doctor import sweep_stale_temp_files
        # Temp files of a killed import/removal/index save; the database itself rolled back.
        sweep_stale_temp_files(self.root, self._stored_name_in_use)
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._readers: list = []
        self._embedder = embedder
        self._vindex: VectorIndex | None = None
        self._labels_cache: dict[str, dict[int, str]] = {}
        self.retriever = Retriever(lambda: self.reader, self.vector_index, self._embed_query, self._labels, retrieval)

    @property
    def reader(self):
        """This thread's read-only connection: it sees committed data only, never an import in flight."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = store.connect_reader(self.root / self.DB_NAME)
            self._local.db = db
            self._readers.append(db)
        return db

    # -- models and indexes --------------------------------------------------------------------------
    @property
    def embedder(self):
        """The embedding model (loaded lazily, shared process-wide)."""
        if self._embedder is None:
            from core.embedding import default_embedder
            self._embedder = default_embedder()
        return self._embedder

    def _embed_query(self, text: str):
        # Inside one ``find`` the chunk search and the section scores embed the same question: once.
        memo = getattr(self._local, "query_vectors", None)
        if memo is None:
            return self.embedder.encode_query(text)
        if text not in memo:
            memo[text] = self.embedder.encode_query(text)
        return memo[text]

    def _generation(self, db=None) -> int:
        db = db or self.reader
        return int(db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])

    def _bump_generation(self) -> int:
        """Inside a write transaction: mark the indexes as changed and return the new generation."""
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
        return self._generation(self.db)

    def _expected_manifest(self) -> Manifest:
        from core.chunking import CHUNKER_VERSION
        return Manifest(self.embedder.model_name, self.embedder.dimension, CHUNKER_VERSION)

    def vector_index(self) -> VectorIndex:
        """The FAISS index, loaded from disk or rebuilt from SQLite when it is missing or stale."""
        generation = self._generation()
        if self._vindex is not None and self._vindex.manifest.generation == generation:
            return self._vindex
        with self._write_lock:
            if self._vindex is not None and self._vindex.manifest.generation == self._generation():
                return self._vindex  # a writer brought it up to date while we waited for the lock
            index = self._vindex or VectorIndex(self.root / "index", self._expected_manifest())
            count = self.reader.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
            if not index.load(generation, count):
                log.info("rebuilding the vector index from %d stored vectors", count)
                index.rebuild(iter_vectors(self.reader, index.expected.dimension))
                index.save(generation)
            self._vindex = index
        return index

    # -- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        """Close the database connections (the object must not be used afterwards)."""
        for db in self._readers:
            try:
                db.conn.close()
            except Exception:  # a reader owned by a finished thread; closing is best effort
                pass
        self.db.conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        with self._write_lock, store.transaction(self.db):
            yield

    # -- import --------------------------------------------------------------------------------
    def import_book(self, path: str | os.PathLike[str], progress: ProgressFn | None = None,
                    cancel: CancelFn | None = None) -> ImportResult:
        """Import one file.  Never raises for bad input: the result carries status and a readable error.

        A duplicate (same bytes as a stored book) is reported, not stored twice.
        """
        src = Path(path)
        progress = progress or no_progress
        timings: list[tuple[str, float]] = []
        try:
            if not src.is_file():
                raise UnreadablePathError(
                    f"{src} is a folder, not a book file." if src.is_dir() else f"{src} does not exist.")
            t0 = time.perf_counter()
            digest = _hash_or_raise(src)
            existing = self._book_by_hash(digest)
            if existing is not None:
                return ImportResult(str(src), ImportStatus.DUPLICATE, book=existing,
                                    error=f"{src.name} is already in your library as “{existing.title}”.",
                                    error_code="duplicate")
            parsed = read_book(src, progress, cancel)
            timings.append(("read", time.perf_counter() - t0))
            check_cancel(cancel)
            from core.chunking import chunk_book
            drafts, vectors = chunk_book(parsed, self.embedder, progress=progress, cancel=cancel,
                                         reuse=self._stored_segment)
            if not drafts:  # e.g. every line was taken for a running header: nothing could be found
                raise EmptyDocumentError(f"{src.name} has no body text Lantern can search (only headers, "
                                         "footers or page numbers were found).")
            timings.append(("chunk+embed", time.perf_counter() - t0))
            book = self._store(src, digest, parsed, drafts, vectors, progress, cancel)
            timings.append(("total", time.perf_counter() - t0))
            log.info("imported %s as %s (%d pages) in %.1fs", src.name, book.id, book.page_count, timings[-1][1])
            return ImportResult(str(src), ImportStatus.IMPORTED, book=book, timings=tuple(timings))
        except LanternError as exc:
            log.warning("import of %s failed: %s", src, exc.message)
            return ImportResult(str(src), ImportStatus.ERROR, error=exc.message, error_code=exc.code)

    def _stored_segment(self, key: str) -> list[tuple[int, int, bytes]]:
        """The chunks of one stored copy of chunker segment ``key`` (for ``core.chunk_reuse``)."""
        return self.reader.execute(
            "SELECT c.unit_start, c.unit_end, v.vector FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
            " WHERE c.segment_key = ? AND c.book_id = (SELECT book_id FROM chunks WHERE segment_key = ? LIMIT 1)"
            " ORDER BY c.ordinal", [key, key]).fetchall()

    def _store(self, src: Path, digest: str, parsed: ParsedBook, drafts, vectors, progress: ProgressFn,
               cancel: CancelFn | None) -> Book:
        book_id = BookId(digest[:16])
        suffix = src.suffix.lower() if src.suffix else ".bin"
        stored_name = f"{book_id}{suffix}"
        target = self.root / "books" / stored_name
        tmp = target.with_name(f"{stored_name}.{os.getpid()}.part")  # pid: see core.doctor
        shutil.copyfile(src, tmp)
        try:
            check_cancel(cancel)
            index = self.vector_index()
            # The lock spans commit and index update: a search that sees the new generation waits
            # for it instead of rebuilding the index under us (which would add the vectors twice).
            with self._write_lock:
                with self._writing():
                    section_ids = self._insert_book(book_id, src, digest, stored_name, parsed)
                    chunk_ids = insert_chunks(self.db, book_id, parsed, section_ids, drafts, vectors)
                    sections_index.index_book(self.db, book_id)
                    generation = self._bump_generation()
                    check_cancel(cancel)
                    os.replace(tmp, target)  # inside the transaction: a failed commit removes it below
                # SQLite is the truth; if we die before this the index is rebuilt on next open.
                index.add(chunk_ids, vectors)
                index.save(generation)
            progress("done", 1, 1)
        except BaseException:
            tmp.unlink(missing_ok=True)
            if self._book_row(book_id) is None:
                target.unlink(missing_ok=True)
            raise
        return self.book(book_id)

    def _insert_book(self, book_id: BookId, src: Path, digest: str, stored_name: str,
                     parsed: ParsedBook) -> list[int]:
        db = self.db
        db["books"].insert({
            "id": book_id, "title": parsed.title, "authors": json.dumps(list(parsed.authors)),
            "source_format": parsed.source_format.value, "file_name": src.name,
            "stored_name": stored_name, "file_hash": digest, "file_size": src.stat().st_size,
            "page_count": len(parsed.pages), "paginated": int(parsed.paginated),
            "metadata": json.dumps([list(kv) for kv in parsed.metadata]),
            "imported_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
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

    # -- reading -------------------------------------------------------------------------------
    def books(self) -> list[Book]:
        """All books, in import order."""
        rows = list(self.reader.query("SELECT * FROM books ORDER BY imported_at, rowid"))
        return [self._book_from(row) for row in rows]

    def book(self, book_id: str) -> Book:
        """One book by id (a unique prefix of the id is accepted)."""
        row = self._book_row(book_id)
        if row is None:
            raise BookNotFoundError(f"No book with id {book_id!r} in this library.")
        return self._book_from(row)

    def book_file(self, book_id: str) -> Path:
        """Path of the library's own copy of the book's file (what the reader opens)."""
        row = self._book_row(book_id)
        if row is None:
            raise BookNotFoundError(f"No book with id {book_id!r} in this library.")
        return self.root / "books" / row["stored_name"]

    def sections(self, book_id: str) -> list[Section]:
        """The book's chapter/section tree in reading order (parents before children)."""
        bid = self.book(book_id).id
        labels = self._labels(bid)
        rows = self.reader.query("SELECT * FROM sections WHERE book_id = ? ORDER BY ordinal", [bid])
        return [store.section_from_row(r, labels) for r in rows]

    def pages(self, book_id: str) -> list[Page]:
        """Every page with its physical index and printed label."""
        bid = self.book(book_id).id
        rows = self.reader.query("SELECT idx, label FROM pages WHERE book_id = ? ORDER BY idx", [bid])
        return [store.page_from_row(r) for r in rows]

    def _labels(self, book_id: str) -> dict[int, str]:
        cached = self._labels_cache.get(book_id)
        if cached is None:
            cached = {r["idx"]: r["label"] for r in
                      self.reader.query("SELECT idx, label FROM pages WHERE book_id = ?", [book_id])}
            self._labels_cache[book_id] = cached
        return cached

    def _book_row(self, book_id: str) -> dict | None:
        if not book_id:
            return None
        rows = list(self.reader.query("SELECT * FROM books WHERE id = ? OR id LIKE ? LIMIT 2",
                                  [book_id, book_id.replace("%", "") + "%"]))
        exact = [r for r in rows if r["id"] == book_id]
        if exact:
            return exact[0]
        return rows[0] if len(rows) == 1 else None

    def _book_by_hash(self, digest: str) -> Book | None:
        rows = list(self.reader.query("SELECT * FROM books WHERE file_hash = ?", [digest]))
        return self._book_from(rows[0]) if rows else None

    def _book_from(self, row: dict) -> Book:
        counts = dict(self.reader.execute(
            "SELECT kind, COUNT(*) FROM sections WHERE book_id = ? GROUP BY kind", [row["id"]]).fetchall())
        chapters = sum(counts.get(k, 0) for k in _CHAPTER_KINDS)
        sections = sum(counts.get(k, 0) for k in _SECTION_KINDS)
        return store.book_from_row(row, chapters, sections)

    # -- removal -------------------------------------------------------------------------------
    def remove(self, book_id: str) -> Book:
        """Remove a book and everything derived from it in one transaction; return what was removed."""
        book = self.book(book_id)
        path = self.book_file(book.id)
        # Moved aside before COMMIT and deleted after: a process killed in between leaves a ``.del``
        # that the next open restores (row still there) or deletes (row gone) — see core.doctor.
        trash = path.with_name(f"{path.name}.{os.getpid()}.del")
        index = self.vector_index()
        with self._write_lock:  # commit + index update, as in ``_store``
            try:
                with self._writing():
                    chunk_ids = [r[0] for r in self.db.execute("SELECT id FROM chunks WHERE book_id = ?",
                                                               [book.id])]
                    self.db.execute("DELETE FROM books WHERE id = ?", [book.id])
                    generation = self._bump_generation()
                    if path.exists():
                        os.replace(path, trash)
            except BaseException:
                if trash.exists():
                    os.replace(trash, path)
                raise
            index.remove(chunk_ids)
            index.save(generation)
        self._labels_cache.pop(book.id, None)
        trash.unlink(missing_ok=True)
        return book

    # -- maintenance ---------------------------------------------------------------------------
    def _stored_name_in_use(self, stored_name: str) -> bool:
        return self.db.execute("SELECT 1 FROM books WHERE stored_name = ?", [stored_name]).fetchone() is not None

    def doctor(self, repair: bool = False):
        """Check the library for damage (SQLite, keyword index, vectors, FAISS, files); with ``repair``,
        fix what can be fixed without losing data.  Returns a ``core.doctor.DoctorReport``."""
        from core.doctor import Doctor
        return Doctor(self, repair).run()

    # -- search --------------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, *, book_id: str | None = None, chapters: tuple[str, ...] = (),
               pages: tuple[int, int] | None = None, roles: tuple[str, ...] = (),
               mode: SearchMode = SearchMode.HYBRID) -> list[Hit]:
        """Search the library's chunks; filters restrict to a book, chapters, a physical page range, roles."""
        if book_id:
            book_id = self.book(book_id).id
        flt = SearchFilter(book_id=book_id, chapters=tuple(chapters), page_range=pages, roles=tuple(roles))
        return self.retriever.search(query, k, flt, mode)

    @property
    def reranker(self):
        """The re-ranking stage ``find`` uses (a ``core.rescoring.Rescorer``, or None for none).

        Default: what ``LANTERN_RERANKER`` names (a local cross-encoder folder, ``default`` or ``off``;
        unset = the model-free ``SignalBlend``).  Assign to override for this library.
        """
        if not hasattr(self, "_reranker"):
            from core.rescoring import configured_reranker
            self._reranker = configured_reranker()
        return self._reranker

    @reranker.setter
    def reranker(self, value) -> None:
        self._reranker = value

    def find(self, question: str, k: int = 5, *, book_id: str | None = None, chapters: tuple[str, ...] = (),
             pages: tuple[int, int] | None = None, roles: tuple[str, ...] = (),
             mode: SearchMode = SearchMode.HYBRID, reranker=True) -> list[Hit]:
        """A student's question → the best few passages: query planning (intent, scope named in the
        question, expansions), then hybrid search, re-ranking, de-duplication, ≤ 2 chunks per section
        and role quotas.

        Scope from arguments wins over scope in the question; printed pages in the question ("pages
        40–60") are mapped to physical pages when one book is searched.  ``reranker``: True = the
        library's ``reranker``; None/False = no re-ranking; or a ``core.rescoring.Rescorer``.
        """
        from core.query import plan_query
        from core.rerank import select_hits
        from core.rescoring import rescore
        from core.scope import printed_to_physical

        plan = plan_query(question)
        chapters = tuple(chapters) or plan.scope.chapter_filter()
        if pages is None and plan.scope.pages and book_id:
            pages = printed_to_physical({p.index: p.label for p in self.pages(book_id)}, *plan.scope.pages)

        def search(text: str, n: int, want: tuple[str, ...]) -> list[Hit]:
            return self.search(text, n, book_id=book_id, chapters=chapters, pages=pages,
                               roles=want or tuple(roles), mode=mode)
        rescorer = self.reranker if reranker is True else (reranker or None)
        stage = (lambda text, hits: rescore(text, self._with_section_scores(text, hits, rescorer), rescorer)
                 ) if rescorer is not None else None
        self._local.query_vectors = {}
        try:
            return select_hits(plan, search, k, rescore=stage)
        finally:
            self._local.query_vectors = None

    def _with_section_scores(self, text: str, hits: list[Hit], rescorer) -> list[Hit]:
        """The re-scorer's first ``top_n`` hits with their sections' keyword and centroid scores for
        ``text``, when it reads them (``uses_section_scores``); otherwise the hits as they are."""
        if not getattr(rescorer, "uses_section_scores", False):
            return hits
        top_n = rescorer.top_n
        head = hits[:top_n]
        wanted = {(h.chunk.book_id, sections_index.chunk_section_key(h.chunk)) for h in head}
        keyword, vector = sections_index.section_scores(self.reader, text, self._embed_query(text), wanted)
        return sections_index.annotate(head, keyword, vector) + hits[top_n:]

    def chunks(self, ids) -> dict[int, Chunk]:
        """Chunks by id."""
        return self.retriever.chunks(list(ids))

    def chunk_count(self, book_id: str | None = None) -> int:
        if book_id:
            return self.reader.execute("SELECT COUNT(*) FROM chunks WHERE book_id = ?", [book_id]).fetchone()[0]
        return self.reader.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    # -- answers and conversations ---------------------------------------------------------------
    def neighbour_chunks(self, chunks, radius: int = 2) -> list[Chunk]:
        """Chunks within ``radius`` ordinals of each given chunk, same book (for small-to-big passages)."""
        ids: set[int] = set()
        for c in chunks:
            ids.update(r[0] for r in self.reader.execute(
                "SELECT id FROM chunks WHERE book_id = ? AND ordinal BETWEEN ? AND ?",
                [c.book_id, c.ordinal - radius, c.ordinal + radius]))
        found = self.chunks(sorted(ids))
        return [found[i] for i in sorted(found)]


def _hash_or_raise(path: Path) -> str:
    try:
        return file_sha256(path)
    except PermissionError:
        raise UnreadablePathError(f"{path} cannot be read (permission denied).") from None
    except OSError as exc:
        raise UnreadablePathError(f"{path} cannot be read: {exc.strerror or exc}.") from None


__all__ = ["Library", "file_sha256", "BookImportError", "SourceFormat"]
