"""Question-focused cuts: a long passage keeps the sentence nearest the question."""
from __future__ import annotations

from core.retrieval.focus import focused_cut, shifted_window


def words(text: str) -> int:  # one token per word
    return len(text.split())


def mentions_rem(sentence: str) -> float:
    return 1.0 if "REM" in sentence else 0.0


LONG = ("Sleep has several stages. Each stage has its own brain waves. Stage one is light sleep. "
        "Stage two has sleep spindles. Deep sleep follows stage two. "
        "REM sleep is when most dreaming happens. It is marked by rapid eye movements. The cycle then repeats.")


def test_the_window_moves_to_the_best_sentence_and_keeps_the_one_after_it():
    assert shifted_window([0, 0, 0, 1, 0, 0], [5] * 6, 15) == (2, 4)


def test_no_window_when_the_first_sentences_already_hold_the_best_one():
    assert shifted_window([0, 1, 0, 0], [5] * 4, 10) is None


def test_a_best_sentence_over_the_budget_alone_gives_no_window():
    assert shifted_window([0, 0, 1], [5, 5, 30], 20) is None


def test_the_window_ends_at_the_best_sentence_when_two_do_not_fit():
    assert shifted_window([0, 0, 0, 1, 0], [5, 5, 5, 8, 8], 14) == (2, 3)


def test_focused_cut_keeps_the_sentence_a_prefix_cut_would_lose():
    out = focused_cut(LONG, 22, words, mentions_rem)
    assert out is not None and "REM sleep is when most dreaming happens." in out
    assert out.startswith("…") and out.endswith("…") and words(out) <= 22
    assert "It is marked by rapid eye movements." in out  # what follows the best sentence explains it


def test_focused_cut_leaves_the_cut_to_the_caller_when_it_changes_nothing():
    assert focused_cut(LONG, 200, words, mentions_rem) is None  # fits whole
    assert focused_cut(LONG, 22, words, lambda s: 1.0 if "several" in s else 0.0) is None  # best is first
    assert focused_cut(LONG, 22, words, lambda s: 0.0) is None  # nothing relevant
