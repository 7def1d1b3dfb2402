"""Markdown importer: front matter, headings, typed blocks, emphasis and virtual pages."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import EmptyDocumentError, ImportCancelled
from core.ingest.read import read_book
from core.ingest.markdown import front_matter_fields, parse_markdown, rewrite_display_math, split_front_matter
from core.ingest.flow import BlockEvent, HeadingEvent
from core.models import BlockKind, SectionKind, SourceFormat

BOOK = """---
title: Psychology for Tests
author:
  - Ada Lovelace
  - Alan Turing
edition: 2
tags: [mind, behavior]
---

# Psychology for Tests

Front text before any chapter.

# Chapter 1: Introduction to Psychology

Psychology is the **scientific study** of the *mind* and [behavior](http://example.org).

## 1.1 What Is Psychology?

A __hypothesis__ is a _tentative explanation_. This is **a very long bold run that is a whole sentence**.

```python
# not a heading
def f():
    return 1
```

~~~
## also not a heading
~~~

$$
x_1 = \\frac{a_2}{b}

y = 2
$$

| Term | Meaning |
|------|---------|
| id | **instinct** |

| Ranking | Occupation |
| 1 | Management |

- first **item**
- second item
  1. nested one

> **Link to Learning**
> # quoted heading stays text

Setext Section
--------------

Closing paragraph.

# Chapter 2: Psychological Research

## 2.1 Why Is Research Important?

Research text.
"""


@pytest.fixture
def book(tmp_path: Path):
    path = tmp_path / "psych.md"
    path.write_text(BOOK, encoding="utf-8")
    return read_book(path)


def test_front_matter_is_metadata(book) -> None:
    assert book.title == "Psychology for Tests"
    assert book.authors == ("Ada Lovelace", "Alan Turing")
    meta = dict(book.metadata)
    assert meta["edition"] == "2"
    assert meta["tags"] == "mind, behavior"
    assert book.source_format is SourceFormat.MARKDOWN and book.paginated is False


def test_leading_title_heading_is_not_a_chapter(book) -> None:
    heads = [(s.kind, s.number, s.title) for s in book.sections]
    assert heads == [
        (SectionKind.CHAPTER, "1", "Introduction to Psychology"),
        (SectionKind.SECTION, "1.1", "What Is Psychology?"),
        (SectionKind.SECTION, None, "Setext Section"),  # "----" underline = h2
        (SectionKind.CHAPTER, "2", "Psychological Research"),
        (SectionKind.SECTION, "2.1", "Why Is Research Important?"),
    ]
    assert [s.parent for s in book.sections] == [None, 0, 0, None, 3]
    assert book.blocks[0].text == "Front text before any chapter." and book.blocks[0].section is None


def test_block_kinds(book) -> None:
    kinds = [b.kind for b in book.blocks]
    code = [b.text for b in book.blocks if b.kind is BlockKind.CODE]
    assert code == ["# not a heading\ndef f():\n    return 1", "## also not a heading"]
    eq = [b.text for b in book.blocks if b.kind is BlockKind.EQUATION]
    assert eq == ["$$ x_1 = \\frac{a_2}{b}\n\ny = 2 $$"]
    tables = [b.text for b in book.blocks if b.kind is BlockKind.TABLE]
    assert tables[0] == "| Term | Meaning |\n| id | instinct |"
    assert tables[1].splitlines() == ["| Ranking | Occupation |", "| 1 | Management |"]
    lists = [b.text for b in book.blocks if b.kind is BlockKind.LIST]
    assert lists == ["- first item\n- second item\n  1. nested one"]
    assert kinds.count(BlockKind.TEXT) >= 5


def test_emphasis_and_plain_text(book) -> None:
    intro = next(b for b in book.blocks if b.text.startswith("Psychology is"))
    assert intro.text == "Psychology is the scientific study of the mind and behavior."
    assert intro.emphasis == ("scientific study", "mind")
    hyp = next(b for b in book.blocks if b.text.startswith("A hypothesis"))
    assert hyp.emphasis == ("hypothesis", "tentative explanation")  # the 10-word run is not a term
    quote = [b for b in book.blocks if "quoted heading" in b.text]
    assert quote and quote[0].kind is BlockKind.TEXT


def test_pages_are_screens(tmp_path: Path) -> None:
    para = "word " * 120
    src = "# Chapter 1: One\n\n" + "\n\n".join(para for _ in range(10)) + "\n\n# Chapter 2: Two\n\n" + para
    path = tmp_path / "long.md"
    path.write_text(src)
    book = read_book(path)
    assert [p.label for p in book.pages] == [str(i) for i in range(1, len(book.pages) + 1)]
    per_page: dict[int, int] = {}
    for b in book.blocks:
        per_page[b.page] = per_page.get(b.page, 0) + len(b.text.split())
    # 1200 words: screens close once they pass 400 words (480, 480, 240); chapter 2 opens a new one.
    assert len(book.pages) == 4
    assert [per_page[p] for p in (1, 2, 3, 4)] == [480, 480, 240, 120]
    ch1, ch2 = book.sections
    assert (ch1.page_start, ch1.page_end) == (1, 3)
    assert (ch2.page_start, ch2.page_end) == (4, 4)


def test_long_code_fence_is_one_block(tmp_path: Path) -> None:
    code = "\n".join(f"line_{i} = {i}  # comment" for i in range(2000))
    path = tmp_path / "code.md"
    path.write_text(f"# Code\n\nIntro.\n\n```\n{code}\n```\n\nAfter.\n")
    book = read_book(path)
    blocks = [b for b in book.blocks if b.kind is BlockKind.CODE]
    assert len(blocks) == 1 and blocks[0].text == code


def test_single_h1_makes_h2_the_top_level(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# My Notes\n\nHi.\n\n## Getting Started\n\nText.\n\n### Details\n\nMore.\n\n"
                    "## A Brief History\n\nOld.\n")
    book = read_book(path)
    assert book.title == "My Notes"
    heads = [(s.level, s.kind, s.number, s.title) for s in book.sections]
    assert heads == [
        (1, SectionKind.CHAPTER, None, "Getting Started"),
        (2, SectionKind.SECTION, None, "Details"),
        (1, SectionKind.CHAPTER, None, "A Brief History"),  # not "appendix A"
    ]


def test_several_plain_h1_are_chapters(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text("# Installing\n\nText.\n\n# Using\n\nText.\n\n# Index\n\nwords\n")
    book = read_book(path)
    assert book.title == "guide"
    assert [s.kind for s in book.sections] == [SectionKind.CHAPTER, SectionKind.CHAPTER, SectionKind.BACK_MATTER]


def test_empty_markdown(tmp_path: Path) -> None:
    path = tmp_path / "empty.md"
    path.write_text("---\ntitle: Nothing\n---\n\n   \n")
    with pytest.raises(EmptyDocumentError, match="no readable text"):
        read_book(path)
    headings_only = tmp_path / "heads.md"
    headings_only.write_text("# A\n\n## B\n")
    with pytest.raises(EmptyDocumentError):
        read_book(headings_only)


def test_progress_and_cancel(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    path.write_text(BOOK)
    calls: list[tuple[str, int, int]] = []
    read_book(path, progress=lambda s, d, t: calls.append((s, d, t)))
    assert len(calls) >= 2 and calls[-1][1] == calls[-1][2]
    with pytest.raises(ImportCancelled):
        read_book(path, cancel=lambda: True)


def test_split_front_matter_is_strict() -> None:
    assert split_front_matter("---\n\nJust a rule above.\n")[0] == {}
    front, body = split_front_matter("---\ntitle: T\nauthor: A and B\n---\n# H\n")
    assert front == {"title": "T", "author": "A and B"} and body == "# H\n"
    assert front_matter_fields(front)[:2] == ("T", ("A", "B"))
    assert split_front_matter("---\n: : [bad yaml\n---\ntext")[0] == {}
    assert split_front_matter("% Release Notes\n% Ann; Bob\n\nBody") == (
        {"title": "Release Notes", "author": "Ann; Bob"}, "\nBody")
    assert split_front_matter("%d percent\n")[0] == {}


def test_rewrite_display_math_leaves_code_alone() -> None:
    src = "```\n$$\nnot math\n$$\n```\n\n$$ E = mc^2 $$\n"
    out = rewrite_display_math(src)
    assert out.startswith("```\n$$\nnot math\n$$\n```")
    events = parse_markdown(src)
    assert [e.kind for e in events if isinstance(e, BlockEvent)] == [BlockKind.CODE, BlockKind.EQUATION]
    assert events[-1].text == "$$ E = mc^2 $$"


def test_parse_markdown_events() -> None:
    events = parse_markdown("Title\n=====\n\nSome *text*.\n")
    assert events[0] == HeadingEvent(1, "Title")
    assert events[1] == BlockEvent(BlockKind.TEXT, "Some text.", ("text",))
