"""A figure or a table is a chunk of its own, and an answer cites it as "Figure 2.1, p. 12" with its frame."""
from __future__ import annotations

from core.answer.tutor import Tutor
from core.evaluation.answers import ask_once
from core.library import Library
from core.models import Turn
from tests.core.ingest.pdf.test_figures import _figure_and_table_pdf
from tests.fakes import FakeChatModel, FakeEmbedder


def test_an_answer_cites_the_figure_by_its_label_and_frame(tmp_path):
    pdf = _figure_and_table_pdf(tmp_path / "measure.pdf")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as lib:
        book = lib.import_book(pdf).book
        chunks = lib.chunks([h.chunk.id for h in lib.search("red square drawn to scale", 10, book_id=book.id)])
        figure = next(c for c in chunks.values() if c.label)
        assert figure.label == "Figure 2.1" and figure.text == "Figure 2.1 A red square drawn to scale."
        assert figure.frame is not None and figure.printed_page_start == "12"
        tutor = Tutor(lib, FakeChatModel("The figure shows a red square drawn to scale [1]."))
        answer, _ = ask_once(tutor, "What does the red square figure show?", book_id=book.id)
        cited = [c for c in answer.citations if c.chunk_id == figure.id]
        assert cited, answer
        assert cited[0].label.endswith("Figure 2.1, p. 12") and cited[0].frame == figure.frame
        assert cited[0].figure == "Figure 2.1"
        conv = lib.create_conversation("figures")
        lib.append_turn(conv.id, Turn("q", answer.text, citations=answer.citations))
        assert lib.load_conversation(conv.id).turns[0].citations == answer.citations  # the frame is kept


def test_a_table_is_kept_whole_in_one_chunk(tmp_path):
    pdf = _figure_and_table_pdf(tmp_path / "measure.pdf")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as lib:
        book = lib.import_book(pdf).book
        hits = lib.search("kilometre centimetre units of length", 10, book_id=book.id)
        tables = [h.chunk for h in hits if h.chunk.label == "Table 2.1"]
        assert len(tables) == 1
        assert "kilometre | km | 1000" in tables[0].text and "centimetre | cm | 0.01" in tables[0].text
        assert sum("kilometre" in h.chunk.text for h in hits) == 1


def test_a_question_that_names_a_figure_finds_it_first(tmp_path):
    pdf = _figure_and_table_pdf(tmp_path / "measure.pdf")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as lib:
        book = lib.import_book(pdf).book
        hits = lib.find("What does fig. 2.1 show?", k=3, book_id=book.id)
        assert hits[0].chunk.label == "Figure 2.1" and [h.rank for h in hits] == [1, 2, 3][:len(hits)]
        assert lib.find("What is in table 2.1?", k=3)[0].chunk.label == "Table 2.1"
        assert all(h.chunk.label != "Figure 9.9" for h in lib.find("What does Figure 9.9 show?", k=3))


def test_a_named_figure_outside_the_asked_scope_is_not_forced_in(tmp_path):
    pdf = _figure_and_table_pdf(tmp_path / "measure.pdf")
    with Library(tmp_path / "lib", embedder=FakeEmbedder()) as lib:
        book = lib.import_book(pdf).book
        assert lib.find("What does fig. 2.1 show?", k=3, book_id=book.id, pages=(1, 1))[0].chunk.label == "Figure 2.1"
        assert lib.find("What does fig. 2.1 show?", k=3, book_id=book.id, chapters=("9",)) == []
