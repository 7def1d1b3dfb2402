"""Choosing the chat model on this computer from the desktop: measure fairly in the background, then switch.

At first start no speeds are known, so the tutor starts with the catalogue default (or what an earlier
start chose) and ``ModelChooser`` measures the installed models on a thread of its own
(``core.llm.choice.choose_for_machine``: most correct first, stopping at the first that answers in time).

Measuring yields to everything the student is waiting for: it starts only when ``ready()`` says so (the
window: no import, library check or warm-up queued, the tutor's model loaded, no answer streaming), it is
cancelled the moment an import is queued or a question asked, and it measures nothing while other programs
keep the CPU busy (``core.llm.machine``).  Whatever was not measured fairly is tried again ``retry_ms``
later.  ``chosen`` carries the ``Choice``; the window rebuilds the tutor when it differs from the model it
runs, and Settings shows the reason.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from core.errors import LanternError
from core.llm import choice as llm_choice
from core.llm.choice import Choice, MachineBusy, MeasurementCancelled, Quality
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # module functions: lupdate reads translate("ModelChoice", ...)

RETRY_MS = 10 * 60 * 1000
"""A provisional or deferred measurement is tried again this long after it ended (if the window is idle)."""


class ModelChooser(QObject):
    """Measures the installed models off the GUI thread when the window is idle; emits ``chosen(Choice)``,
    ``deferred(str)`` (busy computer: nothing measured yet) or ``failed(str)``."""

    chosen = Signal(object)
    failed = Signal(str)
    deferred = Signal(str)
    progressed = Signal(str)
    started = Signal()
    _ended = Signal(str, object)  # outcome ("chosen", "busy", "cancelled", "failed"), payload (worker -> GUI)

    def __init__(self, parent: QObject | None = None, *, ready: Callable[[], bool] = lambda: True,
                 retry_ms: int = RETRY_MS):
        super().__init__(parent)
        self.ready = ready
        self.retry_ms = retry_ms
        self.state = "idle"  # idle / waiting / measuring / busy / done / failed (Settings says which)
        self.last: Choice | None = None
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._request: tuple[Quality, int | None, int] | None = None
        self._running: tuple[Quality, int | None, int] | None = None  # the request being measured
        self._stopped = False  # the window closes: whatever a last measurement says is not acted on
        self._retry = QTimer(self, singleShot=True)
        self._retry.timeout.connect(self.poke)
        self._ended.connect(self._on_ended)

    @property
    def running(self) -> bool:
        """A measurement runs, or its end has not been handled on the GUI thread yet (one at a time)."""
        return self._thread is not None

    def start(self, quality: Quality, threads: int | None, gpu_layers: int) -> None:
        """Ask for a measurement; it begins as soon as ``ready()`` (now, or at a later ``poke``)."""
        self._request = (quality, threads, gpu_layers)
        self._stopped = False
        self._retry.stop()
        if self.state in ("idle", "done", "failed"):
            self.state = "waiting"
        self.poke()

    def poke(self) -> None:
        """Start the requested measurement if the window is ready for it (called on every idle moment)."""
        if self._request is None or self.running or self._retry.isActive() or not self.ready():
            return
        self._cancel = threading.Event()  # one per run: a late cancel never reaches the next one
        self._running = self._request
        self.state = "measuring"
        self._thread = threading.Thread(target=self._run, args=(*self._request, self._cancel),
                                        name="lantern-model-choice", daemon=True)
        self._thread.start()
        self.started.emit()

    def cancel(self) -> None:
        """Stop a running measurement (nothing is saved from it); it starts again at the next ``poke``."""
        self._cancel.set()

    def stop(self) -> None:
        """Measure nothing more (the window closes): cancel a running measurement and any retry."""
        self._request, self._stopped = None, True
        self._retry.stop()
        self.cancel()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the measuring thread ended (shutdown and tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def _run(self, quality: Quality, threads: int | None, gpu_layers: int, cancel: threading.Event) -> None:
        base = LLMSettings.from_env(n_threads=threads, n_gpu_layers=gpu_layers)

        def open_model(key: str) -> LocalModel:
            return LocalModel(LLMSettings.from_env(model=key, n_threads=threads, n_gpu_layers=gpu_layers))
        try:
            choice = llm_choice.choose_for_machine(open_model, llm_choice.installed_models(), threads=base.threads,
                                                   gpu_layers=base.n_gpu_layers, quality=quality,
                                                   progress=self.progressed.emit, cancel=cancel.is_set)
        except MeasurementCancelled:
            self._ended.emit("cancelled", None)
        except MachineBusy as exc:
            self._ended.emit("busy", exc.message)
        except LanternError as exc:
            log.warning("no model could be chosen: %s", exc.message)
            self._ended.emit("failed", exc.message)
        except Exception as exc:  # a broken model file must not take the window down
            log.exception("measuring the models failed")
            self._ended.emit("failed", str(exc))
        else:
            self._ended.emit("chosen", choice)

    def _on_ended(self, outcome: str, payload: object) -> None:
        self._thread = None
        ran, self._running = self._running, None
        if self._stopped:
            return
        if outcome == "cancelled" or (self._request is not None and self._request != ran):
            self.state = "waiting"  # stopped, or the settings changed meanwhile: measure (again) now
            self.poke()  # at once if the window is idle again, else at its next idle moment
            return
        if outcome == "failed":
            self.state, self._request = "failed", None
            self.failed.emit(str(payload))
            return
        if outcome == "busy":
            self.state = "busy"
            self.deferred.emit(str(payload))
        else:
            choice = payload
            self.last = choice
            self.state = "provisional" if choice.provisional else "done"
            self.chosen.emit(choice)
            if not choice.provisional:
                self._request = None
                return
        self._retry.start(self.retry_ms)  # measured again later: poke() runs when it fires


def choice_text(choice: Choice | None, model_name: str, state: str = "") -> str:
    """What Settings and the status bar say about the model that runs (``state``: ``ModelChooser.state``)."""
    if choice is None:
        text = translate("ModelChoice", "Runs {model}.").format(model=model_name)
        if state == "busy":
            text += " " + translate("ModelChoice", "The computer has been busy, so the models are not measured "
                                    "yet: Lantern measures them when it is idle and then runs the most correct one "
                                    "that answers in time.")
        elif state in ("waiting", "measuring"):
            text += " " + translate("ModelChoice", "The models are measured on this computer when it is idle "
                                    "(after imports and answers).")
        return text
    if choice.reason.startswith(model_name):  # "X is the most correct …" (core's words): say the name once
        return translate("ModelChoice", "Runs {model}: it {reason}").format(
            model=model_name, reason=choice.reason[len(model_name):].lstrip())
    return translate("ModelChoice", "Runs {model}: {reason}").format(model=model_name, reason=choice.reason)
