"""The answer as the student sees it: citation chips, and sentences no source supports visibly flagged."""
from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QPalette

from core.answer.attribution import ABOUT_CODE_LABEL, UNSUPPORTED_LABEL
from core.models import Answer
from desktop.conversations import CiteRecord, Turn
from desktop.transcript import turn_html
from tests.waiting import HANG_GUARD_S


def test_an_unsupported_sentence_is_greyed_and_labelled_and_a_cited_one_is_not(qapp):
    turn = Turn("What is kinetic energy?", sources=[CiteRecord(1, "b", 10, 10, "10")])
    turn.finish(Answer(question=turn.question, text="Kinetic energy is a scalar [1]. It is the best kind of energy.",
                       citations=(), unsupported=("It is the best kind of energy.",)))
    html = turn_html(turn, 0, QPalette())
    assert f"It is the best kind of energy. <i>({UNSUPPORTED_LABEL})</i>" in html
    assert html.count(UNSUPPORTED_LABEL) == 1 and "cite:0:1" in html
    assert html.index("Kinetic energy is a scalar") < html.index("cite:0:1") < html.index(UNSUPPORTED_LABEL)


def test_a_written_answer_says_it_is_being_checked_until_its_checked_form_arrives(qapp):
    turn = Turn("What is kinetic energy?", answer="Kinetic energy is the energy of motion.", checking=True)
    assert "Checking each sentence against your book" in turn_html(turn, 0, QPalette())
    turn.finish(Answer(question=turn.question, text="Kinetic energy is the energy of motion.", citations=()))
    turn.state = "done"
    assert not turn.checking and "Checking each sentence" not in turn_html(turn, 0, QPalette())


def test_a_greyed_sentence_about_the_students_program_says_so(qapp):
    turn = Turn("Does this compile?\n```\nfn main() {}\n```")
    turn.finish(Answer(question=turn.question, text="Yes, this program compiles. Rust has no null.", citations=(),
                       unsupported=("Yes, this program compiles.", "Rust has no null."),
                       about_code=("Yes, this program compiles.",)))
    html = turn_html(turn, 0, QPalette())
    assert f"Yes, this program compiles. <i>({ABOUT_CODE_LABEL})</i>" in html
    assert f"Rust has no null. <i>({UNSUPPORTED_LABEL})</i>" in html


def test_muted_text_is_visibly_lighter_than_the_text_in_light_and_dark_palettes(qapp):
    from PySide6.QtGui import QColor
    from desktop.transcript import muted_color
    for text, base in (("#000000", "#ffffff"), ("#eeeeee", "#202020")):
        palette = QPalette()
        palette.setColor(QPalette.ColorRole.Text, QColor(text))
        palette.setColor(QPalette.ColorRole.Base, QColor(base))
        muted = QColor(muted_color(palette))
        assert abs(muted.lightness() - QColor(text).lightness()) >= 80
        assert abs(muted.lightness() - QColor(base).lightness()) >= 80


def test_the_reason_an_answer_is_the_books_own_words_is_shown(qapp):
    turn = Turn(question="What is energy?")
    notice = "The model's answer could not be matched to your book, so these are the book's own words."
    turn.finish(Answer(question="What is energy?", text="\u201cEnergy is the capacity to do work.\u201d [1]",
                       citations=(), notice=notice))
    html = turn_html(turn, 0, QPalette())
    assert "could not be matched to your book" in html and "no chat model is loaded" not in html


def test_the_from_the_book_line_is_not_repeated_when_the_answer_quotes_that_sentence(qapp):
    definition = "The kinetic energy of an object is Ek = ½mv²"
    turn = Turn("What is kinetic energy?", sources=[CiteRecord(1, "b", 10, 10, "10", quote=definition)])
    turn.preview = turn.sources[0]
    turn.state = "streaming"
    assert "From the book:" in turn_html(turn, 0, QPalette())  # shown while the model writes
    turn.finish(Answer(question=turn.question, text=f"\u201c{definition}\u201d [1]", citations=(),
                       notice="The model's answer could not be matched to your book, so these are the book's own words."))
    turn.state = "done"
    html = turn_html(turn, 0, QPalette())
    assert "From the book:" not in html and definition in html


def test_a_cited_figure_chip_names_the_figure(qapp):
    figure = CiteRecord(1, "b", 332, 332, "316", figure="Figure 15.1", frame=(105.0, 120.0, 450.0, 348.0))
    turn = Turn("What does Figure 15.1 show?", sources=[figure, CiteRecord(2, "b", 333, 333, "317")])
    turn.finish(Answer(question=turn.question, text="It shows a sine curve [1]. Plots take options [2].",
                       citations=()))
    html = turn_html(turn, 0, QPalette())
    assert "1 · Figure&nbsp;15.1, p.&nbsp;316" in html and "2 · p.&nbsp;317" in html


def test_a_translated_answer_greys_in_the_students_language_and_keeps_the_english_at_hand(qapp):
    turn = Turn("¿Qué es la energía cinética?", sources=[CiteRecord(1, "b", 10, 10, "10")])
    turn.finish(Answer(question=turn.question, text="La energía cinética es un escalar [1]. Es la mejor energía.",
                       citations=(), unsupported=("Es la mejor energía.",), language="es",
                       original="Kinetic energy is a scalar [1]. It is the best kind of energy."))
    html = turn_html(turn, 0, QPalette())
    assert "Es la mejor energía. <i>(no está en tu libro)</i>" in html and UNSUPPORTED_LABEL not in html
    assert "Translated into Spanish" in html and "<i>In English:</i> Kinetic energy is a scalar [1]." in html
    assert "cite:0:1" in html


def test_an_english_question_about_a_french_book_keeps_the_french_answer_it_was_checked_against(qapp):
    turn = Turn("What size does ls -l show for a FIFO?", sources=[CiteRecord(1, "b", 42, 42, "14")])
    turn.finish(Answer(question=turn.question, text="Its size is always zero [1].", citations=(), language="en",
                       original="Sa taille est toujours nulle [1].", original_language="fr"))
    html = turn_html(turn, 0, QPalette())
    assert "Translated into English from the French answer" in html
    assert "<i>In French:</i> Sa taille est toujours nulle [1]." in html


def test_an_answer_in_the_books_own_language_is_not_called_a_translation(qapp):
    turn = Turn("Quelle taille affiche ls -l pour un FIFO ?", sources=[CiteRecord(1, "b", 42, 42, "14")])
    turn.finish(Answer(question=turn.question, text="Sa taille est toujours nulle [1]. Elle est bleue.",
                       citations=(), unsupported=("Elle est bleue.",), language="fr"))
    html = turn_html(turn, 0, QPalette())
    assert "Elle est bleue. <i>(absent de ton livre)</i>" in html and "Translated" not in html


def test_the_quotes_of_a_translated_answer_are_translated_on_request(qtbot, window, fake_asker):
    asked = []

    def translate_quotes(quotes, language, source):
        asked.append((list(quotes), language, source))
        return [f"«{q}» traduit" for q in quotes]
    fake_asker.translate_quotes = translate_quotes
    chat = window.chat
    chat.current = chat.store.new("Tubes")
    turn = Turn("What size does ls -l show for a FIFO?", sources=[
        CiteRecord(1, "b", 42, 42, "14", quote="La taille d’un tube est toujours nulle."),
        CiteRecord(2, "b", 43, 43, "15", quote="Jamais citée.")])
    turn.finish(Answer(question=turn.question, text="Its size is always zero [1].", citations=(), language="en",
                       original="Sa taille est toujours nulle [1].", original_language="fr"))
    chat.current.turns.append(turn)
    assert 'href="quotes:0:0"' in turn_html(turn, 0, QPalette())  # a link, not a translation nobody asked for
    chat._link_clicked(QUrl("quotes:0:0"))
    qtbot.waitUntil(lambda: bool(turn.quote_translations), timeout=HANG_GUARD_S * 1000)
    assert asked == [(["La taille d’un tube est toujours nulle."], "en", "fr")]  # only the quote a chip shows
    html = turn_html(turn, 0, QPalette())
    assert "[1] «La taille d’un tube est toujours nulle.» traduit" in html and "Jamais" not in html
    assert 'href="quotes:0:0"' not in html
