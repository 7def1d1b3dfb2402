"""From OCR output to the importer's ``Line`` records: type size, bold, blocks, and words run together.

Pure functions over ``OcrLine`` records, so the layout rules are tested without an OCR engine.  The
recogniser reads a line of print but says nothing about fonts or paragraphs; the PDF importer's
structure rules (running headers, printed page numbers, headings by size) need both.  Type size
comes from the x-height measured on the page image (ascenders and descenders make a line's box
height useless), bold from how dark the letters are, paragraphs from vertical gaps.
"""
from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from core.ingest.pdf.layout import BOLD, Line

_SAME_SIZE = 0.06  # within 6 % of the body's x-height: body text (about half a pixel at 150 dpi)
_BOLD_INK = 1.18  # letters this much darker than body text are bold
# Bold lines this much bigger than body text are display type, at least the 1.15 x body size the
# structure rules call a heading: 10 pt body has an x-height of ~11 px at 150 dpi, too coarse to tell
# a bold 11 pt head from a bold 11.5 pt one.
_BOLD_HEAD = 1.05
_HEAD_SIZE = 1.15
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One line the recogniser read, in page coordinates (points, top-left origin)."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    xheight: float  # points: the x-height measured on the image (0: not measurable)
    ink: float  # share of dark pixels in the core band (bold letters are darker)
    score: float = 1.0


def page_lines(recognised: dict[int, list[OcrLine]], printed_texts: Iterable[str] = (),
               body_size: float = 10.0) -> dict[int, list[Line]]:
    """Layout lines for every recognised page, with run-together words split using the whole book's words.

    ``printed_texts``: lines from pages that have a text layer (a mixed PDF), whose words count too
    and whose body type size the recognised body text is given.
    """
    all_lines = [ln for lines in recognised.values() for ln in lines]
    body_xheight, body_ink = body_measures(all_lines)
    splitter = GlueSplitter.from_texts(itertools.chain((ln.text for ln in all_lines), printed_texts))
    return {page: layout_lines([replace(ln, text=splitter.split_text(ln.text)) for ln in lines],
                               body_xheight, body_ink, body_size)
            for page, lines in recognised.items()}


def body_measures(lines: Iterable[OcrLine]) -> tuple[float, float]:
    """The commonest x-height and the median ink of a book's (or page's) lines, weighted by characters."""
    heights: Counter[float] = Counter()
    inks: list[float] = []
    for ln in lines:
        if ln.xheight > 0 and _lower_share(ln.text) >= 0.5:
            heights[round(ln.xheight, 1)] += len(ln.text)
        inks.append(ln.ink)
    if not heights:
        return 5.3, 0.35
    inks.sort()
    return heights.most_common(1)[0][0], inks[len(inks) // 2]


def type_size(xheight: float, body_xheight: float, body_size: float = 10.0, bold: bool = False) -> float:
    """A line's type size in points, snapped to the body size when it is within measuring error."""
    if body_xheight <= 0 or xheight <= 0:
        return body_size
    ratio = xheight / body_xheight
    if abs(ratio - 1.0) <= _SAME_SIZE:
        return body_size
    if bold and ratio >= _BOLD_HEAD:
        ratio = max(ratio, _HEAD_SIZE)
    return round(body_size * ratio * 2) / 2


def layout_lines(lines: Sequence[OcrLine], body_xheight: float, body_ink: float,
                 body_size: float = 10.0) -> list[Line]:
    """``Line`` records for one page: boxes on one baseline merged, sizes and bold set, blocks assigned."""
    merged = merge_baselines(lines)
    out: list[Line] = []
    for parts in merged:
        text = " ".join(p.text.strip() for p in parts if p.text.strip())
        if not text:
            continue
        # The x-line and baseline are drawn by lower-case letters: in "(Smith, 1986)." or "NOTE" the
        # measurement follows capitals, digits and brackets instead, so such lines count as body size.
        xh = max(p.xheight for p in parts) if _lower_share(text) >= 0.5 else 0.0
        ink = sum(p.ink * len(p.text) for p in parts) / max(1, sum(len(p.text) for p in parts))
        bold = body_ink > 0 and ink >= body_ink * _BOLD_INK
        size = type_size(xh, body_xheight, body_size, bold)
        out.append(Line(text=text, x0=min(p.x0 for p in parts), y0=min(p.y0 for p in parts),
                        x1=max(p.x1 for p in parts), y1=max(p.y1 for p in parts), size=size, bold=bold,
                        spans=((text, BOLD if bold else 0),)))
    assign_blocks(out)
    return out


def _lower_share(text: str) -> float:
    chars = [c for c in text if not c.isspace()]
    return sum(c.islower() for c in chars) / len(chars) if chars else 0.0


def merge_baselines(lines: Sequence[OcrLine]) -> list[list[OcrLine]]:
    """Group boxes that sit on one baseline and nearly touch (the detector splits lines at wide gaps)."""
    rows: list[list[OcrLine]] = []
    for ln in sorted(lines, key=lambda b: (b.y0, b.x0)):
        h = max(ln.y1 - ln.y0, 1.0)
        for row in rows:
            last = row[-1]
            overlap = min(last.y1, ln.y1) - max(last.y0, ln.y0)
            gap = ln.x0 - last.x1
            if overlap >= 0.6 * min(h, last.y1 - last.y0) and -h < gap < 1.5 * h:
                row.append(ln)
                break
        else:
            rows.append([ln])
    for row in rows:
        row.sort(key=lambda b: b.x0)
    rows.sort(key=lambda r: (min(b.y0 for b in r), r[0].x0))
    return rows


def assign_blocks(lines: list[Line]) -> None:
    """Number blocks the way MuPDF would: a block continues down a column while the gap stays small."""
    open_blocks: list[tuple[int, Line]] = []  # (block number, its last line)
    count = 0
    for ln in sorted(lines, key=lambda x: (x.y0, x.x0)):
        h = max(ln.y1 - ln.y0, 1.0)
        chosen = None
        for k, (num, last) in enumerate(open_blocks):
            overlap = min(last.x1, ln.x1) - max(last.x0, ln.x0)
            if 0 <= ln.y0 - last.y1 <= 0.5 * h and overlap >= 0.5 * min(ln.x1 - ln.x0, last.x1 - last.x0):
                chosen = k
                break
            if -0.3 * h <= ln.y0 - last.y1 < 0 and overlap > 0:
                chosen = k
                break
        if chosen is None:
            ln.block = count
            open_blocks.append((count, ln))
            count += 1
        else:
            ln.block = open_blocks[chosen][0]
            open_blocks[chosen] = (ln.block, ln)


def gap_spaces(text: str, centres: Sequence[float], inked: Sequence[bool], xheight: float,
               ratio: float = 0.6) -> str:
    """``text`` with a space wherever the image shows a blank gap of ``ratio`` x-heights between two letters.

    The recogniser drops many word spaces in tightly set English ("Haveyouever").  ``centres`` are the
    x pixel centres of the characters of ``text`` (spaces included; from the recogniser's character
    columns); ``inked[x]`` says whether pixel column x of the line's x-height band has ink.  0.6
    x-heights was best on six pages of five books (0.3 splits inside words, "wonde red"; 1.0 misses
    tight spaces).
    """
    if len(text) != len(centres) or len(text) < 2 or xheight <= 0:
        return text
    need = max(2, int(round(ratio * xheight)))
    out = [text[0]]
    for k in range(1, len(text)):
        ch = text[k]
        # "25", "1.1": figures are set apart more than letters
        digits = ch.isdigit() and (out[-1].isdigit() or (out[-1] in ".," and len(out) > 1 and out[-2].isdigit()))
        if (ch not in _NO_SPACE_BEFORE and out[-1] not in _NO_SPACE_AFTER
                and _longest_blank(inked, int(centres[k - 1]), int(centres[k])) >= need * (2 if digits else 1)):
            out.append(" ")
        out.append(ch)
    return "".join(out)


_NO_SPACE_BEFORE = frozenset(" ,.;:!?)]}\u2019'\"\u201d\u2014\u2013-/%")
_NO_SPACE_AFTER = frozenset(" ([{\u2018\u201c\u2014\u2013-/$")


def _longest_blank(inked: Sequence[bool], a: int, b: int) -> int:
    best = run = 0
    for x in range(max(0, a), min(len(inked), b)):
        run = 0 if inked[x] else run + 1
        best = max(best, run)
    return best


_COMMA_GLUE = re.compile(r"(?<=[^\W\d_]),(?=[^\W\d_])")
_STOP_GLUE = re.compile(r"(?<=[a-z]{2})([.;:!?])(?=[A-Z][a-z])")


_DIGIT_LOOKALIKES = re.compile(r"\b\d+[oOlI][\doOlI]*\b")
_AS_DIGIT = str.maketrans("oOlI", "0011")


def restore_spaces(text: str) -> str:
    """Put back the space the recogniser dropped after punctuation ("Therefore,we", "do not.In fact"),
    and read letters inside a number as the digits they look like ("Chapter 1o" is chapter 10)."""
    text = _DIGIT_LOOKALIKES.sub(lambda m: m.group(0).translate(_AS_DIGIT), text)
    return _STOP_GLUE.sub(r"\1 ", _COMMA_GLUE.sub(", ", text))


# Words the book may use too rarely for its own counts to vouch for them, but which are glued most often.
_COMMON = ("a an the of to in on at by for from with as is are was were be been it its this that these those "
           "and or but not no we you they he she his her their our who which what when where how than then "
           "can could will would may might must should do does did has have had there here into onto over "
           "under about after before between each other such more most some many much all any one two also "
           "only very so if").split()


class GlueSplitter:
    """Splits words the recogniser ran together ("tofeelthebodily") using the book's own word counts.

    A token is split only when it is rare in the book (seen at most once) and every piece is a word
    the book uses on its own at least ``min_count`` times; among such splits the one with the fewest
    pieces, then the most frequent pieces, wins.
    """

    def __init__(self, counts: Counter[str], min_count: int = 3, min_length: int = 5):
        self.counts = Counter(counts)
        for w in _COMMON:
            self.counts[w] = max(self.counts[w], min_count * 10)
        self.min_count = min_count
        self.min_length = min_length
        self._longest = max((len(w) for w in self.counts), default=1)

    @classmethod
    def from_texts(cls, texts: Iterable[str], **kwargs) -> GlueSplitter:
        counts: Counter[str] = Counter()
        for t in texts:
            counts.update(w.lower() for w in _WORD.findall(t))
        return cls(counts, **kwargs)

    def split_text(self, text: str) -> str:
        """``text`` with run-together words separated (and a space put back after "," and ". "), and
        words a gap split wrongly ("obj ective") joined again."""
        text = _WORD.sub(lambda m: self.split_word(m.group(0)), restore_spaces(text))
        return self._rejoin(text)

    def _rejoin(self, text: str) -> str:
        words = list(_WORD.finditer(text))
        drop: list[int] = []  # positions of spaces to remove
        for a, b in zip(words, words[1:]):
            if b.start() != a.end() + 1 or text[a.end()] != " " or not b.group(0).islower():
                continue
            left, right = a.group(0).lower(), b.group(0)
            if self.counts[left + right] >= self.min_count and not (self._known(left) and self._known(right)):
                drop.append(a.end())
        for pos in reversed(drop):
            text = text[:pos] + text[pos + 1:]
        return text

    def split_word(self, word: str) -> str:
        low = word.lower()
        if len(low) < self.min_length or self.counts[low] > 1 or not word[1:].islower() and not word.islower():
            return word  # short, a word the book uses, or CamelCase/ALLCAPS (names, code)
        pieces = self._best_split(low)
        if pieces is None or len(pieces) < 2:
            return word
        out, pos = [], 0
        for p in pieces:
            out.append(word[pos:pos + len(p)])
            pos += len(p)
        return " ".join(out)

    def _known(self, piece: str) -> bool:
        if len(piece) == 1:
            return piece in ("a", "i")
        return self.counts[piece] >= self.min_count

    def _best_split(self, low: str) -> list[str] | None:
        # best[i]: (pieces, -sum log counts, split) for low[:i]
        n = len(low)
        best: list[tuple[int, float, list[str]] | None] = [None] * (n + 1)
        best[0] = (0, 0.0, [])
        for i in range(1, n + 1):
            for j in range(max(0, i - self._longest), i):
                prev = best[j]
                piece = low[j:i]
                if prev is None or not self._known(piece):
                    continue
                cand = (prev[0] + 1, prev[1] - math.log(max(1, self.counts[piece])), prev[2] + [piece])
                if best[i] is None or cand[:2] < best[i][:2]:
                    best[i] = cand
        return best[n][2] if best[n] is not None else None
