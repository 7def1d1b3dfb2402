"""Figures and tables in a PDF: captions, ruled tables as rows, and the rectangle each one covers.

A caption ("Figure 3.2 The water cycle", "Table 1.1: SI base units", "[Figure] ...") becomes a block of its
own with the label a student will see cited ("Figure 3.2, p. 57") and a frame: the caption plus the picture
or table beside it, so the reader can outline it.  Tables are kept whole as ``a | b | c`` rows: ruled
tables through PyMuPDF's ``find_tables`` (only on pages that caption a table, as it costs ~40 ms a page),
and tables already printed as ``| a | b |`` lines.

``mark_figures`` and ``nearest_picture`` are pure; ``read_page`` (``page_tables``, ``page_pictures``) reads a
PyMuPDF page.  What counts as a caption is ``core.ingest.captions``.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import pymupdf

from core.ingest.captions import caption_label, is_pipe_row, table_title
from core.ingest.pdf.layout import Line
from core.ingest.pdf.paragraphs import ParaBlock
from core.models import BlockKind, Frame

log = logging.getLogger(__name__)

_NEAR = 36.0  # points between a caption and its picture or table (about three lines of body text)
_TOUCH = 8.0  # points between two marks of one picture (a plot's frame, its curves, its legend)
_MAX_MARKS = 100_000  # a page drawn with more paths than this is not searched for pictures


def mark_figures(items: Sequence[ParaBlock | int], pictures: Sequence[Frame] = ()) -> list[ParaBlock | int]:
    """A page's items with its captions and tables labelled and framed (ints are section marks, kept).

    Runs of ``| a | b |`` rows become one TABLE; a table's caption right above or below it joins it;
    a figure caption is framed with the nearest picture above or below it.
    """
    out = _pipe_tables(items)
    k = 0
    while k < len(out):
        item = out[k]
        found = caption_label(item.text) if isinstance(item, ParaBlock) and item.kind is BlockKind.TEXT else None
        if found is None:
            k += 1
            continue
        kind, label = found
        assert isinstance(item, ParaBlock)
        table = _adjacent_table(out, k) if kind is BlockKind.TABLE else None
        if table is not None:
            t = out[table]
            assert isinstance(t, ParaBlock)
            parts = (item.text, t.text) if table > k else (t.text, item.text)
            out[min(k, table)] = replace(t, text="\n".join(parts), label=label, y0=min(item.y0, t.y0),
                                         box=union(item.box, t.box), frame=union(item.box, t.box))
            del out[max(k, table)]
            k = min(k, table) + 1
            continue
        picture = nearest_picture(item.box, pictures)
        out[k] = replace(item, kind=kind, label=label,
                         frame=union(item.box, picture) if picture is not None else item.box)
        k += 1
    return out


def _pipe_tables(items: Sequence[ParaBlock | int]) -> list[ParaBlock | int]:
    out: list[ParaBlock | int] = []
    run: list[ParaBlock] = []

    def close() -> None:
        if len(run) >= 2:
            text = "\n".join(r.text for r in run)
            label = table_title(text) or "Table"
            box = run[0].box
            for r in run[1:]:
                box = union(box, r.box)
            out.append(ParaBlock(BlockKind.TABLE, text, run[0].y0, (), box,
                                 label=label, frame=box))
        else:
            out.extend(run)
        run.clear()

    for item in items:
        if isinstance(item, ParaBlock) and item.kind is BlockKind.TEXT and "\n" not in item.text \
                and is_pipe_row(item.text):
            run.append(item)
            continue
        close()
        out.append(item)
    close()
    return out


def _adjacent_table(items: Sequence[ParaBlock | int], k: int) -> int | None:
    """Index of the TABLE block right after (or else right before) item ``k``, when it is near."""
    cap = items[k]
    assert isinstance(cap, ParaBlock)
    for j in (k + 1, k - 1):
        if 0 <= j < len(items):
            t = items[j]
            if isinstance(t, ParaBlock) and t.kind is BlockKind.TABLE and not t.label.startswith("Table ") \
                    and _gap(cap.box, t.box) <= _NEAR:
                return j
    return None


def nearest_picture(box: Frame, marks: Sequence[Frame]) -> Frame | None:
    """The picture just above (else just below) ``box``: the marks (images, drawn paths) touching one another
    in a chain from the caption's edge, overlapping it across.  None when no mark is that near."""
    for above in (True, False):
        ordered = sorted(marks, key=lambda m: -m[3] if above else m[1])
        frame: Frame | None = None
        for m in ordered:
            if min(box[2], m[2]) - max(box[0], m[0]) <= 0:  # beside the caption's column, not above or below it
                continue
            edge = (frame or box)[1] if above else (frame or box)[3]
            reach = _NEAR if frame is None else _TOUCH
            if (above and m[3] > box[1] + 2) or (not above and m[1] < box[3] - 2):
                continue  # overlaps the caption: not the picture above/below it
            if (edge - m[3] if above else m[1] - edge) > reach:
                break  # sorted by distance: nothing farther can touch
            frame = m if frame is None else union(frame, m)
        if frame is not None:
            return frame
    return None


def union(a: Frame, b: Frame) -> Frame:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _gap(a: Frame, b: Frame) -> float:
    """Vertical distance between two rectangles (0 when they overlap)."""
    return max(0.0, b[1] - a[3], a[1] - b[3])


# -- reading a page ------------------------------------------------------------------------------------------
def read_page(page: pymupdf.Page, lines: list[Line]) -> tuple[list[Line], list[Frame]]:
    """A page's lines with ruled tables as rows, and the pictures its captions may frame.

    Both look only at pages that have a caption: the table finder and the drawing clusters are the slow part.
    """
    captions = [found for ln in lines if (found := caption_label(ln.text)) is not None]
    if any(kind is BlockKind.TABLE and label != "Table" for kind, label in captions):  # a numbered table
        lines = page_tables(page, lines)
    return lines, page_pictures(page) if captions else []


def page_tables(page: pymupdf.Page, lines: list[Line]) -> list[Line]:
    """``lines`` with each ruled table's lines replaced by one line per row, cells split by tabs.

    The rows then become one TABLE block in ``build_paragraphs`` (a line with gaps is a table row).
    """
    try:
        tables = page.find_tables().tables
    except Exception as exc:  # a table finder failure must not lose the page's text
        log.warning("page %d: cannot look for tables (%s)", page.number + 1, exc)
        return lines
    next_block = max((ln.block for ln in lines), default=0) + 1
    for n, table in enumerate(tables):
        rows = [[" ".join((c or "").split()) for c in row] for row in table.extract()]
        rows = [r for r in rows if any(r)]
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue
        x0, y0, x1, y1 = table.bbox
        inside = [ln for ln in lines if x0 - 2 <= (ln.x0 + ln.x1) / 2 <= x1 + 2 and y0 - 2 <= ln.yc <= y1 + 2]
        if not inside:
            continue
        size = inside[0].size
        lines = [ln for ln in lines if ln not in inside]
        pitch = (y1 - y0) / len(rows)
        for r, cells in enumerate(rows):
            lines.append(Line(text="\t".join(cells), x0=x0, y0=y0 + r * pitch, x1=x1, y1=y0 + (r + 0.8) * pitch,
                              size=size, block=next_block + n, gaps=max(1, len(cells) - 1)))
    return lines


def page_pictures(page: pymupdf.Page) -> list[Frame]:
    """Rectangles of what is painted on the page besides text: images and vector paths.

    ``get_bboxlog`` lists them without building path objects (a plot of 50,000 paths: 0.2–0.8 s, where
    ``cluster_drawings`` takes 4 s).
    """
    try:
        log_ = page.get_bboxlog()
    except Exception as exc:  # pictures only frame a caption; never lose the page for them
        log.debug("page %d: cannot list pictures (%s)", page.number + 1, exc)
        return []
    if len(log_) > _MAX_MARKS:
        return []
    area = page.rect.width * page.rect.height
    # Page-wide backgrounds are not figures; text and clipping are not marks.
    return [tuple(r) for kind, r in log_ if kind.startswith(("fill-path", "stroke-path", "fill-image",
                                                               "fill-imgmask", "fill-shade"))
            and (r[2] - r[0]) * (r[3] - r[1]) < 0.8 * area]


__all__ = ["read_page", "mark_figures", "nearest_picture", "page_pictures",
           "page_tables", "union"]
