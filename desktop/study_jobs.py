"""The Study tab's background thread: ``StudyJobs.submit(fn, on_done, on_error)`` runs ``fn(progress)``
(``progress(stage, done, total)``, re-emitted as ``progressed(token, stage, done, total)``) on one pool thread (separate from imports and the chat model's thread) and calls back on the GUI thread
through queued signals; workers never touch widgets.
"""
from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)
_tokens = itertools.count(1)


class _Emitter(QObject):
    done = Signal(int, object)
    failed = Signal(int, object)
    progressed = Signal(int, str, int, int)  # token, stage, done, total


class _Job(QRunnable):
    def __init__(self, token: int, fn: Callable[..., Any], emitter: _Emitter):
        super().__init__()
        self.token, self.fn, self.emitter = token, fn, emitter

    def run(self) -> None:
        try:
            result = self.fn(lambda stage, done, total: self.emitter.progressed.emit(self.token, str(stage), done,
                                                                                   total))
        except BaseException as exc:  # reported to the GUI, never raised on a pool thread
            log.exception("study job failed")
            self.emitter.failed.emit(self.token, exc)
        else:
            self.emitter.done.emit(self.token, result)


class StudyJobs(QObject):
    """One background thread for the Study tab; ``submit(fn, on_done)`` calls ``fn(progress)`` there and
    ``on_done(result)`` (or shows the error via ``on_error``) on the GUI thread."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.emitter = _Emitter(self)
        self._callbacks: dict[int, tuple[Callable, Callable]] = {}
        self.emitter.done.connect(self._done)
        self.emitter.failed.connect(self._failed)

    def submit(self, fn: Callable[..., Any], on_done: Callable[[Any], None],
               on_error: Callable[[BaseException], None]) -> int:
        token = next(_tokens)
        self._callbacks[token] = (on_done, on_error)
        self.pool.start(_Job(token, fn, self.emitter))
        return token

    def busy(self) -> bool:
        return bool(self._callbacks)

    def _done(self, token: int, result: object) -> None:
        on_done, _ = self._callbacks.pop(token, (None, None))
        if on_done:
            on_done(result)

    def _failed(self, token: int, exc: object) -> None:
        _, on_error = self._callbacks.pop(token, (None, None))
        if on_error:
            on_error(exc)

    def wait(self, ms: int = 15_000) -> bool:
        return self.pool.waitForDone(ms)
