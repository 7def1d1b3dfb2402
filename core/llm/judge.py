"""Is a statement true according to a piece of the book?  The chat model's odds, read off, not sampled.

The model is asked under a fixed instruction and its probability of replying ``{"true": true}`` rather than
``{"true": false}`` is read from the next token's logits (``LocalModel.option_logprobs``): one prompt evaluation,
no generated tokens, and the same statement always gets the same number.  Used to grade a student's definition
against the book's (``core.study.grading``) and Yes/No verdicts (``core.answer.grounding``); ``sentence_states``
checks that a citation's sentence states the answer sentence it is attached to (``core.answer.verification``).
"""
from __future__ import annotations

import math
from typing import Any

_SYSTEM = ("You check statements against a textbook. Decide if the statement is true according to the textbook's "
           "{what}. Reply with JSON {{\"true\": true}} or {{\"true\": false}}.")

# Whether a chip's sentence states its claim, not merely whether the claim is true: the model is told what a
# same-topic sentence that does not say the claim looks like.  On 227 hand-labelled chips (five dev books, two
# held-out manuals) the model's odds under it rank stating above non-stating chips as well as or better than under
# ``_SYSTEM`` (AUC .89 against .88 on the dev books, .89 against .86 on the manuals), and at even odds it greys 37 of
# 69 non-stating chips against 35, and 14 of 158 stating ones against 17.  Six worked examples before the question
# ranked no better and made the model say "true" to nearly everything.
_STATES = ("You check an answer sentence against the one textbook sentence cited for it. Reply {\"true\": true} only "
           "if the textbook sentence itself says what the answer sentence says (a paraphrase counts). Reply "
           "{\"true\": false} if the answer sentence names a different thing, adds a fact the textbook sentence does "
           "not give, or gets the relation wrong, even when both are on the same topic.")


def can_judge(model: Any) -> bool:
    """Can ``model`` give its odds (``option_logprobs``)?  Not without a model, nor a scripted test model."""
    return getattr(model, "option_logprobs", None) is not None


def statement_true(model: Any, textbook: str, statement: str, *, what: str = "sentence") -> float:
    """The model's probability that ``statement`` is true according to ``textbook`` (the book's ``what``: a
    "sentence", a "definition")."""
    return _odds(model, _SYSTEM.format(what=what), textbook, statement)


def sentence_states(model: Any, quote: str, claim: str) -> float:
    """The model's probability that the book's sentence ``quote`` itself states ``claim`` (``_STATES``)."""
    return _odds(model, _STATES, quote, claim)


def _odds(model: Any, instruction: str, textbook: str, statement: str) -> float:
    user = f"Textbook: {textbook}\nStatement: {statement}\nIs the statement true according to the textbook?"
    logprobs = model.option_logprobs([{"role": "system", "content": instruction},
                                      {"role": "user", "content": user}], ["true", "false"], prefix='{"true": ')
    return math.exp(logprobs["true"])


__all__ = ["can_judge", "sentence_states", "statement_true"]
