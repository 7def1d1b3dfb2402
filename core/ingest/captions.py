"""Figure and table captions in any format: what a caption is, and labelling a book's blocks with them.

A caption ("Figure 3.2 The water cycle", "Table 1.1: SI base units", "[Figure] ...") makes its block a
FIGURE (or joins the TABLE it titles) with the label a student sees cited: "Figure 3.2, p. 57".  The chunker
then keeps each labelled block as a chunk of its own.  PDFs also frame them (``core.ingest.pdf.figures``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.models import Block, BlockKind

_CAPTION = re.compile(
    r"^\s*(?:\[(?P<bare>Figure|Table)\]|(?P<kind>Figure|Fig\.|Table|Exhibit|Chart|Plate|Diagram|Map|Illustration)"
    r"\s+(?P<num>[A-Z]?\d+(?:[.\-\u2013]\d+)*[a-z]?))(?P<sep>\s*[.:|\u2014\u2013-])?\s*(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL)
_TABLE_KINDS = ("table",)
_PIPE_ROW = re.compile(r"^\|.*\|$")
_MAX_TITLE = 60
_MAX_CAPTION_WORDS = 120  # longer "captions" are paragraphs that happen to start with "Figure 2 ..."


def caption_label(text: str) -> tuple[BlockKind, str] | None:
    """(FIGURE or TABLE, "Figure 3.2") when ``text`` is a caption, else None.

    A caption starts with its label and goes on with a separator, a capital, a digit or a bracket;
    "Figure 3.2 shows that ..." goes on in lower case and is a sentence of the body text, and so is a
    paragraph of more than 120 words that happens to start with a label.
    """
    m = _CAPTION.match(text)
    if m is None or len(text.split()) > _MAX_CAPTION_WORDS:
        return None
    rest = m.group("rest")
    if m.group("bare"):
        kind = BlockKind.TABLE if m.group("bare").lower() in _TABLE_KINDS else BlockKind.FIGURE
        return kind, m.group("bare").capitalize()
    if not m.group("sep") and rest[:1].islower():
        return None
    word = m.group("kind").rstrip(".").capitalize()
    word = "Figure" if word == "Fig" else word
    kind = BlockKind.TABLE if word.lower() in _TABLE_KINDS else BlockKind.FIGURE
    return kind, f"{word} {m.group('num')}"


def is_pipe_row(text: str) -> bool:
    """A table row printed as ``| a | b |``."""
    return bool(_PIPE_ROW.match(text.strip())) and text.count("|") >= 2


def short_title(text: str) -> str:
    """A table's title cut to a label's length at a word boundary."""
    return text if len(text) <= _MAX_TITLE else text[:_MAX_TITLE].rsplit(" ", 1)[0] + "…"


def table_title(table_text: str) -> str:
    """The label of a ``| a | b |`` table from its first row: a caption's label, "Table: <title>" for a
    one-cell title row, else ""."""
    first = table_text.strip().split("\n", 1)[0]
    if not is_pipe_row(first):
        return ""
    cells = _cells(first)
    if len(cells) != 1 or not cells[0]:
        return ""
    found = caption_label(cells[0])
    return found[1] if found is not None and found[0] is BlockKind.TABLE else f"Table: {short_title(cells[0])}"


def _cells(line: str) -> list[str]:
    inner = line.strip()
    if inner.startswith("|") and inner.endswith("|"):
        inner = inner[1:-1]
    return [" ".join(c.split()) for c in inner.split("|")]


def table_sentences(text: str) -> str:
    """A table's rows as sentences that name their columns: "Age 14–17 years: Recommended 8–10 hours; ...".

    Small models misread a grid of ``| a | b |`` rows (which column a number is in); a row that says its
    headers is read like prose.  Lines that are not rows of the header's width (a caption, a title row)
    stay as they are.
    """
    out: list[str] = []
    header: list[str] | None = None
    at, named = 0, False  # where the header was; whether a row named its columns
    for line in text.split("\n"):
        cells = _cells(line) if "|" in line else []
        if len(cells) < 2 or all(set(c) <= set("-: ") for c in cells):
            if not cells or any(c.strip("-: ") for c in cells):
                out.append(" ".join(c for c in cells if c) if cells else line)
            continue
        if header is None:
            header = cells
            out.append("")  # the header's place, filled below if no row ever names it
            at = len(out) - 1
            continue
        if len(cells) != len(header):
            out.append(" ".join(c for c in cells if c))
            continue
        pairs = "; ".join(f"{h} {v}".strip() for h, v in zip(header[1:], cells[1:]) if v)
        out.append(f"{header[0]} {cells[0]}".strip() + (f": {pairs}." if pairs else "."))
        named = True
    if header is not None and not named:
        out[at] = " | ".join(header)  # a header with no rows under it is a row like any other
    return "\n".join(x for x in out if x.strip())


def label_blocks(blocks: Sequence[Block]) -> list[Block]:
    """Blocks with their captions labelled: a figure caption becomes a FIGURE block, a table caption joins
    the TABLE right after it (or titles it from its first row), a lone table caption is a TABLE of its own.

    Blocks that already carry a label (a PDF's, framed on the page) are kept as they are.
    """
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        b = blocks[i]
        found = caption_label(b.text) if b.kind is BlockKind.TEXT and not b.label else None
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if found is not None and found[0] is BlockKind.TABLE and nxt is not None and nxt.kind is BlockKind.TABLE \
                and not nxt.label and nxt.section == b.section:
            out.append(replace(nxt, text=f"{b.text}\n{nxt.text}", label=found[1], page=b.page))
            i += 2
            continue
        if found is not None:
            out.append(replace(b, kind=found[0], label=found[1]))
        elif b.kind is BlockKind.TABLE and not b.label and (title := table_title(b.text)):
            out.append(replace(b, label=title))
        else:
            out.append(b)
        i += 1
    return out


__all__ = ["caption_label", "is_pipe_row", "label_blocks", "short_title", "table_sentences", "table_title"]
