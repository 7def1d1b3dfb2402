"""What Settings says about the model that runs: its name once, and why."""
from __future__ import annotations

from core.llm.choice import Choice, Quality
from desktop.model_choice import choice_text

NAME = "Qwen2.5-Coder 1.5B Instruct (Q4_K_M)"


def test_the_model_is_named_once_with_its_reason():
    choice = Choice("qwen2.5-coder-1.5b", Quality.BALANCED, f"{NAME} is the most correct model that starts answering "
                    "within 10 s.")
    assert choice_text(choice, NAME) == f"Runs {NAME}: it is the most correct model that starts answering within 10 s."
    other = Choice("x", Quality.FASTEST, "No model answers within 10 s here.")
    assert choice_text(other, NAME) == f"Runs {NAME}: No model answers within 10 s here."
    assert choice_text(None, NAME) == f"Runs {NAME}."
