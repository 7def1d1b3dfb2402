"""Chunk metadata helpers: roles, key terms, equations, figure references."""
from __future__ import annotations

import pytest

from core.ingest.enrich import (KeyphraseScorer, candidate_phrases, classify_role, code_fraction, figure_refs,
                                glossary_terms, has_equation, is_definition, key_terms, role_from_heading,
                                role_from_text)
from core.models import BlockKind, ChunkRole, SectionKind


@pytest.mark.parametrize("heading,role", [
    ("Learning Objectives", ChunkRole.OBJECTIVES),
    ("Key Takeaways", ChunkRole.SUMMARY),
    ("Summary", ChunkRole.SUMMARY),
    ("Key Concepts and Summary", ChunkRole.SUMMARY),
    ("Key Equations", ChunkRole.SUMMARY),
    ("Review Questions", ChunkRole.EXERCISE),
    ("Critical Thinking Questions", ChunkRole.EXERCISE),
    ("Exercises", ChunkRole.EXERCISE),
    ("Chemistry End of Chapter Exercises", ChunkRole.EXERCISE),
    ("Problems", ChunkRole.EXERCISE),
    ("Check Your Learning", ChunkRole.EXERCISE),
    ("Worked Example", ChunkRole.EXAMPLE),
    ("Example 3.2", ChunkRole.EXAMPLE),
    ("Example 3.2: Computing a Mean", ChunkRole.EXAMPLE),
    ("Solution", ChunkRole.EXAMPLE),
    ("Key Terms", ChunkRole.GLOSSARY),
    ("Glossary", ChunkRole.GLOSSARY),
    ("Preface", ChunkRole.OTHER),
    ("Index", ChunkRole.OTHER),
    ("References", ChunkRole.OTHER),
])
def test_role_from_heading(heading, role):
    assert role_from_heading(heading) is role


@pytest.mark.parametrize("heading", [
    "Classical Conditioning", "Examples of Learning", "Problems of Memory", "What Questions Do Psychologists Ask?",
    "Introduction", "Solving Problems With Algorithms", ""])
def test_explanatory_headings_have_no_role(heading):
    assert role_from_heading(heading) is None


def test_role_from_text_cues():
    assert role_from_text("By the end of this section, you will be able to: define psychology") \
        is ChunkRole.OBJECTIVES
    assert role_from_text("Exercise 2.3. Show that the sum of two even numbers is even.") is ChunkRole.EXERCISE
    assert role_from_text("Example 4.1 Find the density of lead.") is ChunkRole.EXAMPLE
    assert role_from_text("What is the density?\nSolution\nDivide mass by volume.") is ChunkRole.EXAMPLE
    assert role_from_text("Solution: divide the mass by the volume.") is ChunkRole.EXAMPLE
    code = "def mean(xs):\n    total = sum(xs)\n    return total / len(xs)\n"
    assert role_from_text(code) is ChunkRole.CODE
    assert role_from_text("Some prose.", block_kinds=[BlockKind.CODE, BlockKind.TEXT]) is ChunkRole.CODE
    glossary = "- **behaviorism**: focus on observing behavior\n- **humanism**: potential for good\n" \
               "- **introspection**: examining one's own experience"
    assert role_from_text(glossary) is ChunkRole.GLOSSARY
    assert role_from_text("Psychology is the scientific study of the mind.") is None


def test_classify_role_precedence():
    prose = "Psychology refers to the scientific study of mind and behavior."
    assert classify_role("What Is Psychology?", prose) is ChunkRole.CONCEPT
    assert classify_role("Summary", prose) is ChunkRole.SUMMARY  # heading wins over text
    assert classify_role("Preface", prose, section_kind=SectionKind.FRONT_MATTER) is ChunkRole.OTHER
    assert classify_role("About This Book", prose, section_kind=SectionKind.FRONT_MATTER) is ChunkRole.OTHER
    assert classify_role("Glossary", "term: meaning", section_kind=SectionKind.BACK_MATTER) is ChunkRole.GLOSSARY
    assert classify_role("Part (a)", prose, ancestor_titles=["Chapter 2", "Exercises"]) is ChunkRole.EXERCISE
    assert classify_role("Memory", "By the end of this section, you will be able to: define memory") \
        is ChunkRole.OBJECTIVES


def test_definitions():
    assert is_definition("Extinction is defined as the decrease in a conditioned response.")
    assert is_definition("Psychology refers to the scientific study of the mind.")
    assert is_definition("This process is called habituation.")
    assert not is_definition("Pavlov rang a bell.")


@pytest.mark.parametrize("text,expected", [
    ("density = mass / volume", True),
    ("The sum ∑ x_i over all samples", True),
    ("Its area is r^2 times pi", True),
    (r"We write \frac{a}{b} for the ratio", True),
    ("Take √2 as an example", True),
    ("density= (mass)/(volume)", True),
    ("x < 3 holds for all the samples", True),
    ("Pavlov studied dogs and their salivation.", False),
    ("The year 1990 was important (see page 12).", False),
])
def test_has_equation(text, expected):
    assert has_equation(text) is expected


def test_has_equation_from_block_kind():
    assert has_equation("no math here", [BlockKind.TEXT, BlockKind.EQUATION])


def test_figure_refs():
    text = "As Figure 3.2 shows (see also Fig. 4 and Table 1.1), and again Figure 3.2; Figs. 5."
    assert figure_refs(text) == ("Figure 3.2", "Figure 4", "Table 1.1", "Figure 5")
    assert figure_refs("No figures in this sentence.") == ()
    assert figure_refs("Table A1 lists constants.") == ("Table A1",)


def test_glossary_terms():
    text = "- **empirical method**: method for acquiring knowledge\n- **ology**: suffix\nplain line: not a term"
    assert glossary_terms(text) == ["empirical method", "ology"]


def test_candidate_phrases():
    phrases = candidate_phrases("The classical conditioning paradigm was described by Pavlov in 1927.")
    assert "classical conditioning paradigm" in phrases
    assert "pavlov" in phrases
    assert all(p not in ("the", "was", "by") for p in phrases)


def test_keyphrase_scorer_prefers_specific_phrases():
    docs = ["Memory encoding and memory retrieval in the brain.",
            "The brain and the nervous system; neurons fire.",
            "Classical conditioning pairs a neutral stimulus with food in the brain.",
            "Operant conditioning uses reinforcement in the brain.",
            "Sleep stages and the brain."]
    scorer = KeyphraseScorer().fit(docs)
    top = scorer.top(docs[2], 2)
    assert "brain" not in top  # in every document: not specific
    assert "classical conditioning pairs" in top or "neutral stimulus" in top


def test_key_terms_combines_sources():
    text = "Extinction is the decrease in responding. - **renewal**: return of responding in a new context"
    terms = key_terms(text, emphasis=("Extinction", "absent term"), extra=("responding",))
    assert terms[0] == "Extinction"
    assert "absent term" not in terms
    assert "responding" in terms


def test_code_fraction():
    assert code_fraction("x = 1;\nif (x) {\n}\n") == 1.0
    assert code_fraction("Plain words only.\nMore words.") == 0.0
