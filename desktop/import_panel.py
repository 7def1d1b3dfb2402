"""The import queue panel: one row per file with its stage, a progress bar, Cancel, and its outcome.

Rows are updated only from ``ImportQueue`` signals, i.e. on the GUI thread.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout,
                               QWidget)

from core.models import ImportResult, ImportStatus

log = logging.getLogger(__name__)

STAGE_NAMES = {
    "reading": "Reading",
    "reading pages": "Reading pages",
    "reading scanned pages": "Reading scanned pages (OCR)",
    "chunking": "Cutting into passages",
    "embedding": "Indexing meaning",
    "done": "Saving",
    "checking the pack": "Checking the course pack",
    "adding books": "Adding books",
}


def stage_text(stage: str, done: int, total: int) -> str:
    """``"Reading pages 12/300"`` from a progress callback's arguments."""
    name = STAGE_NAMES.get(stage, stage.capitalize())
    if stage in ("embedding", "checking the pack") and total > 1:  # word pieces, bytes: a share reads better
        return f"{name} {100 * done // total}\u00a0%"  # no break before the sign
    return f"{name} {done}/{total}" if total > 1 else name


_TIMED_STAGES = {"reading scanned pages"}  # long enough (2-3 s a page) that a student wants an estimate


def time_left(seconds: float) -> str:
    """"about 18 min left" for an estimate in seconds."""
    if seconds < 60:
        return "under a minute left"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} min left"
    return f"about {seconds / 3600:.1f} h left"


def estimate_left(start: tuple[float, int], now: float, done: int, total: int) -> float | None:
    """Seconds left at the rate since ``start`` (time, done then); None until the rate means something
    (at least 3 steps and 10 s: the first pages may come from the OCR cache)."""
    t0, done0 = start
    steps, elapsed = done - done0, now - t0
    if steps < 3 or elapsed < 10 or total <= done:
        return None
    return elapsed / steps * (total - done)


class ImportRow(QFrame):
    """One queued file."""

    cancelRequested = Signal(int)

    def __init__(self, job_id: int, path: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.job_id = job_id
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.name = QLabel(Path(path).name)
        self.name.setToolTip(path)
        font = self.name.font()
        font.setBold(True)
        self.name.setFont(font)
        self.stage = QLabel("Waiting…")
        self.stage.setWordWrap(True)
        self.stage.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.hide()  # shown with the first progress report
        self.bar.setMaximumHeight(self.fontMetrics().height() // 2 + 4)
        self.cancel_btn = QPushButton("Cancel")
        self.cancel_btn.clicked.connect(self._cancel)
        top = QHBoxLayout()
        top.addWidget(self.name, 1)
        top.addWidget(self.cancel_btn)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.addLayout(top)
        box.addWidget(self.bar)
        box.addWidget(self.stage)
        self.finished = False
        self.searchable = False
        self.error = ""
        self._stage_start: tuple[str, float, int] = ("", 0.0, 0)  # stage, when it was first reported, done then

    def progress(self, stage: str, done: int, total: int) -> None:
        text = stage_text(stage, done, total)
        if stage in _TIMED_STAGES:
            now = time.monotonic()
            if self._stage_start[0] != stage:
                self._stage_start = (stage, now, done)
            left = estimate_left(self._stage_start[1:], now, done, total)
            if left is not None:
                text = f"{text} · {time_left(left)}"
        if self.searchable:  # the student may already ask; say so beside the progress
            text = f"Ready to ask (keyword search) · {text}"
        self.stage.setText(text)
        self.bar.show()
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))

    def finish(self, result: ImportResult) -> None:
        """Show the outcome: imported, already there, cancelled, or the readable error."""
        self._end()
        if result.status is ImportStatus.IMPORTED and result.book:
            b = result.book
            size = f"{b.page_count} pages" if b.paginated else f"{b.section_count} sections"
            self.stage.setText(f"✓ Imported “{b.title}” ({size}, {b.chapter_count} chapters)")
        elif result.status is ImportStatus.SEARCHABLE:  # stopped after the book became searchable
            self.stage.setText(f"Searchable by keyword. {result.error or ''}".strip())
        elif result.status is ImportStatus.DUPLICATE:
            self.stage.setText(f"Already in your library: {result.error or ''}".strip())
        elif result.error_code == "cancelled":
            self.stage.setText("Cancelled — nothing was added.")
        else:
            self.error = result.error or "This file could not be imported."
            self.stage.setText(f"⚠ {self.error}")
            font = self.stage.font()
            font.setBold(True)
            self.stage.setFont(font)

    def finish_pack(self, results: list[ImportResult]) -> None:
        """A course pack's outcome: the books it added and those already in the library."""
        added = [r.book.title for r in results if r.status is not ImportStatus.DUPLICATE and r.book]
        already = [r.book.title for r in results if r.status is ImportStatus.DUPLICATE and r.book]
        parts = []
        if added:
            parts.append("✓ Added " + ", ".join(f"“{t}”" for t in added)
                         + (" with its index" if len(added) == 1 else " with their index") + ", ready to ask")
        if already:
            parts.append("already in your library (left as they are): " + ", ".join(f"“{t}”" for t in already))
        self._end()
        self.stage.setText("; ".join(parts) + "." if parts else "The course pack holds no books.")

    def _end(self) -> None:
        self.finished = True
        self.cancel_btn.hide()
        self.bar.hide()

    def _cancel(self) -> None:
        self.cancel_btn.setEnabled(False)
        self.stage.setText("Cancelling…")
        self.cancelRequested.emit(self.job_id)


class ImportPanel(QWidget):
    """A scrollable list of ``ImportRow``s with a "Clear finished" button."""

    cancelRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: dict[int, ImportRow] = {}
        self.title = QLabel("<b>Imports</b>")
        self.clear_btn = QPushButton("Clear finished")
        self.clear_btn.clicked.connect(self.clear_finished)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.clear_btn)
        inner = QWidget()
        self.list = QVBoxLayout(inner)
        self.list.setContentsMargins(0, 0, 0, 0)
        self.list.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)
        box.addLayout(head)
        box.addWidget(scroll, 1)

    def add(self, job_id: int, path: str) -> ImportRow:
        row = ImportRow(job_id, path)
        row.cancelRequested.connect(self.cancelRequested)
        self.rows[job_id] = row
        self.list.insertWidget(self.list.count() - 1, row)
        self.show()
        return row

    def progress(self, job_id: int, stage: str, done: int, total: int) -> None:
        if job_id in self.rows:
            self.rows[job_id].progress(stage, done, total)

    def searchable(self, job_id: int) -> None:
        """The file's book is stored and keyword-searchable; its vectors are still being made."""
        if job_id in self.rows:
            self.rows[job_id].searchable = True

    def finish(self, job_id: int, result: ImportResult) -> None:
        if job_id in self.rows:
            self.rows[job_id].finish(result)

    def finish_pack(self, job_id: int, results: list[ImportResult]) -> None:
        if job_id in self.rows:
            self.rows[job_id].finish_pack(results)

    def clear_finished(self) -> None:
        """Remove finished rows; hide the panel when nothing is left."""
        for job_id in [j for j, r in self.rows.items() if r.finished]:
            row = self.rows.pop(job_id)
            self.list.removeWidget(row)
            row.hide()
            row.deleteLater()
        if not self.rows:
            self.hide()

    def errors(self) -> list[str]:
        """The readable errors shown (tests and screenshots)."""
        return [r.error for r in self.rows.values() if r.error]
