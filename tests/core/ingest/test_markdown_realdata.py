"""The Markdown importer on two real OpenStax books from the shared bench.

Skips when the bench is absent unless LANTERN_REQUIRE_REAL_DATA=1 (then it fails).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.ingest.read import read_book
from core.models import BlockKind, ParsedBook, SectionKind
from tests.conftest import require_real_file

pytestmark = pytest.mark.realdata

BENCH = Path(__file__).resolve().parents[3].parent / "shared" / "bench"
BOOKS = {"psychology-2e": (16, 88), "chemistry-2e": (21, 114)}
_NUMBERED = re.compile(r"^\d+\.\d+$")


@pytest.fixture(scope="module", params=sorted(BOOKS))
def bench_book(request: pytest.FixtureRequest) -> tuple[str, ParsedBook, list[dict]]:
    name = request.param
    folder = BENCH / name
    book = read_book(require_real_file(folder / "book.md"))
    records = [json.loads(line) for line in require_real_file(folder / "sections.jsonl").read_text().splitlines()
               if line.strip()]
    return name, book, records


def test_chapters_match_the_gold(bench_book) -> None:
    name, book, records = bench_book
    chapters = [s for s in book.sections if s.kind is SectionKind.CHAPTER]
    assert len(chapters) == BOOKS[name][0]
    gold = {str(r["chapter"]): r["chapter_title"] for r in records}
    assert {c.number: c.title for c in chapters} == gold
    assert all(c.level == 1 and c.parent is None for c in chapters)


def test_numbered_sections_match_the_gold(bench_book) -> None:
    name, book, records = bench_book
    numbered = [s for s in book.sections if s.number and _NUMBERED.match(s.number)]
    assert len(numbered) == BOOKS[name][1]
    gold = {r["section"]: r["section_title"] for r in records if _NUMBERED.match(r["section"]) and not r["is_intro"]}
    assert {s.number: s.title for s in numbered} == gold
    for s in numbered:
        parent = book.sections[s.parent]
        assert parent.kind is SectionKind.CHAPTER and s.number.split(".")[0] == parent.number


def test_pages_and_blocks_are_consistent(bench_book) -> None:
    _, book, _ = bench_book
    assert book.paginated is False
    last = len(book.pages)
    assert [p.index for p in book.pages] == list(range(1, last + 1))
    assert {b.page for b in book.blocks} == set(range(1, last + 1))  # no empty screens
    assert all(1 <= s.page_start <= s.page_end <= last for s in book.sections)
    assert book.title and not book.title.startswith("Chapter")
    # Key-term lists carry their bold terms as emphasis.
    assert any(b.kind is BlockKind.LIST and b.emphasis for b in book.blocks)
    assert any(b.kind is BlockKind.TABLE for b in book.blocks)
