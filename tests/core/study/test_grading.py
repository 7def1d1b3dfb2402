"""Grading by meaning: the opposite is wrong, another concept's definition is wrong and named, a paraphrase
close enough to the book's answer is right, a thin one is partly right and says what it misses."""
from __future__ import annotations

from core.study.grading import grade_meaning, missing_words, polarity_conflict
from core.study.models import Verdict
from tests.fakes import HashingEmbedder

FOLKWAYS = "Folkways are norms that direct appropriate behavior in the day-to-day practices and expressions of a culture."
MORES = "Mores are norms that embody the moral views and principles of a group."
TABOOS = "A taboo is a norm that society holds so strongly that violating it results in extreme disgust."
SIBLINGS = [("mores", MORES), ("taboo", TABOOS), ("folkways", FOLKWAYS)]
encode = HashingEmbedder().encode


def test_the_opposite_is_wrong():
    assert polarity_conflict("Pressure increases as volume decreases.", "Pressure decreases as volume increases.") \
        is False  # both directions on both sides: not a flip of the whole claim
    assert polarity_conflict("Enzymes lower the activation energy.", "Enzymes raise the activation energy.")
    assert not polarity_conflict("Sublimation: a solid becomes a gas.", "A solid turns to gas without melting.")
    grade = grade_meaning("Enzymes lower the activation energy.", "Enzymes raise the activation energy.", term="enzyme",
                          encode=encode, floor=0.0)
    assert grade.verdict is Verdict.INCORRECT and "opposite" in grade.reason


def test_another_concepts_definition_is_wrong_and_named():
    grade = grade_meaning(FOLKWAYS, "norms that embody the moral views and principles of a group", term="folkways",
                          siblings=SIBLINGS, encode=encode, floor=0.0)
    assert grade.verdict is Verdict.INCORRECT and grade.confused_with == "mores"
    assert grade.reason == "Your answer describes mores, not folkways."


def test_an_answer_near_the_book_is_right_and_a_thin_one_says_what_it_misses():
    right = grade_meaning(FOLKWAYS, "norms that direct appropriate day-to-day behavior in a culture", term="folkways",
                          siblings=SIBLINGS, encode=encode, floor=0.5)
    assert right.verdict is Verdict.CORRECT and right.score >= 0.5
    thin = grade_meaning(FOLKWAYS, "norms of a culture", term="folkways", siblings=SIBLINGS, encode=encode, floor=0.9)
    assert thin.verdict is Verdict.PARTLY and "direct" in thin.missing and "folkways" not in thin.missing
    assert grade_meaning(FOLKWAYS, "  ", encode=encode).verdict is Verdict.INCORRECT


def test_missing_words_are_the_books_in_its_order():
    assert missing_words(MORES, "rules about moral views", "mores") == ("norms", "embody", "principles", "group")
