"""Preparing an answer: what a long source keeps."""
from __future__ import annotations

from core.answer.preparation import question_relevance


def test_question_relevance_is_the_share_of_the_question_stems_a_sentence_holds():
    score = question_relevance("What causes REM sleep?")
    assert score("REM sleep is caused by the brainstem.") == 1.0
    assert 0.0 < score("Sleep has stages.") < 1.0
    assert score("Photosynthesis makes sugar.") == 0.0


def test_the_evidence_sentence_defining_the_asked_term_is_found_for_the_preview():
    from core.answer.evidence import Evidence
    from core.answer.preparation import Prepared, defining_source
    from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId, Source
    texts = ["Kinetic energy, however, usually is not.",
             "The kinetic energy of an object of mass m moving at speed v is Ek = ½mv²"]
    chunk = Chunk(id=ChunkId(1), book_id=BookId("b"), section_id=SectionId(1), ordinal=1, text=" ".join(texts),
                  role=ChunkRole.CONCEPT, page_start=10, page_end=10, printed_page_start="8", printed_page_end="8",
                  chapter_number="3", chapter_title="Work and Energy", section_number="3.2",
                  section_title="Kinetic Energy", token_count=20)
    sources = tuple(Source(n=i + 1, chunk=chunk, text=t, label="p. 8") for i, t in enumerate(texts))
    evidence = tuple(Evidence(id=i + 1, text=t, chunk=chunk, index=i) for i, t in enumerate(texts))
    prep = Prepared(sources=sources, messages=[], pool=(), evidence=evidence)
    assert defining_source("What is kinetic energy?", prep) == 2
    assert defining_source("Why is the sky blue?", prep) is None
    assert defining_source("What is kinetic energy?", Prepared(sources=sources, messages=[], pool=())) is None
