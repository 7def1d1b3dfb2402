"""What a question names, and which of it the book never mentions."""
from __future__ import annotations

from core.retrieval.mentions import (Absence, NamedTerm, TermKind, absence, absent_terms, content_bigrams, is_formula,
                                     named_terms, scenario_names)


def texts(question: str, **kw) -> list[tuple[str, str]]:
    return [(t.text, t.kind) for t in named_terms(question, **kw)]


def test_code_names_acronyms_and_quotes():
    assert texts("How do I use the tokio::select! macro with `join_all`?") == [
        ("join_all", TermKind.CODE), ("tokio::select!", TermKind.CODE)]
    assert ("#[repr(C)]", TermKind.CODE) in texts("What does #[repr(C)] guarantee about layout?")
    assert texts("What does the DSM-5 say about it?") == [("DSM-5", TermKind.ACRONYM)]
    assert ("Buchwald–Hartwig", TermKind.NAME) in texts("How does the Buchwald–Hartwig amination work?")
    assert ("the mere exposure", TermKind.QUOTED) in texts('What is "the mere exposure" idea?')


def test_sentence_starts_and_abbreviations():
    # a capitalised first word is not a name, but "Chadha" after "v." is
    assert texts("Explain why plants are green.") == []
    assert ("Chadha", TermKind.NAME) in texts("What did the Court decide in INS v. Chadha?")
    assert ("Wisconsin Card Sorting Test", TermKind.NAME) in texts("What does the Wisconsin Card Sorting Test measure?")


def test_a_pasted_program_and_possessives_are_not_terms():
    q = "What does this print?\n\n```\nfn print_letters() { let wait_all = 1; }\n```\nCall `print_letters()`."
    assert texts(q) == []
    assert texts("Explain Rayner’s experiment") == [("Rayner", TermKind.NAME)]


def test_rare_words_come_from_the_embedder_vocabulary():
    pieces = {"photoredox": 3, "energy": 1}
    assert texts("How does photoredox catalysis use energy?", is_rare=lambda w: pieces.get(w, 1) >= 3) == [
        ("photoredox", TermKind.RARE)]


def test_absent_terms_match_acronyms_with_their_case():
    calls = []

    def mentioned(text: str, exact: bool) -> bool:
        calls.append((text, exact))
        return text in {"INS"} and not exact or text == "Court"
    terms = [NamedTerm("INS", TermKind.ACRONYM), NamedTerm("Court", TermKind.NAME)]
    assert [t.text for t in absent_terms(terms, mentioned)] == ["INS"]
    assert ("INS", True) in calls


def test_chemical_formulas_are_not_names():
    for formula in ("Rb_2O", "KHS", "HONO", "Se–H", "NaCl", "Cl_2CO", "C_6H_5CO_2Na"):
        assert is_formula(formula), formula
    for name in ("EMDR", "PTSD", "NANOGrav", "Bruen", "GATs", "Australia", "No", "M13"):
        assert not is_formula(name), name
    assert texts("Determine the oxidation state of sulfur in SF_6 and KHS.") == []
    assert texts("Is EMDR better than exposure therapy?") == [("EMDR", TermKind.ACRONYM)]


def test_a_possessive_name_and_code_around_the_books_identifiers_are_mentioned():
    book = {"dillon s rule", "push_str", "await", "cargo"}

    def mentioned(text: str, exact: bool) -> bool:
        return text.lower() in book
    terms = [NamedTerm("Dillon Rule", TermKind.NAME), NamedTerm("a.push_str(b)", TermKind.CODE),
             NamedTerm("f.await", TermKind.CODE), NamedTerm("cargo nextest", TermKind.CODE),
             NamedTerm("anyhow::Result", TermKind.CODE)]
    assert [t.text for t in absent_terms(terms, mentioned)] == ["cargo nextest", "anyhow::Result"]


def test_absence_counts_words_and_phrases():
    book = {"behavior", "therapy", "behavior therapy", "skills", "people", "teach"}
    result = absence("What skills does dialectical behavior therapy teach people?",
                     lambda text, exact: text.lower() in book, pieces=lambda w: 4 if w == "dialectical" else 1)
    assert isinstance(result, Absence)
    assert result.words == ("dialectical",) and result.rare_words == ("dialectical",)
    assert result.phrases == len(content_bigrams("What skills does dialectical behavior therapy teach people?"))
    assert result.phrases_missing >= 1 and "dialectical" in result.named


def test_the_people_of_an_exercises_own_scenario_are_not_absent_topics():
    q = ("Carson enjoys writing mystery novels. When he's writing, Carson becomes so absorbed that he loses track "
         "of time. Carson is experiencing ________.")
    assert scenario_names(q) == {"carson"}
    result = absence(q, lambda text, exact: "carson" not in text.lower())
    assert result.terms == () and "carson" not in result.words and "Carson" not in result.named
    # a topic named twice never opens a sentence: still absent
    topic = "What is the Stroop effect? Why does the Stroop effect slow colour naming?"
    assert scenario_names(topic) == set()
    assert "Stroop" in absence(topic, lambda text, exact: "stroop" not in text.lower()).named
    assert scenario_names("Carson wrote it. Who is Carson?") == {"carson"}
    assert scenario_names("Carson wrote a novel about Carson.") == set()  # one sentence: a name, not a scenario


def test_in_a_language_that_capitalises_every_noun_a_capitalised_word_is_no_name():
    question = "Welche Größe zeigt ls -l bei einem DNS-Server an, und warum?"
    assert [t.text for t in named_terms(question, nouns_capitalised=True)] == ["DNS"]  # the acronym still counts
    assert "Welche Größe" in [t.text for t in named_terms(question)]  # read as English, it looked like a name
    # a run of capitalised words is still a name there, after a leading article
    sentence = "Die UFW (Uncomplicated Firewall) kann die Datei blockieren, sagt James Madison."
    assert [t.text for t in named_terms(sentence, nouns_capitalised=True)] == ["Uncomplicated Firewall",
                                                                              "James Madison"]
