"""The shared flow-format assembly: title detection, heading classification, screens, TOC lines."""
from __future__ import annotations

import pytest

from core.errors import EmptyDocumentError
from core.ingest.flow import (BookBuilder, classify_heading, clean_emphasis, count_words, find_title_heading,
                              section_fields)
from core.models import BlockKind, SectionKind, SourceFormat


def test_find_title_heading() -> None:
    assert find_title_heading([(1, "Psychology 2e"), (1, "Chapter 1: Intro"), (2, "1.1 What"),
                               (1, "Chapter 2: Research")]) == 0
    assert find_title_heading([(1, "My Notes"), (2, "Setup"), (2, "Usage")]) == 0
    assert find_title_heading([(1, "Installing"), (1, "Using"), (1, "Index")]) is None
    assert find_title_heading([(1, "Chapter 1: Intro"), (2, "1.1 What")]) is None
    assert find_title_heading([(2, "Sidebar"), (1, "Main")]) is None
    assert find_title_heading([(1, "Preface"), (1, "Chapter 1: A")]) is None
    assert find_title_heading([]) is None


def test_classify_heading() -> None:
    assert classify_heading("Chapter 1: Introduction to Psychology").title == "Introduction to Psychology"
    m = classify_heading("1.1 What Is Psychology?")
    assert (m.kind, m.number, m.title) == (SectionKind.SECTION, "1.1", "What Is Psychology?")
    assert classify_heading("A Brief History") is None
    assert classify_heading("I Am Legend") is None
    assert classify_heading("Appendix B: Tables").number == "B"
    assert classify_heading("A.1 Constants").number == "A.1"
    assert classify_heading("Copyright").kind is SectionKind.FRONT_MATTER
    assert classify_heading("Summary") is None


def test_section_fields_keeps_back_matter_at_the_top_only() -> None:
    assert section_fields("References", 1, classify_heading("References"))[0] is SectionKind.BACK_MATTER
    assert section_fields("References", 3, classify_heading("References"))[0] is SectionKind.SUBSECTION
    assert section_fields("Getting Started", 1, None) == (SectionKind.CHAPTER, None, "Getting Started")


def test_clean_emphasis() -> None:
    runs = ["key term", " Key Term ", "Learning objectives:", "a b c d e f g", "—", "x" * 90, "H2O"]
    assert clean_emphasis(runs) == ("key term", "Learning objectives", "H2O")


def test_count_words() -> None:
    assert count_words("three little words") == 3
    assert count_words("漢字" * 70) == 20  # unspaced scripts still fill screens


def test_builder_screens_sections_and_toc_demotion() -> None:
    b = BookBuilder(SourceFormat.TEXT, "x.txt", words_per_page=10)
    b.heading(1, "Chapter 1: Alpha")  # a contents line: chapter 1 comes back later with body text
    b.heading(1, "Chapter 1: Alpha")
    b.block(BlockKind.TEXT, "one two three four five six")
    b.block(BlockKind.TEXT, "seven eight nine ten eleven")
    b.block(BlockKind.CODE, "x = 1")
    b.heading(2, "1.1 Beta")
    b.block(BlockKind.TEXT, "   ")  # blank blocks are dropped
    b.block(BlockKind.TEXT, "beta text")
    b.heading(1, "Chapter 2: Gamma")
    b.block(BlockKind.TEXT, "gamma", ["gamma"])
    book = b.build(fallback_title="X")
    assert book.title == "X" and book.paginated is False
    # Screen 1: the contents line; every top-level heading opens a screen; a screen closes at 10 words.
    assert [(s.number, s.page_start, s.page_end) for s in book.sections] == [
        ("1", 2, 3), ("1.1", 3, 3), ("2", 4, 4)]
    assert (book.blocks[0].text, book.blocks[0].page, book.blocks[0].section) == ("Chapter 1: Alpha", 1, None)
    assert [(blk.text, blk.page, blk.section) for blk in book.blocks[1:]] == [
        ("one two three four five six", 2, 0), ("seven eight nine ten eleven", 2, 0), ("x = 1", 3, 0),
        ("beta text", 3, 1), ("gamma", 4, 2)]
    assert book.blocks[-1].emphasis == ("gamma",)
    assert [p.label for p in book.pages] == ["1", "2", "3", "4"]


def test_builder_needs_body_text() -> None:
    b = BookBuilder(SourceFormat.HTML, "empty.html")
    b.heading(1, "Only a heading")
    with pytest.raises(EmptyDocumentError, match="empty.html"):
        b.build()


def test_headings_without_text_between_share_a_screen() -> None:
    b = BookBuilder(SourceFormat.MARKDOWN, "x.md")
    b.block(BlockKind.TEXT, "opening words")
    b.heading(1, "Part I: Foundations")
    b.heading(1, "Chapter 1: Start")
    b.block(BlockKind.TEXT, "body")
    book = b.build()
    assert [(s.kind, s.page_start) for s in book.sections] == [(SectionKind.PART, 2), (SectionKind.CHAPTER, 2)]
    assert {blk.page for blk in book.blocks} == {1, 2} and len(book.pages) == 2
