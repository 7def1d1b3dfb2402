"""The language a book is written in, and the Snowball stems its keyword index holds (core.ingest.language)."""
from __future__ import annotations

from core.ingest.language import ENGLISH, book_language, stems, words

FRENCH = ("La mobilité sociale désigne le passage d'un individu ou d'un groupe d'une position sociale à une autre "
          "au cours de sa vie ou d'une génération à l'autre.")
ENGLISH_TEXT = ("Social mobility refers to the movement of individuals or groups from one social position to "
                "another over a lifetime or from one generation to the next.")


def test_a_book_is_in_the_language_most_of_its_prose_is_written_in():
    assert book_language([FRENCH] * 5 + [ENGLISH_TEXT]) == "fr"  # an English quotation does not make it English
    assert book_language([ENGLISH_TEXT] * 3) == ENGLISH


def test_a_book_without_prose_is_taken_as_english():
    assert book_language([]) == ENGLISH
    assert book_language(["fn main() {}", "Chapitre 1"]) == ENGLISH  # too short to tell


def test_an_elided_article_or_pronoun_is_not_a_word_but_an_english_contraction_keeps_its_stem():
    assert words("L'économie qu'est-ce") == ["économie", "est", "ce"]
    assert words("don't") == ["don"]


def test_snowball_stems_join_what_porter_keeps_apart():
    assert stems("sociaux", "fr") == stems("social", "fr")
    assert stems("économiques", "fr") == stems("économie", "fr")
    assert stems("Häuser", "de") == stems("Haus", "de")
    assert stems("instalación", "es") == stems("instalar", "es")


def test_english_and_chinese_have_no_snowball_column():
    assert stems(ENGLISH_TEXT, ENGLISH) == "" and stems("社会流动", "zh") == ""
