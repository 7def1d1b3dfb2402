"""Background work: the import queue and the answer runner, each on its own single-thread pool.

Rules kept here so the widgets never have to think about threads:

* Workers never touch widgets.  They report through signals of a ``QObject`` emitter that lives in
  the GUI thread, so every connected slot runs on the GUI thread (queued connection).
* Library writes are serialised: imports (and removals) run one at a time on ``ImportQueue``'s pool.
* One thread owns the model: every ``asker.ask`` iteration runs on ``AskRunner``'s pool, which has
  exactly one thread and is separate from the import pool.
* The GUI must not stall while a worker runs Python: every job holds ``desktop.heap.HeapPolicy`` (no
  full GC pass, which holds the GIL for every thread, until the work is done).
"""
from __future__ import annotations

import gc
import importlib
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from core.errors import ImportCancelled, LanternError, ModelUnavailableError
from core.index.pack_format import SUFFIX as PACK_SUFFIX
from core.models import AnswerEventKind, ImportResult, ImportStatus, Turn
from desktop.errors import error_text
from desktop.heap import HeapPolicy, settle_heap  # noqa: F401 - settle_heap: re-exported
from desktop.protocols import Asker, Scope

log = logging.getLogger(__name__)

_ids = itertools.count(1)

WARM_MODULES = ("core.index.chunker", "core.ingest.sentences", "core.ingest.enrich", "core.ingest.pdf.reader",
                "core.ingest.epub", "core.ingest.markdown", "core.ingest.html.reader", "core.ingest.plain_text")


def warm_up(library) -> None:
    """Import the import pipeline's modules and load the embedding model (worker thread, at start-up).

    Loading C extensions holds the GIL; doing it before the student's first import keeps that import
    from stuttering the window.  A model that cannot load is reported when it is first really used.
    """
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            log.warning("warm-up could not import %s: %s", name, exc)
    try:
        from core.ingest.sentences import split_sentences
        split_sentences("Lantern warms up. It loads the sentence splitter now.")  # imports NLTK (~1300 modules)
        library.embedder.encode_query("warm up")
    except Exception as exc:  # ModelUnavailableError and friends surface on first real use
        log.info("embedding model not warmed up: %s", exc)


def single_thread_pool(parent: QObject, name: str) -> QThreadPool:
    """A ``QThreadPool`` with exactly one thread (FIFO: jobs run in submission order)."""
    pool = QThreadPool(parent)
    pool.setObjectName(name)
    pool.setMaxThreadCount(1)
    pool.setExpiryTimeout(-1)  # keep the thread: the model's thread-local state stays valid
    return pool


class FnRunnable(QRunnable):
    """Runs a plain callable on a pool (the callable reports through signals itself)."""

    def __init__(self, fn: Callable[[], None]):
        super().__init__()
        self._fn = fn

    def run(self) -> None:  # noqa: D102 - QRunnable API
        try:
            self._fn()
        except BaseException:  # a worker must never take the process down
            log.exception("background job failed")


# -- imports ------------------------------------------------------------------------------------------
@dataclass
class ImportJob:
    """One file in the import queue (``cancel`` is read by the worker, set by the GUI)."""

    id: int
    path: Path
    cancel: threading.Event = field(default_factory=threading.Event)
    name: str = ""  # what the import panel shows (default: the file's name)
    book_id: str = ""  # known once the book is stored (or from the start, when resuming one)


class ThrottledProgress:
    """A ``progress(stage, done, total)`` callable that emits at most every ``interval`` seconds.

    Stage changes and completion always get through, so the panel never misses a stage.
    """

    def __init__(self, emit: Callable[[str, int, int], None], interval: float = 0.05):
        self._emit = emit
        self._interval = interval
        self._last = (None, 0.0)

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        last_stage, last_time = self._last
        if stage != last_stage or done >= total or now - last_time >= self._interval:
            self._last = (stage, now)
            self._emit(stage, done, total)


class ImportEmitter(QObject):
    """Signals the import worker emits (this object lives in the GUI thread)."""

    progressed = Signal(int, str, int, int)  # job id, stage, done, total
    searchable = Signal(int, object)  # job id, Book (stored; keyword search works, vectors still coming)
    finished = Signal(int, object)  # job id, ImportResult
    packFinished = Signal(int, object)  # job id, list[ImportResult]: one per book of a course pack


class ImportQueue(QObject):
    """Imports files one at a time on a dedicated pool; cancellable per file.

    ``import_book`` never raises for bad input, so one failed file does not stop the queue.
    """

    queued = Signal(int, str)  # job id, path
    progressed = Signal(int, str, int, int)
    searchable = Signal(int, object)  # job id, Book: askable by keyword while its vectors fill in
    finished = Signal(int, object)  # job id, ImportResult (IMPORTED, SEARCHABLE, DUPLICATE or ERROR)
    packFinished = Signal(int, object)  # job id, list[ImportResult]: a course pack's books, one result each
    idle = Signal()  # the queue ran empty (no import and no other library write left)

    def __init__(self, library, parent: QObject | None = None):
        super().__init__(parent)
        self.library = library
        self.pool = single_thread_pool(self, "lantern-import")
        self._emitter = ImportEmitter(self)
        self._emitter.progressed.connect(self.progressed)
        self._emitter.searchable.connect(self._on_searchable)
        self._emitter.finished.connect(self._on_finished)
        self._emitter.packFinished.connect(self._on_pack_finished)
        self._jobs: dict[int, ImportJob] = {}
        self._writes = 0  # run_write jobs not finished yet (each holds the HeapPolicy)

    def add(self, path: str | Path, name: str = "", book_id: str = "") -> int:
        """Queue ``path`` for import and return its job id (``name``: shown instead of the path)."""
        job = ImportJob(next(_ids), Path(path), name=name, book_id=book_id)
        self._jobs[job.id] = job
        HeapPolicy.hold()
        self.queued.emit(job.id, job.name or str(job.path))
        self.pool.start(FnRunnable(lambda: self._run(job)))
        return job.id

    def resume_pending(self) -> list[int]:
        """Queue every book whose import stopped after it became searchable (the app was closed, or it
        crashed): importing its stored copy again embeds only what is missing."""
        return [self.add(self.library.book_file(b.id), name=b.file_name, book_id=b.id)
                for b in self.library.pending_books()]

    def cancel_book(self, book_id: str) -> None:
        """Stop the import that is filling in ``book_id`` (e.g. before removing it, which would wait for it)."""
        for job in self._jobs.values():
            if job.book_id == book_id:
                job.cancel.set()

    def cancel(self, job_id: int) -> None:
        """Ask the job to stop (a queued job ends as soon as it is reached)."""
        job = self._jobs.get(job_id)
        if job is not None:
            job.cancel.set()

    def cancel_all(self) -> None:
        for job in self._jobs.values():
            job.cancel.set()

    def pending(self) -> int:
        """How many jobs are queued or running."""
        return len(self._jobs)

    def busy(self) -> bool:
        """Whether an import or another library write (warm-up, library check, removal) is queued or running."""
        return bool(self._jobs) or self._writes > 0

    def run_write(self, fn: Callable[[], object], done: Callable[[object], None]) -> None:
        """Run another library write (e.g. removing a book) in turn with the imports.

        ``done(result_or_exception)`` is called on the GUI thread.
        """
        self._writes += 1
        HeapPolicy.hold()
        emitter = _ResultEmitter(self)
        emitter.done.connect(done)
        emitter.done.connect(self._write_done)
        emitter.done.connect(emitter.deleteLater)

        def work() -> None:
            try:
                emitter.done.emit(fn())
            except Exception as exc:  # reported through ``done``; show_error decides what to say
                emitter.done.emit(exc)
        self.pool.start(FnRunnable(work))

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until every queued job finished (tests and shutdown)."""
        return self.pool.waitForDone(msecs)

    def close(self, msecs: int = 15_000) -> None:
        """Cancel everything, wait for the thread, and give back the jobs' HeapPolicy holds."""
        self.cancel_all()
        self.wait(msecs)
        for _ in range(len(self._jobs) + self._writes):
            HeapPolicy.release()
        self._jobs.clear()
        self._writes = 0

    def warm_up(self) -> None:
        """Queue ``warm_up`` on the import thread; freeze the modules and model it loaded when done."""
        self.run_write(lambda: warm_up(self.library), lambda _result: gc.freeze())

    # -- worker side (runs on the pool thread) ----------------------------------------------------------
    def _run(self, job: ImportJob) -> None:
        if job.cancel.is_set():
            self._emitter.finished.emit(job.id, _cancelled(job.path))
            return
        progress = ThrottledProgress(lambda s, d, t: self._emitter.progressed.emit(job.id, s, d, t))
        if job.path.suffix.lower() == PACK_SUFFIX:
            self._run_pack(job, progress)
            return
        try:
            result = self.library.import_book(job.path, progress, job.cancel.is_set,
                                              on_searchable=lambda book: self._emitter.searchable.emit(job.id, book))
        except Exception as exc:  # import_book reports bad input itself; this is a bug path
            log.exception("import of %s crashed", job.path)
            result = ImportResult(str(job.path), ImportStatus.ERROR, error=error_text(exc), error_code="bug")
        self._emitter.finished.emit(job.id, result)

    def _run_pack(self, job: ImportJob, progress: ThrottledProgress) -> None:
        """A course pack: its books arrive with their vectors (each reported searchable as it is stored)."""
        try:
            results = self.library.import_pack(job.path, progress, job.cancel.is_set,
                                               on_searchable=lambda book: self._emitter.searchable.emit(job.id, book))
        except LanternError as exc:  # damaged, tampered, newer or cancelled: the library is unchanged
            code = "cancelled" if isinstance(exc, ImportCancelled) else exc.code
            self._emitter.finished.emit(job.id, ImportResult(str(job.path), ImportStatus.ERROR, error=exc.message,
                                                             error_code=code))
            return
        except Exception as exc:
            log.exception("course pack %s crashed", job.path)
            self._emitter.finished.emit(job.id, ImportResult(str(job.path), ImportStatus.ERROR,
                                                             error=error_text(exc), error_code="bug"))
            return
        self._emitter.packFinished.emit(job.id, results)

    # -- GUI side -----------------------------------------------------------------------------------------
    def _write_done(self, _result: object) -> None:
        if self._writes > 0:
            self._writes -= 1
            HeapPolicy.release()
        if not self.busy():
            self.idle.emit()

    def _on_searchable(self, job_id: int, book) -> None:
        if job_id in self._jobs:
            self._jobs[job_id].book_id = book.id
        self.searchable.emit(job_id, book)

    def _on_finished(self, job_id: int, result: ImportResult) -> None:
        self._end_job(job_id)
        self.finished.emit(job_id, result)
        self._maybe_idle()

    def _on_pack_finished(self, job_id: int, results: list) -> None:
        self._end_job(job_id)
        self.packFinished.emit(job_id, results)
        self._maybe_idle()

    def _end_job(self, job_id: int) -> None:
        if self._jobs.pop(job_id, None) is not None:
            HeapPolicy.release()

    def _maybe_idle(self) -> None:
        if not self.busy():
            self.idle.emit()


class _ResultEmitter(QObject):
    done = Signal(object)


def _cancelled(path: Path) -> ImportResult:
    return ImportResult(str(path), ImportStatus.ERROR, error="Import cancelled.", error_code="cancelled")


# -- answers ------------------------------------------------------------------------------------------
class AskEmitter(QObject):
    """Signals of the answer worker (lives in the GUI thread)."""

    event = Signal(int, object)  # request id, AnswerEvent
    failed = Signal(int, object)  # request id, exception
    ended = Signal(int, bool)  # request id, cancelled
    prewarmed = Signal(object, object)  # asker, None or the LanternError saying why its model cannot answer
    quotes = Signal(int, object)  # request id, the translated quotes (or the exception that stopped them)


class AskRunner(QObject):
    """Runs ``asker.ask`` on the single thread that owns the model and streams its events.

    Only one question is answered at a time; asking again stops the previous answer first.
    """

    event = Signal(int, object)
    failed = Signal(int, object)
    ended = Signal(int, bool)
    prewarmed = Signal(object, object)
    asked = Signal(int)  # a question was queued (request id)
    quotesTranslated = Signal(int, object)  # request id, list of translations, or the exception  # noqa: N815

    def __init__(self, asker: Asker, parent: QObject | None = None):
        super().__init__(parent)
        self.asker = asker
        self.pool = single_thread_pool(self, "lantern-model")
        self._emitter = AskEmitter(self)
        self._emitter.event.connect(self.event)
        self._emitter.failed.connect(self.failed)
        self._emitter.ended.connect(self._on_ended)
        self._emitter.prewarmed.connect(self._on_prewarmed)
        self._emitter.quotes.connect(self.quotesTranslated)
        self._cancel: dict[int, threading.Event] = {}
        self._warming = 0  # prewarm jobs queued or running

    @property
    def warming(self) -> bool:
        """Whether a model is still being loaded (assembled, hash-checked, its instructions evaluated)."""
        return self._warming > 0

    def ask(self, question: str, scope: Scope, previous: Turn | None = None) -> int:
        """Start answering ``question`` within ``scope`` (a follow-up of ``previous``); returns the request id."""
        self.stop()
        rid = next(_ids)
        flag = threading.Event()
        self._cancel[rid] = flag
        HeapPolicy.hold()
        self.pool.start(FnRunnable(lambda: self._run(rid, question, scope, previous, flag)))
        self.asked.emit(rid)
        return rid

    def translate_quotes(self, quotes: list[str], language: str, source: str) -> int | None:
        """Translate the book's ``quotes`` into ``language`` on the model thread (after any answer being written);
        ``quotesTranslated`` reports them.  None when the engine cannot translate."""
        if not hasattr(self.asker, "translate_quotes"):
            return None
        rid = next(_ids)
        self.pool.start(FnRunnable(lambda: self._translate(rid, quotes, language, source)))
        return rid

    def _translate(self, rid: int, quotes: list[str], language: str, source: str) -> None:
        try:
            result: object = self.asker.translate_quotes(quotes, language, source)
        except Exception as exc:  # noqa: BLE001 - reported to the panel, which shows it
            result = exc
        self._emitter.quotes.emit(rid, result)

    def prewarm(self) -> None:
        """Load the engine's model and evaluate its fixed instructions on the model thread, so the first
        question pays only for its sources; ``prewarmed`` reports whether the model can answer."""
        asker = self.asker
        if not hasattr(asker, "prewarm"):
            return
        self._warming += 1
        self.pool.start(FnRunnable(lambda: self._prewarm(asker)))

    def _on_prewarmed(self, asker, error) -> None:
        self._warming = max(0, self._warming - 1)
        self.prewarmed.emit(asker, error)

    def _prewarm(self, asker: Asker) -> None:
        error = None
        try:
            future = asker.prewarm()
            if future is not None:
                future.result()  # the model thread is busy until then anyway; a question waits in line
            error = asker.model_error() if hasattr(asker, "model_error") else None
        except LanternError as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - a model that cannot start must not take the app down
            log.warning("the chat model did not start: %s", exc)
            error = ModelUnavailableError(f"The chat model did not start: {exc}")
        self._emitter.prewarmed.emit(asker, error)

    def stop(self) -> None:
        """Set the cancel flag of every running or queued request."""
        for flag in self._cancel.values():
            flag.set()

    def busy(self) -> bool:
        return bool(self._cancel)

    def wait(self, msecs: int = 30_000) -> bool:
        return self.pool.waitForDone(msecs)

    def close(self, msecs: int = 15_000) -> None:
        """Stop answering, wait for the model thread, and give back the HeapPolicy holds."""
        self.stop()
        self.wait(msecs)
        for _ in self._cancel:
            HeapPolicy.release()
        self._cancel.clear()

    def _run(self, rid: int, question: str, scope: Scope, previous: Turn | None, flag: threading.Event) -> None:
        """Worker side: iterate the asker, emitting each event; never touches a widget."""
        events = None
        try:
            events = self.asker.ask(question, book_id=scope.book_id, chapters=scope.chapters,
                                    pages=scope.pages, cancel=flag.is_set, previous=previous)
            for ev in events:
                if flag.is_set():
                    break
                self._emitter.event.emit(rid, ev)
                if ev.kind in (AnswerEventKind.DONE, AnswerEventKind.ERROR):
                    break
        except Exception as exc:
            self._emitter.failed.emit(rid, exc)
        finally:
            if hasattr(events, "close"):
                events.close()  # the engine's own clean-up runs here, on the model thread
            self._emitter.ended.emit(rid, flag.is_set())

    def _on_ended(self, rid: int, cancelled: bool) -> None:
        if self._cancel.pop(rid, None) is not None:
            HeapPolicy.release()
        self.ended.emit(rid, cancelled)

