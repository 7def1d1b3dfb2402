"""The tutor's answer pipeline with a scripted model: events, citations, refusal, cancel, no model, follow-ups."""
from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from core.answer.preparation import AnswerSettings
from core.answer.tutor import Tutor, collect
from core.retrieval.coverage import Coverage, nearest_sections
from core.errors import ModelUnavailableError
from core.library import Library
from core.models import AnswerEventKind as K
from tests.fakes import FakeChatModel, FakeEmbedder

BOOK = """---
title: Tiny Biology
---

# Chapter 1: Cells

## 1.1 What Is a Cell?

A cell is the smallest unit of life. Every organism is made of one or more cells. Cells come from
other cells by division.

## 1.2 Membranes

The membrane controls what enters and leaves the cell. It is made of a double layer of lipids with
proteins that act as gates.

# Chapter 2: Energy

## 2.1 Photosynthesis

Photosynthesis turns light energy into chemical energy. It happens in the chloroplasts of plant
cells. Plants use the chemical energy to build sugars from carbon dioxide and water.

## 2.2 Respiration

Mitochondria release energy from glucose during cellular respiration. This energy is stored in ATP,
which cells spend to do work.
"""

GOOD = ("Photosynthesis turns light energy into chemical energy [1]. "
        "It happens in the chloroplasts of plant cells [7]. "
        "The moon is made of green cheese and orbits quickly.")


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    root = tmp_path_factory.mktemp("answer")
    path = root / "bio.md"
    path.write_text(BOOK, encoding="utf-8")
    with Library(root / "lib", embedder=FakeEmbedder()) as library:
        library.bio = library.import_book(path).book
        yield library


def covered(question, hits, **_):
    return Coverage(score=0.9, covered=bool(hits), nearest=nearest_sections(hits))


def not_covered(question, hits, **_):
    return Coverage(score=0.1, covered=False, nearest=nearest_sections(hits))


class WordsOnly:
    """An embedder that fails: attribution falls back to word overlap (the hashing fake is not semantic)."""

    def encode(self, texts):
        raise RuntimeError("no sentence embeddings in this test")


def tutor(lib, model, assess=covered, **settings) -> Tutor:
    return Tutor(lib, model, settings=AnswerSettings(**settings), assess=assess, embedder=WordsOnly())


def test_events_arrive_in_order_with_checked_citations(lib):
    model = FakeChatModel("Photosynthesis turns light energy into chemical energy [1]. "
                          "It happens in the chloroplasts of plant cells [99]. "
                          "The moon is made of green cheese and orbits quickly [2].")
    events = list(tutor(lib, model).ask("How does photosynthesis work?"))
    kinds = [e.kind for e in events]
    assert kinds[0] is K.SOURCES and kinds[-1] is K.DONE and set(kinds[1:-2]) == {K.TOKEN}
    assert kinds[-2] is K.CHECKING  # the answer is written: its sentences are being checked
    sources = events[0].sources
    assert sources and any(s.chunk.section_number == "2.1" for s in sources)
    assert all(s.quote == s.text for s in sources)  # each source is one evidence sentence, verbatim
    assert [s.n for s in sources] == list(range(1, len(sources) + 1))
    streamed = "".join(e.text for e in events if e.kind is K.TOKEN)
    assert "[99]" not in streamed  # a marker naming no evidence never reaches the screen
    answer = events[-1].answer
    assert not answer.refused and not answer.extractive and answer.model == "fake model"
    assert answer.unsupported == ("The moon is made of green cheese and orbits quickly.",)  # shown greyed
    by_n = {s.n: s for s in sources}
    assert answer.citations and all(c.quote == by_n[c.n].text for c in answer.citations)
    assert {c.quote for c in answer.citations} == {"Photosynthesis turns light energy into chemical energy.",
                                                     "It happens in the chloroplasts of plant cells."}
    assert all(c.section == "2.1" for c in answer.citations)
    assert "cheese and orbits quickly." in answer.text and "quickly [" not in answer.text  # greyed: uncited
    assert {"retrieval_ms", "sources_ms", "first_token_ms", "total_ms"} <= set(answer.timings)
    # fixed instructions first (prefix cache), then numbered evidence by section, then the question
    system, user = model.calls[0]
    assert system["role"] == "system" and "\n[1] " in user["content"] and "2.1 Photosynthesis, p." in user["content"]
    assert user["content"].rstrip().endswith("Question: How does photosynthesis work?")
    assert model.kwargs[0]["grammar"].startswith("root ::=")  # citations constrained to the given ids


def test_the_passage_reader_still_answers_with_whole_passages(lib):
    model = FakeChatModel(GOOD)
    events = list(tutor(lib, model, reader="passages").ask("How does photosynthesis work?"))
    sources = events[0].sources
    assert sources and sources[0].chunk.section_number == "2.1"
    assert all(s.quote and s.quote in " ".join(s.text.split()) for s in sources)  # verbatim quotes up front
    streamed = "".join(e.text for e in events if e.kind is K.TOKEN)
    assert "[7]" not in streamed and "[1]" in streamed  # a marker naming no source never reaches the screen
    answer = events[-1].answer
    assert "[7]" not in answer.text and "cheese" not in answer.text  # invented sentence dropped
    assert answer.dropped == ("The moon is made of green cheese and orbits quickly.",)
    [c] = answer.citations
    assert (c.n, c.chapter, c.section, c.section_title) == (1, "2", "2.1", "Photosynthesis")
    assert c.printed_page and c.page_start >= 1 and c.quote.startswith("Photosynthesis turns light")
    assert answer.text.count("[1]") == 2  # both supported sentences cite the source
    system, user = model.calls[0]
    assert system["role"] == "system" and "<source n=\"1\"" in user["content"]


def test_uncovered_question_is_declined_without_calling_the_model(lib):
    model = FakeChatModel(GOOD)
    answer = collect(tutor(lib, model, assess=not_covered).ask("Who won the 1998 world cup?"))
    assert answer.refused and not answer.citations and model.calls == []
    assert "doesn't seem to cover" in answer.text
    assert answer.nearest_sections and all("p." in s for s in answer.nearest_sections)


def test_beyond_the_book_answers_are_labelled(lib):
    model = FakeChatModel("Football is a sport played by two teams.")
    answer = collect(tutor(lib, model, assess=not_covered, beyond_book=True).ask("Who won the 1998 world cup?"))
    assert model.calls and answer.beyond_book and not answer.refused
    assert answer.text.startswith("Beyond the book")
    assert "go beyond the book" in model.calls[0][1]["content"]


def test_cancel_stops_the_stream_promptly(lib):
    model = FakeChatModel("word " * 500, delay=0.01)
    stop = threading.Event()
    events = []
    for ev in tutor(lib, model).ask("What is a cell?", cancel=stop.is_set):
        events.append(ev)
        if ev.kind is K.TOKEN and len(events) > 3:
            stop.set()
    assert all(e.kind is not K.DONE for e in events)  # promptly: counted in pieces, not seconds
    assert model.streams[0].produced < 10


def test_abandoning_the_generator_closes_the_model_stream(lib):
    model = FakeChatModel("word " * 500)
    gen = tutor(lib, model).ask("What is a cell?")
    assert next(gen).kind is K.SOURCES
    assert next(gen).kind is K.TOKEN
    gen.close()
    assert model.streams[0].closed


@pytest.mark.parametrize("error_at", ["path", "stream"])
def test_without_a_model_the_answer_is_extractive_with_a_notice(lib, error_at):
    err = ModelUnavailableError("The chat model file is missing.")
    model = FakeChatModel(GOOD, error=err, error_at=error_at)
    events = list(tutor(lib, model).ask("Where does photosynthesis happen?"))
    assert [e.kind for e in events][0] is K.SOURCES and events[-1].kind is K.DONE
    answer = events[-1].answer
    assert answer.extractive and not answer.refused
    assert "missing" in answer.notice
    assert answer.citations and all(c.quote for c in answer.citations)
    assert "Photosynthesis" in answer.text
    assert all(f"[{c.n}]" in answer.text for c in answer.citations)


def test_followups_are_rewritten_and_the_conversation_persists(lib):
    model = FakeChatModel(GOOD)
    t = tutor(lib, model)
    cid = t.start_conversation("Photosynthesis", lib.bio.id)
    first = collect(t.ask("What is photosynthesis?", conversation_id=cid))
    second = collect(t.ask("give another example", conversation_id=cid))
    assert first.search_question == "What is photosynthesis?"
    assert second.search_question == "Give another example of photosynthesis."
    conv = lib.load_conversation(cid)
    assert [tn.question for tn in conv.turns] == ["What is photosynthesis?", "give another example"]
    assert conv.turns[1].search_question == second.search_question
    assert conv.turns[0].citations == first.citations  # citations round-trip through SQLite


def test_an_answer_no_evidence_sentence_carries_is_declined(lib):
    model = FakeChatModel("Volcanoes erupt molten rock across distant oceans regularly.")
    answer = collect(tutor(lib, model).ask("Where does photosynthesis happen?"))
    assert answer.refused and not answer.citations and "Volcanoes" not in answer.text
    # Not "your book doesn't cover this": the evidence may have missed the sentence that answers it.
    assert "couldn't write an answer that your book's sentences state" in answer.text and answer.nearest_sections
    assert "doesn't seem to cover" not in answer.text
    assert answer.dropped == ("Volcanoes erupt molten rock across distant oceans regularly.",)  # for a benchmark


def test_a_term_the_book_defines_is_answered_in_the_books_words_when_the_model_is_not_carried(lib):
    model = FakeChatModel("Volcanoes erupt molten rock across distant oceans regularly.")
    answer = collect(tutor(lib, model).ask("What is a cell?"))
    assert not answer.refused and "Volcanoes" not in answer.text
    assert "A cell is the smallest unit of life." in answer.text and "book's own words" in answer.notice
    assert [c.quote for c in answer.citations] == ["A cell is the smallest unit of life."]
    assert answer.model  # written for the model's turn, not a model failure


def test_the_definition_of_a_broader_term_does_not_stop_a_decline(lib):
    # "A cell is …" does not say what a plant cell is: the book may not answer this.
    model = FakeChatModel("Volcanoes erupt molten rock across distant oceans regularly.")
    answer = collect(tutor(lib, model).ask("What is a plant cell?"))
    assert answer.refused and not answer.citations


def test_an_answer_whose_words_the_book_carries_but_not_its_reason_is_shown_greyed_not_declined(lib):
    model = FakeChatModel("Mitochondria release energy from glucose because of cellular respiration.")
    answer = collect(tutor(lib, model).ask("What do mitochondria release from glucose?"))
    assert not answer.refused and not answer.citations
    assert answer.unsupported == ("Mitochondria release energy from glucose because of cellular respiration.",)


def covered_but_unused(question, hits, **_):
    return Coverage(score=0.9, covered=True, nearest=nearest_sections(hits), unused_words=("glowworms",))


def test_an_answer_resting_only_on_a_word_the_book_never_uses_is_declined_naming_it(lib):
    model = FakeChatModel("Glowworms turn light energy into chemical energy [1].")
    answer = collect(tutor(lib, model, assess=covered_but_unused).ask("Do glowworms turn light into energy?"))
    assert answer.refused and not answer.citations
    assert answer.text.startswith("Your book never mentions \u201cglowworms\u201d") and answer.nearest_sections
    assert answer.dropped == ("Glowworms turn light energy into chemical energy.",)


def test_a_sentence_using_a_word_the_book_never_uses_is_greyed_beside_one_the_book_states(lib):
    model = FakeChatModel("Glowworms turn light energy into chemical energy [1]. "
                          "Photosynthesis turns light energy into chemical energy [1].")
    answer = collect(tutor(lib, model, assess=covered_but_unused).ask("Do glowworms turn light into energy?"))
    assert not answer.refused and len(answer.citations) == 1
    assert answer.unsupported == ("Glowworms turn light energy into chemical energy.",)


def test_what_it_says_of_a_pasted_program_is_shown_greyed_not_declined(lib):
    question = "Does this program print the energy?\n```\nfn main() {\n    let energy = 5;\n}\n```"
    model = FakeChatModel("Yes, this program prints 5 because energy is bound to 5.")
    answer = collect(tutor(lib, model).ask(question))
    assert not answer.refused and "prints 5" in answer.text
    assert answer.unsupported == answer.about_code == ("Yes, this program prints 5 because energy is bound to 5.",)
    assert not answer.citations


def test_passage_reader_falls_back_to_the_books_words_when_retrieval_is_sure(lib):
    model = FakeChatModel("Volcanoes erupt molten rock across distant oceans regularly.")
    answer = collect(tutor(lib, model, reader="passages").ask("Where does photosynthesis happen?"))
    assert answer.citations and "book's own words" in answer.notice
    assert "Volcanoes" not in answer.text


def test_prewarm_evaluates_the_fixed_instructions(lib):
    model = FakeChatModel(GOOD)
    t = tutor(lib, model)
    assert t.prewarm().result() > 0
    assert model.prewarmed[0][0]["role"] == "system"
    assert FakeChatModel(error=ModelUnavailableError("x")).model_path  # (fake sanity)
    assert tutor(lib, FakeChatModel(error=ModelUnavailableError("gone"))).prewarm() is None


def test_tutor_fits_the_desktop_asker_protocol(lib):
    from desktop.protocols import Asker
    assert isinstance(tutor(lib, FakeChatModel(GOOD)), Asker)


def test_the_answer_path_runs_with_sockets_blocked(lib):
    # conftest blocks the network for the whole suite: prove it is active around a full answer
    with pytest.raises(RuntimeError, match="network|DNS"):
        socket.create_connection(("192.0.2.1", 80), timeout=0.1)
    assert collect(tutor(lib, FakeChatModel(GOOD)).ask("What is a cell?")).text


def test_missing_model_file_through_the_real_local_model(lib, tmp_path: Path):
    answer = collect(Tutor(lib, str(tmp_path / "nope.gguf"), assess=covered).ask("What is a membrane?"))
    assert answer.extractive and answer.notice and answer.citations


def test_an_unrequested_beyond_the_book_paragraph_never_streams():
    from core.answer.markers import ParagraphGate
    gate = ParagraphGate("Beyond the book:")
    pieces = ["Energy is ", "the capacity [1].", "\n\n", "Bey", "ond the", " book: it is also", " heat."]
    assert "".join(gate.feed(p) for p in pieces) + gate.flush() == "Energy is the capacity [1].\n\n"
    gate = ParagraphGate("Beyond the book:")
    assert "".join(gate.feed(p) for p in ["B", "ecause it moves.\n\nBe", "sides, it"]) + gate.flush() == \
        "Because it moves.\n\nBesides, it"


def test_a_term_the_book_never_mentions_is_named_in_the_refusal(lib):
    from core.retrieval.coverage import assess
    t = tutor(lib, FakeChatModel(GOOD), assess=lambda q, hits, absence=None, **_: assess(q, hits, absence=absence,
                                                                                   threshold=0.99))
    missing = t.absence("How does the Calvin cycle relate to the `rubisco::fix()` routine?")
    assert [term.text for term in missing.terms] == ["rubisco::fix()", "Calvin"]
    answer = collect(t.ask("How does the Calvin cycle relate to the `rubisco::fix()` routine?"))
    assert answer.refused and "never mentions \u201crubisco::fix()\u201d" in answer.text
    present = t.absence("What does the membrane control in a cell?")
    assert not present.terms and not present.words


def test_a_misspelled_or_hyphenated_word_is_not_an_absent_term(lib):
    t = tutor(lib, FakeChatModel(GOOD))
    assert lib.mentions_loosely("photosynthasis", book_id=lib.bio.id)  # one letter off a book word
    assert lib.mentions_loosely("Mitochondira", book_id=lib.bio.id)  # two letters swapped
    assert not lib.mentions_loosely("Kardashev", book_id=lib.bio.id)
    assert not lib.mentions_loosely("photosynthesis", book_id=lib.bio.id)  # nothing misspelled: not this path
    assert lib.mentions_loosely("chloroplast-energy", book_id=lib.bio.id)  # a hyphenated term read as its parts
    assert not lib.mentions_loosely("chloroplast-style", book_id=lib.bio.id)  # "style" is not in the book
    typo = t.absence("Where does photosynthasis happen in a plant's chloroplast-energy parts?")
    assert "photosynthasis" not in typo.words and not typo.terms
    real = t.absence("How does the Kardashev scale rank civilisations?")
    assert [term.text for term in real.terms] == ["Kardashev"]


def test_edit_distance_counts_a_swap_as_one():
    from core.index.rows import edits, typo_budget
    assert edits("rythm", "rhythm") == 1 and edits("mitochondira", "mitochondria") == 1
    assert edits("cat", "dog") == 3 and edits("", "ab") == 2
    assert [typo_budget(w) for w in ("ion", "rythm", "reserchers")] == [0, 1, 2]



class Judging(FakeChatModel):
    """A scripted model that also gives odds (``option_logprobs``): a claim is true by the book's sentence when
    ``true`` is in it, never its denial."""

    def __init__(self, reply: str, true: str):
        super().__init__(reply)
        self.true = true
        self.judged: list[str] = []

    def option_logprobs(self, messages, options, *, prefix="", cancel=None):
        import math
        statement = messages[-1]["content"].split("Statement: ", 1)[1].split("\n", 1)[0]
        self.judged.append(statement)
        odds = 0.9 if self.true in statement and not statement.startswith("It is not true") else 0.1
        return {"true": math.log(odds), "false": math.log(1 - odds)}


def test_a_yes_the_model_finds_the_book_says_is_cited_even_with_chip_checks_off(lib):
    reply = "Yes, the membrane controls what enters and leaves the cell."
    model = Judging(reply, true="membrane")
    answer = collect(tutor(lib, model).ask("Does the membrane control what enters and leaves the cell?"))
    assert not answer.refused
    assert [c.quote for c in answer.citations] == ["The membrane controls what enters and leaves the cell."]
    assert model.judged[:2] == ["The membrane controls what enters and leaves the cell.",
                                "It is not true that the membrane controls what enters and leaves the cell."]
    # The same words, and a model that finds the book's sentence does not make the claim true: not cited, and
    # nothing else in the answer bears on the question.
    assert collect(tutor(lib, Judging(reply, true="mitochondria")).ask(
        "Does the membrane control what enters and leaves the cell?")).refused
