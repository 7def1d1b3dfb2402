"""Import in two stages, so a student never waits for the embedding pass before asking.

1. *Searchable*: read the file, plan its chunks (sentences, token ids: no model pass) and store the
   book with chunks cut by size alone, in one transaction.  Keyword search (FTS5) finds them at once;
   the book is marked ``pending``.
2. *Embedded*: chapter by chapter, run the model over the chapter's segments, cut them at topic
   valleys (``core.index.chunker``) and replace that chapter's keyword-only chunks with the real ones
   and their vectors, one transaction per chapter.  Dense search uses each chapter as it lands.

A quit, a crash or a cancel during stage 2 loses at most the chapter in flight: the next
``Library.complete_book`` (the next start of the app, or ``lantern import`` of the same file) reads
the stored copy again, finds which segments still hold keyword-only chunks (ordinal ranges of
``chunker.ORDINAL_STRIDE``) and embeds only those.  When every segment is done, the chunks are
numbered 0, 1, 2 ... and the section index is built, as a one-shot import would leave them.

Used only by ``core.library`` (``Library.import_book`` is ``import_file``; like ``core.index.doctor``,
it works on the library's connections, write lock and vector index).
"""
from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from core.errors import (BookNotFoundError, EmptyDocumentError, ImportCancelled, LanternError,
                         UnreadablePathError)
from core.index import chunker, rows
from core.index import schema as store
from core.index import sections as section_index
from core.index.chunker import ORDINAL_STRIDE, Prepared
from core.ingest.read import book_digest, read_book
from core.models import Book, BookId, ChunkDraft, ImportResult, ImportStatus
from core.progress import CancelFn, ProgressFn, check_cancel, no_progress

log = logging.getLogger(__name__)

GROUP_TOKENS = 30_000
"""At most this many word pieces per committed group (~10-15 s of embedding on 2 cores): a long chapter
is split so a crash loses little and progress moves."""
SAVE_EVERY_S = 10.0
"""The FAISS file is rewritten at most this often while a book fills in (and always at the end); other
processes rebuild their copy from SQLite when it lags, which is exact."""


def import_file(lib, src: Path, progress: ProgressFn, cancel: CancelFn | None,
                on_searchable: Callable[[Book], None] | None, imported_at: str) -> ImportResult:
    """``Library.import_book``: both stages, or the rest of a pending book that has the same bytes."""
    timings: list[tuple[str, float]] = []
    try:
        if not src.is_file():
            raise UnreadablePathError(
                f"{src} is a folder, not a book file." if src.is_dir() else f"{src} does not exist.")
        t0 = time.perf_counter()
        digest = book_digest(src)
        existing = next((rows.book_record(lib.reader, r) for r in rows.book_rows(lib.reader, file_hash=digest)), None)
        if existing is not None and existing.pending:
            return _finish_import(lib, src, existing, None, progress, cancel, timings, t0)
        if existing is not None:
            return ImportResult(str(src), ImportStatus.DUPLICATE, book=existing,
                                error=f"{src.name} is already in your library as “{existing.title}”.",
                                error_code="duplicate")
        parsed = read_book(src, progress, cancel)
        timings.append(("read", time.perf_counter() - t0))
        check_cancel(cancel)
        prep = chunker.plan(parsed, lib.embedder, progress=progress, cancel=cancel,
                            reuse=lambda key: rows.stored_segment(lib.reader, key))
        drafts = chunker.keyword_drafts(prep)
        if not drafts:  # e.g. every line was taken for a running header: nothing could be found
            raise EmptyDocumentError(f"{src.name} has no body text Lantern can search (only headers, "
                                     "footers or page numbers were found).")
        book = store_searchable(lib, src, digest, prep, drafts, imported_at, cancel)
        timings.append(("searchable", time.perf_counter() - t0))
        log.info("%s is keyword-searchable as %s after %.1fs", src.name, book.id, timings[-1][1])
        if on_searchable is not None:
            on_searchable(book)
        return _finish_import(lib, src, book, prep, progress, cancel, timings, t0)
    except LanternError as exc:
        log.warning("import of %s failed: %s", src, exc.message)
        return ImportResult(str(src), ImportStatus.ERROR, error=exc.message, error_code=exc.code)


def _finish_import(lib, src: Path, book: Book, prep: Prepared | None, progress: ProgressFn,
                   cancel: CancelFn | None, timings: list[tuple[str, float]], t0: float) -> ImportResult:
    try:
        book = complete(lib, book.id, prep, progress, cancel)
    except BookNotFoundError as exc:
        return ImportResult(str(src), ImportStatus.ERROR, error=exc.message, error_code=exc.code)
    except LanternError as exc:  # cancelled, or the model failed: the book stays keyword-searchable
        log.warning("embedding of %s stopped: %s", src, exc.message)
        why = "paused" if isinstance(exc, ImportCancelled) else f"stopped ({exc.message})"
        return ImportResult(str(src), ImportStatus.SEARCHABLE, book=lib.book(book.id),
                            error=f"“{book.title}” can be searched by keyword; meaning search {why} and "
                                  "finishes the next time Lantern starts or the file is imported again.",
                            error_code="paused")
    timings.append(("total", time.perf_counter() - t0))
    log.info("imported %s as %s (%d pages) in %.1fs", src.name, book.id, book.page_count, timings[-1][1])
    return ImportResult(str(src), ImportStatus.IMPORTED, book=book, timings=tuple(timings))


def store_searchable(lib, src: Path, digest: str, prep: Prepared, drafts: list[ChunkDraft], imported_at: str,
                     cancel: CancelFn | None) -> Book:
    """Stage 1: copy the file into the library and store the book with keyword-only chunks (one transaction)."""
    parsed = prep.parsed
    book_id = BookId(digest[:16])
    suffix = src.suffix.lower() if src.suffix else ".bin"
    stored_name = f"{book_id}{suffix}"
    target = lib.root / "books" / stored_name
    tmp = target.with_name(f"{stored_name}.{os.getpid()}.part")  # pid: see core.index.doctor
    shutil.copyfile(src, tmp)
    try:
        check_cancel(cancel)
        index = lib.vector_index()
        with lib._write_lock:
            with lib._writing():
                section_ids = rows.insert_book(lib.db, book_id, parsed, file_name=src.name, digest=digest,
                                               stored_name=stored_name, file_size=src.stat().st_size,
                                               imported_at=imported_at, pending=True)
                rows.insert_chunks(lib.db, book_id, parsed, section_ids, drafts, None)
                generation = store.bump_generation(lib.db)
                os.replace(tmp, target)  # inside the transaction: a failed commit removes it below
            index.mark(generation)  # no vectors yet: the index is current (not rebuilt from SQLite)
    except BaseException:
        tmp.unlink(missing_ok=True)
        if rows.book_row(lib.db, book_id) is None:
            target.unlink(missing_ok=True)
        raise
    return lib.book(book_id)


def complete(lib, book_id: str, prep: Prepared | None = None, progress: ProgressFn | None = None,
             cancel: CancelFn | None = None) -> Book:
    """Stage 2: embed whatever segments of a pending book are still keyword-only, chapter by chapter.

    ``prep``: the plan stage 1 made (a resumed import plans the stored copy again).  Raises
    ``ImportCancelled`` between chapters (what was committed stays), ``BookNotFoundError`` if the book
    was removed meanwhile.
    """
    progress = progress or no_progress
    if prep is None:
        parsed = read_book(lib.book_file(book_id), None, cancel)
        prep = chunker.plan(parsed, lib.embedder, cancel=cancel,
                            reuse=lambda key: rows.stored_segment(lib.reader, key))
    todo = _segments_to_embed(lib, book_id, prep)
    groups = chapter_groups(prep, todo)
    section_ids = rows.section_ids(lib.reader, book_id)
    total = sum(_tokens(prep, g) for g in groups) or 1
    done = 0
    index = lib.vector_index()
    last_save = time.monotonic()
    log.info("embedding %s: %d of %d segments in %d groups", book_id, len(todo), len(prep.segments), len(groups))
    for group in groups:
        check_cancel(cancel)
        size = _tokens(prep, group)

        def inner(stage: str, d: int, t: int, base=done, size=size) -> None:
            progress("embedding", base + (size * d // t if t else 0), total)
        drafts, vectors = chunker.embedded_drafts(prep, group, lib.embedder, progress=inner, cancel=cancel)
        with lib._write_lock:  # commit + index update together: a search never rebuilds under us
            with lib._writing():
                if rows.book_row(lib.db, book_id) is None:
                    raise BookNotFoundError(f"The book {book_id} was removed while it was being indexed.")
                rows.delete_pending(lib.db, book_id, group, ORDINAL_STRIDE)
                ids = rows.insert_chunks(lib.db, BookId(book_id), prep.parsed, section_ids, drafts, vectors)
                generation = store.bump_generation(lib.db)
            index.add(ids, vectors)
            if time.monotonic() - last_save >= SAVE_EVERY_S:
                index.save(generation)
                last_save = time.monotonic()
            else:
                index.mark(generation)
        done += size
        progress("embedding", done, total)
    with lib._write_lock:
        with lib._writing():
            rows.mark_complete(lib.db, book_id)
            section_index.index_book(lib.db, book_id)
            generation = store.bump_generation(lib.db)
        index.save(generation)
    progress("done", 1, 1)
    return lib.book(book_id)


def _segments_to_embed(lib, book_id: str, prep: Prepared) -> list[int]:
    """Segments still keyword-only; if the stored chunks do not match this plan (another Lantern cut
    them), every chunk of the book is cut again by size and all segments are embedded."""
    states = rows.segment_states(lib.reader, book_id, ORDINAL_STRIDE)
    keys = {si: seg.key for si, seg in enumerate(prep.segments)}
    if set(states) == set(keys) and all(states[si][0] == keys[si] for si in keys):
        return [si for si in sorted(states) if states[si][1]]
    log.warning("the stored chunks of %s do not match its plan; cutting them again", book_id)
    drafts = chunker.keyword_drafts(prep)
    index = lib.vector_index()
    with lib._write_lock:
        with lib._writing():
            removed = rows.delete_chunks(lib.db, book_id)
            rows.insert_chunks(lib.db, BookId(book_id), prep.parsed, rows.section_ids(lib.db, book_id), drafts, None)
            generation = store.bump_generation(lib.db)
        index.remove(removed)
        index.save(generation)
    return list(range(len(prep.segments)))


def chapter_groups(prep: Prepared, segments: list[int], max_tokens: int = GROUP_TOKENS) -> list[list[int]]:
    """Consecutive segments of one chapter, split so no group exceeds ``max_tokens`` word pieces."""
    groups: list[list[int]] = []
    current_chapter: object = object()
    size = 0
    for si in segments:
        chapter = rows.chapter_and_section(prep.parsed, prep.segments[si].section)[0]
        tokens = _tokens(prep, [si])
        if not groups or chapter != current_chapter or (size + tokens > max_tokens and groups[-1]):
            groups.append([])
            size = 0
        groups[-1].append(si)
        size += tokens
        current_chapter = chapter
    return groups


def _tokens(prep: Prepared, segments: list[int]) -> int:
    return sum(len(u.ids) for si in segments for u in prep.segments[si].units)

