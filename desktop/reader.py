"""The built-in reader: page navigation by printed page label, zoom, find in book, cited-passage highlight.

PDF and EPUB show rendered pages (``PagedView``); Markdown, text and HTML show their text
(``TextView``).  ``open_citation`` is what a click on a citation chip calls.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path

import pymupdf
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QStackedWidget, QToolButton,
                               QVBoxLayout, QWidget)

from core.ingest.pdf.ocr import TextLayer
from core.models import Book, Frame, SourceFormat
from desktop.page_view import PagedView
from desktop.text_view import TextView

log = logging.getLogger(__name__)

PAGED_FORMATS = (SourceFormat.PDF, SourceFormat.EPUB)
_ZOOM_STEP = 1.2


class ElidedLabel(QLabel):
    """A label that shortens its text with "…" to the width it is given (full text in the tooltip)."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumWidth(40)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.full = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        self.full = text
        self.setToolTip(text)
        self._elide()

    def text(self) -> str:
        return self.full

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self.full, Qt.TextElideMode.ElideRight, max(self.width(), 40))
        super().setText(shown)


class FindBar(QWidget):
    """``Find: [text] ▲ ▼ 3 of 12 ×`` — Enter finds next, Shift+Enter previous, Esc closes."""

    search = Signal(str, bool)  # text, backwards
    closed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.edit = QLineEdit(placeholderText="Find in this book")
        self.edit.setClearButtonEnabled(True)
        self.status = QLabel()
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(QLabel("Find:"))
        row.addWidget(self.edit, 1)
        for text, tip, back in (("▲", "Previous match (Shift+Enter)", True), ("▼", "Next match (Enter)", False)):
            b = QToolButton(text=text, toolTip=tip)
            b.clicked.connect(lambda _=False, back=back: self._emit(back))
            row.addWidget(b)
        row.addWidget(self.status)
        close = QToolButton(text="✕", toolTip="Close (Esc)")
        close.clicked.connect(self.close_bar)
        row.addWidget(close)
        self.edit.installEventFilter(self)

    def open_bar(self) -> None:
        self.show()
        self.edit.setFocus()
        self.edit.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        """Esc closes the bar before any window shortcut (e.g. Stop) sees it; Enter searches."""
        if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape:
            event.accept()
            return True
        if event.type() == QEvent.Type.KeyPress:
            if event.key() == Qt.Key.Key_Escape:
                self.close_bar()
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._emit(bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
                return True
        return super().eventFilter(obj, event)

    def _emit(self, backwards: bool) -> None:
        if self.edit.text().strip():
            self.search.emit(self.edit.text().strip(), backwards)


class PageFinder(QObject):
    """Finds text over every page of a ``PagedView`` in small time slices (the GUI never stalls)."""

    updated = Signal()

    def __init__(self, view: PagedView, budget_ms: float = 12.0):
        super().__init__(view)
        self.view = view
        self.budget = budget_ms / 1000
        self.text = ""
        self.matches: list[tuple[int, pymupdf.Rect]] = []
        self.current = -1
        self._next_page = 1
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._scan)

    @property
    def done(self) -> bool:
        return not self._timer.isActive()

    def scanned(self, page: int) -> bool:
        """Whether every page up to ``page`` has been searched."""
        return self.done or self._next_page > page

    def start(self, text: str) -> None:
        """Start a new search for ``text`` from page 1."""
        self.text, self.matches, self.current, self._next_page = text, [], -1, 1
        self._timer.start()

    def reset(self) -> None:
        self._timer.stop()
        self.text, self.matches, self.current = "", [], -1

    def step(self, backwards: bool) -> tuple[int, pymupdf.Rect] | None:
        """Move to the next/previous match after the current one (or from the shown page)."""
        if not self.matches:
            return None
        if self.current < 0:  # first step: from the page on screen
            page = self.view.page
            if backwards:
                before = [i for i, (p, _) in enumerate(self.matches) if p < page]
                self.current = before[-1] if before else len(self.matches) - 1
            else:
                after = [i for i, (p, _) in enumerate(self.matches) if p >= page]
                self.current = after[0] if after else 0
        else:
            self.current = (self.current + (-1 if backwards else 1)) % len(self.matches)
        return self.matches[self.current]

    def _scan(self) -> None:
        deadline = time.perf_counter() + self.budget
        doc = self.view.doc
        while doc is not None and self._next_page <= doc.page_count and time.perf_counter() < deadline:
            page = self._next_page
            self.matches.extend((page, r) for r in self.view.fitz_page(page).search_for(self.text))
            self._next_page += 1
        if doc is None or self._next_page > doc.page_count:
            self._timer.stop()
        self.updated.emit()


class ReaderWidget(QWidget):
    """Toolbar (title, ◀ page ▶, zoom, find) over the paged or text view of the open book."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.book: Book | None = None
        self.labels: dict[int, str] = {}
        self._label_to_page: dict[str, int] = {}
        self._pending_step: bool | None = None
        self.paged = PagedView()
        self.text = TextView()
        self.finder = PageFinder(self.paged)
        self.finder.updated.connect(self._on_find_update)
        self.placeholder = QLabel("Open a book from the library, or click a citation in an answer.",
                                  alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        self.placeholder.setEnabled(False)
        self.stack = QStackedWidget()
        for w in (self.placeholder, self.paged, self.text):
            self.stack.addWidget(w)
        self.find_bar = FindBar()
        self.find_bar.hide()
        self.find_bar.search.connect(self.find)
        self.find_bar.closed.connect(self._clear_find)
        self.paged.pageChanged.connect(self._sync_page_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._toolbar())
        layout.addWidget(self.find_bar)
        layout.addWidget(self.stack, 1)
        self._update_controls()

    # -- construction ----------------------------------------------------------------------------------------
    def _toolbar(self) -> QWidget:
        bar = QWidget()
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 4, 6, 4)
        self.title = ElidedLabel("Reader")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.prev_btn = QToolButton(text="◀", toolTip="Previous page (Page Up)")
        self.next_btn = QToolButton(text="▶", toolTip="Next page (Page Down)")
        self.prev_btn.clicked.connect(lambda: self.show_page(self.paged.page - 1))
        self.next_btn.clicked.connect(lambda: self.show_page(self.paged.page + 1))
        self.page_box = QLineEdit(toolTip="Go to a printed page (e.g. 12 or xii)")
        self.page_box.setFixedWidth(self.page_box.fontMetrics().horizontalAdvance("0000000") + 12)
        self.page_box.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.page_box.returnPressed.connect(lambda: self.go_to_label(self.page_box.text()))
        self.page_info = QLabel()
        self.zoom_out = QToolButton(text="−", toolTip="Zoom out (Ctrl+-)")
        self.zoom_in = QToolButton(text="+", toolTip="Zoom in (Ctrl++)")
        self.fit_btn = QToolButton(text=self.tr("Fit"), toolTip=self.tr("Fit page width"))
        self.zoom_label = QLabel()
        self.zoom_out.clicked.connect(lambda: self.zoom_by(1 / _ZOOM_STEP))
        self.zoom_in.clicked.connect(lambda: self.zoom_by(_ZOOM_STEP))
        self.fit_btn.clicked.connect(self.fit_width)
        self.find_btn = QToolButton(text=self.tr("Find"), toolTip=self.tr("Find in this book (Ctrl+F)"))
        self.find_btn.clicked.connect(self.open_find)
        row.addWidget(self.title, 1)
        for w in (self.prev_btn, self.page_box, self.page_info, self.next_btn, self.zoom_out, self.zoom_label,
                  self.zoom_in, self.fit_btn, self.find_btn):
            row.addWidget(w)
        self.prev_btn.setShortcut(QKeySequence(Qt.Key.Key_PageUp))
        self.next_btn.setShortcut(QKeySequence(Qt.Key.Key_PageDown))
        self.zoom_in.setShortcut(QKeySequence.StandardKey.ZoomIn)
        self.zoom_out.setShortcut(QKeySequence.StandardKey.ZoomOut)
        return bar

    # -- opening ---------------------------------------------------------------------------------------------
    @property
    def is_paged(self) -> bool:
        return self.book is not None and self.book.source_format in PAGED_FORMATS

    @property
    def current_page(self) -> int:
        """The physical page shown (1-based); 0 when no paged book is open."""
        return self.paged.page if self.is_paged else 0

    @property
    def highlight_rects(self) -> list[pymupdf.Rect]:
        return list(self.paged.canvas.quote_rects)

    def open_book(self, book: Book, path: Path, labels: dict[int, str]) -> None:
        """Show ``book`` (stored at ``path``); raises LanternError when the file cannot be read."""
        if self.book is not None and self.book.id == book.id:
            return
        self._clear_find()
        self.book, self.labels = book, labels
        self._label_to_page = {}
        for idx, label in sorted(labels.items()):
            self._label_to_page.setdefault(label.lower(), idx)
        if self.is_paged:
            scanned = TextLayer.of(book.file_hash) if book.source_format is SourceFormat.PDF else None
            self.paged.open(path, scanned)
            self.stack.setCurrentWidget(self.paged)
            self.paged.fit_width()
            self.paged.show_page(1)
        else:
            self.paged.close_document()
            self.text.load(path, book.source_format)
            self.stack.setCurrentWidget(self.text)
        self.title.setText(book.title)
        self._update_controls()

    def close_book(self) -> None:
        """Forget the open book (e.g. it was removed from the library)."""
        self._clear_find()
        self.paged.close_document()
        self.text.clear()
        self.book = None
        self.title.setText("Reader")
        self.stack.setCurrentWidget(self.placeholder)
        self._update_controls()

    # -- navigation --------------------------------------------------------------------------------------------
    def show_page(self, page: int, quote: str = "") -> None:
        """Show physical page ``page``, highlighting ``quote`` on it."""
        if self.is_paged:
            self.paged.show_page(page, quote=quote)

    def open_citation(self, page_start: int, page_end: int, quote: str, heading: str = "", *,
                      frame: Frame | None = None) -> None:
        """Show the cited passage: the first page of the range where ``quote`` is found, highlighted; a cited
        figure or table (``frame``) is outlined on its page."""
        if not self.is_paged:
            self.text.scroll_to_heading(heading)
            if quote:
                self.text.highlight_quote(quote, heading)
            return
        if frame is not None:
            self.paged.show_page(page_start, quote=quote, frame=frame)
            return
        from desktop.page_view import quote_rects
        last = max(page_start, min(page_end, self.paged.page_count))
        target = next((p for p in range(page_start, last + 1)
                       if quote and quote_rects(self.paged.fitz_page(p), quote)), page_start)
        self.paged.show_page(target, quote=quote)

    def open_section(self, page: int, heading: str) -> None:
        """Show the start of a section (its page, or its heading in a text book)."""
        if self.is_paged:
            self.paged.show_page(page)
        else:
            self.text.scroll_to_heading(heading)

    def go_to_label(self, text: str) -> bool:
        """Go to the page printed as ``text`` (falls back to a physical page number)."""
        text = text.strip().lower()
        page = self._label_to_page.get(text) if self.book else None
        if page is None and text.isdigit() and 1 <= int(text) <= self.paged.page_count:
            page = int(text)
        if page is None:
            self.page_info.setText(f"no page “{text}”")
            return False
        self.show_page(page)
        return True

    def zoom_by(self, factor: float) -> None:
        if self.is_paged:
            self.paged.set_zoom(self.paged.zoom * factor)
        elif factor > 1:
            self.text.zoomIn(1)
        else:
            self.text.zoomOut(1)
        self._update_controls()

    def fit_width(self) -> None:
        self.paged.fit_width()
        self._update_controls()

    # -- find --------------------------------------------------------------------------------------------------
    def open_find(self) -> None:
        if self.book is not None:
            self.find_bar.open_bar()

    def find(self, text: str, backwards: bool = False) -> None:
        """Find ``text`` in the open book (next/previous match)."""
        if not self.is_paged:
            found = self.text.find_text(text, backwards)
            n = self.text.count(text)
            self.find_bar.status.setText(f"{n} match{'es' if n != 1 else ''}" if found else "not found")
            return
        if text != self.finder.text:
            self.finder.start(text)
            self._pending_step = backwards
            return
        self._step_find(backwards)

    def _on_find_update(self) -> None:
        f = self.finder
        if not f.matches:
            self.find_bar.status.setText("not found" if f.done else "searching…")
        else:
            where = f"{f.current + 1} of {len(f.matches)}" if f.current >= 0 else f"{len(f.matches)} matches"
            self.find_bar.status.setText(where + ("" if f.done else "…"))
        if self._pending_step is not None and f.matches and self._can_step(self._pending_step):
            backwards, self._pending_step = self._pending_step, None
            self._step_find(backwards)

    def _can_step(self, backwards: bool) -> bool:
        """Whether the first step of a new search can be taken before the scan is complete."""
        page = self.paged.page
        if not self.finder.scanned(page):
            return False
        return self.finder.done or backwards or any(p >= page for p, _ in self.finder.matches)

    def _step_find(self, backwards: bool) -> None:
        hit = self.finder.step(backwards)
        if hit is None:
            return
        page, rect = hit
        if page != self.paged.page:
            self.paged.show_page(page, keep_find=True)
        on_page = [r for p, r in self.finder.matches if p == page]
        self.paged.canvas.find_rects = on_page
        self.paged.canvas.current_find = on_page.index(rect)
        self.paged.canvas.update()
        self.paged.scroll_to_rect(rect)
        self._on_find_update()

    def _clear_find(self) -> None:
        self.finder.reset()
        self._pending_step = None
        self.paged.canvas.find_rects = []
        self.paged.canvas.update()
        self.find_bar.status.clear()

    # -- state -------------------------------------------------------------------------------------------------
    def _sync_page_box(self, page: int) -> None:
        self.page_box.setText(self.labels.get(page, str(page)))
        self.page_info.setText(f"({page} of {self.paged.page_count})")
        self.prev_btn.setEnabled(page > 1)
        self.next_btn.setEnabled(page < self.paged.page_count)

    def _update_controls(self) -> None:
        paged = self.is_paged
        for w in (self.prev_btn, self.next_btn, self.page_box, self.page_info, self.fit_btn, self.zoom_label):
            w.setVisible(paged)
        for w in (self.zoom_in, self.zoom_out, self.find_btn):
            w.setEnabled(self.book is not None)
        self.zoom_label.setText(f"{round(self.paged.zoom * 100)}%")
        if paged:
            self._sync_page_box(self.paged.page)
