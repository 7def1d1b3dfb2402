"""Page geometry for the PDF importer: text lines, reading order, running headers, TOC pages, labels.

Everything here is a pure function over plain records (``Line``) so it can be tested without a PDF;
``lines_from_dict`` is the only place that knows PyMuPDF's ``get_text("dict")`` layout.
"""
from __future__ import annotations

import re
from collections import defaultdict
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
# Running headers / footers and printed page numbers

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014\s]*(\d{1,5}|(?=[ivxlc]+\b)(?:x{0,3}c|xl|l?x{0,3})?(?:ix|iv|v?i{0,3})(?<=[ivxlc]))"
    r"[-\u2013\u2014\s]*(?:(?:of|/)\s*\d{1,5})?$", re.I)
_ROMAN = r"(?=[ivxlc]+\b)(?:x{0,3}c|xl|l?x{0,3})?(?:ix|iv|v?i{0,3})\b(?<=[ivxlc])"
_EDGE_NUMBER = re.compile(rf"^(\d{{1,5}}|{_ROMAN})\s+\S|\S\s+(\d{{1,5}}|{_ROMAN})$")
_DIGITS = re.compile(r"\d+")
# Roman numerals are folded only at the ends of a line, where page numbers sit; "mix" or "did"
# inside a header stay words.
_ROMAN_TOKEN = re.compile(rf"^{_ROMAN}\b|\b{_ROMAN}$")


def normalise_running(text: str) -> str:
    """Key under which a header/footer repeats: lower case, digits and roman numerals folded."""
    t = _DIGITS.sub("#", " ".join(text.lower().split()))
    return _ROMAN_TOKEN.sub("#", t)


def is_page_number(text: str) -> bool:
    """True for a bare page number: "12", "xii", "- 12 -", "Page 3", "3 of 10"."""
    return bool(_PAGE_NUMBER.match(text.strip()))


def _edge_rows(lines: Sequence[Line], height: float) -> tuple[list[int], list[int]]:
    """Indexes of lines in the outermost row at the top and at the bottom of a page.

    The row next to it counts too when it still sits in the outer 10% of the page (two-line
    headers).  Only the margins are searched: a heading that repeats on every chapter's first
    page ("Introduction") sits lower and must stay.
    """
    if not lines:
        return [], []
    order = sorted(range(len(lines)), key=lambda i: lines[i].y0)
    rows: list[list[int]] = []
    bottom_of_row = 0.0
    for i in order:
        if rows and lines[i].y0 < bottom_of_row - 1:
            rows[-1].append(i)
            bottom_of_row = max(bottom_of_row, lines[i].y1)
        else:
            rows.append([i])
            bottom_of_row = lines[i].y1
    top: list[int] = []
    for r, limit in zip(rows[:2], (0.15, 0.10)):
        if all(lines[i].y1 <= height * limit for i in r):
            top.extend(r)
        else:
            break
    bottom: list[int] = []
    for r, limit in zip(rows[::-1][:2], (0.85, 0.90)):
        if all(lines[i].y0 >= height * limit for i in r) and not set(r) & set(top):
            bottom.extend(r)
        else:
            break
    return top, bottom


def detect_running_lines(pages: Sequence[Sequence[Line]], heights: Sequence[float],
                         body_size: float | None = None) -> list[set[int]]:
    """For each page, indexes of lines that are running headers/footers or bare page numbers.

    A header is text that repeats (digits folded, so "Chapter 2 ... 37" matches "... 41") at the
    top or bottom of several pages at about the same height.  Once headers are known to live in a
    band (say y 40..60 on most pages) any top/bottom row inside that band is stripped too, which
    catches a two-page chapter's header that repeats only once.  Text bigger than the body text
    (``body_size``) is never a running header.
    """
    max_size = (body_size + 1.0) if body_size else float("inf")
    n_text = sum(1 for p in pages if p)
    min_repeat = 2 if n_text <= 6 else 3
    edges = [_edge_rows(lines, h) for lines, h in zip(pages, heights)]
    seen: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for pno, (lines, (top, bottom)) in enumerate(zip(pages, edges)):
        keys_here: set[tuple[str, str]] = set()
        for zone, idxs in (("top", top), ("bottom", bottom)):
            for i in idxs:
                if lines[i].size > max_size:
                    continue
                key = (zone, normalise_running(lines[i].text))
                if key not in keys_here:
                    keys_here.add(key)
                    seen[key].append((pno, i))
    out: list[set[int]] = [set() for _ in pages]
    bands: dict[str, list[tuple[float, float]]] = {"top": [], "bottom": []}
    hit_pages: dict[str, set[int]] = {"top": set(), "bottom": set()}
    for (zone, key), hits in seen.items():
        if len(hits) < min_repeat or not any(c.isalpha() for c in key):
            continue
        ycs = sorted(pages[p][i].yc for p, i in hits)
        med = ycs[len(ycs) // 2]
        for p, i in hits:
            ln = pages[p][i]
            if abs(ln.yc - med) <= max(4.0, heights[p] * 0.015):
                out[p].add(i)
                bands[zone].append((ln.y0, ln.y1))
                hit_pages[zone].add(p)
    for pno, (lines, (top, bottom)) in enumerate(zip(pages, edges)):
        for zone, idxs in (("top", top), ("bottom", bottom)):
            for i in idxs:
                if is_page_number(lines[i].text):
                    out[pno].add(i)
    for zone, spans in bands.items():
        if len(hit_pages[zone]) < max(min_repeat, 0.2 * n_text):
            continue
        # The band is where most headers sit (10th-90th percentile), not every outlier.
        y0s = sorted(s[0] for s in spans)
        y1s = sorted(s[1] for s in spans)
        lo = y0s[len(y0s) // 10] - 2
        hi = y1s[(len(y1s) * 9) // 10] + 2
        for pno, (lines, (top, bottom)) in enumerate(zip(pages, edges)):
            for i in (top if zone == "top" else bottom):
                if lo <= lines[i].y0 and lines[i].y1 <= hi and lines[i].size <= max_size:
                    out[pno].add(i)
    return out


def printed_number(texts: Sequence[str]) -> str | None:
    """The printed page number carried by a page's header/footer lines, if any.

    A bare number wins; otherwise a number at either end of a header ("12  GNU Octave",
    "Chapter 10: Statements  185").  Chapter numbers ("Chapter 3") are not at an edge.
    """
    for t in texts:
        m = _PAGE_NUMBER.match(t.strip())
        if m:
            return m.group(1)
    for t in texts:
        m = _EDGE_NUMBER.search(" ".join(t.split()))
        if m:
            token = m.group(1) or m.group(2)
            head = " ".join(t.split())
            if m.group(1) is None and re.search(r"(chapter|section|part|appendix|version)\s+\S+$", head, re.I):
                continue
            return token
    return None


def _label_value(label: str) -> tuple[str, int] | None:
    if label.isdigit():
        return "D", int(label)
    if re.fullmatch(r"[ivxlcdm]+", label, re.I):
        return "r", roman_to_int(label)
    return None


def infer_printed_labels(candidates: Sequence[str | None],
                         strong: Sequence[bool] | None = None) -> list[str | None]:
    """Keep printed numbers that agree with a neighbour, and fill gaps between agreeing ones.

    A number is trusted when it is ``strong`` (a bare page number on its own line) or when the
    nearest numbered page before or after it has the same offset from the physical page (so a
    stray year at the end of a header is dropped).  A page without a number (chapter openings
    often omit it) gets one when both sides agree on the offset.
    """
    vals = [(_label_value(c) if c else None) for c in candidates]
    offs: list[tuple[str, int] | None] = [
        (v[0], i - v[1]) if v else None for i, v in enumerate(vals)]
    known = [i for i, o in enumerate(offs) if o is not None]
    trusted: list[tuple[str, int] | None] = [None] * len(candidates)
    for k, i in enumerate(known):
        # Agreement with any of the two nearest numbered pages on either side.
        near = [offs[j] for j in known[max(0, k - 2):k] + known[k + 1:k + 3]]
        if offs[i] in near or len(known) == 1 or (strong is not None and strong[i]):
            trusted[i] = offs[i]
    out: list[str | None] = [None] * len(candidates)
    last: int | None = None
    for i, o in enumerate(trusted):
        if o is None:
            continue
        out[i] = candidates[i]
        if last is not None and trusted[last] == o:
            for j in range(last + 1, i):
                out[j] = format_number(j - o[1], o[0])
        last = i
    return out


def roman_to_int(s: str) -> int:
    """"xiv" -> 14 (lenient: no validation beyond the letters)."""
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    s = s.lower()
    total = 0
    for a, b in zip(s, s[1:] + " "):
        va, vb = values[a], values.get(b, 0)
        total += -va if va < vb else va
    return total


def int_to_roman(n: int) -> str:
    """14 -> "xiv" (lower case); non-positive numbers come back as digits."""
    if n <= 0:
        return str(n)
    out = []
    for v, r in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                 (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out.append(r)
            n -= v
    return "".join(out)


def format_number(n: int, style: str) -> str:
    """A page number in a PDF label style: D decimal, r/R roman, a/A letters."""
    if style == "r":
        return int_to_roman(n)
    if style == "R":
        return int_to_roman(n).upper()
    if style in ("a", "A") and n > 0:
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter.upper() if style == "A" else letter
    return str(n) if style == "D" else ""


def labels_from_rules(rules: Sequence[dict], page_count: int) -> list[str]:
    """Every page's label from PyMuPDF ``doc.get_page_labels()`` rules ("" when unlabelled)."""
    ordered = sorted((r for r in rules if isinstance(r.get("startpage"), int)), key=lambda r: r["startpage"])
    out = [""] * page_count
    for k, rule in enumerate(ordered):
        start = max(0, rule["startpage"])
        end = ordered[k + 1]["startpage"] if k + 1 < len(ordered) else page_count
        first = int(rule.get("firstpagenum", 1) or 1)
        prefix, style = rule.get("prefix", "") or "", rule.get("style", "") or ""
        for pno in range(start, min(end, page_count)):
            out[pno] = prefix + format_number(first + pno - start, style)
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
