"""A question in another language: asked in English, grounded in English, answered in the student's language."""
from __future__ import annotations

import pytest

from core.answer.multilingual import swap_sentences, translate_answer, translate_sentences
from core.answer.preparation import AnswerSettings
from core.answer.tutor import Tutor, collect
from core.library import Library
from core.models import Answer
from tests.core.answer.test_tutor import WordsOnly, covered, lib, not_covered  # noqa: F401  (the fixture)
from tests.core.test_library_search import FRENCH_MD
from tests.fakes import FakeChatModel, FakeEmbedder


def scripted_chat(*replies: str):
    calls = []

    def chat(messages, **options):
        calls.append(messages)
        return replies[min(len(calls), len(replies)) - 1]
    chat.calls = calls
    return chat


def test_markers_stay_where_the_english_sentence_had_them():
    text = "Operant conditioning links a behaviour to its consequence [7]. It uses rewards.\n\nIt is learning [2][3]."
    out = swap_sentences(text, [("Operant conditioning links a behaviour to its consequence.",
                                 "El condicionamiento operante une una conducta con su consecuencia."),
                                ("It uses rewards.", "Usa recompensas."),
                                ("It is learning.", "Es aprendizaje.")])
    assert out == ("El condicionamiento operante une una conducta con su consecuencia [7]. Usa recompensas.\n\n"
                   "Es aprendizaje [2][3].")
    assert swap_sentences("认知 [1].", [("认知.", "认知失调。")]) == "认知失调 [1]。"


def test_sentences_lost_from_a_numbered_reply_are_translated_one_by_one():
    chat = scripted_chat("1. Uno.", "Uno.", "1. Dos.")
    assert translate_sentences(chat, ["One.", "Two."], "es") == ["Uno.", "Dos."]
    assert len(chat.calls) == 3


def test_a_declined_answer_is_declined_in_the_students_language():
    english = Answer(question="What is string theory?", text="Your book doesn't seem to cover this.", citations=(),
                     refused=True, nearest_sections=("5.4 Hearing, p. 128",), absent_terms=("string theory",))
    answer = translate_answer(english, "es", scripted_chat("unused"), "¿Qué es la teoría de cuerdas?")
    assert answer.text.startswith("Tu libro nunca menciona \u201cstring theory\u201d")
    assert "5.4 Hearing, p. 128" in answer.text and answer.original == ""  # fixed phrases: nothing to check them against
    assert answer.question == "¿Qué es la teoría de cuerdas?" and answer.language == "es"


def test_a_spanish_question_is_answered_in_spanish_with_the_english_citations(lib):  # noqa: F811
    model = FakeChatModel(["How does photosynthesis work?",
                           "Photosynthesis turns light energy into chemical energy [1]. "
                           "The moon is made of green cheese and orbits quickly.",
                           "1. La fotosíntesis convierte la energía de la luz en energía química.\n"
                           "2. La luna es de queso verde y gira deprisa."])
    tutor = Tutor(lib, model, settings=AnswerSettings(), assess=covered, embedder=WordsOnly())
    conversation = tutor.start_conversation()
    answer = collect(tutor.ask("¿Cómo funciona la fotosíntesis?", conversation_id=conversation))
    assert answer.language == "es" and answer.question == "¿Cómo funciona la fotosíntesis?"
    assert answer.search_question == "How does photosynthesis work?"  # retrieved and grounded in English
    assert answer.text.startswith("La fotosíntesis convierte la energía de la luz en energía química [")
    assert answer.unsupported == ("La luna es de queso verde y gira deprisa.",)  # still greyed, translated
    assert [c.quote for c in answer.citations] == ["Photosynthesis turns light energy into chemical energy."]
    assert "green cheese" in answer.original
    translate = model.calls[2]
    assert "Spanish" in translate[0]["content"] and "¿Cómo funciona la fotosíntesis?" in translate[0]["content"]
    [turn] = lib.load_conversation(conversation).turns  # the conversation keeps what the student read
    assert turn.answer == answer.text and turn.search_question == answer.search_question


def test_a_question_the_translation_leaves_unchanged_is_answered_as_asked(lib):  # noqa: F811
    model = FakeChatModel(["Define entropy.", "Photosynthesis turns light energy into chemical energy [1]."])
    tutor = Tutor(lib, model, settings=AnswerSettings(), assess=covered, embedder=WordsOnly())
    assert tutor.language_of("define entropy") == "fr"  # the detector alone gets a short question wrong
    answer = collect(tutor.ask("define entropy"))
    assert answer.language == "en" and answer.original == "" and answer.search_question == "define entropy"
    assert answer.text.startswith("Photosynthesis turns") and len(model.calls) == 2


def test_a_foreign_question_the_book_does_not_cover_is_declined_in_that_language(lib):  # noqa: F811
    model = FakeChatModel(["What is string theory?"])
    tutor = Tutor(lib, model, settings=AnswerSettings(), assess=not_covered, embedder=WordsOnly())
    answer = collect(tutor.ask("¿Qué es la teoría de cuerdas?"))
    assert answer.refused and answer.text.startswith("Tu libro") and len(model.calls) == 1


def test_stop_ends_a_foreign_question_without_an_answer(lib):  # noqa: F811
    model = FakeChatModel(["How does photosynthesis work?", "Photosynthesis turns light energy [1].", "1. La luz."])
    tutor = Tutor(lib, model, settings=AnswerSettings(), assess=covered, embedder=WordsOnly())
    events = list(tutor.ask("¿Cómo funciona la fotosíntesis?", cancel=lambda: True))
    assert events == [] and len(model.calls) <= 1  # nothing answered, nothing translated back


def test_a_translation_stuck_in_a_loop_is_redone_or_left_in_english():
    chat = scripted_chat("1. Es una caja.\n2. Se refiere al cuarto cuarto cuarto cuarto cuarto", "Se refiere a la caja.")
    assert translate_sentences(chat, ["It is a box.", "It means the box."], "es") == ["Es una caja.",
                                                                                     "Se refiere a la caja."]
    chat = scripted_chat("1. 认知认知认知认知认知", "1. 认知认知认知认知认知")
    assert translate_sentences(chat, ["Cognition."], "zh") == ["Cognition."]


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    root = tmp_path_factory.mktemp("livre")
    (root / "societe.md").write_text(FRENCH_MD, encoding="utf-8")
    with Library(root / "lib", embedder=FakeEmbedder()) as library:
        library.import_book(root / "societe.md")
        yield library


def test_a_french_question_about_a_french_book_is_answered_in_french_without_translation(french):
    model = FakeChatModel(["Un groupe primaire est petit, durable et fondé sur des liens affectifs [1]."])
    tutor = Tutor(french, model, settings=AnswerSettings(), assess=covered, embedder=WordsOnly())
    answer = collect(tutor.ask("Qu'est-ce qu'un groupe primaire ?"))
    assert tutor.book_language() == "fr" and len(model.calls) == 1  # no translation either way
    assert answer.language == "fr" and answer.original == "" and answer.text.startswith("Un groupe primaire")
    assert "Write the answer in French" in model.calls[0][-1]["content"]
    assert answer.citations and not answer.unsupported


def test_an_english_question_about_a_french_book_is_asked_in_french_and_answered_in_english(french):
    model = FakeChatModel(["Qu'est-ce qu'un groupe primaire ?",
                           "Un groupe primaire est petit, durable et fondé sur des liens affectifs [1].",
                           "1. A primary group is small, lasting and founded on emotional ties."])
    tutor = Tutor(french, model, settings=AnswerSettings(), assess=covered, embedder=WordsOnly())
    answer = collect(tutor.ask("What is a primary group?"))
    assert "from English into French" in model.calls[0][0]["content"]  # the question goes into the book's language
    assert answer.search_question == "Qu'est-ce qu'un groupe primaire ?"
    assert answer.language == "en" and answer.original_language == "fr"
    assert answer.text.startswith("A primary group is small") and answer.original.startswith("Un groupe primaire")
    assert "from French into English" in model.calls[2][0]["content"]
    assert answer.citations[0].quote.startswith("Un groupe primaire")  # the quote stays the book's own words


def test_a_french_question_a_french_book_does_not_cover_is_declined_in_french(french):
    tutor = Tutor(french, FakeChatModel(["unused"]), settings=AnswerSettings(), assess=not_covered,
                  embedder=WordsOnly())
    answer = collect(tutor.ask("Qu'est-ce que la théorie des cordes ?"))
    assert answer.refused and answer.language == "fr" and answer.text.startswith("Ton livre")
