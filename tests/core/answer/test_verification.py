"""A cited sentence the model reads its chip's sentence as not stating is greyed, and so is what leans on it."""
from __future__ import annotations

from core.answer.attribution import Attributed, Support
from core.answer.grounding import BEARING, UNSTATED
from core.answer.verification import model_judge, verify_cited

FORM = "One form of sexual harassment is called quid pro quo."
MEANS = "Quid pro quo refers to organizational rewards offered in exchange for sexual favors."


def cited(text: str, quote: str, n: int = 1, paragraph: int = 0) -> Attributed:
    return Attributed(text, Support.SUPPORTED, n, quote, 0.8, paragraph)


def judge_by(table: dict[str, float]):
    seen = []

    def judge(quote: str, sentence: str) -> float:
        seen.append((quote, sentence))
        return table[quote]
    return judge, seen


def test_a_chip_that_does_not_state_its_sentence_is_greyed_and_each_sentence_is_judged_by_its_own():
    judge, seen = judge_by({FORM: 0.3, MEANS: 0.9})  # 0.3: the model finds "false" likelier
    answer = [cited("A boss trading a raise for sex is called quid pro quo.", FORM),
              Attributed("This is done by someone with more power.", Support.SUPPORTED, 2, MEANS, 0.6, 0),
              cited("Quid pro quo means rewards are offered for sexual favors.", MEANS, 2, 1),
              Attributed("Great question!", Support.CONNECTIVE)]
    out = verify_cited(answer, judge)
    assert out[0].support is Support.WEAK and out[0].conflict == UNSTATED and out[0].source is None
    assert out[1] == answer[1]  # "This …" leans on the greyed sentence, but its own chip states it
    assert out[2] == answer[2] and out[3] == answer[3]
    assert len(seen) == 3 and UNSTATED in BEARING  # connectives are not judged; greyed, never declined for it


def test_even_odds_keep_the_citation_and_a_model_without_odds_checks_nothing():
    judge, _ = judge_by({FORM: 0.5})
    assert verify_cited([cited("Quid pro quo is a form of sexual harassment.", FORM)], judge)[0].support \
        is Support.SUPPORTED
    assert model_judge(object()) is None


def test_a_failing_model_leaves_the_chip_its_words_earned():
    from core.errors import ModelUnavailableError

    class Broken:
        def option_logprobs(self, *a, **k):
            raise ModelUnavailableError("gone")
    assert model_judge(Broken())(FORM, "Quid pro quo is a form of harassment.") == 1.0
