"""Preparing an answer: what a long source keeps."""
from __future__ import annotations

from core.answer.evidence import Evidence, chunk_units
from core.answer.preparation import leaned_on, question_relevance
from tests.core.answer.test_evidence import NORMS, chunk


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


def test_leaned_on_gives_the_sentence_before_each_evidence_sentence_that_takes_its_subject_from_it():
    units = chunk_units(NORMS, hit_rank=0)
    they = next(u for u in units if u.text.startswith("They include"))
    mores = next(u for u in units if u.text.startswith("Mores"))
    first = units[0]
    evidence = [Evidence(id=1, text=first.text, chunk=NORMS, index=first.index),
                Evidence(id=2, text=they.text, chunk=NORMS, index=they.index),
                Evidence(id=3, text=mores.text, chunk=NORMS, index=mores.index)]
    assert leaned_on(evidence) == {2: "Folkways are norms for routine or casual interaction."}
    opened = chunk(5, "The document they created was the Constitution. For the most part, it also resolved the "
                      "conflicts between small and large states.")
    second = chunk_units(opened, hit_rank=0)[1]
    assert leaned_on([Evidence(id=1, text=second.text, chunk=opened, index=1)]) == {
        1: "The document they created was the Constitution."}
    # an index that no longer matches the chunk's sentences gives nothing rather than a wrong sentence
    assert leaned_on([Evidence(id=4, text="They are something else entirely.", chunk=NORMS, index=they.index)]) == {}
