"""EPUB formulas drawn over the reader's page: PyMuPDF lays MathML out as run-together token text
("Ek=12 mv2"); each formula found on the page is painted over that text as typeset math.

The page keeps its own text underneath (quotes are still highlighted and Ctrl+F still finds), and nothing
moves: the pages stay the ones the import numbered.  ``formula_boxes`` is pure; ``paint_formulas`` draws.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from core.ingest.epub_math import MathText
from core.models import Frame
from desktop.math_render import MathStyle, render_tex

log = logging.getLogger(__name__)

MIN_FLAT = 3  # "m", "v": a one-letter formula reads the same as text; drawing it would only risk a wrong place
_GROW = 2.0  # an inline formula's image (padded for centring) may be this much taller than its text
_GROW_DISPLAY = 2.6  # ...a display formula, alone on its line, this much
_WIDEN_DISPLAY = 3.0  # ...and this much wider


Char = tuple[str, Frame, float, float]
"""A laid-out character: (text, box, baseline y, font size in points)."""


@dataclass(frozen=True)
class Placed:
    """A formula found on a page: its token text's box, baseline and type size, and the formula."""

    box: Frame
    baseline: float
    size: float
    math: MathText
    blank: tuple[Frame, ...] = ()  # the rest of a formula broken over lines: blanked, drawn in ``box``


def formula_boxes(chars: Sequence[Char], maths: Sequence[MathText]) -> list[Placed]:
    """Where each formula's token text lies among a page's ``chars`` (in reading order): the place its
    ``before`` text leads up to, else its first place.  A formula broken over lines is drawn on its longest
    piece and the others are blanked; one not on this page is left out."""
    visible = [ch for ch in chars if not ch[0].isspace()]
    squeezed = "".join(ch[0] for ch in visible)
    used: set[int] = set()
    out: list[Placed] = []
    for math in maths:
        if len(math.flat) < MIN_FLAT:
            continue
        starts = []
        at = squeezed.find(math.flat)
        while at >= 0:
            if not used.intersection(range(at, at + len(math.flat))):
                starts.append(at)
            at = squeezed.find(math.flat, at + 1)
        if not starts:
            continue
        start = next((s for s in starts if squeezed[:s].endswith(math.before)), starts[0])
        run = visible[start:start + len(math.flat)]
        pieces: list[list[Char]] = [[run[0]]]
        for a, b in zip(run, run[1:]):
            if b[1][0] < a[1][0] - 1:  # back to the left: a new line
                pieces.append([])
            pieces[-1].append(b)
        used.update(range(start, start + len(math.flat)))
        boxes = [_bounds([ch[1] for ch in piece]) for piece in pieces]
        main = max(range(len(pieces)), key=lambda i: boxes[i][2] - boxes[i][0])
        out.append(Placed(boxes[main], pieces[main][0][2], max(ch[3] for ch in run), math,
                          tuple(b for i, b in enumerate(boxes) if i != main)))
    return out


def _bounds(boxes: Sequence[Frame]) -> Frame:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def page_chars(page: pymupdf.Page) -> list[Char]:
    """The page's characters with their boxes, baselines and sizes, in reading order."""
    out: list[Char] = []
    for block in page.get_text("rawdict").get("blocks", ()):
        for line in block.get("lines", ()):
            for span in line.get("spans", ()):
                out.extend((ch["c"], tuple(ch["bbox"]), ch["origin"][1], span["size"]) for ch in span.get("chars", ()))
    return out


def paint_formulas(image: QImage, page: pymupdf.Page, maths: Sequence[MathText], scale: float) -> None:
    """Paint each formula found on ``page`` over its token text in ``image`` (the page rendered at ``scale``)."""
    if not maths:
        return
    painter = QPainter(image)
    try:
        for placed in formula_boxes(page_chars(page), maths):
            _paint(painter, placed, scale)
    except Exception as exc:  # drawing math is a nicety: the page as laid out is still right
        log.warning("could not draw the formulas of page %d: %s", page.number + 1, exc)
    finally:
        painter.end()


def _paint(painter: QPainter, placed: Placed, scale: float) -> None:
    (x0, _, x1, _), base, size = placed.box, placed.baseline * scale, placed.size * scale
    style = MathStyle(px=size, x_height=0.45 * size)
    formula = render_tex(placed.math.latex, style, placed.math.display)
    if formula is None:
        return
    wider, taller = (_WIDEN_DISPLAY, _GROW_DISPLAY) if placed.math.display else (1.0, _GROW)
    room = (x1 - x0) + sum(b[2] - b[0] for b in placed.blank)  # a broken formula may use its other pieces' room
    fit = min(room * scale * wider / formula.width, 1.25 * size * taller / formula.height, 1.0)
    if fit < 0.98:  # drawn again at the smaller size: a scaled-down image loses its thin strokes
        style = MathStyle(px=size * fit, x_height=style.x_height * fit)
        formula = render_tex(placed.math.latex, style, placed.math.display) or formula
    w, h = formula.width, formula.height
    # Only the token text's own band is blanked: lines are set closer than their glyph boxes are tall.
    white = QColor(Qt.GlobalColor.white)
    painter.fillRect(QRectF(x0 * scale - 1, base - 0.8 * size, (x1 - x0) * scale + 2, 1.05 * size), white)
    for bx0, by0, bx1, by1 in placed.blank:
        painter.fillRect(QRectF(bx0 * scale - 1, by0 * scale, (bx1 - bx0) * scale + 2, (by1 - by0) * scale), white)
    # The image's centre is a quarter x-height above the formula's baseline (``render_tex`` pads it so).
    top = base - style.x_height / 4 - h / 2
    painter.drawImage(QRectF(x0 * scale, top, w, h), QImage.fromData(formula.png))


__all__ = ["Char", "MIN_FLAT", "Placed", "formula_boxes", "page_chars", "paint_formulas"]
