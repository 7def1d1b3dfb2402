"""The model's owner thread and the streams it fills (split from ``core.llm.model``; import from there).

llama.cpp contexts are not thread-safe, so one daemon ``_Worker`` thread runs every evaluation;
``ChatStream`` hands the pieces it generates to the caller's thread through a queue.
"""
from __future__ import annotations

import atexit
import queue
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any

from core.llm.settings import GenerationStats

# -- the owner thread --------------------------------------------------------------------------
_live_workers: weakref.WeakSet[_Worker] = weakref.WeakSet()


class _Worker:
    """One daemon thread that runs jobs in submission order; the only thread that touches llama."""

    def __init__(self, name: str):
        self._name = name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.abort = threading.Event()  # set at shutdown: running jobs stop at their next check

    @property
    def ident(self) -> int | None:
        return self._thread.ident if self._thread is not None else None

    def in_worker(self) -> bool:
        return self._thread is not None and threading.current_thread() is self._thread

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("the chat model has been closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
                _live_workers.add(self)
            fut: Future = Future()
            self._jobs.put((fut, fn, args))
            return fut

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            fut, fn, args = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to the caller through the future
                fut.set_exception(exc)
            del item, fut, fn, args  # hold no job (and so no LocalModel) while idle

    def shutdown(self, final_job: Callable[[], Any] | None = None, timeout: float | None = 10.0) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
            if thread is None:
                return
            if final_job is not None:
                self._jobs.put((Future(), final_job, ()))
            self._jobs.put(None)
        if timeout != 0 and not self.in_worker():
            thread.join(timeout)


@atexit.register
def _abort_running_generations() -> None:
    """At exit, stop running jobs at their next check so llama is not torn down mid-decode."""
    workers = list(_live_workers)
    for w in workers:
        w.abort.set()
    for w in workers:
        w.shutdown(timeout=3.0)


# -- streaming ---------------------------------------------------------------------------------
_END = object()


class ChatStream(Iterator[str]):
    """Text pieces of one answer, produced on the model's worker thread.

    Iterate it (from any one thread) to get the pieces; ``stats`` is complete once iteration has
    ended.  ``close()`` (or leaving a ``with`` block, or dropping the stream) stops the generation.
    Exceptions raised on the worker (``ModelUnavailableError``, ...) are re-raised by ``next``.
    """

    def __init__(self) -> None:
        self._items: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._done = False
        self.stats = GenerationStats()

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        if self._done:
            raise StopIteration
        item = self._items.get()
        if isinstance(item, str):
            return item
        self._done = True
        if isinstance(item, BaseException):
            raise item
        raise StopIteration

    def text(self) -> str:
        """Consume the rest of the stream and return it joined."""
        return "".join(self)

    def close(self) -> None:
        """Ask the worker to stop this generation (returns at once)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self.stats.finish_reason == "cancelled"

    def __enter__(self) -> ChatStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self._stop.set()


class _StopMatcher:
    """Holds back text that may be the start of a stop string; cuts at the first stop string."""

    def __init__(self, stops: Sequence[str]):
        self.stops = [s for s in stops if s]
        self.pending = ""

    def feed(self, piece: str) -> tuple[str, bool]:
        """Return (text safe to emit, stopped)."""
        if not self.stops:
            return piece, False
        self.pending += piece
        cut = min((i for i in (self.pending.find(s) for s in self.stops) if i >= 0), default=-1)
        if cut >= 0:
            out, self.pending = self.pending[:cut], ""
            return out, True
        hold = 0
        for s in self.stops:
            for k in range(min(len(s) - 1, len(self.pending)), 0, -1):
                if self.pending.endswith(s[:k]):
                    hold = max(hold, k)
                    break
        out = self.pending[:len(self.pending) - hold]
        self.pending = self.pending[len(out):]
        return out, False

    def flush(self) -> str:
        out, self.pending = self.pending, ""
        return out

