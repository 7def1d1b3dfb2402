"""The coverage signal: signals from hits, the calibrated score, the verdict and the nearest sections."""
from __future__ import annotations

import pytest

from core.retrieval.coverage import (DEFAULT_THRESHOLD, Coverage, CoverageSignals, assess, nearest_sections, score,
                                     signals, term_coverage)
from core.models import Chunk, ChunkId, ChunkRole, Hit


def hit(cid: int, text: str, *, vector: float | None = 0.6, keyword: float | None = 20.0, section: int = 1,
        title: str = "Memory", key_terms: tuple[str, ...] = ()) -> Hit:
    chunk = Chunk(id=ChunkId(cid), book_id="b", section_id=section, ordinal=cid, text=text, role=ChunkRole.CONCEPT,
                  page_start=1, page_end=1, printed_page_start="1", printed_page_end="1", chapter_number="8",
                  chapter_title="Memory", section_number=f"8.{section}", section_title=title, token_count=10,
                  key_terms=key_terms)
    stages = tuple((n, v) for n, v in (("keyword", keyword), ("vector", vector)) if v is not None)
    return Hit(rank=cid, chunk=chunk, score=0.03, stage_scores=stages)


MEMORY = [hit(1, "Encoding is the input of information into the memory system.", vector=0.71),
          hit(2, "Rehearsal and elaboration help encoding into long-term memory.", vector=0.64),
          hit(3, "Retrieval is getting information out of memory storage.", vector=0.58, section=2,
              title="Storage and retrieval")]


def test_term_coverage_counts_question_words_found_in_the_hits():
    assert term_coverage("What is memory encoding?", MEMORY) == 1.0
    assert term_coverage("Who won the 2018 World Cup?", MEMORY) == 0.0
    # inflections match ("hypotheses" ~ "hypothesis"); section titles and key terms count as text
    assert term_coverage("Define the hypotheses", [hit(1, "A hypothesis is a guess.")]) == 1.0
    assert term_coverage("storage", MEMORY) == 1.0
    assert term_coverage("what is a schema", [hit(1, "text", key_terms=("schema",))]) == 1.0
    assert term_coverage("", MEMORY) == 0.0


def test_signals_read_the_top_hits_only():
    sig = signals("What is memory encoding?", MEMORY)
    assert sig.vector_max == pytest.approx(0.71)
    assert sig.vector_mean == pytest.approx((0.71 + 0.64 + 0.58) / 3)
    assert signals("memory", MEMORY, top=1).vector_mean == pytest.approx(0.71)
    # a hit the vector search did not return counts as cosine 0
    assert signals("memory", [hit(1, "memory", vector=None)]).vector_max == 0.0
    assert signals("memory", []) == CoverageSignals()


def test_score_rises_with_retrieval_and_falls_with_what_the_book_never_mentions():
    base = CoverageSignals(0.4, 0.3, 0.5)
    s = score(base)
    assert 0.0 < s < 1.0
    for field in ("vector_max", "vector_mean"):
        assert score(CoverageSignals(**{**base.__dict__, field: getattr(base, field) + 0.2})) > s
    for field in ("named_absent", "rare_word_absent", "word_absent", "phrase_absent_share"):
        assert score(CoverageSignals(**{**base.__dict__, field: 1.0})) < s
    assert score(CoverageSignals(5.0, 5.0, 5.0)) == pytest.approx(1.0)


def test_a_question_naming_what_the_book_never_mentions_is_declined_and_named():
    from core.retrieval.mentions import Absence, NamedTerm, TermKind
    missing = Absence(terms=(NamedTerm("EMDR", TermKind.ACRONYM),), words=("emdr",), phrases=2, phrases_missing=2)
    near = [hit(i, h.chunk.text, vector=0.55, section=i) for i, h in enumerate(MEMORY, start=1)]
    cov = assess("What is EMDR therapy?", near, absence=missing)
    assert not cov.covered and cov.absent_terms == ("EMDR",)
    assert cov.unused == ("EMDR",) and cov.unused_words == ("emdr",)  # what the grounding greys
    assert assess("What is memory encoding?", near, absence=Absence()).covered


def test_a_short_question_about_an_absent_name_is_declined_whatever_the_passages_score():
    from core.retrieval.coverage import topic_terms
    from core.retrieval.mentions import Absence, NamedTerm, TermKind
    missing = Absence(terms=(NamedTerm("Carson", TermKind.NAME),))
    strong = [hit(i, h.chunk.text, vector=0.9, section=i) for i, h in enumerate(MEMORY, start=1)]
    short = "What did Carson find about memory encoding?"
    assert topic_terms(short, missing) == ("Carson",)
    cov = assess(short, strong, absence=missing)
    assert not cov.covered and cov.score >= DEFAULT_THRESHOLD and cov.absent_terms == ("Carson",)
    # an exercise that sets up its own scenario names people of its own: only a signal there
    scenario = "Carson enjoys writing mystery novels. How does memory encoding help him remember plots?"
    assert topic_terms(scenario, missing) == ()
    assert assess(scenario, strong, absence=missing).covered
    rare = Absence(terms=(NamedTerm("photoredox", TermKind.RARE),))
    assert topic_terms("How does photoredox catalysis work?", rare) == ()


def test_a_well_matched_question_is_covered_and_an_unrelated_one_is_not():
    good = assess("What is memory encoding?", MEMORY)
    assert isinstance(good, Coverage) and good.covered and good.score >= DEFAULT_THRESHOLD
    # the same passages retrieved for an off-book question: low cosines, no shared words
    weak = [hit(i, h.chunk.text, vector=0.18, section=i) for i, h in enumerate(MEMORY, start=1)]
    bad = assess("Who won the 2018 World Cup?", weak)
    assert not bad.covered and bad.score < DEFAULT_THRESHOLD < good.score
    assert [h.chunk.id for h in bad.nearest] == [1, 2, 3]  # still names where the closest material is


def test_no_hits_means_not_covered():
    cov = assess("anything", [])
    assert cov == Coverage(score=0.0, covered=False, nearest=(), signals=CoverageSignals())


def test_threshold_is_a_keyword_argument():
    cov = assess("What is memory encoding?", MEMORY, threshold=1.0)
    assert not cov.covered and cov.score == assess("What is memory encoding?", MEMORY).score


def test_nearest_sections_one_hit_per_section_in_rank_order():
    hits = [hit(1, "a"), hit(2, "b"), hit(3, "c", section=2), hit(4, "d", section=3), hit(5, "e", section=4)]
    assert [h.chunk.id for h in nearest_sections(hits)] == [1, 3, 4]
    assert [h.chunk.id for h in nearest_sections(hits, 1)] == [1]
