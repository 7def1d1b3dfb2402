"""Plain-text importer: encodings, heading patterns, paragraphs, code and the cautious rules."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import EmptyDocumentError, ImportCancelled, UnsupportedFormatError
from core.ingest.read import read_book
from core.ingest.flow import BlockEvent, HeadingEvent, decode_text
from core.ingest.plain_text import line_heading, looks_binary, parse_text, split_groups
from core.models import BlockKind, SectionKind, SourceFormat

BOOK = """Introductory Physics

Chapter 1: Motion and Rest

Everything moves. This paragraph is hard-wrapped
at a narrow width, and the importer should join the
lines back into one paragraph.

1.1 Speed and Velocity

Speed is distance over time. Velocity adds a direction to speed, so two
cars with the same speed may have different velocities.

    def speed(d, t):
        return d / t

    print(speed(10, 2))

2.5 million people were counted in the survey.

1. Buy milk

2. Walk the dog

CHAPTER TWO

Forces

A force is a push or a pull. Forces change the motion of objects, as
Newton described in his laws of motion.

3 Energy

Energy is the capacity to do work. It comes in many forms, kinetic and
potential among them, and it is conserved in closed systems.

Appendix A: Units

- metre
- second
"""


@pytest.fixture
def book(tmp_path: Path):
    path = tmp_path / "physics.txt"
    path.write_text(BOOK, encoding="utf-8")
    return read_book(path)


def test_headings_and_title(book) -> None:
    assert book.source_format is SourceFormat.TEXT and book.paginated is False
    assert book.title == "Introductory Physics"
    heads = [(s.kind, s.number, s.title) for s in book.sections]
    assert heads == [
        (SectionKind.CHAPTER, "1", "Motion and Rest"),
        (SectionKind.SECTION, "1.1", "Speed and Velocity"),
        (SectionKind.CHAPTER, "2", "Forces"),
        (SectionKind.CHAPTER, "3", "Energy"),
        (SectionKind.APPENDIX, "A", "Units"),
    ]
    assert book.sections[1].parent == 0


def test_paragraphs_code_and_lists(book) -> None:
    first = book.blocks[0]
    assert first.text.startswith("Everything moves. This paragraph is hard-wrapped at a narrow width")
    code = [b for b in book.blocks if b.kind is BlockKind.CODE]
    assert len(code) == 1
    assert code[0].text == "def speed(d, t):\n    return d / t\n\nprint(speed(10, 2))"
    texts = [b.text for b in book.blocks]
    assert "2.5 million people were counted in the survey." in texts  # a sentence, not a section
    assert "1. Buy milk" in "\n".join(texts)  # a list item, not chapter 1
    lists = [b.text for b in book.blocks if b.kind is BlockKind.LIST]
    assert "- metre\n- second" in lists


def test_encodings_never_crash(tmp_path: Path) -> None:
    cases = {
        "utf8.txt": "Chapter 1: Café\n\nNaïve text.\n".encode("utf-8"),
        "bom.txt": b"\xef\xbb\xbf" + "Chapter 1: Café\n\nNaïve text.\n".encode("utf-8"),
        "cp1252.txt": "Chapter 1: Café\n\n\u201cNaïve\u201d text.\n".encode("cp1252"),
        "latin1.txt": b"Chapter 1: Caf\xe9\n\nNa\xefve \x81\x8d text.\n",  # 0x81 is not cp1252
        "utf16.txt": "Chapter 1: Café\n\nNaïve text.\n".encode("utf-16"),
        "crlf.txt": b"Chapter 1: Cafe\r\n\r\nNaive text.\r\n",
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        book = read_book(path)
        assert book.sections[0].title.startswith("Caf"), name
        assert "text." in book.blocks[0].text, name
    assert read_book(tmp_path / "cp1252.txt").blocks[0].text == "\u201cNaïve\u201d text."


def test_decode_text_fallbacks() -> None:
    assert decode_text("é".encode()) == "é"
    assert decode_text(b"\x93q\x94") == "\u201cq\u201d"
    assert decode_text(b"a\x81b") == "a\x81b"
    assert decode_text(b"a\r\nb\rc") == "a\nb\nc"


def test_binary_garbage_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "garbage.txt"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(UnsupportedFormatError, match="binary"):
        read_book(path)
    assert looks_binary(b"\x00\x01\x02abc")
    assert not looks_binary("plain words\n".encode())


def test_empty_and_blank_files(tmp_path: Path) -> None:
    blank = tmp_path / "blank.txt"
    blank.write_text("\n   \n\t\n")
    with pytest.raises(EmptyDocumentError):
        read_book(blank)


def test_table_of_contents_lines_are_not_chapters(tmp_path: Path) -> None:
    body = "Words of the chapter, enough of them to be real body text here. " * 3
    src = ("Contents\n\nChapter 1: Alpha\n\nChapter 2: Beta\n\n"
           f"Chapter 1: Alpha\n\n{body}\n\nChapter 2: Beta\n\n{body}\n")
    path = tmp_path / "toc.txt"
    path.write_text(src)
    book = read_book(path)
    chapters = [s for s in book.sections if s.kind is SectionKind.CHAPTER]
    assert [(c.number, c.title) for c in chapters] == [("1", "Alpha"), ("2", "Beta")]
    assert all(b.section is not None for b in book.blocks)


def test_contents_block_in_one_paragraph_is_text() -> None:
    _, events = parse_text("Chapter 1: Alpha ..... 1\nChapter 2: Beta ...... 9\n")
    assert all(isinstance(e, BlockEvent) for e in events)


def test_parts_sit_above_chapters() -> None:
    body = "A long enough paragraph of real words to count as the body of this part. " * 2
    _, events = parse_text(f"Part I: Basics\n\n{body}\n\nChapter 1: Start\n\n{body}\n")
    heads = [e for e in events if isinstance(e, HeadingEvent)]
    assert [(h.level, h.match.kind) for h in heads] == [(1, SectionKind.PART), (2, SectionKind.CHAPTER)]


def test_underlined_headings() -> None:
    _, events = parse_text("Overview\n========\n\nSome text here.\n\nDetails\n-------\n\nMore text.\n")
    heads = [(e.level, e.text) for e in events if isinstance(e, HeadingEvent)]
    assert heads == [(1, "Overview"), (2, "Details")]


def test_line_heading_rules() -> None:
    assert line_heading("Chapter 3: Waves", alone=False).number == "3"
    assert line_heading("CHAPTER THREE", alone=True).number == "3"
    assert line_heading("3.2 Standing Waves", alone=False).number == "3.2"
    assert line_heading("Appendix A", alone=True).kind is SectionKind.APPENDIX
    assert line_heading("3 Waves", alone=False) is None
    assert line_heading("3 Waves", alone=True).number == "3"
    assert line_heading("3.2 million people moved.", alone=True) is None
    assert line_heading("A Tale of Two Cities", alone=True) is None


def test_whole_book_indented_is_not_code() -> None:
    groups = split_groups("        Chapter 1: Indented\n\n        All of this book is indented.\n")
    assert groups == [["Chapter 1: Indented"], ["All of this book is indented."]]


def test_cancel(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text(BOOK)
    with pytest.raises(ImportCancelled):
        read_book(path, cancel=lambda: True)
