"""A paged document view: PyMuPDF renders one page to a ``QImage``; highlights are a translucent overlay.

PySide6-Essentials has no QtPdf, so PDF (and EPUB, which PyMuPDF lays out into pages the same way
the importer does) is drawn here.  All PyMuPDF calls happen on the GUI thread; a page renders in a
few milliseconds.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from pathlib import Path

import pymupdf
from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import QScrollArea, QSizePolicy, QWidget

from core.errors import CorruptFileError
from core.ingest.pdf.ocr import TextLayer, add_invisible_text

log = logging.getLogger(__name__)

QUOTE_HIGHLIGHT = QColor(255, 200, 0, 90)  # a marker-pen yellow: the one fixed colour in the app
FRAME_OUTLINE = QColor(230, 150, 0)  # the same marker, drawn round a cited figure or table
_CACHE_PAGES = 6


def quote_rects(page: pymupdf.Page, quote: str, window: int = 8) -> list[pymupdf.Rect]:
    """Rectangles of ``quote`` on ``page``, found ``window`` words at a time.

    The first window anchors the passage; later windows are kept only when they sit after the
    previous match, so common phrases elsewhere on the page are not lit up.  When the first window is
    not on the page (hyphenation, ligatures), shorter openings are tried.
    """
    words = quote.split()
    if not words:
        return []
    anchor: list[pymupdf.Rect] = []
    for size in (window, 5, 3):
        anchor = page.search_for(" ".join(words[:size]))
        if anchor:
            break
    if not anchor:
        return []
    rects = list(_first_match_lines(anchor))
    for i in range(window, len(words), window):
        piece = words[i:i + window]
        if len(piece) < 4:  # a two-word tail matches everywhere: skip it
            break
        later = [r for r in page.search_for(" ".join(piece)) if r.y0 >= rects[-1].y0 - 1]
        if not later:
            break
        rects.extend(_first_match_lines(later))
    return rects


def _first_match_lines(rects: list[pymupdf.Rect]) -> list[pymupdf.Rect]:
    """``search_for`` gives one rect per line; a match spans consecutive lines going down the page."""
    out = [rects[0]]
    for r in rects[1:]:
        if r.y0 > out[-1].y0 + 0.5 and r.y0 - out[-1].y1 < out[-1].height:
            out.append(r)
        else:
            break
    return out


class PageCanvas(QWidget):
    """Draws the rendered page and translucent rectangles over it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.image = QImage()
        self.zoom = 1.0
        self.quote_rects: list[pymupdf.Rect] = []
        self.find_rects: list[pymupdf.Rect] = []
        self.current_find = -1
        self.frame_rect: pymupdf.Rect | None = None  # a cited figure or table, outlined

    def set_image(self, image: QImage, zoom: float) -> None:
        self.image = image
        self.zoom = zoom
        dpr = image.devicePixelRatio() or 1.0
        self.setFixedSize(QSize(int(image.width() / dpr), int(image.height() / dpr)))
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        if not self.image.isNull():
            p.drawImage(0, 0, self.image)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QUOTE_HIGHLIGHT)
        for r in self.quote_rects:
            p.drawRect(self._scaled(r))
        find = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        for i, r in enumerate(self.find_rects):
            find.setAlpha(150 if i == self.current_find else 70)
            p.setBrush(find)
            p.drawRect(self._scaled(r))
        if self.frame_rect is not None:
            p.setPen(QPen(FRAME_OUTLINE, 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(self._scaled(self.frame_rect).adjusted(-4, -4, 4, 4))
        p.end()

    def _scaled(self, r: pymupdf.Rect) -> QRectF:
        z = self.zoom
        return QRectF(r.x0 * z - 1, r.y0 * z - 1, r.width * z + 2, r.height * z + 2)


class PagedView(QScrollArea):
    """Shows one page of a PDF/EPUB at a zoom level, with highlight overlays."""

    pageChanged = Signal(int)  # physical page, 1-based

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.setBackgroundRole(QPalette.ColorRole.Dark)
        self.canvas = PageCanvas()
        self.canvas.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setWidget(self.canvas)
        self.doc: pymupdf.Document | None = None
        self.page = 1
        self.zoom = 1.25
        self._cache: OrderedDict[tuple[int, float, float], QImage] = OrderedDict()
        self._text_layer = TextLayer({})  # OCR text of scanned pages, laid over each page when first used
        self._epub: Path | None = None  # an EPUB's MathML is drawn over its pages (``math_overlay``)
        self._maths: list | None = None  # ...read from it the first time a page is drawn

    # -- document ---------------------------------------------------------------------------------------
    def open(self, path: Path, text_layer: TextLayer | None = None) -> None:
        """Open ``path`` (raises ``CorruptFileError`` when PyMuPDF cannot).

        ``text_layer``: OCR lines of scanned pages, laid over each page as invisible text the first
        time it is used, so quotes are highlighted and found on a scan.
        """
        self.close_document()
        try:
            self.doc = pymupdf.open(str(path))
        except (RuntimeError, ValueError) as exc:
            raise CorruptFileError(f"{path.name} cannot be opened for reading: {exc}") from None
        self._text_layer = text_layer or TextLayer({})
        self._epub = path if path.suffix.lower() == ".epub" else None
        self.page = 1

    def close_document(self) -> None:
        if self.doc is not None:
            self.doc.close()
        self.doc = None
        self._text_layer = TextLayer({})
        self._epub, self._maths = None, None
        self._cache.clear()
        self.canvas.quote_rects, self.canvas.find_rects = [], []

    @property
    def page_count(self) -> int:
        return self.doc.page_count if self.doc is not None else 0

    def fitz_page(self, page: int) -> pymupdf.Page:
        """The PyMuPDF page for physical page ``page`` (1-based), with its OCR text if it is scanned."""
        lines = self._text_layer.take(page - 1)
        if lines:
            add_invisible_text(self.doc[page - 1], lines)  # in memory only; ~30 ms a page
        return self.doc[page - 1]

    # -- navigation and zoom ------------------------------------------------------------------------------
    def show_page(self, page: int, *, quote: str = "", keep_find: bool = False,
                  frame: tuple[float, float, float, float] | None = None) -> None:
        """Render physical page ``page`` and highlight ``quote`` on it (if given and found); outline ``frame``
        (a figure or table, page coordinates) when given."""
        if self.doc is None:
            return
        page = max(1, min(page, self.page_count))
        changed = page != self.page
        self.page = page
        self.canvas.quote_rects = quote_rects(self.fitz_page(page), quote) if quote else []
        if not keep_find:
            self.canvas.frame_rect = pymupdf.Rect(frame) if frame is not None else None
            self.canvas.find_rects, self.canvas.current_find = [], -1
        self._render()
        if self.canvas.frame_rect is not None:
            self.scroll_to_rect(self.canvas.frame_rect)
        elif self.canvas.quote_rects:
            self.scroll_to_rect(self.canvas.quote_rects[0])
        elif changed:
            self.verticalScrollBar().setValue(0)
        self.pageChanged.emit(page)

    def set_zoom(self, zoom: float) -> None:
        self.zoom = max(0.4, min(zoom, 4.0))
        self._render()

    def fit_width(self) -> None:
        """Zoom so the page fills the view's width (leaving room for the vertical scroll bar).

        Does nothing while the view is too narrow to mean anything (not laid out yet).
        """
        available = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width() - 4
        if self.doc is None or available < 200:
            return
        width = self.fitz_page(self.page).rect.width
        self.set_zoom(available / max(width, 1.0))

    def scroll_to_rect(self, rect: pymupdf.Rect) -> None:
        """Scroll so ``rect`` (page coordinates) is in view, a little below the top."""
        y = int(rect.y0 * self.canvas.zoom) - self.viewport().height() // 4
        self.verticalScrollBar().setValue(max(0, y))

    def _render(self) -> None:
        dpr = self.devicePixelRatioF() or 1.0
        key = (self.page, round(self.zoom, 3), dpr)
        image = self._cache.get(key)
        if image is None:
            image = self._render_image(self.page, self.zoom * dpr)
            image.setDevicePixelRatio(dpr)
            self._cache[key] = image
            while len(self._cache) > _CACHE_PAGES:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        self.canvas.set_image(image, self.zoom)

    def _render_image(self, page: int, scale: float) -> QImage:
        fitz_page = self.fitz_page(page)
        pix = fitz_page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
        fmt = QImage.Format.Format_RGB888 if pix.n == 3 else QImage.Format.Format_Grayscale8
        image = QImage(pix.samples, pix.width, pix.height, pix.stride, fmt).copy()
        if self._epub is not None:
            if self._maths is None:
                from core.ingest.epub_math import spine_math
                self._maths = spine_math(self._epub)
            if self._maths:
                from desktop.math_overlay import paint_formulas
                paint_formulas(image, fitz_page, self._maths, scale)
        return image
