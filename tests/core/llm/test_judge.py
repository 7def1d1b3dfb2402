"""The judge's odds: read off the real model's logits (no sampling), the same for the same statement."""
from __future__ import annotations

import pytest

from core.errors import ModelUnavailableError
from core.llm import catalog as mc
from core.llm.judge import statement_true
from core.llm.model import LocalModel
from core.llm.settings import LLMSettings


class RecordingModel:
    def __init__(self):
        self.calls = []

    def option_logprobs(self, messages, options, *, prefix=""):
        self.calls.append((messages, options, prefix))
        return {"true": -0.1053605, "false": -2.3025851}  # 0.9 / 0.1


def test_the_judge_asks_for_true_or_false_under_one_instruction():
    model = RecordingModel()
    assert statement_true(model, "Water boils at 100 °C at sea level.", "Water boils at 100 °C.") == pytest.approx(0.9)
    (messages, options, prefix), = model.calls
    assert options == ["true", "false"] and prefix == '{"true": '
    assert "textbook's sentence" in messages[0]["content"]
    assert messages[1]["content"].startswith("Textbook: Water boils at 100 °C at sea level.\nStatement: Water boils")


@pytest.mark.realmodel
def test_real_model_odds_are_repeatable_and_favour_what_the_sentence_says(tmp_path):
    pytest.importorskip("llama_cpp")
    entry = mc.CATALOG.get("qwen2.5-coder-0.5b")
    if entry is None or not mc.is_installed(entry):
        pytest.skip("Qwen2.5-Coder 0.5B is not installed")
    model = LocalModel(LLMSettings(model=entry.key, n_ctx=1024, cache_dir=tmp_path))
    try:
        try:
            model.load()
        except ModelUnavailableError as exc:  # e.g. not enough free memory on a busy machine
            pytest.skip(f"the model cannot be loaded here: {exc.message}")
        book = "Sublimation is the change of a solid directly into a gas, without passing through the liquid state."
        right = statement_true(model, book, "Sublimation is when a solid turns straight into a gas.")
        again = statement_true(model, book, "Sublimation is when a solid turns straight into a gas.")
        wrong = statement_true(model, book, "Sublimation is when a gas turns into a liquid.")
    finally:
        model.close()
    assert right == again  # read off the logits, not sampled
    assert 0.0 < wrong < right < 1.0
