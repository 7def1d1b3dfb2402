"""Follow-up questions rewritten with the previous turn before retrieval (pure functions)."""
from __future__ import annotations

import pytest

from core.answer.followup import is_followup, rewrite_followup, topic_of

PREV = "What is operant conditioning?"


@pytest.mark.parametrize("question, expected", [
    ("give another example", "Give another example of operant conditioning."),
    ("Can you give me more examples?", "Give another example of operant conditioning."),
    ("How does it work?", "How does operant conditioning work?"),
    ("Is that always true?", "Is operant conditioning always true?"),
    ("explain it more simply", "Explain operant conditioning more simply"),
    ("what about classical conditioning?", "What about classical conditioning, compared with operant conditioning?"),
])
def test_followups_name_the_previous_topic(question, expected):
    rw = rewrite_followup(question, PREV)
    assert rw.rewritten and rw.text == expected and rw.topic == "operant conditioning"


def test_why_keeps_the_whole_previous_question():
    rw = rewrite_followup("why?", PREV)
    assert rw.rewritten and PREV in rw.text and rw.text.startswith("Why?")


@pytest.mark.parametrize("question", [
    "What is a neuron?", "What does the hippocampus do?", "Why do people conform in groups?",
    "How is memory consolidated during sleep?",
])
def test_self_contained_questions_are_left_alone(question):
    assert not is_followup(question)
    assert rewrite_followup(question, PREV).text == question


def test_without_a_previous_turn_nothing_changes():
    assert rewrite_followup("why?", None).text == "why?"
    assert not rewrite_followup("why?", "").rewritten


@pytest.mark.parametrize("question, topic", [
    ("What is operant conditioning?", "operant conditioning"),
    ("How does memory consolidation work?", "memory consolidation"),
    ("Define entropy.", "entropy"),
    ("Explain the law of effect", "law of effect"),
])
def test_topic_of(question, topic):
    assert topic_of(question) == topic


def test_a_followup_of_a_followup_keeps_the_original_topic():
    first = rewrite_followup("give another example", PREV).text
    assert rewrite_followup("and another example", first).text == "Give another example of operant conditioning."
    why = rewrite_followup("why?", PREV).text
    assert rewrite_followup("how does it work?", why).text == "How does operant conditioning work?"
    assert rewrite_followup("why?", why).text == why


def test_blanks_become_questions_and_programs_keep_their_lines():
    from core.answer.followup import fill_blanks
    assert fill_blanks("Daily rhythms are called ________.") == "Daily rhythms are called what?"
    assert fill_blanks("________ cycles occur every 24 hours.") == "What cycles occur every 24 hours?"
    assert fill_blanks("No blank here.") == "No blank here."
    program = "What does this print?\n\n```\nfn main() {}\n```"
    assert rewrite_followup(program, None).text == program
