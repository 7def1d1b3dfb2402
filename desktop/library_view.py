"""The library sidebar: books → chapters → sections with printed page ranges, or a first-run welcome.

Clicking a node opens the reader there; a book's context menu can scope questions to it or remove it.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QMenu, QPushButton, QStackedWidget,
                               QTreeView, QVBoxLayout, QWidget)

from core.errors import BookNotFoundError
from core.models import Book, Section
from desktop.transcript import language_label

log = logging.getLogger(__name__)

NODE_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Node:
    """What a sidebar row points at: a book, or a section of it (physical start page, heading)."""

    book_id: str
    section_id: int | None = None
    page: int = 1
    heading: str = ""


def page_range(labels: dict[int, str], start: int, end: int) -> str:
    """``"p. 5"`` or ``"pp. 12–18"`` using printed labels (physical numbers when a label is missing)."""
    a, b = labels.get(start, str(start)), labels.get(end, str(end))
    return f"p. {a}" if start == end or a == b else f"pp. {a}–{b}"


def _item(text: str, tip: str = "") -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    item.setToolTip(tip or text)
    return item


class LibraryModel(QStandardItemModel):
    """Two columns (title, pages) built from ``library.books()``, ``sections()`` and ``pages()``."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setHorizontalHeaderLabels([self.tr("Book / chapter / section"), self.tr("Pages")])

    def reload(self, library) -> None:
        """Rebuild from the library (GUI thread; a few small SQLite reads per book)."""
        self.removeRows(0, self.rowCount())
        for book in library.books():
            try:
                labels = {p.index: p.label for p in library.pages(book.id)}
                sections = library.sections(book.id)
            except BookNotFoundError:  # removed by another thread between the reads: its own refresh follows
                continue
            self.appendRow(self._book_row(book, sections, labels))

    def _book_row(self, book: Book, sections: list[Section], labels: dict[int, str]) -> list[QStandardItem]:
        count = (self.tr("{n} pages").format(n=book.page_count) if book.paginated else
                 self.tr("{n} sections").format(n=len(sections)))
        written = self.tr("written in {language}").format(language=language_label(book.language))
        tip = f"{book.title}\n{book.file_name} · {count} · {written}"
        if book.pending:  # a staged import is still making its vectors
            count = self.tr("{count} · keyword search only").format(count=count)
            tip += "\n\n" + self.tr("Searchable by keyword now; searching by meaning is being built and is used "
                                     "chapter by chapter as it is ready.")
        title = _item(book.title, tip)
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        title.setData(Node(book.id), NODE_ROLE)
        items: dict[int, QStandardItem] = {}
        for s in sections:
            parent = items.get(s.parent_id, title) if s.parent_id is not None else title
            pages = page_range(labels, s.page_start, s.page_end) if book.paginated else ""
            node = _item(s.display, f"{s.display}\n{pages}".strip())
            node.setData(Node(book.id, s.id, s.page_start, s.title), NODE_ROLE)
            parent.appendRow([node, _item(pages)])
            items[s.id] = node
        return [title, _item(count)]

    def book_item(self, book_id: str) -> QStandardItem | None:
        for row in range(self.rowCount()):
            item = self.item(row, 0)
            if item.data(NODE_ROLE).book_id == book_id:
                return item
        return None


class LibrarySidebar(QWidget):
    """The tree of books, or (when the library is empty) a welcome with "Try the sample book"."""

    openRequested = Signal(object)  # Node
    askAboutRequested = Signal(str)  # book id
    removeRequested = Signal(str)  # book id
    sampleRequested = Signal()
    importRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = LibraryModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderHidden(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.activated.connect(self._activated)
        self.tree.clicked.connect(self._activated)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.stack = QStackedWidget()
        self.stack.addWidget(self._welcome())
        self.stack.addWidget(self.tree)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    def _welcome(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.addStretch(1)
        empty = self.tr("Your library is empty")
        title = QLabel(f"<h3>{empty}</h3>", alignment=Qt.AlignmentFlag.AlignCenter)
        hint = QLabel(self.tr("Drop a textbook here (PDF, EPUB, Markdown, text or HTML), or import one. "
                              "Everything stays on this computer."),
                      wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.sample_btn = QPushButton(self.tr("Try the sample book"))
        self.sample_btn.setDefault(True)
        self.sample_btn.clicked.connect(self.sampleRequested)
        more = QPushButton(self.tr("Import a book…"))
        more.clicked.connect(self.importRequested)
        for w in (title, hint, self.sample_btn, more):
            box.addWidget(w)
        box.addStretch(2)
        return page

    def reload(self, library) -> None:
        """Refresh from the library, keeping expanded books expanded."""
        expanded = {self.model.item(r, 0).data(NODE_ROLE).book_id for r in range(self.model.rowCount())
                    if self.tree.isExpanded(self.model.index(r, 0))}
        self.model.reload(library)
        for r in range(self.model.rowCount()):
            index = self.model.index(r, 0)
            if self.model.rowCount() == 1 or self.model.item(r, 0).data(NODE_ROLE).book_id in expanded:
                self.tree.expand(index)
        self.stack.setCurrentIndex(1 if self.model.rowCount() else 0)

    def set_progress(self, book_id: str, progress: dict) -> None:
        """Shade the book's sections by study progress (``{section_id: (heat 0..1, tooltip line)}``): the
        Study tab's heat-map on the table of contents."""
        book = self.model.book_item(book_id)
        if book is None:
            return
        stack = [book]
        while stack:
            item = stack.pop()
            for row in range(item.rowCount()):
                child = item.child(row, 0)
                stack.append(child)
                node = child.data(NODE_ROLE)
                heat, tip = progress.get(node.section_id, (0.0, ""))
                child.setBackground(QBrush(QColor(46, 160, 67, int(20 + 120 * heat))) if heat > 0 else QBrush())
                base = child.toolTip().split("\n\nStudy:")[0]
                child.setToolTip(f"{base}\n\nStudy: {tip}" if tip else base)

    def expand_book(self, book_id: str) -> None:
        item = self.model.book_item(book_id)
        if item is not None:
            self.tree.expand(item.index())
            self.tree.scrollTo(item.index(), QAbstractItemView.ScrollHint.PositionAtTop)

    def _activated(self, index: QModelIndex) -> None:
        node = self.model.itemFromIndex(index.siblingAtColumn(0)).data(NODE_ROLE)
        if node is not None:
            self.openRequested.emit(node)

    def _menu(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        if not index.isValid():
            return
        node: Node = self.model.itemFromIndex(index.siblingAtColumn(0)).data(NODE_ROLE)
        menu = QMenu(self)
        menu.addAction(self.tr("Open in reader"), lambda: self.openRequested.emit(node))
        menu.addAction(self.tr("Ask about this book"), lambda: self.askAboutRequested.emit(node.book_id))
        if node.section_id is None:
            menu.addSeparator()
            menu.addAction(self.tr("Remove from library…"), lambda: self.removeRequested.emit(node.book_id))
        menu.popup(self.tree.viewport().mapToGlobal(pos))
