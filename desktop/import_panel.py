"""The import queue panel: one row per file with its stage, a progress bar, Cancel, and its outcome.

Rows are updated only from ``ImportQueue`` signals, i.e. on the GUI thread.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout,
                               QWidget)

from core.models import ImportResult, ImportStatus

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # module functions: lupdate reads translate("Import", ...)


def stage_names() -> dict[str, str]:
    """The import stages core reports, as the student reads them (in the interface's language)."""
    return {
        "reading": translate("Import", "Reading"),
        "reading pages": translate("Import", "Reading pages"),
        "reading scanned pages": translate("Import", "Reading scanned pages (OCR)"),
        "chunking": translate("Import", "Cutting into passages"),
        "embedding": translate("Import", "Indexing meaning"),
        "done": translate("Import", "Saving"),
        "checking the pack": translate("Import", "Checking the course pack"),
        "adding books": translate("Import", "Adding books"),
    }


def stage_text(stage: str, done: int, total: int) -> str:
    """``"Reading pages 12/300"`` from a progress callback's arguments."""
    name = stage_names().get(stage, stage.capitalize())
    if stage in ("embedding", "checking the pack") and total > 1:  # word pieces, bytes: a share reads better
        return f"{name} {100 * done // total}\u00a0%"  # no break before the sign
    return f"{name} {done}/{total}" if total > 1 else name


_TIMED_STAGES = {"reading scanned pages"}  # long enough (2-3 s a page) that a student wants an estimate


def time_left(seconds: float) -> str:
    """"about 18 min left" for an estimate in seconds."""
    if seconds < 60:
        return translate("Import", "under a minute left")
    minutes = round(seconds / 60)
    if minutes < 90:
        return translate("Import", "about {minutes} min left").format(minutes=minutes)
    return translate("Import", "about {hours} h left").format(hours=f"{seconds / 3600:.1f}")


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
        self.stage = QLabel(self.tr("Waiting…"))
        self.stage.setWordWrap(True)
        self.stage.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.bar.hide()  # shown with the first progress report
        self.bar.setMaximumHeight(self.fontMetrics().height() // 2 + 4)
        self.cancel_btn = QPushButton(self.tr("Cancel"))
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
            text = self.tr("Ready to ask (keyword search) · {progress}").format(progress=text)
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
            size = (self.tr("{n} pages").format(n=b.page_count) if b.paginated
                    else self.tr("{n} sections").format(n=b.section_count))
            self.stage.setText(self.tr("✓ Imported “{title}” ({size}, {chapters} chapters)").format(
                title=b.title, size=size, chapters=b.chapter_count))
        elif result.status is ImportStatus.SEARCHABLE:  # stopped after the book became searchable
            self.stage.setText(self.tr("Searchable by keyword. {reason}").format(reason=result.error or "").strip())
        elif result.status is ImportStatus.DUPLICATE:
            self.stage.setText(self.tr("Already in your library: {reason}").format(reason=result.error or "").strip())
        elif result.error_code == "cancelled":
            self.stage.setText(self.tr("Cancelled — nothing was added."))
        else:
            self.error = result.error or self.tr("This file could not be imported.")
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
            titles = ", ".join(f"“{t}”" for t in added)
            added_text = (self.tr("✓ Added {titles} with its index, ready to ask") if len(added) == 1
                          else self.tr("✓ Added {titles} with their index, ready to ask"))
            parts.append(added_text.format(titles=titles))
        if already:
            parts.append(self.tr("already in your library (left as they are): {titles}").format(
                titles=", ".join(f"“{t}”" for t in already)))
        self._end()
        self.stage.setText("; ".join(parts) + "." if parts else self.tr("The course pack holds no books."))

    def _end(self) -> None:
        self.finished = True
        self.cancel_btn.hide()
        self.bar.hide()

    def _cancel(self) -> None:
        self.cancel_btn.setEnabled(False)
        self.stage.setText(self.tr("Cancelling…"))
        self.cancelRequested.emit(self.job_id)


class ImportPanel(QWidget):
    """A scrollable list of ``ImportRow``s with a "Clear finished" button."""

    cancelRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: dict[int, ImportRow] = {}
        self.title = QLabel("<b>" + self.tr("Imports") + "</b>")
        self.clear_btn = QPushButton(self.tr("Clear finished"))
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
