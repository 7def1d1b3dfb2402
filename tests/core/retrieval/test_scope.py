"""Scope written into a question: chapters, sections, printed pages, and printed → physical pages."""
from __future__ import annotations

import pytest

from core.retrieval.scope import Scope, parse_scope, printed_to_physical, roman_to_int
from tests.core.retrieval.chunks import make_chunk

SCOPES = [
    ("in chapter 5, what is a mole?", "what is a mole?", Scope(chapters=("5",))),
    ("chapter 3 only: what is work?", "what is work?", Scope(chapters=("3",))),
    ("What is covered in chapters 3–5?", "What is covered?", Scope(chapters=("3", "4", "5"))),
    ("chapters 3 to 5: entropy", "entropy", Scope(chapters=("3", "4", "5"))),
    ("chapters 3-5 summary", "summary", Scope(chapters=("3", "4", "5"))),
    ("ch. 4 what is a mole", "what is a mole", Scope(chapters=("4",))),
    ("ch 4 mitosis", "mitosis", Scope(chapters=("4",))),
    ("chapters 2 and 4 key ideas", "key ideas", Scope(chapters=("2", "4"))),
    ("chapters 2, 3, and 5 key ideas", "key ideas", Scope(chapters=("2", "3", "5"))),
    ("in chapter three, define entropy", "define entropy", Scope(chapters=("3",))),
    ("pages 40–60: what is a hypothesis", "what is a hypothesis", Scope(pages=("40", "60"))),
    ("pages 60-40 hypothesis", "hypothesis", Scope(pages=("40", "60"))),
    ("what does p. 12 say about sleep?", "what does say about sleep?", Scope(pages=("12", "12"))),
    ("pp. 40-45 summarize", "summarize", Scope(pages=("40", "45"))),
    ("on page 7, what is a cell?", "what is a cell?", Scope(pages=("7", "7"))),
    ("what is on page xii", "what is", Scope(pages=("xii", "xii"))),
    ("section 2.3: hypothesis", "hypothesis", Scope(sections=("2.3",))),
    ("in section 2.3 what is a hypothesis?", "what is a hypothesis?", Scope(sections=("2.3",))),
    ("in 2.3, what is a hypothesis?", "what is a hypothesis?", Scope(sections=("2.3",))),
    ("sec. 4.1 and 4.2 key terms", "key terms", Scope(sections=("4.1", "4.2"))),
    ("§2.3 what is a theory", "what is a theory", Scope(sections=("2.3",))),
    ("in appendix B what is listed", "what is listed", Scope(chapters=("B",))),
    ("chapter 2, pages 40–45: what is a survey?", "what is a survey?",
     Scope(chapters=("2",), pages=("40", "45"))),
]


@pytest.mark.parametrize("question,cleaned,scope", SCOPES)
def test_scope(question: str, cleaned: str, scope: Scope):
    assert parse_scope(question) == (cleaned, scope)


@pytest.mark.parametrize("question", [
    "What is the pH in 2.3 M HCl?",  # a concentration, not section 2.3
    "Give me an exercise like 3.14",  # an exercise number, not a section
    "What is shown in figure 2.3?",
    "Using the data in Appendix G, determine the enthalpy change.",  # a resource, not a restriction
    "What is the value at 30 °C? (See Appendix E.)",
    "Using the table on page 12, compute the yield.",
    "the page did not load",
    "In the appendix, what is a table?",
    "chapter and verse",
    "How many moles of CH 4 burn?",
])
def test_no_scope(question: str):
    cleaned, scope = parse_scope(question)
    assert scope.is_empty and cleaned == question


def test_scope_helpers():
    scope = Scope(chapters=("4",), sections=("2.3",))
    assert scope.chapter_filter() == ("4", "2")
    assert scope.matches(make_chunk(1, section="2.3.1", chapter="2"))
    assert scope.matches(make_chunk(2, section="4.1", chapter="4"))
    assert not scope.matches(make_chunk(3, section="2.30", chapter="2"))
    assert Scope().matches(make_chunk(4)) and Scope().is_empty
    assert roman_to_int("xiv") == 14 and roman_to_int("12") is None


def test_printed_to_physical():
    labels = {1: "i", 2: "ii", 3: "iii", 4: "1", 5: "2", 6: "3", 7: "", 8: "5", 9: "6"}
    assert printed_to_physical(labels, "1", "3") == (4, 6)
    assert printed_to_physical(labels, 2) == (5, 5)
    assert printed_to_physical(labels, "ii", "iii") == (2, 3)
    assert printed_to_physical(labels, "4", "5") == (8, 8)  # page "4" is unlabelled: nearest numbered pages
    assert printed_to_physical(labels, "3", "4") == (6, 6)
    assert printed_to_physical(labels, "40", "60") is None  # beyond the book
    assert printed_to_physical({}, "7", "3") == (3, 7)  # no labels at all: physical numbers
    assert printed_to_physical({1: "1", 2: "2"}, "x") is None
