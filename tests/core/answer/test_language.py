"""Which language a question is in, and the translation messages and replies around it (no model)."""
from __future__ import annotations

from core.answer.language import (ENGLISH, answer_messages, code_blocks, detect, numbered_lines, translated_question,
                                  prose, question_messages, untranslated)

BOOK_WORDS = {"what", "is", "social", "mobility", "define", "entropy", "the", "of", "a"}


def known(word: str) -> bool:
    return word.lower() in BOOK_WORDS


def test_a_question_in_another_language_is_detected():
    assert detect("¿Qué es la movilidad social?", known) == "es"
    assert detect("Qu'est-ce que la mobilité sociale ?", known) == "fr"
    assert detect("Was ist soziale Mobilität?", known) == "de"
    assert detect("O que é mobilidade social?", known) == "pt"
    assert detect("什么是社会流动？", known) == "zh"
    assert detect("What is social mobility?", known) == ENGLISH


def test_a_question_made_of_the_books_words_is_asked_in_the_books_language():
    # the detector alone takes "define entropy" for French; every word of it is the book's
    assert detect("define entropy", known) == ENGLISH
    assert detect("define entropy", lambda w: False) != "zh"
    assert detect("", known) == ENGLISH and detect("```\nfn main() {}\n```", known) == ENGLISH

def test_a_name_or_code_the_book_never_uses_does_not_make_a_question_foreign():
    rust = {"vec", "vs", "for", "a", "queue", "the", "ruling"}.__contains__
    assert detect("VecDeque vs Vec for a queue", lambda w: rust(w.lower())) == ENGLISH  # the detector says pt
    assert detect("INS v. Chadha ruling", lambda w: rust(w.lower())) == ENGLISH
    # an everyday word the book never uses still counts, capitalised at the start or not
    assert detect("Que signifie une réaction réversible ?", lambda w: w.lower() in {"une"}) == "fr"



def test_code_is_neither_language_nor_translated():
    question = "¿Por qué no compila? `x += 1`\n\n```\nfn main() {\n  let x = 1;\n}\n```"
    assert "fn main" not in prose(question) and "x += 1" not in prose(question)
    user = question_messages(question, "es")[-1]["content"]
    assert "`x += 1`" in user and "fn main" not in user  # inline code is part of the sentence; blocks are not
    assert code_blocks(question).startswith("```\nfn main()")
    english = translated_question(question, "English: Why does it not compile? `x += 1`\n(extra)")
    assert english.startswith("Why does it not compile? `x += 1`") and english.endswith("}\n```")


def test_the_answer_translation_is_asked_with_the_students_words():
    system, user = answer_messages(["Social mobility is movement between classes.", "It can go up."], "es",
                                   "¿Qué es la movilidad social?")
    assert "Spanish" in system["content"] and "movilidad social" in system["content"]
    assert user["content"] == "1. Social mobility is movement between classes.\n2. It can go up."


def test_numbered_replies_are_read_back_in_order_or_not_at_all():
    assert numbered_lines("1. Uno.\n2) Dos.\n", 2) == ["Uno.", "Dos."]
    assert numbered_lines("1、第一。\n2．第二。", 2) == ["第一。", "第二。"]
    assert numbered_lines("1. Uno.", 2) is None  # a lost sentence: the caller translates one by one
    assert numbered_lines("Uno solo.", 1) == ["Uno solo."]
    assert numbered_lines("", 1) is None


def test_a_translation_that_kept_every_word_means_nothing_was_foreign():
    assert untranslated("define entropy", "Define entropy.")
    assert not untranslated("¿Qué es la entropía?", "What is entropy?")


def test_every_language_gets_worked_examples_and_stray_backticks_go():
    from core.answer.language import LANGUAGES
    for language in LANGUAGES:
        messages = question_messages("¿Qué es la movilidad social?", language)
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
        assert "do not answer it" in messages[0]["content"]
    assert translated_question("¿Qué son los fagocitos?", "What are `phagocytes`?") == "What are phagocytes?"
    assert translated_question("¿Qué hace `unwrap`?", "What does `unwrap` do?") == "What does `unwrap` do?"


def test_about_a_french_book_an_english_question_is_english_though_the_book_quotes_every_word():
    # a French manual keeps English commands and untranslated passages: knowing the words proves nothing there
    assert detect("What does the size of a FIFO show?", lambda w: True, "fr") == ENGLISH
    assert detect("Quelle taille affiche ls -l pour un FIFO ?", lambda w: True, "fr") == "fr"
    assert detect("", known, "fr") == "fr"


def test_a_question_goes_into_the_books_language_and_the_answer_comes_back_from_it():
    messages = question_messages("What is a primary group?", ENGLISH, "fr")
    assert "from English into French" in messages[0]["content"]
    assert messages[1]["content"].startswith("How long does an egg") and "œuf" in messages[2]["content"]
    back = answer_messages(["Un groupe primaire est petit."], ENGLISH, "What is a primary group?", source="fr")
    assert "from French into English" in back[0]["content"]
    assert translated_question("What?", "French: Qu'est-ce ?") == "Qu'est-ce ?"
