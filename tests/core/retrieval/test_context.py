"""Context assembly: labels, small-to-big passages, numbered sources within a token budget."""
from __future__ import annotations

import pytest

from core.retrieval.context import (approx_tokens, build_sources, expand_passage, expand_small_to_big, merge_overlap,
                                    page_span, source_label, truncate_to_tokens)
from core.models import BookId, Chunk, ChunkId, ChunkRole, Hit, SectionId, Source

S1 = "Psychologists use the scientific method."
S2 = "A hypothesis is a tentative explanation."
S3 = "It must be falsifiable to be useful."
S4 = "Experiments test hypotheses under controlled conditions."
S5 = "Surveys describe large groups cheaply."
S6 = "Case studies describe single individuals in depth."
S7 = "Correlation does not imply causation."


def chunk(cid: int, text: str, *, ordinal: int | None = None, section_id: int = 10, section: str | None = "2.3",
          title: str = "Analyzing Findings", chapter: str | None = "2", chapter_title: str = "Psychological Research",
          pages: tuple[str, str] = ("45", "45"), book: str = "bk") -> Chunk:
    return Chunk(id=ChunkId(cid), book_id=BookId(book), section_id=SectionId(section_id),
                 ordinal=cid if ordinal is None else ordinal, text=text, role=ChunkRole.CONCEPT,
                 page_start=cid + 50, page_end=cid + 50 + (pages[0] != pages[1]),
                 printed_page_start=pages[0], printed_page_end=pages[1], chapter_number=chapter,
                 chapter_title=chapter_title, section_number=section, section_title=title, token_count=10)


def words(text: str) -> int:  # a simple deterministic tokenizer: one token per word
    return len(text.split())


# A section cut into chunks that share one sentence with their neighbour, as the chunker does.
SECTION = [
    chunk(1, f"{S1} {S2}", pages=("44", "44")),
    chunk(2, f"{S2} {S3}", pages=("45", "45")),
    chunk(3, f"{S3}\n{S4}", pages=("45", "45")),
    chunk(4, f"{S4} {S5}", pages=("45", "46")),
    chunk(5, f"{S5} {S6}", pages=("46", "46")),
]
OTHER_SECTION = chunk(6, f"{S6} {S7}", section_id=11, section="2.4")


# -- labels ---------------------------------------------------------------------------------------
def test_source_label_forms():
    assert source_label("Psychology 2e", SECTION[1]) == "Psychology 2e › Chapter 2 › 2.3 Analyzing Findings, p. 45"
    assert source_label("Psychology 2e", SECTION[3]).endswith("2.3 Analyzing Findings, pp. 45–46")
    no_chapter = chunk(9, "x", chapter=None, chapter_title="", section=None, title="Preface", pages=("xi", "xi"))
    assert source_label("Book", no_chapter) == "Book › Preface, p. xi"
    intro = chunk(9, "x", section="2", title="Psychological Research")
    assert source_label("Book", intro) == "Book › Chapter 2 › Psychological Research, p. 45"
    numbered_title = chunk(9, "x", title="2.3 Analyzing Findings")
    assert source_label("", numbered_title) == "Chapter 2 › 2.3 Analyzing Findings, p. 45"
    unnumbered = chunk(9, "x", chapter=None, chapter_title="Getting Started", section=None, title="Installing")
    assert source_label("Book", unnumbered) == "Book › Getting Started › Installing, p. 45"
    appendix = chunk(9, "x", chapter="A", chapter_title="Constants", section="A.1", title="Units")
    assert source_label("Book", appendix) == "Book › Appendix A › A.1 Units, p. 45"
    assert page_span(chunk(9, "x", pages=("", ""))) == "p. 59"  # unlabelled: physical page


# -- merging and small-to-big ---------------------------------------------------------------------
def test_merge_overlap_writes_shared_sentences_once():
    assert merge_overlap(f"{S1} {S2}", f"{S2} {S3}") == f"{S1} {S2} {S3}"
    assert merge_overlap(f"{S2} {S3}", f"{S3}\n{S4}") == f"{S2} {S3}\n{S4}"  # b's own whitespace kept
    assert merge_overlap(f"{S1} {S2}", f"{S3} {S4}") == f"{S1} {S2}\n{S3} {S4}"  # no overlap
    assert merge_overlap(f"{S1} {S2}", S2) == f"{S1} {S2}"  # b inside a's tail
    # a single repeated word is not an overlap unless it ends a sentence
    assert merge_overlap("we measured the", "the rate of decay") == "we measured the\nthe rate of decay"
    assert merge_overlap("First part. Done.", "Done. Next part.") == "First part. Done. Next part."
    assert merge_overlap("", "b") == "b" and merge_overlap("a", "  ") == "a"


def test_small_to_big_grows_both_ways_without_duplicates():
    hit = SECTION[2]
    text = expand_small_to_big(hit, SECTION + [OTHER_SECTION], token_budget=200, count_tokens=words)
    assert text == f"{S1} {S2} {S3}\n{S4} {S5} {S6}"
    for sentence in (S1, S2, S3, S4, S5, S6):
        assert text.count(sentence) == 1
    assert S7 not in text  # the next section is never pulled in


def test_small_to_big_respects_budget_and_alternates():
    hit = SECTION[2]  # 13 words
    for budget in (13, 19, 25, 31, 40):
        text = expand_small_to_big(hit, list(reversed(SECTION)), token_budget=budget, count_tokens=words)
        assert words(text) <= budget
        assert f"{S3}\n{S4}" in text
    _, used = expand_passage(hit, SECTION, 19, words)
    assert [c.id for c in used] == [3, 4]  # forward first
    _, used = expand_passage(hit, SECTION, 25, words)
    assert [c.id for c in used] == [2, 3, 4]  # then backward


def test_small_to_big_stops_at_gaps_and_truncates_an_oversized_hit():
    gap = [SECTION[0], SECTION[1], chunk(4, f"{S4} {S5}", ordinal=7)]
    text, used = expand_passage(SECTION[1], gap, 200, words)
    assert [c.id for c in used] == [1, 2] and S4 not in text
    long_hit = chunk(20, " ".join([S1, S2, S3, S4, S5, S6, S7]))
    cut = expand_small_to_big(long_hit, [], token_budget=12, count_tokens=words)
    assert words(cut) <= 12 and cut.endswith("…") and cut.startswith(S1)


def test_truncate_prefers_sentence_ends():
    text = " ".join([S1, S2, S3, S4])
    cut = truncate_to_tokens(text, 14, words)
    assert cut == f"{S1} {S2} …"
    assert truncate_to_tokens(text, 100, words) == text
    assert truncate_to_tokens(text, 0, words) == ""


# -- sources ----------------------------------------------------------------------------------------
def test_build_sources_numbers_and_skips_covered_hits():
    hits = [Hit(rank=1, chunk=SECTION[2], score=1.0), Hit(rank=2, chunk=OTHER_SECTION, score=0.9),
            Hit(rank=3, chunk=SECTION[3], score=0.8)]
    sources = build_sources(hits, book_titles={"bk": "Psychology 2e"}, neighbours=SECTION + [OTHER_SECTION],
                            count_tokens=words, per_source_tokens=30)
    assert [s.n for s in sources] == [1, 2]  # hit 3 is already inside source 1's passage
    assert sources[0].chunk.id == 3 and sources[1].chunk.id == 6
    assert sources[0].label == "Psychology 2e › Chapter 2 › 2.3 Analyzing Findings, pp. 44–46"  # whole passage
    assert sources[0].book_title == "Psychology 2e"
    assert all(words(s.text) <= 30 for s in sources)


def test_build_sources_total_budget_and_plain_chunks():
    chunks = [chunk(i, f"Sentence number {i} is here.", section_id=100 + i, section=f"3.{i}") for i in range(1, 6)]
    sources = build_sources(chunks, count_tokens=words, per_source_tokens=50, total_tokens=12, min_source_tokens=5)
    assert [s.n for s in sources] == [1, 2]
    assert sum(words(s.text) for s in sources) <= 12
    assert len(build_sources(chunks, count_tokens=words, max_sources=3)) == 3
    assert build_sources([]) == ()


# -- prompt -----------------------------------------------------------------------------------------
def src(n: int, text: str, label: str = "Book › Chapter 1 › 1.1 Intro, p. 3") -> Source:
    return Source(n=n, chunk=SECTION[0], text=text, label=label, book_title="Book")


@pytest.mark.parametrize("text,expected", [("", 0), ("word", 2), ("a b c d e f", 8), ("x" * 40, 10)])
def test_approx_tokens(text: str, expected: int):
    assert approx_tokens(text) == expected


def test_a_figure_or_table_hit_is_its_own_source_with_its_own_room():
    from dataclasses import replace
    table = replace(chunk(9, "| Sleep needs |\n| Age | Hours |\n| 14–17 years | 8–10 hours |", ordinal=6),
                    label="Table: Sleep needs")
    sources = build_sources([SECTION[1], table], neighbours=[*SECTION, table], count_tokens=words,
                            per_source_tokens=10, total_tokens=10)
    assert [s.chunk.id for s in sources] == [2, 9]  # the prose used up the budget; the table still comes
    assert sources[1].text == "Sleep needs\nAge 14–17 years: Hours 8–10 hours."  # the whole table, as sentences
    assert sources[1].label.endswith("› Table: Sleep needs, p. 45")
    assert S5 not in sources[1].text  # no neighbours grown around it


def test_table_sentences_name_each_value_by_its_column():
    from core.retrieval.context import table_sentences
    grid = ("| Sleep Needs at Different Ages |\n| Age | Recommended | May be appropriate |\n| --- | --- | --- |\n"
            "| 14–17 years | 8–10 hours | 7 hours |\n| 18–25 years | 7–9 hours |")
    assert table_sentences(grid).splitlines() == [
        "Sleep Needs at Different Ages",
        "Age 14–17 years: Recommended 8–10 hours; May be appropriate 7 hours.",
        "18–25 years 7–9 hours"]  # a row of another width is kept as its cells
    assert table_sentences("Table 2.1: Units\nUnit | Metres\nkm | 1000") == "Table 2.1: Units\nUnit km: Metres 1000."


def test_a_long_hit_keeps_the_sentence_nearest_the_question_with_relevance():
    long_hit = chunk(20, " ".join([S1, S2, S3, S4, S5, S6, S7]), section_id=99)
    relevance = lambda sentence: 1.0 if "causation" in sentence else 0.0  # noqa: E731
    plain = build_sources([long_hit], count_tokens=words, per_source_tokens=20)[0].text
    focused = build_sources([long_hit], count_tokens=words, per_source_tokens=20, relevance=relevance)[0].text
    assert S7 not in plain and plain.startswith(S1)
    assert S7 in focused and words(focused) <= 20
