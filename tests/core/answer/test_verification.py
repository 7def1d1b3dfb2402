"""The chat model's odds as judges: one for chips (does the sentence state the claim?), one for verdicts."""
from __future__ import annotations

import pytest

from core.answer.verification import chip_judge, model_judge
from tests.core.llm.test_judge import RecordingModel

FORM = "One form of sexual harassment is called quid pro quo."


def test_each_judge_reads_the_models_odds_under_its_own_instruction():
    model = RecordingModel()  # odds 0.9 / 0.1
    assert chip_judge(model)(FORM, "Quid pro quo is a form of harassment.") == pytest.approx(0.9)
    assert model_judge(model)(FORM, "Quid pro quo is a form of harassment.") == pytest.approx(0.9)
    chip, verdict = (messages[0]["content"] for messages, _, _ in model.calls)
    assert "itself says what the answer sentence says" in chip and "true according to" in verdict


def test_a_model_without_odds_checks_nothing_and_a_failing_one_leaves_the_chip_its_words_earned():
    from core.errors import ModelUnavailableError

    class Broken:
        def option_logprobs(self, *a, **k):
            raise ModelUnavailableError("gone")
    assert model_judge(object()) is None and chip_judge(object()) is None
    assert chip_judge(Broken())(FORM, "Quid pro quo is a form of harassment.") == 1.0
