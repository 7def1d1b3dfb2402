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
