"""Preparing an answer: what a long source keeps."""
from __future__ import annotations

from core.answer.preparation import question_relevance


def test_question_relevance_is_the_share_of_the_question_stems_a_sentence_holds():
    score = question_relevance("What causes REM sleep?")
    assert score("REM sleep is caused by the brainstem.") == 1.0
    assert 0.0 < score("Sleep has stages.") < 1.0
    assert score("Photosynthesis makes sugar.") == 0.0


def test_the_evidence_sentence_defining_the_asked_term_is_found_for_the_preview():
    from core.answer.attribution import stems
    from core.answer.evidence import chunk_units, select_evidence
    from core.answer.preparation import Prepared, book_definition
    from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId
    text = ("Kinetic energy, however, usually is not conserved. "
            "The kinetic energy of an object of mass m moving at speed v is Ek = ½mv².")
    chunk = Chunk(id=ChunkId(1), book_id=BookId("b"), section_id=SectionId(1), ordinal=1, text=text,
                  role=ChunkRole.CONCEPT, page_start=10, page_end=10, printed_page_start="8", printed_page_end="8",
                  chapter_number="3", chapter_title="Work and Energy", section_number="3.2",
                  section_title="Kinetic Energy", token_count=20)

    def evidence(question: str):
        return select_evidence(question, chunk_units(chunk, 0), None, token_budget=200,
                               count_tokens=lambda t: len(t.split()), stems=stems)
    def shown(question: str):
        return book_definition(Prepared(sources=(), messages=[], pool=(), evidence=evidence(question)), question)
    assert shown("What is kinetic energy?") == 2
    assert shown("Why is it not conserved?") is None
    # a definition of one word of a longer question is not what it asks
    assert shown("Why is the kinetic energy of a moving car not conserved in a crash?") is None
    assert book_definition(Prepared(sources=(), messages=[], pool=()), "What is kinetic energy?") is None
