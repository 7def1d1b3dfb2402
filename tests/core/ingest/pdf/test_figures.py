"""Figures and tables in PDFs: captions, ruled tables, pipe tables, frames — pure functions and a real PDF."""
from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from core.ingest.captions import caption_label, is_pipe_row
from core.ingest.pdf.figures import mark_figures, nearest_picture
from core.ingest.pdf.paragraphs import ParaBlock
from core.ingest.pdf.reader import read
from core.models import BlockKind
from tests.core.ingest.pdf.fixtures import HEIGHT, LEFT, WIDTH, header_footer, heading, paragraph, text_lines


@pytest.mark.parametrize("text, expected", [
    ("Figure 3.2 The water cycle moves water between sea, air and land.", (BlockKind.FIGURE, "Figure 3.2")),
    ("FIGURE 3.2 | The water cycle", (BlockKind.FIGURE, "Figure 3.2")),
    ("Fig. 4: Results of the second trial", (BlockKind.FIGURE, "Figure 4")),
    ("Table 1.1: SI base units", (BlockKind.TABLE, "Table 1.1")),
    ("Table 3-1: Integer Types in Rust", (BlockKind.TABLE, "Table 3-1")),
    ("[Figure] The three most common states of matter.", (BlockKind.FIGURE, "Figure")),
    ("Figure 3.2 shows that water moves between sea and air.", None),  # a sentence of the body text
    ("Table 2 lists the constants.", None),
    ("The figure 3 is shown below.", None),
])
def test_caption_label_tells_captions_from_sentences(text, expected):
    assert caption_label(text) == expected


def test_pipe_rows():
    assert is_pipe_row("| length | meter | m |") and is_pipe_row("| Base Units |")
    assert not is_pipe_row("a | b") and not is_pipe_row("|")


def _para(text: str, y0: float, y1: float, kind: BlockKind = BlockKind.TEXT) -> ParaBlock:
    return ParaBlock(kind, text, y0, (), (72.0, y0, 500.0, y1))


def test_pipe_rows_become_one_table_titled_by_its_first_row():
    items = [_para("Body text before.", 100, 110), 7, _para("| SI Base Units |", 120, 130),
             _para("| length | meter |", 131, 141), _para("| mass | kilogram |", 142, 152), _para("After.", 160, 170)]
    out = mark_figures(items)
    assert out[1] == 7  # section marks stay where they were
    table = out[2]
    assert isinstance(table, ParaBlock) and table.kind is BlockKind.TABLE
    assert table.label == "Table: SI Base Units" and table.frame == (72.0, 120, 500.0, 152)
    assert table.text.splitlines() == ["| SI Base Units |", "| length | meter |", "| mass | kilogram |"]
    assert [getattr(x, "text", x) for x in out[3:]] == ["After."]


def test_a_numbered_table_caption_joins_the_table_below_it():
    items = [_para("Table 1.1: SI base units", 100, 110), _para("length\tmeter", 115, 140, BlockKind.TABLE)]
    (table,) = mark_figures(items)
    assert table.kind is BlockKind.TABLE and table.label == "Table 1.1"
    assert table.text == "Table 1.1: SI base units\nlength\tmeter" and table.frame == (72.0, 100, 500.0, 140)


def test_a_figure_caption_is_framed_with_the_picture_above_it():
    picture, far_away = (100.0, 200.0, 400.0, 380.0), (100.0, 500.0, 400.0, 700.0)
    (fig,) = mark_figures([_para("Figure 2.1 A red square.", 390, 400)], [far_away, picture])
    assert fig.kind is BlockKind.FIGURE and fig.label == "Figure 2.1"
    assert fig.frame == (72.0, 200.0, 500.0, 400)
    assert nearest_picture((72.0, 390, 500.0, 400), [(600.0, 200.0, 700.0, 380.0)]) is None  # not across


def _figure_and_table_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    header_footer(page, "Measuring Things", "12")
    y = heading(page, 80, "2 Measurement")
    y = paragraph(page, y, 3)
    page.draw_rect(pymupdf.Rect(LEFT, y, LEFT + 200, y + 120), color=(1, 0, 0), fill=(1, 0, 0))
    y = text_lines(page, y + 135, ["Figure 2.1 A red square drawn to scale."], size=9)
    y = paragraph(page, y + 10, 2, start=1)
    y = text_lines(page, y + 4, ["Table 2.1: Units of length"], size=9)
    top, rows = y - 2, [("Unit", "Symbol", "Metres"), ("kilometre", "km", "1000"), ("centimetre", "cm", "0.01")]
    for r, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            page.insert_text((LEFT + 4 + 150 * c, top + 14 + 18 * r), cell, fontsize=9, fontname="helv")
    for r in range(len(rows) + 1):
        page.draw_line((LEFT, top + 18 * r), (LEFT + 450, top + 18 * r))
    for c in range(4):
        page.draw_line((LEFT + 150 * c, top), (LEFT + 150 * c, top + 18 * len(rows)))
    paragraph(page, top + 18 * len(rows) + 30, 2, start=2)
    doc.save(path)
    return path


def test_a_pdf_figure_and_ruled_table_become_labelled_framed_blocks(tmp_path):
    book = read(_figure_and_table_pdf(tmp_path / "measure.pdf"))
    labelled = [b for b in book.blocks if b.label]
    assert [(b.kind, b.label) for b in labelled] == [(BlockKind.FIGURE, "Figure 2.1"), (BlockKind.TABLE, "Table 2.1")]
    fig, table = labelled
    assert fig.text == "Figure 2.1 A red square drawn to scale." and fig.page == 1
    x0, y0, x1, y1 = fig.frame
    assert x0 <= LEFT + 1 and x1 >= LEFT + 199 and y1 - y0 > 120  # the square and its caption
    assert table.text.splitlines()[1:] == ["Unit | Symbol | Metres", "kilometre | km | 1000",
                                           "centimetre | cm | 0.01"]
    assert table.frame[2] - table.frame[0] >= 449  # the whole ruled table
    body = " ".join(b.text for b in book.blocks if not b.label)
    assert "kilometre" not in body and "red square" not in body  # each is in one block only


def test_a_picture_is_the_chain_of_marks_touching_above_the_caption():
    caption = (72.0, 400.0, 500.0, 410.0)
    plot_frame, curve, legend = (100.0, 250.0, 450.0, 380.0), (120.0, 260.0, 440.0, 370.0), (300.0, 240.0, 400.0, 252.0)
    rule_far_above = (72.0, 100.0, 540.0, 101.0)
    marks = [rule_far_above, legend, curve, plot_frame]
    assert nearest_picture(caption, marks) == (100.0, 240.0, 450.0, 380.0)
    below = (100.0, 420.0, 450.0, 600.0)
    assert nearest_picture(caption, [below, rule_far_above]) == below  # no picture above: the one below
