"""Page geometry for the PDF importer: text lines with their fonts, reading order, TOC pages.

Everything here is a pure function over plain records (``Line``) so it can be tested without a PDF;
``lines_from_dict`` is the only place that knows PyMuPDF's ``get_text("dict")`` layout.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

# Style bits kept per span (compact ints are much cheaper than objects for 100k+ spans).
BOLD, ITALIC, MONO, MATH = 1, 2, 4, 8

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|cmbx|cmb\d|cmssbx|\.b$|-b$", re.I)
_ITALIC_FONT = re.compile(r"italic|oblique|cmti|cmsl|cmitt|slant", re.I)
_MONO_FONT = re.compile(
    r"cour|mono|cmtt|cmsltt|cmitt|sftt|lmtt|tt\d\d|consol|menlo|inconsolata|typewriter|andale|fixed|code",
    re.I)
_MATH_FONT = re.compile(r"cmmi|cmsy|cmex|msam|msbm|math|symbol|stix|euclid|rsfs|eufm|wasy|esint",
                        re.I)
_MATH_CHAR = re.compile("[=+\u2212×÷±∓≤≥≠≈∑∏∫√∞∂∇∈∉⊂⊆∪∩→←⇒⇔αβγδεθλμπσφψωΔΣΠΩ^]")


@lru_cache(maxsize=512)
def font_style(font: str, flags: int) -> int:
    """Style bits (BOLD/ITALIC/MONO/MATH) of a span from its font name and PyMuPDF flags."""
    style = 0
    math = bool(_MATH_FONT.search(font)) and not _MONO_FONT.search(font)
    if math:
        return MATH  # math italics are not emphasis
    if flags & 16 or _BOLD_FONT.search(font):
        style |= BOLD
    if flags & 2 or _ITALIC_FONT.search(font):
        style |= ITALIC
    if flags & 8 or _MONO_FONT.search(font):
        style |= MONO
    return style


@dataclass(slots=True)
class Line:
    """One visual line of text on a page (top-left coordinates, points)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float = 10.0
    bold: bool = False  # every letter is bold
    mono: float = 0.0  # share of characters in a monospace font
    math: float = 0.0  # share of characters in math fonts / math symbols
    char_w: float = 0.0  # average monospace glyph width (for code indentation)
    block: int = 0  # PyMuPDF block number: a first guess at paragraph boundaries
    spans: tuple[tuple[str, int], ...] = field(default=())  # (text, style bits)
    gaps: int = 0  # wide horizontal gaps inside the line (table cells); "\t" marks them in text

    @property
    def yc(self) -> float:
        return (self.y0 + self.y1) / 2


def lines_from_dict(page_dict: dict) -> list[Line]:
    """Turn PyMuPDF ``get_text("dict")`` output into ``Line`` records.

    Lines that MuPDF split on one baseline inside a block (wide justified gaps, "1" + "Title")
    are merged back; rotated text (margin stamps, vertical labels) is dropped.
    """
    out: list[Line] = []
    for bno, block in enumerate(page_dict.get("blocks", ())):
        if block.get("type", 0) != 0:
            continue
        block_lines: list[Line] = []
        for raw in block.get("lines", ()):
            dx, dy = raw.get("dir", (1.0, 0.0))
            if abs(dy) > 0.2 or dx <= 0:
                continue
            line = _make_line(raw, bno)
            if line is not None:
                block_lines.append(line)
        block_lines.sort(key=lambda ln: ln.y0)
        rows: list[list[Line]] = []
        for ln in block_lines:
            if rows and _same_row(rows[-1][0], ln):
                rows[-1].append(ln)
            else:
                rows.append([ln])
        for row in rows:
            row.sort(key=lambda ln: ln.x0)
            merged = row[0]
            for ln in row[1:]:
                merged = _merge_row(merged, ln)
            out.append(merged)
    return out


def _make_line(raw: dict, bno: int) -> Line | None:
    # Hot path (once per line of the book): plain dicts and locals only.
    spans: list[tuple[str, int]] = []
    sizes: dict[float, int] = {}
    n = bold = mono = math = 0
    mono_w = 0.0
    mono_n = 0
    for s in raw.get("spans", ()):
        text = s["text"]
        if not text:
            continue
        style = font_style(s["font"], s["flags"])
        spans.append((text, style))
        k = len(text) - text.count(" ")
        if not k:
            continue
        n += k
        size = s["size"]
        sizes[size] = sizes.get(size, 0) + k
        if style & BOLD:
            bold += k
        if style & MATH:
            math += k - text.count(".")  # dot leaders are set in math fonts by TeX
        elif not style & MONO:
            if _MATH_CHAR.search(text):
                math += len(_MATH_CHAR.findall(text))
        else:
            mono += k
            x0, _, x1, _ = s["bbox"]
            mono_w += max(0.0, x1 - x0)
            mono_n += len(text)
    if not n:
        return None
    joined = "".join([t for t, _ in spans])
    text = joined.strip()
    x0, y0, x1, y1 = raw["bbox"]
    if mono_n and joined[:1] == " ":
        # Code drawn with leading spaces: move x0 to the first glyph so indentation survives.
        x0 += (len(joined) - len(joined.lstrip(" "))) * mono_w / mono_n
    size = max(sizes, key=sizes.__getitem__) if len(sizes) > 1 else next(iter(sizes))
    return Line(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=round(size, 1),
                bold=bold >= n * 0.9, mono=mono / n, math=min(1.0, math / n),
                char_w=(mono_w / mono_n) if mono_n else 0.0, block=bno, spans=tuple(spans))


def _same_row(a: Line, b: Line) -> bool:
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap >= 0.5 * min(a.y1 - a.y0, b.y1 - b.y0)


def _merge_row(a: Line, b: Line) -> Line:
    wide = b.x0 - a.x1 > 1.5 * max(a.size, b.size)  # a column gap, not a word space
    gap = "\t" if wide else (" " if not a.text.endswith(" ") else "")
    n_a, n_b = max(1, len(a.text)), max(1, len(b.text))
    total = n_a + n_b
    return Line(text=a.text + gap + b.text, x0=a.x0, y0=min(a.y0, b.y0), x1=max(a.x1, b.x1),
                y1=max(a.y1, b.y1), size=a.size if n_a >= n_b else b.size, bold=a.bold and b.bold,
                mono=(a.mono * n_a + b.mono * n_b) / total, math=(a.math * n_a + b.math * n_b) / total,
                char_w=a.char_w or b.char_w, block=a.block,
                spans=a.spans + ((" ", 0),) + b.spans, gaps=a.gaps + b.gaps + int(wide))


# ---------------------------------------------------------------------------------------------
# Reading order


def order_boxes(boxes: Sequence[tuple[float, float, float, float]], page_width: float) -> list[int]:
    """Indexes of text boxes ``(x0, y0, x1, y1)`` in reading order.

    Columns are found from gutters: the x-ranges covered by boxes narrower than 60% of the text
    width are merged, and each resulting range is a column when it is wide (>= 18% of the text
    width) and carries a fair share of the text.  Wide boxes (titles, figures, full-width
    paragraphs) cut the page into bands; within a band columns read left to right, each top to
    bottom.  Anything else reads top to bottom.
    """
    idx = list(range(len(boxes)))
    by_y = sorted(idx, key=lambda i: (round(boxes[i][1]), boxes[i][0]))
    if len(boxes) < 2:
        return by_y
    left_edge = min(b[0] for b in boxes)
    text_w = max(b[2] for b in boxes) - left_edge
    if text_w <= 0:
        return by_y
    narrow = sorted((b[0], b[2]) for b in boxes if b[2] - b[0] <= 0.6 * text_w)
    cols: list[list[float]] = []
    for x0, x1 in narrow:
        if cols and x0 <= cols[-1][1] + page_width * 0.01:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    if len(cols) < 2 or any(c[1] - c[0] < 0.18 * text_w for c in cols):
        return by_y

    def column(i: int) -> int:
        x0, _, x1, _ = boxes[i]
        inside = [k for k, (lo, hi) in enumerate(cols) if x0 >= lo - 2 and x1 <= hi + 2]
        return inside[0] if inside else -1  # -1: spans a gutter

    col = [column(i) for i in idx]
    heights = [sum(boxes[i][3] - boxes[i][1] for i in idx if col[i] == k) for k in range(len(cols))]
    if min(heights) < max(30.0, 0.15 * sum(heights)):
        return by_y  # a stray box beside the text (a page number, a margin note) is no column
    out: list[int] = []
    band: list[int] = []
    for i in by_y:
        if col[i] < 0:
            out.extend(sorted(band, key=lambda j: (col[j], boxes[j][1])))
            band = []
            out.append(i)
        else:
            band.append(i)
    out.extend(sorted(band, key=lambda j: (col[j], boxes[j][1])))
    return out


# ---------------------------------------------------------------------------------------------
# Table-of-contents pages

_TOC_TITLES = {"contents", "table of contents", "brief contents", "contents in brief", "detailed contents",
               "short contents", "summary of contents", "inhalt", "inhaltsverzeichnis", "table des matières",
               "índice"}
_TOC_ENTRY = re.compile(r"[\s.](?:\d{1,4}|[ivxlc]{1,6})$")  # ends in a page number (and has letters)
_LEADER = re.compile(r"(?:\.\s*){4,}|(?:\u2026\s*){2,}|(?:_\s*){4,}")


def is_toc_page(texts: Sequence[str], front: bool = True) -> bool:
    """True for a table-of-contents page: titled "Contents" or mostly lines ending in page numbers.

    Pass ``front=False`` for pages in the back of a book: there, entry-shaped pages are indexes,
    which may carry real headings ("Appendix D Concept index"), so only a "Contents" title counts.
    """
    for t in [t for t in texts[:8] if t.strip()][:5]:
        if " ".join(t.lower().split()).rstrip(":").strip() in _TOC_TITLES:
            return True
    if not front:
        return False
    lines = [" ".join(t.split()) for t in texts if t.strip()]
    if len(lines) < 5:
        return False
    leaders = sum(1 for t in lines if _LEADER.search(t))
    entries = leaders + sum(1 for t in lines if not _LEADER.search(t) and _TOC_ENTRY.search(t)
                            and any(c.isalpha() for c in t))
    return entries >= 0.5 * len(lines) or leaders >= max(3, 0.25 * len(lines))


def strip_leaders(text: str) -> str:
    """Collapse dot leaders ("Introduction . . . . . 3") to one space."""
    return _LEADER.sub(" ", text)
