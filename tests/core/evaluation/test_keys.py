"""Key-term recall of free-form answers."""
from __future__ import annotations

import json

from core.evaluation.keys import key_term_recall, load_keys


def test_recall_needs_every_term_and_accepts_alternatives_and_inflections():
    assert key_term_recall("Public goods are open to all.", [["public goods", "public good"]]) == 1.0
    assert key_term_recall("It freezes because water ...", [["water"], ["freeze", "ice"]]) == 1.0
    assert key_term_recall("Water boils.", [["water"], ["freeze", "ice"]]) == 0.5
    assert key_term_recall("anything", []) == 0.0


def test_negation_and_symbols_are_kept():
    keys = [["does not compile", "doesn't compile", "compiler error"]]
    assert key_term_recall("This program doesn't compile.", keys) == 1.0
    assert key_term_recall("This program does compile and prints 3.", keys) == 0.0
    assert key_term_recall("Add #[test] above the function.", [["#[test]"]]) == 1.0


def test_load_keys(tmp_path):
    path = tmp_path / "keys.jsonl"
    path.write_text(json.dumps({"qid": "q1", "key_terms": [["a", "b"]], "why": "x"}) + "\n", encoding="utf-8")
    assert load_keys(path)["q1"].key_terms == (("a", "b"),)


def test_an_answer_in_another_language_holds_the_term_in_that_language_or_in_english():
    assert key_term_recall("as questões eram tratadas por filósofos [10].", [["filosofia", "philosophy"]], "pt") == 1.0
    assert key_term_recall("traitées par des philosophes.", [["philosophie", "philosophy"]], "fr") == 1.0
    assert key_term_recall("由从事哲学的人来探讨的。", [["哲学", "philosophy"]], "zh") == 1.0
    assert key_term_recall("Das heißt shaping.", [["formung", "shaping"]], "de") == 1.0
    assert key_term_recall("El programa compila.", [["no compila", "does not compile"]], "es") == 0.0
    assert key_term_recall("Los filósofos.", [["filosofía"], ["psicología"]], "es") == 0.5
