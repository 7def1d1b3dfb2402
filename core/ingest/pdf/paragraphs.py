"""Turn a page's ordered lines into paragraph blocks: line joining, de-hyphenation, code, emphasis.

Pure functions over ``Line`` records; the PDF importer feeds them lines in reading order.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from core.ingest.pdf.layout import BOLD, ITALIC, MATH, MONO, Line, strip_leaders
from core.models import BlockKind, Frame

_HYPHENS = ("-", "\u2010", "\u00ad")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_LEFT_WORD = re.compile(r"([^\W\d_]+)[-\u2010\u00ad]$")
_RIGHT_WORD = re.compile(r"^([^\W\d_]+)")
_BULLET = re.compile(r"^(?:[\u2022\u25e6\u25aa\u25cf\u2023\u2013\u2014*\u00b7]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s")
_SENTENCE_END = (".", "!", "?", ":", ";", "\u201d", '"', ")", "]")

_SUFFIXES = {"ing", "ings", "ed", "tion", "tions", "sion", "sions", "ment", "ments", "ness", "ity", "ities",
             "ly", "able", "ible", "ous", "ive", "ance", "ence", "ers", "est", "ism", "ist", "ists", "ize",
             "ized", "izes", "ization", "ise", "ised", "ical", "ally", "ular", "ure", "ures", "ial"}

Vocabulary = Callable[[str], bool]
"""``vocab(word)``: has the document used this (lower-case) word on its own?"""


_VOCAB_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def document_vocabulary(pages: Iterable[Sequence[Line]]) -> Vocabulary:
    """Words the document uses, for telling "sci-ence" (join) from "well-known" (keep the hyphen).

    Fragments at hyphenated line ends (and the first word after them) are left out so that
    "sci" and "ence" do not count as words.
    """
    words: set[str] = set()
    for lines in pages:
        after_hyphen = False
        for ln in lines:
            tokens = _VOCAB_WORD.findall(ln.text.lower())
            ends_hyphen = ln.text.endswith(("-", "\u2010", "\u00ad"))
            if after_hyphen and tokens:
                tokens = tokens[1:]
            if ends_hyphen and tokens:
                tokens = tokens[:-1]
            for t in tokens:
                words.add(t)
                if "-" in t:
                    words.update(t.split("-"))
            after_hyphen = ends_hyphen
    return words.__contains__


def no_vocabulary(word: str) -> bool:
    """Vocabulary that knows no words (de-hyphenation then always joins)."""
    return False


def join_hyphenated(left: str, right: str, vocab: Vocabulary = no_vocabulary) -> str:
    """Join ``left`` (ending in a hyphen at a line break) with the next line ``right``.

    "sci-" + "ence" -> "science".  The hyphen stays when it is a real one: the right part starts
    with a capital or digit ("Anglo-Saxon", "COVID-19"), the document spells the pair with a
    hyphen elsewhere, or both halves are words it uses while the joined form is not ("well-known").
    A soft hyphen (U+00AD) is always removed.
    """
    if left.endswith("\u00ad"):
        return left[:-1] + right
    lm = _LEFT_WORD.search(left)
    rm = _RIGHT_WORD.match(right)
    if left.endswith(" -"):  # a spaced dash, not a hyphen
        return f"{left} {right}"
    if lm is None or rm is None:  # "1-" + "10", "COVID-" + "19", "--" + "x": keep as printed
        return left + right
    head_raw, tail_raw = lm.group(1), rm.group(1)
    head, tail = head_raw.lower(), tail_raw.lower()
    all_caps = head_raw.isupper() and tail_raw.isupper() and min(len(head_raw), len(tail_raw)) > 2
    if tail_raw[0].isupper() and not all_caps:
        return left + right  # "Anglo-Saxon"; but "SUS-TAINED" in capitals is one word
    if tail in _SUFFIXES:
        return left[:-1] + right  # "prompt-ing": a suffix is never a word of its own
    joined = head + tail
    if vocab(joined):
        return left[:-1] + right
    if vocab(f"{head}-{tail}") or (vocab(head) and vocab(tail) and len(tail) > 2):
        return left + right
    return left[:-1] + right


def join_lines(lines: Sequence[str], vocab: Vocabulary = no_vocabulary) -> str:
    """Join the lines of one paragraph into a single line, undoing end-of-line hyphenation."""
    parts: list[str] = []  # joined once at the end: repeated concatenation is quadratic
    for raw in lines:
        text = " ".join(raw.split())
        if not text:
            continue
        if parts and parts[-1].endswith(_HYPHENS) and text[0].isalnum():
            parts[-1] = join_hyphenated(parts[-1], text, vocab)
        else:
            parts.append(text)
    return " ".join(parts)


@dataclass
class ParaBlock:
    """A paragraph-like block on one page, before it is tied to a section."""

    kind: BlockKind
    text: str
    y0: float
    emphasis: tuple[str, ...] = field(default=())
    box: Frame = (0.0, 0.0, 0.0, 0.0)  # the block's lines' bounding box on the page
    label: str = ""  # FIGURE/TABLE only (``core.ingest.pdf.figures``)
    frame: Frame | None = None


def line_kind(line: Line) -> BlockKind:
    """CODE for monospace lines, TABLE for lines with column gaps, EQUATION for lines set mostly in
    math fonts, else TEXT.  (A lone TABLE line becomes TEXT in ``build_paragraphs``.)"""
    # Share of monospace among the non-math characters: "⇒ 1" in a code example is still code.
    if line.mono > 0 and line.mono >= 0.6 * (1.0 - line.math):
        return BlockKind.CODE
    if line.gaps:
        return BlockKind.TABLE
    if line.math >= 0.4 and len(_WORD.findall(line.text)) <= 8:
        return BlockKind.EQUATION
    return BlockKind.TEXT


def build_paragraphs(lines: Sequence[Line], vocab: Vocabulary = no_vocabulary) -> list[ParaBlock]:
    """Group lines (already in reading order) into paragraphs, code blocks and equations.

    A new paragraph starts at a new PyMuPDF block (unless the text plainly runs on), a change of
    kind or type size, a list bullet, a vertical gap, or a first-line indent after a line that
    ended short.  Code and equations keep their line breaks; code keeps its indentation.
    """
    groups: list[_Group] = []
    for ln in lines:
        kind = line_kind(ln)
        if groups and not _starts_new(groups[-1], ln, kind):
            g = groups[-1]
            g.lines.append(ln)
            g.left, g.right = min(g.left, ln.x0), max(g.right, ln.x1)
        else:
            groups.append(_Group(kind, [ln], ln.x0, ln.x1))
    out: list[ParaBlock] = []
    for g in groups:
        kind, grp = g.kind, g.lines
        if kind is BlockKind.TABLE and len(grp) == 1:
            kind = BlockKind.TEXT  # one row with a gap is a line of text, not a table
        if kind is BlockKind.CODE:
            text = _code_text(grp)
        elif kind is BlockKind.TABLE:
            text = "\n".join(" | ".join(" ".join(c.split()) for c in ln.text.split("\t")) for ln in grp)
        elif kind is BlockKind.EQUATION:
            text = "\n".join(" ".join(ln.text.split()) for ln in grp)
        else:
            text = strip_leaders(join_lines([ln.text for ln in grp], vocab)).strip()
        if text.strip():
            emph = emphasis_runs(grp, vocab) if kind is BlockKind.TEXT else ()
            box = (g.left, min(ln.y0 for ln in grp), g.right, max(ln.y1 for ln in grp))
            out.append(ParaBlock(kind, text, grp[0].y0, emph, box))
    return out


@dataclass
class _Group:
    """Lines collected for one block, with the group's left and right edges kept up to date."""

    kind: BlockKind
    lines: list[Line]
    left: float
    right: float


def _starts_new(group: _Group, ln: Line, kind: BlockKind) -> bool:
    prev = group.lines[-1]
    if kind is not group.kind:
        return True
    pitch = max(prev.y1 - prev.y0, ln.y1 - ln.y0, 1.0)
    gap = ln.y0 - prev.y1
    if gap < -pitch * 3:  # jumped up: another column
        return True
    if kind is BlockKind.CODE:
        return gap > 2.5 * pitch  # a blank line or two inside a listing is part of it
    if gap > 0.6 * pitch:
        return True
    if kind is BlockKind.EQUATION or kind is BlockKind.TABLE:
        return False
    if abs(ln.size - prev.size) > 1.0 or ln.bold != prev.bold:
        return True
    if _BULLET.match(ln.text):
        return True
    if ln.block != prev.block:
        # MuPDF splits blocks at most paragraph breaks, but also mid-paragraph around wide gaps:
        # keep going when the previous line does not end a sentence and this one starts lower case.
        return prev.text.rstrip().endswith(_SENTENCE_END) or not ln.text[:1].islower()
    left, right = group.left, group.right
    indented = ln.x0 > left + 0.8 * ln.size and ln.x0 > prev.x0 + 0.8 * ln.size
    ended_short = prev.x1 < right - 2.0 * ln.size or prev.text.rstrip().endswith((".", "!", "?", ":"))
    return indented and ended_short and prev.x0 <= left + 0.8 * ln.size


def runs_on(prev_text: str, next_text: str) -> bool:
    """True when ``next_text`` continues the paragraph ``prev_text`` (across a page or column)."""
    prev_text = prev_text.rstrip()
    if not prev_text or not next_text:
        return False
    if prev_text.endswith(_HYPHENS) and next_text[0].isalpha():
        return next_text[0].islower()
    return not prev_text.endswith(_SENTENCE_END) and next_text[0].islower()


def _code_text(lines: Sequence[Line]) -> str:
    """Code lines with their indentation (from x positions) and blank lines (from vertical gaps)."""
    left = min(ln.x0 for ln in lines)
    widths = [ln.char_w for ln in lines if ln.char_w > 0]
    cw = sum(widths) / len(widths) if widths else max(1.0, lines[0].size * 0.6)
    steps = sorted(b.y0 - a.y0 for a, b in zip(lines, lines[1:]) if b.y0 > a.y0)
    pitch = steps[(len(steps) - 1) // 2] if steps else 0.0  # lower median: blank lines are the exception
    out: list[str] = []
    for k, ln in enumerate(lines):
        if k and pitch > 0:
            out.extend([""] * max(0, round((ln.y0 - lines[k - 1].y0) / pitch) - 1))
        out.append(" " * max(0, round((ln.x0 - left) / cw)) + ln.text.replace("\t", "    "))
    return "\n".join(out)


def emphasis_runs(lines: Iterable[Line], vocab: Vocabulary = no_vocabulary) -> tuple[str, ...]:
    """Bold/italic runs of 1-6 words inside a text block (likely key terms), in order, unique.

    Monospace and math spans are not emphasis; a block that is emphasised as a whole (a heading
    or caption set in bold) yields nothing.
    """
    runs: list[str] = []
    cur: list[str] = []  # the open run, one piece per line it spans
    plain_chars = 0

    def close() -> None:
        pieces = [p for p in cur if p.strip()]
        if pieces:
            runs.append(join_lines(pieces, vocab))
        cur.clear()

    for ln in lines:
        if cur:
            cur.append("")  # the run continues on a new line
        for text, style in ln.spans:
            if not text.strip():
                if cur:
                    cur[-1] += " "
            elif style & (BOLD | ITALIC) and not style & (MONO | MATH):
                if cur:
                    cur[-1] += text
                else:
                    cur.append(text)
            else:
                plain_chars += len(text.strip())
                close()
    close()
    if plain_chars == 0:
        return ()
    out: list[str] = []
    for r in runs:
        term = r.strip().strip(".,;:!?()[]\"'\u201c\u201d\u2018\u2019").strip()
        n_words = len(term.split())
        if 1 <= n_words <= 6 and len(term) >= 2 and any(c.isalpha() for c in term) and term not in out:
            out.append(term)
    return tuple(out)
