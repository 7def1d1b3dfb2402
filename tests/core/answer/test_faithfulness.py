"""Sentences that keep a source's words but change its meaning are caught."""
from __future__ import annotations

from core.answer.faithfulness import conflict, definition_subject, leans_on_previous, negated, unsourced_names

SOURCE = "Energy is the capacity to do work. Kinetic energy is the energy of motion. It grows with 2 things."


def test_the_right_definition_attached_to_the_wrong_term():
    assert conflict("The kinetic energy of an object is the capacity to do work.",
                    "Energy is the capacity to do work.", SOURCE, "What is kinetic energy?") == "subject"
    # the question names the term, the quote defines another one: still the wrong term
    assert conflict("Kinetic energy is the capacity to do work.", "Energy is the capacity to do work.", SOURCE,
                    "What is kinetic energy?") == "subject"
    # ... but a quote that says "It is ..." may be about the asked term
    assert conflict("Kinetic energy is the energy of motion.", "It is the energy of motion.", SOURCE,
                    "What is kinetic energy?") is None
    assert conflict("Energy is the capacity to do work.", "Energy is the capacity to do work.", SOURCE) is None
    assert conflict("Kinetic energy is the energy an object has because of its motion.",
                    "Kinetic energy is the energy of motion.", SOURCE) is None


def test_flipped_negation_and_invented_numbers():
    assert conflict("Energy is not the capacity to do work.", "Energy is the capacity to do work.", SOURCE) == \
        "negation"
    assert conflict("It grows with 3 things.", "It grows with 2 things.", SOURCE) == "number"
    assert conflict("It grows with two things.", "It grows with 2 things.", SOURCE) is None
    assert conflict("Question 7 asks about energy of motion.", "Kinetic energy is the energy of motion.", SOURCE,
                    "Answer question 7") is None


def test_helpers():
    assert negated("It doesn't move") and negated("never") and not negated("a note on energy")
    assert definition_subject("Kinetic energy is the energy of motion.") == "Kinetic energy"
    assert definition_subject("Because it moves, it has energy.") is None
    assert leans_on_previous("It comes in many forms.") and leans_on_previous("“This is why speed matters.")
    assert not leans_on_previous("Italy is a country.") and not leans_on_previous("Kinetic energy is a scalar.")


def test_a_name_the_passage_never_gives():
    passage = "George Washington was elected the first president in 1789. The Virginia Plan proposed two houses."
    assert conflict("The first president was James Madison.", "George Washington was elected the first president.",
                    passage) == "name"
    assert conflict("The first president was George Washington.",
                    "George Washington was elected the first president.", passage) is None
    # the question's own names, and names in other inflections, are the passage's
    assert unsourced_names("It was proposed by Madison in the Virginia plans.", passage,
                           "What did Madison put in the Virginia Plan?") == []
    assert unsourced_names("NASA and the Supreme Court agreed.", passage) == ["NASA", "Supreme Court"]
    # a capitalised first word is no name: "Washington was ..." is judged by its other words
    assert unsourced_names("Presidents serve four years.", passage) == []


def test_in_a_german_sentence_a_capitalised_noun_is_no_name_the_model_brought_in():
    from core.answer.faithfulness import unsourced_names
    passage = "Die Datei ist 5 GiB groß, belegt aber nur 83 MiB, weil ext4 dünn besetzte Dateien kennt."
    assert unsourced_names("Die Diskrepanz zwischen der Größe und dem Speicherplatz ist groß.", passage) == []
    assert unsourced_names("Das liegt an NTFS und der Datei.", passage) == ["NTFS"]  # an acronym still counts
    assert unsourced_names("Die UFW (Uncomplicated Firewall) blockiert die Datei.", passage) == [
        "Uncomplicated Firewall"]  # and so does a run of capitalised words
    assert unsourced_names("James Madison wrote the Virginia Plan.", "Washington led.") == ["James Madison",
                                                                                         "Virginia Plan"]


def test_a_factor_stated_more_often_than_the_evidence_states_it_is_unstated():
    from core.answer.faithfulness import unstated_factor
    book = ("Because the speed is squared, doubling the speed of a car multiplies its kinetic energy by four, and "
            "tripling it multiplies the energy by nine.")
    assert unstated_factor("If you double the speed of an object, its kinetic energy will also double!", book)
    assert not unstated_factor("If you double the speed, the kinetic energy quadruples.", book)  # "four" is 4
    assert not unstated_factor("Doubling the speed multiplies the kinetic energy by four.", book)
    assert not unstated_factor("Kinetic energy is a scalar.", book)  # no factor claimed
    # the question's own factors count: "Does the energy double if the speed doubles?"
    assert not unstated_factor("The energy does not double if the speed doubles.", book,
                               "Does the energy double if the speed doubles?")
