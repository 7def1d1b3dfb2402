"""Where a question is answered from: all books, one book, some of its chapters, a printed page range."""
from __future__ import annotations

import logging

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QMenu, QSpinBox, QToolButton, QWidget

from core.models import SectionKind
from desktop.protocols import Scope

log = logging.getLogger(__name__)


class PageSpin(QSpinBox):
    """A spin box over physical pages that shows and accepts printed labels ("xii", "12")."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.labels: dict[int, str] = {}
        self._by_label: dict[str, int] = {}

    def set_labels(self, labels: dict[int, str]) -> None:
        self.labels = labels
        self._by_label = {}
        for idx, label in sorted(labels.items()):
            self._by_label.setdefault(label.lower(), idx)
        self.setRange(1, max(1, len(labels)))

    def textFromValue(self, value: int) -> str:  # noqa: N802 - Qt API
        return self.labels.get(value, str(value))

    def valueFromText(self, text: str) -> int:  # noqa: N802 - Qt API
        t = text.strip().lower()
        if t in self._by_label:
            return self._by_label[t]
        return int(t) if t.isdigit() else self.value()

    def validate(self, text: str, pos: int):  # noqa: D102 - Qt API: any label-ish text may be typed
        from PySide6.QtGui import QValidator
        t = text.strip().lower()
        if t in self._by_label:
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Intermediate, text, pos


class ScopeBar(QWidget):
    """``Ask in: [book ▾] [chapters ▾] [☐ pages 1 – 20]``."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.books = QComboBox()
        self.books.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.books.setMinimumContentsLength(16)
        self.books.currentIndexChanged.connect(self._book_changed)
        self.chapters_btn = QToolButton(text=self.tr("All chapters"), toolTip=self.tr("Only these chapters"))
        self.chapters_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.chapters_menu = QMenu(self)
        self.chapters_menu.triggered.connect(self._chapters_changed)
        self.chapters_btn.setMenu(self.chapters_menu)
        self.pages_box = QCheckBox(self.tr("Pages"))
        self.page_from, self.page_to = PageSpin(), PageSpin()
        self.pages_box.toggled.connect(self._pages_toggled)
        for spin in (self.page_from, self.page_to):
            spin.valueChanged.connect(self.changed)
        self.dash = QLabel("–")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(self.tr("Ask in:")))
        row.addWidget(self.books, 1)
        for w in (self.chapters_btn, self.pages_box, self.page_from, self.dash, self.page_to):
            row.addWidget(w)
        self._library = None
        self._pages_toggled(False)
        self._book_changed()

    def set_library(self, library) -> None:
        """Refill the book list; the selected book (and its chapter/page choice) stays when still there."""
        self._library = library
        current = self.book_id
        self.books.blockSignals(True)
        self.books.clear()
        self.books.addItem(self.tr("All books"), None)
        for b in library.books():
            self.books.addItem(b.title, b.id)
        index = self.books.findData(current) if current else 0
        self.books.setCurrentIndex(max(0, index))
        self.books.blockSignals(False)
        if index <= 0:
            self._book_changed()

    def select_book(self, book_id: str) -> None:
        index = self.books.findData(book_id)
        if index >= 0:
            self.books.setCurrentIndex(index)

    @property
    def book_id(self) -> str | None:
        return self.books.currentData()

    def scope(self) -> Scope:
        """The current selection as a ``Scope``."""
        if not self.book_id:
            return Scope()
        chapters = tuple(a.data() for a in self.chapters_menu.actions() if a.isCheckable() and a.isChecked())
        pages = None
        if self.pages_box.isChecked():
            a, b = sorted((self.page_from.value(), self.page_to.value()))
            pages = (a, b)
        return Scope(self.book_id, chapters, pages)

    def still_indexing(self) -> list[str]:
        """Titles of the books in scope whose meaning search is still being built (keyword search only)."""
        library = getattr(self, "_library", None)
        if library is None:
            return []
        return [b.title for b in library.pending_books() if not self.book_id or b.id == self.book_id]

    def describe(self) -> str:
        """Human text of the scope ("All books", "Book · ch. 2 · pp. 5–9")."""
        s = self.scope()
        labels = None
        if s.pages:
            labels = (self.page_from.textFromValue(s.pages[0]), self.page_to.textFromValue(s.pages[1]))
        return s.describe(self.books.currentText(), labels)

    # -- slots ------------------------------------------------------------------------------------------------
    def _book_changed(self) -> None:
        self.chapters_menu.clear()
        book_id = self.book_id
        has_book = bool(book_id and self._library)
        for w in (self.chapters_btn, self.pages_box, self.page_from, self.dash, self.page_to):
            w.setVisible(has_book)
        self.chapters_btn.setEnabled(has_book)
        if has_book:
            self._fill_book(book_id)
        else:
            self.pages_box.setChecked(False)
        self.chapters_btn.setText(self.tr("All chapters"))
        self.changed.emit()

    def _fill_book(self, book_id: str) -> None:
        book = self._library.book(book_id)
        for s in self._library.sections(book_id):
            if s.parent_id is None and s.number and s.kind in (SectionKind.CHAPTER, SectionKind.APPENDIX):
                action = self.chapters_menu.addAction(s.display)
                action.setCheckable(True)
                action.setData(s.number)
        if self.chapters_menu.isEmpty():
            self.chapters_btn.setEnabled(False)
        labels = {p.index: p.label for p in self._library.pages(book_id)}
        self.pages_box.setEnabled(book.paginated)
        for spin in (self.page_from, self.page_to):
            spin.set_labels(labels)
        self.page_from.setValue(1)
        self.page_to.setValue(max(1, len(labels)))

    def _chapters_changed(self) -> None:
        chosen = [a.data() for a in self.chapters_menu.actions() if a.isChecked()]
        self.chapters_btn.setText(self.tr("Ch. ") + ", ".join(chosen) if chosen else self.tr("All chapters"))
        self.changed.emit()

    def _pages_toggled(self, on: bool) -> None:
        for spin in (self.page_from, self.page_to):
            spin.setEnabled(on)
        self.changed.emit()
