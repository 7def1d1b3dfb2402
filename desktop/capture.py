"""What every screenshot script needs: a fresh main window on a throw-away library, waiting for the window to reach
a state, and grabbing it (``desktop.screenshots``, ``desktop.pack_screenshots``, ``benchmarks/study_screenshots``)."""
from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QSettings, QThread
from PySide6.QtWidgets import QApplication

log = logging.getLogger("lantern.screenshots")

WAIT_S = 30 * 60
"""How long a step may take by default: a guard against a hang, not a speed budget (a busy computer is slow)."""


def wait_until(app: QApplication, predicate: Callable[[], bool], timeout: float = WAIT_S) -> None:
    """Run the event loop until ``predicate()`` (raises TimeoutError after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not reach the expected state in time")
        app.processEvents()
        QThread.msleep(15)


def settle(app: QApplication, ms: int = 150) -> None:
    """Let layouts and deferred renders finish."""
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        app.processEvents()
        QThread.msleep(10)


def grab(app: QApplication, window, path: Path) -> Path:
    """Save ``window`` as a PNG at ``path`` once its layouts have settled."""
    settle(app)
    window.grab().save(str(path))
    log.info("wrote %s", path)
    return path


@contextmanager
def fresh_window(size: tuple[int, int], *, embedder=None, asker_factory=None) -> Iterator[tuple]:
    """``(app, window, folder)``: a shown main window on a throw-away library and settings folder."""
    from core.library import Library
    from desktop.app import create_app
    from desktop.main_window import MainWindow

    app = create_app([])
    with tempfile.TemporaryDirectory(prefix="lantern-shots-") as tmp:
        root = Path(tmp)
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, str(root / "settings"))
        with Library(root / "library", embedder=embedder) as library:
            asker = asker_factory(library) if asker_factory is not None else None
            window = MainWindow(library, asker=asker, warm_up=False)
            window.resize(*size)
            window.show()
            try:
                yield app, window, root
            finally:
                window.shutdown()
                window.hide()


def ask(app: QApplication, window, question: str, timeout: float = WAIT_S) -> None:
    """Ask ``question`` in the chat and wait until its answer has finished streaming."""
    window.chat.question.setText(question)
    window.chat.ask()
    wait_until(app, lambda: not window.chat.is_streaming(), timeout)
    settle(app, 300)


def import_books(app: QApplication, window, paths: list[Path], timeout: float = WAIT_S) -> None:
    """Import ``paths`` and wait until the queue is empty, its finished rows cleared."""
    window.import_files(paths)
    wait_until(app, lambda: window.imports.pending() == 0, timeout)
    window.import_panel.clear_finished()


def open_citation(window, nth: int = 0) -> None:
    """Open the reader at the ``nth`` source the answer cites (the last cited when it cites fewer; the first
    source when it cites none)."""
    turn = window.chat.current.turns[-1]
    cited = turn.cited()
    window.open_citation(cited[min(nth, len(cited) - 1)] if cited else turn.sources[0])


__all__ = ["WAIT_S", "ask", "fresh_window", "grab", "import_books", "log", "open_citation", "settle", "wait_until"]
