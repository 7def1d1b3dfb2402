"""The ``Library`` facade: the only owner of the SQLite database, the stored book files and the index folder.

Layout of a library folder::

    lantern.db          SQLite (WAL): books, pages, sections, blocks, chunks, FTS, vectors, section index,
                        conversations, study records
    books/<id>.<ext>    a private copy of every imported file (the reader opens it)
    index/              the FAISS index and its manifest

An import stores a book keyword-searchable in one transaction (a failure before that leaves nothing
behind), then adds its vectors chapter by chapter (``core.index.staged_import``).  The work itself
lives in the stages below: ``core.ingest`` reads a file, ``core.index`` chunks, embeds and stores it,
``core.retrieval`` searches it; the SQL of the student's records is in ``core.index.conversations``
and ``core.study.store``.
"""
from __future__ import annotations

import datetime as _dt
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from core.errors import BookNotFoundError, LibraryError
from core.index import conversations, pack, rows, staged_import
from core.index import embedder as embedders
from core.index import schema as store
from core.index import sections as section_index
from core.index.chunker import CHUNKER_VERSION
from core.index.doctor import Doctor, DoctorReport, sweep_stale_temp_files
from core.index.vectors import Manifest, VectorIndex
from core.ingest.pdf.ocr import PageCache
from core.models import (Book, Chunk, Conversation, Hit, ImportResult, Page,
                         SearchMode, Section, Turn)
from core.paths import default_library_dir
from core.progress import CancelFn, ProgressFn, no_progress
from core.retrieval import pipeline
from core.retrieval.rescoring import configured_reranker
from core.retrieval.retriever import RetrievalConfig, Retriever, SearchFilter
from core.retrieval.scope import printed_to_physical
from core.study import store as study_store
from core.study.schedule import new_schedule

log = logging.getLogger(__name__)


def _utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Library:
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
            for folder in (self.root, self.root / "books", self.root / "index"):
                folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"The library folder {self.root} cannot be created: {exc}") from exc
        self.db = store.connect(self.root / self.DB_NAME)  # the writer's connection
        # Temp files of a killed import/removal/index save; the database itself rolled back.
        sweep_stale_temp_files(self.root, lambda name: rows.stored_name_in_use(self.db, name))
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
            self._embedder = embedders.default_embedder()
        return self._embedder

    def _embed_query(self, text: str):
        # Inside one ``find`` the chunk search and the section scores embed the same question: once.
        memo = getattr(self._local, "query_vectors", None)
        if memo is None:
            return self.embedder.encode_query(text)
        if text not in memo:
            memo[text] = self.embedder.encode_query(text)
        return memo[text]

    def vector_index(self) -> VectorIndex:
        """The FAISS index, loaded from disk or rebuilt from SQLite when it is missing or stale."""
        generation = store.generation(self.reader)
        if self._vindex is not None and self._vindex.manifest.generation == generation:
            return self._vindex
        with self._write_lock:
            if self._vindex is not None and self._vindex.manifest.generation == store.generation(self.reader):
                return self._vindex  # a writer brought it up to date while we waited for the lock
            expected = Manifest(self.embedder.model_name, self.embedder.dimension, CHUNKER_VERSION)
            index = self._vindex or VectorIndex(self.root / "index", expected)
            index.load_or_rebuild(generation, rows.vector_count(self.reader),
                                  lambda dim: rows.iter_vectors(self.reader, dim))
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
                    cancel: CancelFn | None = None, on_searchable: Callable[[Book], None] | None = None
                    ) -> ImportResult:
        """Import one file.  Never raises for bad input: the result carries status and a readable error.

        Two stages (``core.index.staged_import``): within seconds the book is stored and keyword-searchable
        (``on_searchable(book)`` is called then), and its vectors fill in chapter by chapter.  A cancel
        (or an error) before that point leaves nothing behind; after it, the book stays searchable and
        the result is ``SEARCHABLE`` — ``complete_book`` (or importing the same file again) finishes it.
        A duplicate (same bytes as a stored book) is reported, not stored twice.
        """
        return staged_import.import_file(self, Path(path), progress or no_progress, cancel, on_searchable,
                                         _utc_now())

    def pending_books(self) -> list[Book]:
        """Books stored and keyword-searchable whose vectors are not all made yet (an import was stopped)."""
        return [self.book(b) for b in rows.pending_book_ids(self.reader)]

    def complete_book(self, book_id: str, progress: ProgressFn | None = None,
                      cancel: CancelFn | None = None) -> Book:
        """Embed the rest of a pending book (from its stored copy; segments already done are kept)."""
        book = self.book(book_id)
        if not book.pending:
            return book
        return staged_import.complete(self, book.id, None, progress, cancel)

    def embedding_share(self, book_id: str) -> float:
        """Share of a book's chunks that have their vectors: below 1.0 while it is pending."""
        return rows.embedding_share(self.reader, self.book(book_id).id)

    # -- reading -------------------------------------------------------------------------------
    def books(self) -> list[Book]:
        """All books, in import order."""
        return [rows.book_record(self.reader, r) for r in rows.book_rows(self.reader)]

    def book(self, book_id: str) -> Book:
        """One book by id (a unique prefix of the id is accepted)."""
        return rows.book_record(self.reader, self._book_row(book_id))

    def book_file(self, book_id: str) -> Path:
        """Path of the library's own copy of the book's file (what the reader opens)."""
        return self.root / "books" / self._book_row(book_id)["stored_name"]

    def sections(self, book_id: str) -> list[Section]:
        """The book's chapter/section tree in reading order (parents before children)."""
        bid = self.book(book_id).id
        labels = self._labels(bid)
        found = self.reader.query("SELECT * FROM sections WHERE book_id = ? ORDER BY ordinal", [bid])
        return [rows.section_from_row(r, labels) for r in found]

    def pages(self, book_id: str) -> list[Page]:
        """Every page with its physical index and printed label."""
        bid = self.book(book_id).id
        return [Page(index=i, label=label) for i, label in sorted(self._labels(bid).items())]

    def _labels(self, book_id: str) -> dict[int, str]:
        if book_id not in self._labels_cache:
            self._labels_cache[book_id] = rows.page_labels(self.reader, book_id)
        return self._labels_cache[book_id]

    def _book_row(self, book_id: str) -> dict:
        row = rows.book_row(self.reader, book_id)
        if row is None:
            raise BookNotFoundError(f"No book with id {book_id!r} in this library.")
        return row

    # -- removal -------------------------------------------------------------------------------
    def remove(self, book_id: str) -> Book:
        """Remove a book and everything derived from it in one transaction; return what was removed."""
        book = self.book(book_id)
        path = self.book_file(book.id)
        # Moved aside before COMMIT and deleted after: a process killed in between leaves a ``.del``
        # that the next open restores (row still there) or deletes (row gone) — see core.index.doctor.
        trash = path.with_name(f"{path.name}.{os.getpid()}.del")
        index = self.vector_index()
        with self._write_lock:  # commit + index update together (as in ``staged_import.complete``)
            try:
                with self._writing():
                    chunk_ids = rows.delete_book(self.db, book.id)
                    generation = store.bump_generation(self.db)
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
        PageCache(book.file_hash).remove()  # a scan's recognised text goes with the book
        return book

    # -- course packs (``core.index.pack``) ---------------------------------------------------------
    def export_pack(self, book_ids, target: str | os.PathLike[str], *, with_study: bool = True,
                    with_progress: bool = False, progress: ProgressFn | None = None,
                    cancel: CancelFn | None = None) -> pack.PackSummary:
        """Write books (their files, rows and vectors; ``with_study``: cards without review history, lessons,
        guides; ``with_progress``: the student's own records too) to one course-pack file."""
        return pack.export_pack(self, [self.book(b).id for b in book_ids], Path(target), with_study=with_study,
                                with_progress=with_progress, created_at=_utc_now(), progress=progress, cancel=cancel)

    def import_pack(self, path: str | os.PathLike[str], progress: ProgressFn | None = None,
                    cancel: CancelFn | None = None, on_searchable: Callable[[Book], None] | None = None
                    ) -> list[ImportResult]:
        """Add a course pack's books with their vectors (no re-embedding when the embedding model matches).
        Every hash and version is checked first: ``CoursePackError`` leaves the library as it was."""
        return pack.import_pack(self, Path(path), new_card_schedule=new_schedule, imported_at=_utc_now(),
                                progress=progress, cancel=cancel, on_searchable=on_searchable)

    # -- maintenance ---------------------------------------------------------------------------
    def doctor(self, repair: bool = False) -> DoctorReport:
        """Check the library for damage (SQLite, keyword index, vectors, FAISS, files); with ``repair``,
        fix what can be fixed without losing data."""
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
        """The re-ranking stage ``find`` uses (a ``core.retrieval.rescoring.Rescorer``, or None for none).

        Default: what ``LANTERN_RERANKER`` names (a local cross-encoder folder, ``default`` or ``off``;
        unset = the model-free ``SignalBlend``).  Assign to override for this library.
        """
        if not hasattr(self, "_reranker"):
            self._reranker = configured_reranker()
        return self._reranker

    @reranker.setter
    def reranker(self, value) -> None:
        self._reranker = value

    def find(self, question: str, k: int = 5, *, book_id: str | None = None, chapters: tuple[str, ...] = (),
             pages: tuple[int, int] | None = None, roles: tuple[str, ...] = (),
             mode: SearchMode = SearchMode.HYBRID, reranker=True) -> list[Hit]:
        """A student's question → the best few passages (``core.retrieval.pipeline.find``): query planning,
        hybrid search, re-ranking, de-duplication, ≤ 2 chunks per section and role quotas.

        ``reranker``: True = the library's ``reranker``; None/False = no re-ranking; or a ``Rescorer``.
        """
        book_id = self.book(book_id).id if book_id else None
        printed = None
        if book_id:
            def printed(first, last=None):
                return printed_to_physical(self._labels(book_id), first, last)

        def search(text: str, n: int, *, chapters, pages, roles) -> list[Hit]:
            return self.search(text, n, book_id=book_id, chapters=chapters, pages=pages, roles=roles, mode=mode)

        def section_scores(text: str, wanted):
            return section_index.section_scores(self.reader, text, self._embed_query(text), wanted)
        self._local.query_vectors = {}
        try:
            hits = pipeline.find(question, k, search, chapters=chapters, pages=pages, roles=roles,
                                 printed_to_pages=printed, section_scores=section_scores,
                                 rescorer=self.reranker if reranker is True else (reranker or None),
                                 labelled=lambda labels: self.retriever.labelled(labels, book_id))
            return self._with_pending_cosines(question, hits)
        finally:
            self._local.query_vectors = None

    def _with_pending_cosines(self, question: str, hits: list[Hit]) -> list[Hit]:
        """Hits from a book still being embedded came from keyword search alone; give each the cosine its
        vector will have (embedded now, a few passages) so the coverage decision reads them as usual."""
        pending = set(rows.pending_chunk_ids(self.reader, [h.chunk.id for h in hits]))
        if not pending:
            return hits
        todo = [h for h in hits if h.chunk.id in pending and "vector" not in dict(h.stage_scores)]
        matrix = self.embedder.encode([rows.embed_text(h.chunk) for h in todo]) if todo else []
        qvec = self._embed_query(question)
        cosines = {h.chunk.id: float(vec @ qvec) for h, vec in zip(todo, matrix)}
        return [replace(h, stage_scores=h.stage_scores + (("vector", cosines[h.chunk.id]),))
                if h.chunk.id in cosines else h for h in hits]

    def mentions(self, phrase: str, *, book_id: str | None = None, exact_case: bool = False) -> bool:
        """Does ``phrase`` occur anywhere in the library (or one book), folded as keyword search folds it
        (``exact_case``: with the same capitals)?"""
        return self.retriever.mentions(phrase, self._book_row(book_id)["id"] if book_id else None,
                                       exact_case=exact_case)

    def mentions_loosely(self, phrase: str, *, book_id: str | None = None) -> bool:
        """Does ``phrase`` occur once a hyphenated term is read as its parts ("Pavlov-style") or a word the
        books never use as a slip of one they do ("rythm" for "rhythm")?  False when it holds neither."""
        return self.retriever.mentions_loosely(phrase, self._book_row(book_id)["id"] if book_id else None)

    def chunks(self, ids) -> dict[int, Chunk]:
        """Chunks by id."""
        return self.retriever.chunks(list(ids))

    def chunk_count(self, book_id: str | None = None) -> int:
        """Chunks in the library, or in one book."""
        return rows.chunk_count(self.reader, book_id)

    def neighbour_chunks(self, chunks, radius: int = 2) -> list[Chunk]:
        """Chunks within ``radius`` ordinals of each given chunk, same book (for small-to-big passages)."""
        found = self.chunks(rows.neighbour_ids(self.reader, chunks, radius))
        return [found[i] for i in sorted(found)]

    # -- a student's records: conversations, study ---------------------------------------------------
    def create_conversation(self, title: str = "", book_id: str | None = None) -> Conversation:
        """Start a conversation (``title``: usually the first question) and return it (no turns yet)."""
        book_id = self.book(book_id).id if book_id else None
        with self._writing():
            cid = conversations.insert_conversation(self.db, " ".join(title.split())[:200], book_id, _utc_now())
        return self.load_conversation(cid)

    def append_turn(self, conversation_id: int, turn: Turn) -> Turn:
        """Append a question/answer ``Turn`` to a conversation; returns it with its ordinal and time."""
        with self._writing():
            return conversations.insert_turn(self.db, conversation_id, turn, _utc_now())

    def conversations(self, book_id: str | None = None) -> list[Conversation]:
        """Stored conversations, most recently updated first (``turns`` empty, ``turn_count`` set)."""
        return conversations.list_conversations(self.reader, book_id)

    def load_conversation(self, conversation_id: int) -> Conversation:
        """One conversation with all its turns in order (``LibraryError`` if it does not exist)."""
        return conversations.load_conversation(self.reader, conversation_id)

    def delete_conversation(self, conversation_id: int) -> None:
        """Remove a conversation and its turns."""
        with self._writing():
            conversations.delete_conversation(self.db, conversation_id)

    def study_chunks(self, book_id: str, *, chapter: str | None = None, roles: tuple[str, ...] = ()) -> list[Chunk]:
        """A book's chunks in reading order, optionally one chapter (its number, "3" or "A") and roles."""
        ids = study_store.chunk_ids(self.reader, self.book(book_id).id, chapter, roles)
        found = self.chunks(ids)
        return [found[i] for i in ids if i in found]

    def add_cards(self, book_id: str, cards, schedule: str, due: str) -> int:
        """Store new flashcards with an initial schedule (JSON) and due time; a card whose front the book
        already has is skipped.  Returns how many were added."""
        bid = self.book(book_id).id
        with self._writing():
            return study_store.insert_cards(self.db, bid, cards, schedule, due, _utc_now())

    def cards(self, book_id: str, *, chapter: str | None = None, due_before: str | None = None) -> list:
        """Stored flashcards (``core.study.models.StoredCard``), soonest due first; ``due_before``: ISO time."""
        bid = self.book(book_id).id
        return study_store.list_cards(self.reader, bid, self._labels(bid), chapter, due_before)

    def save_review(self, card_id: int, rating: int, schedule: str, due: str, reviewed_at: str) -> None:
        """Record one review of a card with its new schedule (computed by ``core.study.schedule``)."""
        with self._writing():
            study_store.update_card(self.db, card_id, rating, schedule, due, reviewed_at)

    def record_attempt(self, book_id: str, kind: str, item: str, section_id: int | None,
                       score: float | None) -> None:
        """Remember that the student practised ``item`` ("practice" / "quiz") and how well (0..1 or None)."""
        bid = self.book(book_id).id
        with self._writing():
            study_store.insert_attempt(self.db, bid, kind, item, section_id, score, _utc_now())

    def attempts(self, book_id: str) -> list[dict]:
        """A book's practice/quiz attempts, oldest first (dicts: kind, item, section_id, score, created_at)."""
        return study_store.list_attempts(self.reader, self.book(book_id).id)

    def study_cache_get(self, book_id: str, key: str) -> str | None:
        """A cached study artefact of a book (e.g. a chapter guide's JSON), or None."""
        return study_store.cache_get(self.reader, self.book(book_id).id, key)

    def study_cache_put(self, book_id: str, key: str, value: str) -> None:
        """Store (or replace) a cached study artefact of a book."""
        bid = self.book(book_id).id
        with self._writing():
            study_store.cache_put(self.db, bid, key, value, _utc_now())
