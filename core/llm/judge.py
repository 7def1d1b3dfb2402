"""Is a statement true according to a piece of the book?  The chat model's odds, read off, not sampled.

The model is asked under a fixed instruction and its probability of replying ``{"true": true}`` rather than
``{"true": false}`` is read from the next token's logits (``LocalModel.option_logprobs``): one prompt evaluation,
no generated tokens, and the same statement always gets the same number.  Used to grade a student's definition
against the book's (``core.study.grading``) and to check that a citation's sentence states the answer sentence it
is attached to (``core.answer.verification``).
"""
from __future__ import annotations

import math
from typing import Any

_SYSTEM = ("You check statements against a textbook. Decide if the statement is true according to the textbook's "
           "{what}. Reply with JSON {{\"true\": true}} or {{\"true\": false}}.")


def can_judge(model: Any) -> bool:
    """Can ``model`` give its odds (``option_logprobs``)?  Not without a model, nor a scripted test model."""
    return getattr(model, "option_logprobs", None) is not None


def statement_true(model: Any, textbook: str, statement: str, *, what: str = "sentence") -> float:
    """The model's probability that ``statement`` is true according to ``textbook`` (the book's ``what``: a
    "sentence", a "definition")."""
    user = f"Textbook: {textbook}\nStatement: {statement}\nIs the statement true according to the textbook?"
    logprobs = model.option_logprobs([{"role": "system", "content": _SYSTEM.format(what=what)},
                                      {"role": "user", "content": user}], ["true", "false"], prefix='{"true": ')
    return math.exp(logprobs["true"])


__all__ = ["can_judge", "statement_true"]
