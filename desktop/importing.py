"""What the main window does with files: import (dialog, drops anywhere on the window, the sample book),
the import queue's outcomes, and removing a book.  A mixin of ``desktop.main_window.MainWindow``: it uses
the window's ``library``, ``imports`` (``ImportQueue``), ``import_panel``, ``sidebar``, ``reader`` and
status bar, on the GUI thread.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QStandardPaths
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from core.errors import LanternError
from core.models import ImportResult, ImportStatus
from core.paths import sample_books
from desktop.course_pack import ExportPackDialog, pack_filter, pack_target, run_export
from desktop.errors import show_error

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # a mixin, not a QObject: lupdate reads translate("Importing", ...)

BOOK_SUFFIXES = {".pdf", ".epub", ".md", ".markdown", ".txt", ".text", ".html", ".htm", ".xhtml"}
BOOK_PATTERNS = "*.pdf *.epub *.md *.markdown *.txt *.html *.htm *.xhtml *.lantern"


def import_filter() -> str:
    """The import dialog's file types (in the interface's language)."""
    return ";;".join((translate("Importing", "Books and course packs ({patterns})").format(patterns=BOOK_PATTERNS),
                      pack_filter(), translate("Importing", "All files (*)")))


def import_start_folder(home: Path | None = None) -> Path:
    """Where the import dialog first opens: ~/Documents, else ~/Downloads, else home (never the working folder).

    With no ``home`` given, the desktop's own (possibly translated) Documents/Downloads folders from
    ``QStandardPaths`` come first, then the English names under the home folder.
    """
    if home is None:
        home = Path.home()
        kinds = (QStandardPaths.StandardLocation.DocumentsLocation, QStandardPaths.StandardLocation.DownloadLocation)
        located = [QStandardPaths.writableLocation(kind) for kind in kinds]
        candidates = [located[0], home / "Documents", located[1], home / "Downloads"]
    else:
        candidates = [home / "Documents", home / "Downloads"]
    for folder in candidates:
        if folder and Path(folder).is_dir() and Path(folder).resolve() != home.resolve():
            return Path(folder)
    return home


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files to import from dropped/chosen paths: files as given, folders' book files (sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in BOOK_SUFFIXES))
        else:
            out.append(p)
    return out


def dropped_files(event: QDropEvent | QDragEnterEvent) -> list[str]:
    """Local file paths carried by a drag (empty for text or remote URLs)."""
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]


class ImportActions:
    """Importing, dropping and removing books (mixed into the main window)."""

    def import_files(self, paths: Iterable[str | Path]) -> list[int]:
        """Queue files (folders are searched for books); returns the job ids."""
        return [self.imports.add(p) for p in expand_paths(paths)]

    def choose_files(self) -> None:
        """File → Import (Ctrl+O): opens where books usually are, then where the last import came from."""
        paths, _ = QFileDialog.getOpenFileNames(self, translate("Importing", "Import books"),
                                                str(self._dialog_folder()), import_filter())
        if paths:
            self._import_folder = Path(paths[0]).parent  # remembered for this session
        self.import_files(paths)

    def _dialog_folder(self) -> Path:
        """Where a file dialog opens: where the last import came from, else where books usually are."""
        start = getattr(self, "_import_folder", None)
        return Path(start) if start is not None and Path(start).is_dir() else import_start_folder()

    def choose_pack(self) -> None:
        """File → Open course pack…: a teacher's books with their index (and study sets), added in seconds."""
        path, _ = QFileDialog.getOpenFileName(self, translate("Importing", "Open course pack"),
                                              str(self._dialog_folder()), pack_filter())
        if path:
            self._import_folder = Path(path).parent
            self.import_files([path])

    def export_pack(self) -> None:
        """File → Export course pack…: choose the books, then where to write the pack."""
        books = self.library.books()
        if not books:
            self.statusBar().showMessage(
                translate("Importing", "Import a book first: a course pack holds books of your library."), 8000)
            return
        current = self.reader.book.id if self.reader.book is not None else None
        dialog = ExportPackDialog(books, current if len(books) > 1 else None, self)
        if dialog.exec() != ExportPackDialog.DialogCode.Accepted or not dialog.chosen():
            return
        first = self.library.book(dialog.chosen()[0])
        target = pack_target(self, self._dialog_folder(), first.title)
        if target is not None:
            run_export(self, dialog.chosen(), target, dialog.study.isChecked(), dialog.progress.isChecked())

    def _pack_finished(self, job_id: int, results: list[ImportResult]) -> None:
        """A course pack's books are in: show them (the first opens in the reader if none is open)."""
        self.import_panel.finish_pack(job_id, results)
        self.refresh_library()
        added = [r.book for r in results if r.status is not ImportStatus.DUPLICATE and r.book]
        for book in added:
            self.sidebar.expand_book(book.id)
        if added:
            added_text = translate("Importing", "Added {n} book(s) from the course pack; ask away.")
            self.statusBar().showMessage(added_text.format(n=len(added)), 8000)
            if self.reader.book is None:
                self._open_book(added[0].id)

    def import_sample(self) -> list[int]:
        """Import the bundled sample textbook."""
        books = sample_books()
        if not books:
            show_error(self, LanternError(translate("Importing", "The sample book is missing from this installation.")))
            return []
        return self.import_files([books[0]])

    def _import_searchable(self, job_id: int, book) -> None:
        """The book is stored and keyword-searchable: show it and let the student ask while it is indexed."""
        self.import_panel.searchable(job_id)
        self.refresh_library()
        self.sidebar.expand_book(book.id)
        self.statusBar().showMessage(translate("Importing", "You can ask about “{title}” now (keyword search); "
                                               "meaning search is being built.").format(title=book.title), 8000)
        if self.reader.book is None:  # the student sees the book they just dropped
            self._open_book(book.id)

    def _import_finished(self, job_id: int, result: ImportResult) -> None:
        self.import_panel.finish(job_id, result)
        if result.status in (ImportStatus.IMPORTED, ImportStatus.SEARCHABLE) and result.book is not None:
            self.refresh_library()
            self.sidebar.expand_book(result.book.id)
            if result.status is ImportStatus.IMPORTED:
                imported = translate("Importing", "Imported “{title}”.")
                self.statusBar().showMessage(imported.format(title=result.book.title), 8000)
            if self.reader.book is None:
                self._open_book(result.book.id)

    def remove_book(self, book_id: str) -> None:
        """Ask, then remove the book (serialised with imports)."""
        try:
            book = self.library.book(book_id)
        except LanternError as exc:
            show_error(self, exc)
            return
        answer = QMessageBox.question(self, translate("Importing", "Remove book"),
                                      translate("Importing", "Remove “{title}” and its index from the library? "
                                                "The original file is not touched.").format(title=book.title))
        if answer == QMessageBox.StandardButton.Yes:
            self.imports.cancel_book(book_id)  # its indexing stops between chapters; then the removal runs
            self.imports.run_write(lambda: self.library.remove(book_id), self._removed)

    def _removed(self, outcome: object) -> None:
        if isinstance(outcome, BaseException):
            show_error(self, outcome)
            return
        if self.reader.book is not None and self.reader.book.id == getattr(outcome, "id", None):
            self.reader.close_book()
        self.refresh_library()

    # -- drag and drop (anywhere on the window) -----------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 - Qt API
        if dropped_files(event):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt API
        if dropped_files(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 - Qt API
        files = dropped_files(event)
        if files:
            event.acceptProposedAction()
            self.import_files(files)

    def _route_drops(self) -> None:
        """Child widgets that accept drops themselves (text boxes) would swallow dropped files: filter them.

        Every other widget passes drag events up to the window, which accepts drops.
        """
        for widget in self.findChildren(QWidget):
            if widget.acceptDrops():
                widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        """Hand file drags over a text box to the window (text drags still go to the box)."""
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop) and obj is not self \
                and dropped_files(event):
            {QEvent.Type.DragEnter: self.dragEnterEvent, QEvent.Type.DragMove: self.dragMoveEvent,
             QEvent.Type.Drop: self.dropEvent}[kind](event)
            return True
        return super().eventFilter(obj, event)
