"""Stitching overlapping chunks and answer-in-passage checks."""
from __future__ import annotations

from core.study.text import contains_answer, content_words, normalize, round_robin, sentences, stitch, support
from tests.core.study.conftest import make_chunk


def test_stitch_removes_the_overlap_the_chunker_repeats():
    a = make_chunk(1, "Exercise 1.1. First question here?\n\nExercise 1.2. A car travels at 90 km/h. What is its speed")
    b = make_chunk(2, "What is its speed in m/s?\n\nExercise 1.3. Third.")  # no overlap with a's tail: plain join
    c = make_chunk(3, "Exercise 1.3. Third.\n\nExercise 1.4. Fourth one?")  # repeats b's tail
    runs = stitch([a, b, c])
    assert len(runs) == 1
    text = runs[0].text
    assert text.count("Exercise 1.3. Third.") == 1
    assert runs[0].chunk_at(text.index("Exercise 1.4")).id == 3
    assert runs[0].chunk_at(0).id == 1


def test_stitch_splits_at_section_changes_and_gaps():
    a = make_chunk(1, "One.", section_id=1)
    b = make_chunk(2, "Two.", section_id=2)
    c = make_chunk(4, "Four.", section_id=2)  # ordinal gap
    assert [len(r.spans) for r in stitch([a, b, c])] == [1, 1, 1]


def test_contains_answer_ignores_case_punctuation_and_spacing():
    passage = "Glial cells provide scaffolding on which the nervous system is built."
    assert contains_answer(passage, "Scaffolding")
    assert contains_answer(passage, "the  nervous system.")
    assert not contains_answer(passage, "neurons")
    assert not contains_answer(passage, "fold")  # whole words only
    assert not contains_answer(passage, "")


def test_support_needs_every_content_word_in_one_sentence():
    passage = "Neurons send signals. Glia support neurons and clean up debris."
    share, sentence = support(passage, "glia clean debris")
    assert share == 1.0 and sentence.startswith("Glia")
    assert support(passage, "glia send debris")[0] < 1.0


def test_helpers():
    assert normalize("The “Big”  **Bang** – theory") == 'the "big" bang - theory'
    assert content_words("The mass of the ball is 2.5 kg") == ["mass", "ball", "2.5", "kg"]
    assert sentences("One. Two? Three!\n\nFour") == ["One.", "Two?", "Three!", "Four"]


def test_a_full_stop_does_not_hide_the_last_word_but_decimals_stay():
    assert contains_answer("They are called neurotransmitters. Next.", "neurotransmitters")
    assert contains_answer("The density is 11.3 g/cm3.", "11.3 g/cm3")
    assert not contains_answer("The density is 11.3 g/cm3.", "11 g/cm3")


def test_round_robin_takes_one_from_each_group_in_turn():
    assert round_robin([["a1", "a2", "a3"], [], ["b1"], ["c1", "c2"]]) == ["a1", "b1", "c1", "a2", "c2", "a3"]
    assert round_robin([]) == []
