"""Sentence splitting: Punkt trained offline on the text itself plus Lantern's repair rules."""
from __future__ import annotations

import pytest

from core.ingest.sentences import DEFAULT_ABBREVIATIONS, default_splitter, split_sentences, train_splitter

# (text, expected sentences).  Each case has a trap that a naive "split on '. '" gets wrong.
TRICKY = [
    ("Mammals are warm-blooded, e.g. dogs and cats. Reptiles are not.",
     ["Mammals are warm-blooded, e.g. dogs and cats.", "Reptiles are not."]),
    ("Some responses are innate, i.e. They need no learning. This is debated.",
     ["Some responses are innate, i.e. They need no learning.", "This is debated."]),
    ("The curve is shown in Fig. 3.2 below. It rises quickly.",
     ["The curve is shown in Fig. 3.2 below.", "It rises quickly."]),
    ("Substitute the value into Eq. 4 to get the answer. Then check units.",
     ["Substitute the value into Eq. 4 to get the answer.", "Then check units."]),
    ("Dr. Smith ran the study. She found no effect.",
     ["Dr. Smith ran the study.", "She found no effect."]),
    ("The sample weighs approx. 4.5 grams. That is small.",
     ["The sample weighs approx. 4.5 grams.", "That is small."]),
    ("This was replicated by Smith et al. in a later study. The effect held.",
     ["This was replicated by Smith et al. in a later study.", "The effect held."]),
    ("Memory was studied by Jones et al. The results were clear.",
     ["Memory was studied by Jones et al. The results were clear."]),
    ("Nature vs. Nurture is an old debate. It continues.",
     ["Nature vs. Nurture is an old debate.", "It continues."]),
    ("Compare the two models (cf. Table 2). They differ.",
     ["Compare the two models (cf. Table 2).", "They differ."]),
    ("Read case No. 5 carefully. It is a classic.",
     ["Read case No. 5 carefully.", "It is a classic."]),
    ("The quote appears on p. 12 of the report. Read it.",
     ["The quote appears on p. 12 of the report.", "Read it."]),
    ("Newton's laws are covered in Ch. 3 of this book. Forces come next.",
     ["Newton's laws are covered in Ch. 3 of this book.", "Forces come next."]),
    ("The proof is in Sec. 2.1 above. We skip it here.",
     ["The proof is in Sec. 2.1 above.", "We skip it here."]),
    ("Operant conditioning was described by B. F. Skinner in 1938. It changed psychology.",
     ["Operant conditioning was described by B. F. Skinner in 1938.", "It changed psychology."]),
    ("John B. Watson founded behaviorism. His work was controversial.",
     ["John B. Watson founded behaviorism.", "His work was controversial."]),
    ("The value of pi is about 3.14 in most problems. Use 3.14159 for precision.",
     ["The value of pi is about 3.14 in most problems.", "Use 3.14159 for precision."]),
    ("The pH of blood is 7.4. Acidosis occurs below 7.35.",
     ["The pH of blood is 7.4.", "Acidosis occurs below 7.35."]),
    ("Is memory reliable? Research says no! Eyewitnesses err.",
     ["Is memory reliable?", "Research says no!", "Eyewitnesses err."]),
    ("He earned a Ph.D. in 1990 from Harvard. He then moved to Yale.",
     ["He earned a Ph.D. in 1990 from Harvard.", "He then moved to Yale."]),
    ("The U.S. government funded the work. Results came in 1995.",
     ["The U.S. government funded the work.", "Results came in 1995."]),
    ("Patients need vitamin C. Deficiency causes scurvy.",
     ["Patients need vitamin C.", "Deficiency causes scurvy."]),
    ("See Appendix B. It lists the constants.",
     ["See Appendix B.", "It lists the constants."]),
    ("Mix 2.5 mL of acid with water. Stir for approx. 10 min. then wait.",
     ["Mix 2.5 mL of acid with water.", "Stir for approx. 10 min. then wait."]),
    ("The bacterium E. coli lives in the gut. Most strains are harmless.",
     ["The bacterium E. coli lives in the gut.", "Most strains are harmless."]),
    ("“Why?” she asked. “Because I said so.” He left.",
     ["“Why?” she asked.", "“Because I said so.”", "He left."]),
    ("Results (Figs. 2 and 3) agree. The trend is linear.",
     ["Results (Figs. 2 and 3) agree.", "The trend is linear."]),
    ("The meeting was at 3 p.m. yesterday. Nobody came.",
     ["The meeting was at 3 p.m. yesterday.", "Nobody came."]),
    ("In Marbury v. Madison, the Court claimed judicial review. It mattered.",
     ["In Marbury v. Madison, the Court claimed judicial review.", "It mattered."]),
]

# A stand-in for a book: ordinary prose plus each tricky case once (Punkt learns from repetition,
# so repeating the cases would teach it their exact word pairs).
BOOK_TEXT = ("Psychology is the scientific study of the mind. It uses experiments. Researchers observe "
             "behavior and test ideas. A theory explains many findings. Dr. Lee wrote the first chapter. "
             "The second chapter covers memory, e.g. recall and recognition. ") * 20 + " ".join(
                 t for t, _ in TRICKY)


@pytest.mark.parametrize("text,expected", TRICKY, ids=[t[:30] for t, _ in TRICKY])
def test_default_splitter_tricky_cases(text, expected):
    assert split_sentences(text) == expected


@pytest.mark.parametrize("text,expected", TRICKY, ids=[t[:30] for t, _ in TRICKY])
def test_trained_splitter_tricky_cases(text, expected):
    splitter = train_splitter(BOOK_TEXT)
    assert splitter.split(text) == expected


def test_at_least_twenty_cases():
    assert len(TRICKY) >= 20


def test_training_needs_no_nltk_data(monkeypatch, tmp_path):
    # Point nltk at an empty data folder: training and splitting must still work.
    import nltk
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    splitter = train_splitter("Dr. Who arrived. He left. " * 50)
    assert splitter.split("Dr. Who arrived. He left.") == ["Dr. Who arrived.", "He left."]


def test_trained_splitter_drops_ordinary_words_as_abbreviations():
    text = ("The baby began to cry. Then the mother came. " * 40
            + "He wore a hat. Everyone laughed. " * 40)
    splitter = train_splitter(text)
    assert "cry" not in splitter.abbreviations and "hat" not in splitter.abbreviations
    assert splitter.split("The baby began to cry. Then the mother came.") == [
        "The baby began to cry.", "Then the mother came."]


def test_curated_abbreviations_present():
    assert {"e.g", "i.e", "fig", "eq", "dr", "approx", "al", "vs", "cf"} <= DEFAULT_ABBREVIATIONS
    assert DEFAULT_ABBREVIATIONS <= default_splitter().abbreviations


def test_spans_index_into_text():
    text = "  First one here.   Second one, e.g. this.\nThird?  "
    splitter = default_splitter()
    spans = splitter.spans(text)
    assert [text[s:e] for s, e in spans] == ["First one here.", "Second one, e.g. this.", "Third?"]


def test_empty_and_whitespace():
    assert split_sentences("") == []
    assert split_sentences("   \n ") == []


def test_sample_of_huge_text_is_bounded():
    from core.ingest.sentences import _sample
    text = ("Paragraph with words. " * 20 + "\n\n") * 5000
    s = _sample(text, 50_000)
    assert len(s) <= 50_000 + 8 * 2
