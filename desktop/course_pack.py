"""File → Export course pack…: choose books and what goes with them, then write the pack on the import
thread with a progress dialog and Cancel.  (Opening a pack is an import: ``desktop.importing``.)"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QLabel, QListWidget,
                               QListWidgetItem, QProgressDialog, QVBoxLayout, QWidget)

from core.index.pack_format import SUFFIX
from desktop.errors import show_error

translate = QCoreApplication.translate  # module functions: lupdate reads translate("CoursePack", ...)


def pack_filter() -> str:
    """The file dialogs' filter for course packs (in the interface's language)."""
    return translate("CoursePack", "Lantern course packs ({pattern})").format(pattern=f"*{SUFFIX}")


class ExportPackDialog(QDialog):
    """Which books go into the pack, with or without their study sets and the student's own progress."""

    def __init__(self, books, selected: str | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export course pack"))
        self.books = QListWidget()
        for book in books:
            item = QListWidgetItem(self.tr("{title}  ({n} pages)").format(title=book.title, n=book.page_count))
            item.setData(Qt.ItemDataRole.UserRole, book.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            ready = not book.pending
            item.setCheckState(Qt.CheckState.Checked if ready and (selected in (None, book.id))
                               else Qt.CheckState.Unchecked)
            if not ready:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(self.tr("Still being indexed: it can go into a pack when its meaning search is "
                                        "complete."))
            self.books.addItem(item)
        self.study = QCheckBox(self.tr("Include study sets (flashcards, lessons, chapter guides)"))
        self.study.setChecked(True)
        self.progress = QCheckBox(self.tr("Include my own progress (card reviews, quiz results, conversations)"))
        self.progress.setToolTip(self.tr("Leave this off when the pack is for someone else."))
        note = QLabel(self.tr("The pack holds the book files and their finished index: another computer opens them "
                              "in seconds, without importing or indexing again."))
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.addButton(self.tr("Export…"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.books.itemChanged.connect(lambda _item: self.ok.setEnabled(bool(self.chosen())))
        self.ok.setEnabled(bool(self.chosen()))
        box = QVBoxLayout(self)
        box.addWidget(QLabel(self.tr("Books to put in the pack:")))
        box.addWidget(self.books, 1)
        box.addWidget(self.study)
        box.addWidget(self.progress)
        box.addWidget(note)
        box.addWidget(buttons)
        self.resize(520, 380)

    def chosen(self) -> list[str]:
        """The ids of the checked books."""
        items = (self.books.item(i) for i in range(self.books.count()))
        return [it.data(Qt.ItemDataRole.UserRole) for it in items if it.checkState() == Qt.CheckState.Checked]


class _ExportSignals(QObject):
    progressed = Signal(str, int, int)


def pack_target(parent: QWidget, start: Path, title: str) -> Path | None:
    """Ask where to write the pack (``<title>.lantern`` in ``start`` first)."""
    name = "".join(ch for ch in title if ch.isalnum() or ch in " -_").strip() or "course"
    path, _ = QFileDialog.getSaveFileName(parent, translate("CoursePack", "Export course pack"),
                                          str(start / f"{name}{SUFFIX}"), pack_filter())
    if not path:
        return None
    target = Path(path)
    return target if target.suffix.lower() == SUFFIX else target.with_name(target.name + SUFFIX)


def run_export(window, book_ids: list[str], target: Path, with_study: bool, with_progress: bool) -> QProgressDialog:
    """Write the pack on the import thread (in turn with imports); a progress dialog with Cancel meanwhile.
    The outcome goes to the status bar, or to an error dialog."""
    cancel = threading.Event()
    dialog = QProgressDialog(translate("CoursePack", "Writing the course pack…"), translate("CoursePack", "Cancel"),
                             0, len(book_ids), window)
    dialog.setWindowTitle(translate("CoursePack", "Export course pack"))
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(0)
    dialog.canceled.connect(cancel.set)
    signals = _ExportSignals(dialog)
    signals.progressed.connect(lambda _s, done, _t: dialog.setValue(min(done, dialog.maximum() - 1)))

    def work():
        return window.library.export_pack(book_ids, target, with_study=with_study, with_progress=with_progress,
                                          progress=signals.progressed.emit, cancel=cancel.is_set)

    def done(outcome) -> None:
        dialog.reset()
        dialog.hide()
        if cancel.is_set():
            window.statusBar().showMessage(translate("CoursePack", "Export cancelled: no pack was written."), 8000)
        elif isinstance(outcome, BaseException):
            show_error(window, outcome)
        else:
            window.statusBar().showMessage(translate("CoursePack", "Wrote {name} ({size} MB, {n} book(s)).").format(
                name=outcome.path.name, size=f"{outcome.size / 1e6:.1f}", n=len(outcome.books)), 15_000)
        window.last_export = outcome
    window.imports.run_write(work, done)
    dialog.show()
    return dialog
