"""Running headers and footers, and printed page labels: what a page calls itself ("xii", "57").

Pure functions over the lines of ``core.ingest.pdf.layout``: repeated lines at a page's top or bottom
edge are running heads (dropped from the text), page numbers found there become printed labels, and
gaps are filled from the sequence; a PDF's own label rules win where present."""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from core.ingest.pdf.layout import Line

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