"""A chapter's key concepts: found in the book's lists and in its running text, never in an example,
ranked by how often the chapter returns to them; sibling concepts as wrong answers."""
from __future__ import annotations

from core.models import ChunkRole
from core.study.concepts import chapter_concepts, genus, names_a_thing, owned_phrases, sibling_concepts, term_forms
from core.study.lesson import build_lesson
from tests.core.study.conftest import make_chunk

FREUD = [
    "Freud believed that unacceptable urges are kept in our unconscious through a process called repression. "
    "Repression protects the ego from anxiety.",
    "In projection, a person attributes their own unacceptable urges to another person. Projection and repression "
    "are both defense mechanisms. Repression is the most basic of them.",
    "Freud also described displacement. In displacement, an urge is redirected to a safer target. "
    "Displacement and projection keep the ego safe, as repression does. In one study, Freud used a method called "
    "free association.",
    "Displacement is common in everyday life.",
    "For example, a metro pass is a card that lets you ride the bus all month.",
]


def _lesson(texts, *, book_texts=(), key_terms=()):
    chunks = [make_chunk(i + 1, t, role=ChunkRole.EXAMPLE if t.startswith("For example") else ChunkRole.CONCEPT,
                         key_terms=key_terms) for i, t in enumerate(texts)]
    book = chunks + [make_chunk(100 + i, t, chapter="2", section_id=9) for i, t in enumerate(book_texts)]
    return build_lesson("b00k", "1", chunks, book_chunks=book)


def _glossary_lesson(text: str, lines: list[str]):
    """A one-passage chapter followed by its "Key Terms" list (``term: definition`` lines)."""
    glossary = make_chunk(9, "Key Terms\n\n" + "\n\n".join(f"- {line}" for line in lines), role=ChunkRole.GLOSSARY)
    return build_lesson("b00k", "1", [make_chunk(1, text), glossary])


def test_concepts_are_the_terms_the_text_defines_most_mentioned_first_and_none_from_an_example():
    lesson = _lesson(FREUD)
    terms = [c.term for c in lesson.concepts]
    assert terms[:3] == ["repression", "projection", "displacement"]  # 3, 2 and 1 passages mention them
    assert not any("metro" in t for t in terms)  # an example
    assert "free association" in terms[3:]  # named once ("a method called …"): a term the book means to teach,
    # ranked after the terms the chapter returns to
    card_fronts = [c.front for c in __import__("core.study.lesson_cards", fromlist=["x"]).lesson_cards(lesson)]
    assert {"repression", "projection", "displacement"} <= set(card_fronts)


def test_a_glossary_line_is_a_concept_even_when_the_text_never_uses_it():
    glossary = make_chunk(9, "Key Terms\n\n- sublimation: channelling an unacceptable urge into an accepted activity",
                          role=ChunkRole.GLOSSARY)
    lesson = build_lesson("b00k", "1", [make_chunk(1, FREUD[0]), glossary])
    listed = next(c for c in lesson.concepts if c.term == "sublimation")  # never mentioned in the text: still one
    assert "accepted activity" in listed.text
    assert "repression" in [c.term for c in lesson.concepts]  # named once in the text ("a process called …")


def test_a_term_defined_once_without_being_named_is_an_aside():
    once = "Freud met many patients. A patient log is a notebook that Freud kept. Patients talked about dreams."
    terms = [c.term for c in _lesson([*FREUD[:4], once]).concepts]
    assert "patient log" not in terms  # "X is a …" once, never used again, not introduced by name
    assert "projection" in terms


def test_a_phrase_the_chapter_owns_is_a_concept_when_the_book_marks_nothing():
    chapter = ["A token economy links a behavior to a reward. Positive reinforcement strengthens a behavior.",
               "Positive reinforcement adds something pleasant after a behavior. A token economy uses it.",
               "A token economy shapes habits. Teachers use positive reinforcement and a token economy."]
    rest = ["A behavior is anything an organism does.", "Every behavior has a cause."]
    owned = dict(owned_phrases([f" {t.lower()} " for t in chapter], [f" {t.lower()} " for t in chapter + rest]))
    assert "positive reinforcement" in owned and "token economy" in owned
    assert "behavior" not in owned  # most of the book's mentions are elsewhere
    lesson = _lesson(chapter, book_texts=rest, key_terms=("positive reinforcement", "token economy"))
    assert {"positive reinforcement", "token economy"} <= {c.term.lower() for c in lesson.concepts}


def test_with_room_for_one_the_owned_phrase_the_importer_also_marked_comes_first(monkeypatch):
    chapter = ["A token economy links a behavior to a reward. Positive reinforcement strengthens a behavior.",
               "Positive reinforcement adds something pleasant after a behavior. A token economy uses it.",
               "A token economy shapes habits. Teachers use positive reinforcement and a token economy.",
               "Schools often run a token economy."]
    rest = ["A behavior is anything an organism does.", "Every behavior has a cause."]
    monkeypatch.setattr("core.study.concepts.FILL_TO", 1)
    unmarked = _lesson(chapter, book_texts=rest)
    assert [c.term.lower() for c in unmarked.concepts] == ["token economy"]  # the most mentioned
    marked = _lesson(chapter, book_texts=rest, key_terms=("Positive reinforcement",))  # as emphasised
    assert [c.term.lower() for c in marked.concepts] == ["positive reinforcement"]  # marked and owned: first


def test_siblings_are_concepts_of_the_same_kind_and_never_right_by_the_book():
    lesson = _glossary_lesson("Behavior changes with its consequences.", [
        "positive reinforcement: adding a desirable stimulus to increase a behavior",
        "negative reinforcement: taking away an undesirable stimulus to increase a behavior",
        "positive punishment: adding an undesirable stimulus to decrease a behavior",
        "extinction: decrease in the conditioned response when the stimulus stops",
        "negative punishment: taking away a pleasant stimulus, unlike positive punishment",
        "time-out: a negative reinforcement procedure in which a child is removed"])
    concept = {c.term: c for c in lesson.concepts}
    siblings = set(sibling_concepts(concept["negative reinforcement"], lesson.concepts))
    assert siblings == {"positive reinforcement", "positive punishment", "negative punishment"}
    # extinction is another kind of thing (a decrease, not a stimulus); a time-out is a kind of the key
    assert "positive punishment" not in sibling_concepts(concept["negative punishment"], lesson.concepts)  # printed


def test_genus_is_what_a_definition_says_the_concept_is():
    assert genus("communism", "a political and economic system in which government owns") == "system"
    assert genus("observational learning", "type of learning that occurs by watching others") == "learning"
    assert genus("covert content", "ideologically slanted information presented as unbiased") == "information"
    assert genus("public opinion", "Public opinion is a collection of popular views about something") == "view"


def test_term_forms_cover_plural_and_abbreviation():
    assert {"unconditioned stimulus", "ucs"} <= term_forms("unconditioned stimulus (UCS)")
    assert "push poll" in term_forms("push polls")


def test_chapter_concepts_without_definitions_is_empty():
    assert chapter_concepts([make_chunk(1, "Nothing is defined here at all.")], (), ()) == ()


def test_the_definition_decides_the_kind_over_the_last_word():
    lesson = _glossary_lesson("Atoms bond.", [
        "p orbital: orbital shaped like a dumbbell with two lobes",
        "s orbital: orbital shaped like a sphere around the nucleus",
        "hybrid orbital: orbital created by combining atomic orbitals on a central atom",
        "linear combination of atomic orbitals: technique for combining atomic orbitals"])
    key = next(c for c in lesson.concepts if c.term == "p orbital")
    assert set(sibling_concepts(key, lesson.concepts)) == {"s orbital", "hybrid orbital"}  # not the technique


def test_a_phrase_found_by_counting_is_a_concept_only_when_the_book_names_a_thing_with_it():
    from core.study.text import loose
    chapter = [f" {loose(t)} " for t in (
        "In addition to providing methods, the heap holds data. A cons list is a list.",
        "All of the keys must be strings. The test passes when the function panics.",
        "The third arm doesn’t match. The probe continued down. We speak of free will and the free will.",
        "Memory leaks happen; the memory leaks are rare. The tests run in order.")]
    named = ("heap", "cons list", "free will", "tests")
    clause = ("addition to providing", "keys must", "third arm doesn", "probe continued", "test passes")
    assert all(names_a_thing(p, chapter) for p in named)
    assert not any(names_a_thing(p, chapter) for p in clause)
    # a last word in -s is a plural when the book writes it as a noun anywhere ("the leaks"), else a verb
    assert not names_a_thing("memory leaks", chapter[:3] + [" memory leaks happen "])


def test_a_key_whose_last_word_names_a_family_gets_only_that_family():
    lesson = _glossary_lesson("Parties choose candidates.", [
        "closed primary: an election in which only voters registered with a party may vote for its candidates",
        "open primary: an election in which any registered voter may vote in any party's primary",
        "top-two primary: an election in which the two candidates with the most votes go on, whatever their party",
        "midterm elections: the congressional elections held in the even years between presidential ones"])
    key = next(c for c in lesson.concepts if c.term == "closed primary")
    assert set(sibling_concepts(key, lesson.concepts)) == {"open primary", "top-two primary"}  # not "midterm"
