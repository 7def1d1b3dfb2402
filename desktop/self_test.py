"""``lantern-desktop --self-test``: start, import the sample book if the library is empty, ask one question,
print what it took as JSON, quit.  Used by the packaging smoke test (frozen app vs source) and handy for
a student's "does it work on my laptop?".

Times are wall-clock milliseconds since the process was created (``psutil``), so interpreter start and
module imports count, as the student waits for them too.
"""
from __future__ import annotations

import json
import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.models import AnswerEventKind

DEFAULT_QUESTION = "What is kinetic energy?"
TIMEOUT_S = 600
TIMEOUT_ENV = "LANTERN_SELF_TEST_TIMEOUT_S"
"""Overrides ``TIMEOUT_S`` (the packaging smoke test passes its hang guard: a busy machine may need longer)."""


def timeout_s() -> float:
    try:
        return float(os.environ.get(TIMEOUT_ENV, "") or TIMEOUT_S)
    except ValueError:
        return TIMEOUT_S


def since_start_ms() -> float:
    """Milliseconds since this process was created."""
    try:
        import psutil
        return round((time.time() - psutil.Process().create_time()) * 1000, 1)
    except Exception:  # noqa: BLE001 - psutil missing or the platform hides it: relative times still help
        return round(time.perf_counter() * 1000, 1)


class SelfTest:
    """Drives a shown ``MainWindow`` through import → ask and writes one JSON line to stdout."""

    def __init__(self, app: QApplication, window, question: str = DEFAULT_QUESTION):
        self.app, self.window, self.question = app, window, question
        self.report: dict = {"question": question}
        self.status = 1
        self._deadline = time.monotonic() + timeout_s()
        window.runner.event.connect(self._on_event)

    def start(self) -> None:
        QTimer.singleShot(0, self._shown)

    def _shown(self) -> None:
        self.report["window_ms"] = since_start_ms()  # the event loop runs and the window is up
        if not self.window.library.books():
            self.window.import_sample()
        self._poll(self._imported, lambda: self.window.imports.pending() == 0)

    def _imported(self) -> None:
        self.report["books"] = [b.title for b in self.window.library.books()]
        self.report["ready_ms"] = since_start_ms()
        self.window.chat.question.setText(self.question)
        self.window.chat.ask()
        self._poll(self._answered, lambda: not self.window.chat.is_streaming())

    def _on_event(self, _rid: int, ev) -> None:
        key = {AnswerEventKind.SOURCES: "sources_ms", AnswerEventKind.TOKEN: "first_token_ms"}.get(ev.kind)
        if key and key not in self.report:
            self.report[key] = since_start_ms()

    def _answered(self) -> None:
        turn = self.window.chat.current.turns[-1]
        self.report.update(answer_ms=since_start_ms(), state=turn.state, answer=turn.answer,
                           cited_pages=[s.printed_page for s in turn.cited()],
                           sources=len(turn.sources), extractive=turn.extractive, refused=turn.refused,
                           model=self.window.model_label.text())
        ok = turn.state == "done" and bool(turn.sources) and not turn.refused
        self.status = 0 if ok else 1
        self._finish()

    def _poll(self, then, ready) -> None:
        if ready():
            then()
        elif time.monotonic() > self._deadline:
            self.report["error"] = "timed out"
            self._finish()
        else:
            QTimer.singleShot(50, lambda: self._poll(then, ready))

    def _finish(self) -> None:
        sys.stdout.write(json.dumps(self.report, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        self.window.close()
        self.app.exit(self.status)  # main() returns ``status`` itself: closing the window may quit with 0
