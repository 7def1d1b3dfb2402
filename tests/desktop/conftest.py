"""Desktop test fixtures: isolated QSettings, generated PDFs, a library with the fake embedder, the window."""
from __future__ import annotations

import threading
from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl, QSettings
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from core.library import Library
from tests.desktop.fake_asker import FakeAsker
from tests.fakes import HashingEmbedder
from tests.waiting import HANG_GUARD_S, wait_for

CHAPTERS = {
    1: ("Cells", ["A cell is the smallest unit of life and every organism is made of cells.",
                  "The membrane controls what enters and leaves the cell through tiny channels.",
                  "Mitochondria release energy from food in a process called respiration."]),
    2: ("Energy", ["Plants turn light into chemical energy by photosynthesis in their leaves.",
                   "Kinetic energy is the energy an object has because it is moving quickly.",
                   "Energy is never created or destroyed, only changed from one form to another."]),
}


def make_pdf(path: Path, pages_per_chapter: int = 2, repeat: int = 3) -> Path:
    """A PDF: a title page (printed "i"), then 2 chapters (printed from 1) with an outline (set_toc)."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Tiny Science", fontsize=24)
    toc = []
    for number, (title, sentences) in CHAPTERS.items():
        for k in range(pages_per_chapter):
            page = doc.new_page()
            y = 80
            if k == 0:
                page.insert_text((72, y), f"Chapter {number} {title}", fontsize=18)
                toc.append([1, f"Chapter {number} {title}", doc.page_count])
                y += 40
            lines = [f"{s}" for s in sentences] * repeat
            if k:
                lines = [f"Page {k + 1} of chapter {number}."] + lines
            page.insert_text((72, y), "\n".join(lines), fontsize=10, lineheight=1.5)
    doc.set_toc(toc)
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                         {"startpage": 1, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc.save(str(path))
    doc.close()
    return path


def drop_files(widget, paths) -> bool:
    """Drag files over ``widget`` and drop them, through its window as the window system does.

    Qt 6 routes drag events via the ``QWindow``: it sends DragEnter to the widget under the pointer,
    then Drop to whichever widget accepted the enter.  Returns whether the drop was accepted.
    """
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    window = widget.window()
    pos = QPointF(widget.mapTo(window, widget.rect().center()))
    handle = window.windowHandle()
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    try:
        enter = QDragEnterEvent(pos, *args)  # PySide6 >= 6.12 (the QPoint form is deprecated there)
    except TypeError:
        enter = QDragEnterEvent(pos.toPoint(), *args)  # PySide6 <= 6.11 only has the QPoint form
    QApplication.sendEvent(handle, enter)
    drop = QDropEvent(pos, *args)
    QApplication.sendEvent(handle, drop)
    return drop.isAccepted()


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path):
    """Point QSettings at the test's folder so no test reads or writes the user's settings."""
    folder = tmp_path / "settings"
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    yield folder


@pytest.fixture
def tiny_pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "tiny-science.pdf")


@pytest.fixture
def library(tmp_path: Path):
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as lib:
        yield lib


@pytest.fixture
def fake_asker(library) -> FakeAsker:
    return FakeAsker(library)


@pytest.fixture
def window(qtbot, library, fake_asker):
    from desktop.main_window import MainWindow
    win = MainWindow(library, asker=fake_asker)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.shutdown()


def wait_imports(qtbot, window) -> None:
    """Wait until the import queue is empty (all finished signals delivered); real imports take as long as
    this computer needs (``tests.waiting``: a hang guard, no budget)."""
    wait_for(qtbot, lambda: window.imports.pending() == 0, "the imports to finish")


class ImportGate:
    """Holds the import thread at one point until the GUI thread has reacted to it.

    A test that acts on an import's signal (cancel at its first progress, remove the book once it is
    searchable) must not race the import: on a busy computer the GUI thread may handle the signal only
    after the import has finished.  ``ImportGate(library, monkeypatch, stage="embedding")`` (or
    ``searchable=True``) makes the import thread wait, right after it reported that point, until the test's
    slot calls ``open()``; later reports pass.
    """

    def __init__(self, library, monkeypatch, *, stage: str | None = None, searchable: bool = False):
        self.reached, self._open = threading.Event(), threading.Event()
        real = library.import_book

        def hold() -> None:
            if not self.reached.is_set():
                self.reached.set()
                self._open.wait(HANG_GUARD_S)

        def gated(path, progress=None, cancel=None, on_searchable=None):
            def report(step: str, done: int, total: int) -> None:
                progress(step, done, total)
                if stage is not None and (step == stage or stage == "*"):
                    hold()

            def now_searchable(book) -> None:
                on_searchable(book)
                if searchable:
                    hold()
            return real(path, report if progress else None, cancel,
                        on_searchable=now_searchable if on_searchable else None)
        monkeypatch.setattr(library, "import_book", gated)

    def open(self) -> None:
        """Let the import go on (called by the test's slot once it has acted)."""
        self._open.set()
