"""Grading by meaning: the opposite is wrong, another concept's definition is wrong and named, a paraphrase
close enough to the book's answer is right, a thin one is partly right and says what it misses."""
from __future__ import annotations

import math

from core.study.grading import (JUDGE_FLOOR, grade, grade_meaning, judge_meaning, judge_statement, missing_words,
                                polarity_conflict)
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


class OddsModel:
    """Stands in for the chat model's ``option_logprobs``: the same probability of "true" for any prompt."""

    def __init__(self, p_true: float):
        self.p_true, self.prompts = p_true, []

    def option_logprobs(self, messages, options, *, prefix=""):
        self.prompts.append((messages, options, prefix))
        return {"true": math.log(self.p_true), "false": math.log(1 - self.p_true)}


def test_the_judge_reads_the_answer_as_a_statement_about_the_term():
    assert judge_statement("folkways", "everyday norms of a culture") == "folkways: everyday norms of a culture"
    assert judge_statement("folkways", "Folkways are everyday norms") == "Folkways are everyday norms"
    model = OddsModel(0.8)
    assert math.isclose(judge_meaning(model, FOLKWAYS, "everyday norms", "folkways"), 0.8)
    (messages, options, prefix), = model.prompts
    assert options == ["true", "false"] and prefix == '{"true": '
    assert "Statement: folkways: everyday norms" in messages[-1]["content"] and FOLKWAYS in messages[-1]["content"]


def test_with_a_model_its_odds_decide_and_a_miss_still_says_why():
    right = grade(FOLKWAYS, "everyday norms for behaving in a culture", term="folkways", siblings=SIBLINGS,
                  encode=encode, model=OddsModel(JUDGE_FLOOR + 0.01))
    assert right.verdict is Verdict.CORRECT
    wrong = grade(FOLKWAYS, "norms that embody the moral views and principles of a group", term="folkways",
                  siblings=SIBLINGS, encode=encode, model=OddsModel(JUDGE_FLOOR - 0.01))
    assert wrong.verdict is Verdict.INCORRECT and wrong.confused_with == "mores"
