"""Practice items from the book: splitting, answer keys, "like 3.14", checking and cited feedback."""
from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.errors import LanternError
from core.models import ChunkRole
from core.study.models import ExerciseKind, Verdict
from core.study.checking import check_answer
from core.study.practice import (exercises_by_chapter, exercises_like, feedback, find_exercise,
                                 find_exercises)
from tests.core.study.conftest import ScriptedJsonModel, make_chunk

EX = ChunkRole.EXERCISE


def test_numbered_exercises_are_split_even_across_chunks_and_keyed_from_the_answer_section():
    chunks = [
        make_chunk(1, "Exercise 2.1. What net force gives a 0.50 kg ball 8.0 m/s^2?\n\n"
                      "Exercise 2.2. A 70 kg person stands on a scale. What is the person's weight", role=EX,
                   chapter="2", section="2.4", section_id=5),
        make_chunk(2, "What is the person's weight in newtons?\n\nExercise 2.3. Explain inertia.", role=EX,
                   chapter="2", section="2.4", section_id=5),
        make_chunk(3, "Exercise 2.1. F = m a = 4.0 N.\n\nExercise 2.3. Objects keep moving.", role=EX,
                   chapter="A", section="A.2", section_id=9, section_title="Answers for Chapter 2",
                   chapter_title="Answers to Selected Exercises"),
    ]
    found = find_exercises(chunks)
    assert [e.label for e in found] == ["2.1", "2.2", "2.3"]
    assert found[1].text.endswith("in newtons?")  # rebuilt across the chunk boundary
    assert found[0].answer == "F = m a = 4.0 N." and found[0].answer_source.chunk_id == 3
    assert found[1].answer is None
    assert found[2].source.chunk_id == 2 and found[2].kind is ExerciseKind.EXERCISE
    assert exercises_by_chapter(found) == {"2": 3}  # the answer key is not practice


def test_check_your_learning_items_keep_their_printed_answer():
    text = ("Example of a worked problem.\n\nCheck Your Learning\n\nWhat is the mass of 0.443 mol of hydrazine?\n\n"
            "Answer:\n\n14.2 g\n\nThe Mole\n\nMore text.")
    found = find_exercises([make_chunk(1, text, chapter="3", section="3.1",
                                       chapter_title="Composition of Substances and Solutions")])
    assert len(found) == 1
    e = found[0]
    assert e.kind is ExerciseKind.CHECK and e.answer == "14.2 g" and e.label == "3.1#1"
    assert e.text == "What is the mass of 0.443 mol of hydrazine?"


def test_plain_numbered_review_questions_under_an_exercise_heading():
    text = "1. Which lobe processes vision?\n a. frontal\n b. occipital\n\n2. What does the cerebellum do?"
    found = find_exercises([make_chunk(1, text, role=EX)])
    assert [e.number for e in found] == ["1", "2"]
    assert "b. occipital" in found[0].text


def test_a_chapter_titled_solutions_is_not_an_answer_key():
    chunk = make_chunk(1, "Exercise 11.1. Define a colloid.", role=EX, chapter="11",
                       chapter_title="Solutions and Colloids", section_title="Colloids")
    assert [e.label for e in find_exercises([chunk])] == ["11.1"]


def test_sample_book_practice_set_and_like(sample):
    lib, book_id = sample
    found = find_exercises(lib.study_chunks(book_id))
    assert exercises_by_chapter(found) == {"1": 5, "2": 5, "3": 5, "4": 5}
    assert all(e.answer for e in found)  # Appendix A answers every exercise
    target = find_exercise(found, "Exercise 3.3")
    like = exercises_like(found, target, k=2)
    assert len(like) == 2 and all(e.source.chapter == "3" and e.id != target.id for e in like)
    with pytest.raises(LanternError):
        find_exercise(found, "9.99")


@pytest.mark.parametrize("answer,verdict", [("25 m/s", Verdict.CORRECT), ("about 25.2 m/s", Verdict.CORRECT),
                                            ("30 m/s", Verdict.INCORRECT), ("", Verdict.INCORRECT)])
def test_check_answer_numbers(answer, verdict):
    assert check_answer("90 ÷ 3.6 = 25 m/s.", answer)[0] is verdict


def test_check_answer_words():
    key = "The pair act on different objects, so they do not cancel."
    assert check_answer(key, "they act on different objects so they don't cancel")[0] is Verdict.CORRECT
    assert check_answer(key, "friction")[0] is Verdict.INCORRECT


def test_extractive_feedback_cites_the_book(sample):
    lib, book_id = sample
    exercise = find_exercise(find_exercises(lib.study_chunks(book_id)), "1.3")
    fb = feedback(lib, exercise, "-3.0 m/s^2", model=None)
    assert fb.verdict is Verdict.CORRECT and fb.extractive
    assert fb.citations and all(c.chapter == "1" for c in fb.citations)
    assert all(c.quote in lib.chunks([c.chunk_id])[c.chunk_id].text for c in fb.citations if c.quote)
    assert not any(c.role is ChunkRole.EXERCISE for c in lib.chunks([c.chunk_id for c in fb.citations]).values())
    assert "[1]" in fb.text


def test_model_feedback_keeps_the_checked_verdict(sample):
    lib, book_id = sample
    exercise = find_exercise(find_exercises(lib.study_chunks(book_id)), "1.2")
    good = ScriptedJsonModel(chat_reply="Divide km/h by 3.6 to get m/s [1].")
    fb = feedback(lib, exercise, "30 m/s", model=good)
    assert fb.verdict is Verdict.INCORRECT and not fb.extractive and "3.6" in fb.text
    overruling = ScriptedJsonModel(chat_reply="Your answer is correct, well done!")
    fb = feedback(lib, exercise, "30 m/s", model=overruling)
    assert fb.extractive and "does not match" in fb.text


def test_cli_practice(sample, capsys):
    lib, book_id = sample
    root = str(lib.root)
    assert main(["--library", root, "practice", book_id, "--chapter", "2", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["label"] for i in items][:5] == ["2.1", "2.2", "2.3", "2.4", "2.5"]  # the book's own first
    assert all(i["kind"] != "exercise" and i["answer"] for i in items[5:]) and len(items) > 5
    assert set(items[0]["source"]) >= {"chunk_id", "section_title", "page_start", "printed_page"}
    assert main(["--library", root, "practice", book_id, "--like", "2.5", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    assert main(["--library", root, "practice", book_id, "--exercise", "2.1", "--answer", "4.0 N", "--no-model",
                 "--json"]) == 0
    fb = json.loads(capsys.readouterr().out)
    assert fb["verdict"] == "correct" and fb["citations"]
    assert lib.attempts(book_id)[-1]["kind"] == "practice"
    assert main(["--library", root, "practice", book_id, "--exercise", "2.1"]) == 2


def test_exam_scope_filters_practice_and_cards(sample, capsys):
    from core.cli.study import parse_chapters
    assert parse_chapters("3-5") == ("3", "4", "5") and parse_chapters("2, A,2") == ("2", "A")
    assert parse_chapters(None) is None
    lib, book_id = sample
    assert main(["--library", str(lib.root), "practice", book_id, "--chapter", "1-2", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert len([i for i in items if i["kind"] == "exercise"]) == 10
    assert {i["source"]["chapter"] for i in items} == {"1", "2"}
    assert main(["--library", str(lib.root), "cards", book_id, "--chapter", "3,4", "--json"]) == 0
    assert {c["source"]["chapter"] for c in json.loads(capsys.readouterr().out)} == {"3", "4"}
