"""Citation markers, sentence attribution and supporting quotes (pure functions)."""
from __future__ import annotations

import numpy as np
import pytest

from core.answer.markers import MarkerFilter, keep_valid_citations, parse_citations, strip_citations
from core.answer.attribution import (Attributed, SourceSentence, Support, attribute, best_quotes, drop_orphans,
                                     quote_penalty, render, short_quote, split_answer)

PASSAGES = {
    1: "Photosynthesis turns light energy into chemical energy. It happens in the chloroplasts of plant cells.",
    2: "Mitochondria release energy from glucose during cellular respiration. They are called the powerhouse.",
}
CANDIDATES = [SourceSentence(1, "Photosynthesis turns light energy into chemical energy."),
              SourceSentence(1, "It happens in the chloroplasts of plant cells."),
              SourceSentence(2, "Mitochondria release energy from glucose during cellular respiration."),
              SourceSentence(2, "They are called the powerhouse.")]


@pytest.mark.parametrize("text, expected", [
    ("Energy is conserved [1]. Work is done [2][3].", [1, 2, 3]),
    ("See [2, 1] and [1-3].", [2, 1, 3]),
    ("No markers here, but code a[0] and m[1][2].", []),
    ("Repeated [4] [4].", [4]),
])
def test_parse_citations(text, expected):
    assert parse_citations(text) == expected


def test_invalid_markers_are_removed_valid_ones_kept():
    assert keep_valid_citations("A [1]. B [7]. C [2, 9].", {1, 2}) == "A [1]. B. C [2]."
    assert strip_citations("Plants grow [1][2].") == "Plants grow."


def test_marker_filter_streams_across_pieces():
    f = MarkerFilter({1, 2})
    pieces = ["Plants", " grow", " [", "1", "]", " and", " [", "9", "] rest [", "not a marker", "] end", " x["]
    out = "".join(f.feed(p) for p in pieces) + f.flush()
    assert out == "Plants grow [1] and rest [not a marker] end x["


def test_brackets_inside_code_are_never_markers():
    text = "The error is in `let a = [5; 10];` [1]. Then:\n```\nlet v = [0, 1];\nx[2]\n```\nDone [2]."
    assert keep_valid_citations(text, {1, 2}) == text
    assert parse_citations(text) == [1, 2]
    assert strip_citations(text) == "The error is in `let a = [5; 10];`. Then:\n```\nlet v = [0, 1];\nx[2]\n```\nDone."
    pieces = ["The error is in `let a = ", "[", "5; 10", "];` [", "1", "]. Then:\n```\nlet v =", " [0, 1];\n", "```",
              "\nDone [9]."]
    f = MarkerFilter({1, 2})
    out = "".join(f.feed(p) for p in pieces) + f.flush()
    assert out == "The error is in `let a = [5; 10];` [1]. Then:\n```\nlet v = [0, 1];\n```\nDone."


def test_split_answer_attaches_trailing_markers_to_their_sentence():
    parts = split_answer("Light becomes chemical energy. [1] Mitochondria release it [2].\n\nIn short: energy moves.")
    assert [(p, s, c) for p, s, c in parts] == [
        (0, "Light becomes chemical energy.", (1,)), (0, "Mitochondria release it.", (2,)),
        (1, "In short: energy moves.", ())]


def test_split_answer_keeps_abbreviations_and_initials_inside_their_sentence():
    text = ("The U.S. Senate has 100 members [2]. It was Dr. Smith, e.g. in Washington, D.C. Today. "
            "B. F. Skinner studied rats. John F. Kennedy won. It is vitamin C. It helps.")
    assert [s for _, s, _ in split_answer(text)] == [
        "The U.S. Senate has 100 members.", "It was Dr. Smith, e.g. in Washington, D.C. Today.",
        "B. F. Skinner studied rats.", "John F. Kennedy won.", "It is vitamin C.", "It helps."]


def _sims(answer: list[str]) -> np.ndarray:
    """A toy similarity: 0.9 for the candidate sharing the most words, 0.1 elsewhere."""
    out = np.full((len(answer), len(CANDIDATES)), 0.1, dtype=np.float32)
    for i, a in enumerate(answer):
        words = set(a.lower().split())
        shared = [len(words & set(c.text.lower().split())) for c in CANDIDATES]
        if max(shared) >= 3:
            out[i, int(np.argmax(shared))] = 0.9
    return out


def test_attribution_cites_the_supporting_source_and_drops_inventions():
    answer = ("Photosynthesis turns light energy into chemical energy in plants [2]. "
              "Mitochondria release energy from glucose [2]. "
              "The moon orbits the earth every twenty eight days. Here is why:")
    sentences = split_answer(answer)
    result = attribute(sentences, PASSAGES, CANDIDATES, _sims([s for _, s, _ in sentences]))
    assert [a.support for a in result] == [Support.SUPPORTED, Support.SUPPORTED, Support.NONE, Support.CONNECTIVE]
    assert [a.source for a in result[:2]] == [1, 2]  # the model's wrong [2] on sentence 1 is corrected
    assert result[0].quote == "Photosynthesis turns light energy into chemical energy."
    text = render(result)
    assert text == ("Photosynthesis turns light energy into chemical energy in plants [1]. "
                    "Mitochondria release energy from glucose [2]. Here is why:")


def test_a_sentence_leaning_on_a_dropped_one_goes_with_it():
    kept = Attributed("It happens in the chloroplasts.", Support.SUPPORTED, 1, "It happens in the chloroplasts.", 0.9)
    dropped = Attributed("Kinetic energy is the capacity to do work.", Support.NONE, conflict="subject")
    result = drop_orphans([dropped, kept, Attributed("This is why plants are green.", Support.WEAK)])
    assert [a.support for a in result] == [Support.NONE, Support.NONE, Support.NONE]
    assert result[1].conflict == "leans on a dropped sentence" and result[1].source is None
    # a supported sentence before it, or another paragraph, or a sentence with its own subject: kept
    assert drop_orphans([kept, kept])[1].support is Support.SUPPORTED
    assert drop_orphans([dropped, Attributed(kept.text, Support.SUPPORTED, 1, paragraph=1)])[1].support \
        is Support.SUPPORTED
    assert drop_orphans([dropped, Attributed("Chloroplasts hold chlorophyll.", Support.SUPPORTED, 1)])[1].support \
        is Support.SUPPORTED


def test_lexical_only_attribution_without_an_embedder():
    sentences = split_answer("Chloroplasts in plant cells are where photosynthesis happens.")
    [a] = attribute(sentences, PASSAGES, CANDIDATES, None)
    assert a.support is Support.SUPPORTED and a.source == 1


def test_the_models_citation_wins_when_nearly_as_good():
    sentences = split_answer("Cells use energy [2].")
    sims = np.array([[0.50, 0.1, 0.46, 0.1]], dtype=np.float32)
    [a] = attribute(sentences, {1: "cells use energy", 2: "cells use energy"}, CANDIDATES, sims)
    assert a.source == 2


def test_beyond_the_book_paragraph_is_kept_and_not_judged():
    answer = "Photosynthesis turns light energy into chemical energy.\n\nBeyond the book: the sun is a star."
    sentences = split_answer(answer)
    result = attribute(sentences, PASSAGES, CANDIDATES, _sims([s for _, s, _ in sentences]), beyond_book=True)
    assert [a.support for a in result] == [Support.SUPPORTED, Support.BEYOND]
    assert render(result).endswith("Beyond the book: the sun is a star.")


def test_quotes_are_short_verbatim_and_prefer_real_sentences():
    long = "word " * 80 + "end."
    assert short_quote(long).endswith(" …") and len(short_quote(long)) <= 225
    assert short_quote("| A table cell sentence. |") == "A table cell sentence."
    assert quote_penalty("| a | b | c |") > quote_penalty("A full sentence about cells.")
    assert quote_penalty("2. calculate kinetic energy and use the work–energy theorem;") \
        > quote_penalty("calculate kinetic energy and use the work–energy theorem;") > quote_penalty("Cells divide.")
    quotes = best_quotes("What do mitochondria release?", CANDIDATES, None)
    assert quotes[2][0] == "Mitochondria release energy from glucose during cellular respiration."
    assert set(quotes) == {1, 2}


def test_echoed_source_tags_never_reach_the_student():
    from core.answer.markers import MarkerFilter, strip_source_tags
    f = MarkerFilter({1})
    streamed = "".join(f.feed(p) for p in ["Energy is kept", " in road safety. [", "/sou", "rce] [1]", " Next."])
    streamed += f.flush()
    assert "source" not in streamed and "[1]" in streamed and "Next." in streamed  # the final text also drops <source>
    assert strip_source_tags('Work is force times distance. [/source] <source n="2">More</source>') == \
        "Work is force times distance. More"


def test_an_unrequested_beyond_the_book_paragraph_is_dropped_and_repeats_are_kept_once():
    from core.answer.attribution import Support, attribute, render, split_answer
    passages = {1: "Kinetic energy is a scalar measured in joules. It is never negative."}
    text = ("Kinetic energy is a scalar measured in joules [1]. It is never negative [1].\n\n"
            "Beyond the book: Kinetic energy is a scalar measured in joules [1].")
    cands = [SourceSentence(1, "Kinetic energy is a scalar measured in joules."), SourceSentence(1, "It is never negative.")]
    out = attribute(split_answer(text), passages, cands, None)
    assert [a.support for a in out][-1] is Support.NONE
    rendered = render(out)
    assert "Beyond the book" not in rendered and rendered.count("measured in joules") == 1
    asked = attribute(split_answer(text), passages, cands, None, beyond_book=True)
    assert asked[-1].support is Support.BEYOND and "Beyond the book" in render(asked)


def test_complete_sentences_keeps_whole_sentences_and_their_markers():
    from core.answer.attribution import complete_sentences
    assert complete_sentences("Energy is the capacity to do work [1]. Kinetic energy is the ener") == \
        "Energy is the capacity to do work [1]."
    assert complete_sentences("It moves. [2] It stops when") == "It moves. [2]"
    assert complete_sentences("no sentence end here") == "no sentence end here"


def test_a_sentence_about_the_students_own_program_is_kept_uncited():
    from core.answer.attribution import Support, attribute
    question = "Does this compile?\n```\nfn shortest(x: &str, y: &str) -> &str { if x.len() < y.len() { x } else { y } }\n```"
    sentences = [(0, "The shortest function compares x.len() with y.len() and returns x or y.", ())]
    passages = {1: "Lifetimes ensure that references are valid as long as we need them to be."}
    cands = [SourceSentence(1, passages[1])]
    kept = attribute(sentences, passages, cands, None, question=question)
    assert kept[0].support is Support.CONNECTIVE and kept[0].source is None
    dropped = attribute(sentences, passages, cands, None, question="Does this compile?")
    assert dropped[0].support is not Support.CONNECTIVE
