"""Model-free pieces of the tutor: refusal text, citations with the quote's page, extractive answers."""
from __future__ import annotations

from core.answer.attribution import build_citations, chunk_for_quote
from core.answer.replies import extractive_text, refusal_text, section_name, stream_words, unchecked
from core.answer.attribution import Attributed, Support
from core.models import AnswerEventKind, BookId, Chunk, ChunkId, ChunkRole, SectionId, Source


def chunk(cid: int, text: str, page: int, label: str) -> Chunk:
    return Chunk(id=ChunkId(cid), book_id=BookId("b"), section_id=SectionId(7), ordinal=cid, text=text,
                 role=ChunkRole.CONCEPT, page_start=page, page_end=page, printed_page_start=label,
                 printed_page_end=label, chapter_number="2", chapter_title="Energy", section_number="2.1",
                 section_title="Photosynthesis", token_count=10)


HIT = chunk(1, "Plants turn light into chemical energy.", 10, "8")
NEXT = chunk(2, "The chloroplast holds chlorophyll, which absorbs red and blue light.", 11, "9")
SOURCE = Source(n=1, chunk=HIT, text=HIT.text + " " + NEXT.text, label="Bio › Chapter 2 › 2.1 Photosynthesis, pp. 8–9")


def test_refusal_names_the_nearest_sections():
    text = refusal_text(["2.1 Photosynthesis, p. 8", "2.2 Respiration, p. 12"])
    assert "doesn't seem to cover" in text and "2.1 Photosynthesis, p. 8; 2.2 Respiration, p. 12" in text
    assert "beyond the book" in text
    assert "import a book" in refusal_text([], empty_library=True)
    assert section_name(HIT) == "2.1 Photosynthesis, p. 8"


def test_a_citation_shows_the_page_its_quote_is_on():
    assert chunk_for_quote(SOURCE, "The chloroplast holds chlorophyll, which absorbs red and blue light.",
                           [HIT, NEXT]) is NEXT
    assert chunk_for_quote(SOURCE, "Something else entirely.", [HIT, NEXT]) is HIT
    supported = [Attributed("a", Support.SUPPORTED, 1, "The chloroplast holds chlorophyll, which absorbs red and "
                            "blue light.", 0.7), Attributed("b", Support.SUPPORTED, 1, "Plants turn light", 0.5)]
    [c] = build_citations(supported, [SOURCE], [HIT, NEXT])
    assert (c.n, c.page_start, c.printed_page, c.section, c.chapter) == (1, 11, "9", "2.1", "2")
    assert c.quote.startswith("The chloroplast") and c.label == SOURCE.label and c.support == 0.7


def test_extractive_text_quotes_and_cites():
    text, supported = extractive_text([SOURCE], {1: ("Plants turn light into chemical energy.", 0.6)})
    assert text == "\u201cPlants turn light into chemical energy.\u201d [1]"
    assert supported[0].source == 1


def test_stream_words_stops_on_cancel():
    pieces = [e.text for e in stream_words("one two three", lambda: False)]
    assert "".join(pieces) == "one two three"
    assert all(e.kind is AnswerEventKind.TOKEN for e in stream_words("a b", lambda: False))
    assert list(stream_words("one two", lambda: True)) == []


def test_preview_is_the_best_quote_with_its_page():
    from core.answer.replies import preview_citation
    from core.models import Source
    a = Source(n=1, chunk=chunk(1, "Energy is the capacity to do work.", 10, "4"), text="Energy is the capacity to do work.",
               label="Book, p. 4")
    b = Source(n=2, chunk=chunk(2, "Work is force times distance.", 11, "5"), text="Work is force times distance.",
               label="Book, p. 5")
    c = preview_citation([a, b], {1: ("Energy is the capacity to do work.", 0.6), 2: ("Work is force times distance.", 0.3)})
    assert c is not None and c.n == 1 and c.printed_page == "4" and c.quote.startswith("Energy")
    assert preview_citation([a], {1: ("Energy is the capacity to do work.", 0.05)}) is None
    # the evidence sentence that defines the asked term is shown instead, whole
    d = preview_citation([a, b], {1: ("Energy is the capacity to do work.", 0.6)}, prefer=2)
    assert d is not None and d.n == 2 and d.quote == "Work is force times distance."


def test_the_model_saying_the_passages_do_not_answer_is_recognised():
    from core.answer.replies import says_not_covered
    assert says_not_covered("The textbook passages I found don't cover this.")
    assert says_not_covered("I cannot answer this from the provided text. It may be ...")
    assert not says_not_covered("Newton's law does not explain friction. The text says ...")
    assert not says_not_covered("Energy is the capacity to do work [1].")


def test_a_declined_answer_the_model_wrote_says_it_could_not_be_checked_not_that_the_book_lacks_it():
    assert unchecked(("Volcanoes erupt molten rock.",))
    assert not unchecked(("The passages do not cover this question.",)) and not unchecked(())
    text = refusal_text(["2.1 Plants, p. 4"], unchecked=True)
    assert text.startswith("I couldn't write an answer that your book's sentences state") and "2.1 Plants, p. 4" in text
    assert refusal_text([], unchecked=True, language="fr").startswith("Je n'ai pas pu")
    assert refusal_text([], unchecked=True, absent=["Stroop"]).startswith("Your book never mentions")


def test_a_decline_after_the_model_names_what_the_books_never_mention():
    from core.answer.replies import declined_answer
    from core.models import Answer
    from core.retrieval.coverage import Coverage
    base = Answer(question="How do I cross-compile for the Raspberry Pi?", text="", citations=())
    verdict = Coverage(score=0.8, covered=True, unused=("Raspberry Pi",))
    after = declined_answer(base, verdict, dropped=("Install the Raspberry Pi tools.",))
    assert after.text.startswith("Your book never mentions \u201cRaspberry Pi\u201d") and after.refused
    assert declined_answer(base, verdict).text.startswith("Your book doesn't seem to cover this")
