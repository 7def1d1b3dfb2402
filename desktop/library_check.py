"""Check the library for damage (``Library.doctor``) in the background and offer to repair it.

Runs once after start-up (quietly: a dialog only when something is wrong) and from Help → Check
library.  Both the check and the repair run on the import thread, so they never race an import.
"""
from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop.errors import show_error

log = logging.getLogger(__name__)


class LibraryCheck(QObject):
    """Owns the check/repair round trip and its (non-blocking) dialog."""

    finished = Signal(object)  # the DoctorReport, or the exception the check raised (tests wait on it)

    def __init__(self, library, imports, parent: QWidget):
        super().__init__(parent)
        self.library = library
        self.imports = imports
        self.window = parent
        self.box: QMessageBox | None = None
        self.last: object = None  # the last check's outcome (a DoctorReport or an exception), None before one

    def start(self, *, quiet: bool = False, repair: bool = False) -> None:
        """Queue ``doctor`` (with ``repair``) behind any running import; report on the GUI thread."""
        self.imports.run_write(lambda: self.library.doctor(repair=repair),
                               lambda outcome: self._done(outcome, quiet, repair))

    def _done(self, outcome: object, quiet: bool, repaired_run: bool) -> None:
        self.last = outcome
        if isinstance(outcome, BaseException):
            self.finished.emit(outcome)
            show_error(self.window, outcome)
            return
        report = outcome
        self.finished.emit(report)
        if report.ok and quiet:
            return
        self._show(report, repaired_run)

    def _show(self, report, repaired_run: bool) -> None:
        box = QMessageBox(self.window)
        box.setWindowTitle(self.tr("Library check"))
        lines = [f"✓ {r}" for r in report.repaired] + [f"• {p.message}" for p in report.problems]
        if report.ok:
            box.setIcon(QMessageBox.Icon.Information)
            box.setText(self.tr("Your library is healthy.") if not report.repaired
                        else self.tr("Your library was repaired."))
        else:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setText(self.tr("Lantern found problems in your library. Your books are not lost."))
        if lines:
            box.setInformativeText("\n".join(lines[:12]))
        if any(p.repairable for p in report.problems) and not repaired_run:
            repair = box.addButton(self.tr("Repair"), QMessageBox.ButtonRole.AcceptRole)
            repair.clicked.connect(lambda: self.start(repair=True))
            box.addButton(self.tr("Later"), QMessageBox.ButtonRole.RejectRole)
        else:
            box.addButton(QMessageBox.StandardButton.Ok)
        self.box = box
        box.open()  # window-modal but non-blocking: the event loop (and imports) keep running
