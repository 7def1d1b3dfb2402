"""Captions in any format: which text is a caption, and labelling a book's blocks with them."""
from __future__ import annotations

from core.ingest.captions import label_blocks, table_title
from core.ingest.markdown import read as read_markdown
from core.models import Block, BlockKind
from core.progress import no_progress


def test_table_title_from_a_one_cell_first_row():
    assert table_title("| SI Base Units |\n| length | m |") == "Table: SI Base Units"
    assert table_title("| Table 2.1: Units of length |\n| km | 1000 |") == "Table 2.1"
    assert table_title("| a | b |\n| 1 | 2 |") == ""  # a header row is no title


def test_label_blocks_joins_a_table_caption_to_its_table_and_labels_figures():
    blocks = [Block(BlockKind.TEXT, "Units are everywhere.", 1, 0),
              Block(BlockKind.TEXT, "Table 2: Units of length", 1, 0),
              Block(BlockKind.TABLE, "| km | 1000 |\n| cm | 0.01 |", 1, 0),
              Block(BlockKind.TEXT, "Figure 3. A ruler next to a pencil.", 2, 0),
              Block(BlockKind.TEXT, "Figure 3 shows a ruler.", 2, 0)]
    out = label_blocks(blocks)
    assert [(b.kind, b.label) for b in out] == [(BlockKind.TEXT, ""), (BlockKind.TABLE, "Table 2"),
                                                (BlockKind.FIGURE, "Figure 3"), (BlockKind.TEXT, "")]
    assert out[1].text == "Table 2: Units of length\n| km | 1000 |\n| cm | 0.01 |"


def test_markdown_captions_become_labelled_blocks(tmp_path):
    md = tmp_path / "units.md"
    md.write_text("# Units\n\nLength is measured in metres.\n\nTable 1.1: Units of length\n\n"
                  "| unit | metres |\n|---|---|\n| km | 1000 |\n| cm | 0.01 |\n\n"
                  "Figure 1.2: A metre stick beside a ruler.\n\nMore body text follows here.\n", encoding="utf-8")
    book = read_markdown(md, no_progress, None)
    labelled = [(b.kind, b.label) for b in book.blocks if b.label]
    assert labelled == [(BlockKind.TABLE, "Table 1.1"), (BlockKind.FIGURE, "Figure 1.2")]
    table = next(b for b in book.blocks if b.label == "Table 1.1")
    assert "km | 1000" in table.text and table.text.startswith("Table 1.1: Units of length")


def test_epub_figcaptions_are_labelled(tmp_path):
    from core.ingest.epub import read as read_epub
    from tests.core.ingest.epub_fixture import write_epub
    body = ("<p>Water moves between the sea, the air and the land.</p>"
            "<figure><img src='x.png' alt=''/><figcaption>Figure 4.2 The water cycle.</figcaption></figure>"
            "<p>Rain falls when clouds cool.</p>")
    import pymupdf
    png = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False).tobytes("png")
    epub = write_epub(tmp_path / "water.epub", [("Chapter 4: Water", body, [])], extra={"OEBPS/x.png": png})
    book = read_epub(epub, no_progress, None)
    assert [(b.kind, b.label, b.text) for b in book.blocks if b.label] == [
        (BlockKind.FIGURE, "Figure 4.2", "Figure 4.2 The water cycle.")]


def test_a_long_paragraph_that_starts_with_a_label_is_no_caption():
    from core.ingest.captions import caption_label
    assert caption_label("Figure 2. " + "Words of a long paragraph. " * 40) is None
    assert caption_label("Figure 2. A short caption.") == (BlockKind.FIGURE, "Figure 2")
