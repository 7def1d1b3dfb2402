"""Choosing the chat model on this computer from the desktop: measure once in the background, then switch.

At first start no speeds are known, so the tutor starts with the catalogue default and ``ModelChooser``
measures the installed models on a thread of its own (``core.llm.choice.choose_for_machine``: most correct
first, stopping at the first that answers in time).  ``chosen`` then carries the ``Choice``; the window
rebuilds the tutor when the choice differs from the model it runs, and Settings shows the reason.
"""
from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, Signal

from core.errors import LanternError
from core.llm.choice import Choice, Quality, choose_for_machine, installed_models
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings

log = logging.getLogger(__name__)


class ModelChooser(QObject):
    """Measures the installed models once, off the GUI thread; emits ``chosen(Choice)`` or ``failed(str)``."""

    chosen = Signal(object)
    failed = Signal(str)
    progressed = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, quality: Quality, threads: int | None, gpu_layers: int) -> None:
        if self.running:
            return
        self._thread = threading.Thread(target=self._run, args=(quality, threads, gpu_layers),
                                        name="lantern-model-choice", daemon=True)
        self._thread.start()

    def _run(self, quality: Quality, threads: int | None, gpu_layers: int) -> None:
        base = LLMSettings.from_env(n_threads=threads, n_gpu_layers=gpu_layers)

        def open_model(key: str) -> LocalModel:
            return LocalModel(LLMSettings.from_env(model=key, n_threads=threads, n_gpu_layers=gpu_layers))
        try:
            choice = choose_for_machine(open_model, installed_models(), threads=base.threads,
                                        gpu_layers=base.n_gpu_layers, quality=quality,
                                        progress=self.progressed.emit)
        except LanternError as exc:
            log.warning("no model could be chosen: %s", exc.message)
            self.failed.emit(exc.message)
            return
        except Exception as exc:  # a broken model file must not take the window down
            log.exception("measuring the models failed")
            self.failed.emit(str(exc))
            return
        self.chosen.emit(choice)


def choice_text(choice: Choice | None, model_name: str) -> str:
    """What Settings and the status bar say about the model that runs."""
    if choice is None:
        return f"Runs {model_name}."
    if choice.reason.startswith(model_name):  # "X is the most correct …": say the name once
        return f"Runs {model_name}: it {choice.reason[len(model_name):].lstrip()}"
    return f"Runs {model_name}: {choice.reason}"
