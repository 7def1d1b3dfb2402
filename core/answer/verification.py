"""The chat model as a judge of the book's sentences: the odds ``core.answer.grounding`` acts on.

``grounding`` gives each answer sentence an evidence sentence that carries it by words, numbers, negations and
directions; words alone let through a chip on the same topic that does not say the claim ("One form of sexual
harassment is called quid pro quo." for what quid pro quo is; a sentence about cable programming for "… is called
a cable station").  So each sentence a chip would show is put to the model, quote and claim alone
(``core.llm.judge.sentence_states``): the chip is the first of the carrying sentences the model reads as stating
the claim, and a sentence none of them states is greyed (``grounding.UNSTATED``).  No threshold: the model's own
even odds.  A book sentence that takes its subject from the one before ("It is case sensitive …") is read with that
one (``Grounded.leaned``); an answer sentence that is a run of its chip's words (``grounding.copied``) is not asked.
Yes/No verdicts are put to it as claims true or false (``model_judge``; ``grounding.VERDICT``).

On in the app (``AnswerSettings.check_chips``).  Measured on 227 hand-labelled chips of stored answers (five dev
books, two held-out manuals), at even odds: it greys 37 of the 69 chips that do not state their sentence and 14 of
the 158 that do (``core.llm.judge._STATES``).  Each judged sentence costs one short prompt evaluation (about 1.3 s
on two cores), after the answer is written: the first token does not wait for it.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from core.answer.grounding import UNSTATED, Judge  # UNSTATED bears (``grounding.BEARING``)
from core.errors import LanternError
from core.llm.judge import can_judge, sentence_states, statement_true

log = logging.getLogger(__name__)


def model_judge(model: Any) -> Judge | None:
    """The model's odds that a book sentence makes a claim true (for Yes/No verdicts), or None when it cannot tell
    its odds (a scripted test model)."""
    return _safe(model, statement_true)


def chip_judge(model: Any) -> Judge | None:
    """The model's odds that a book sentence itself states an answer sentence (for every chip), or None."""
    return _safe(model, sentence_states)


def _safe(model: Any, odds: Callable[[Any, str, str], float]) -> Judge | None:
    """``odds`` asked of ``model``; when the model fails, the sentence keeps the chip its words earned: a broken
    model must not cost the answer."""
    if not can_judge(model):
        return None

    def judge(quote: str, sentence: str) -> float:
        try:
            return odds(model, quote, sentence)
        except (LanternError, ValueError) as exc:
            log.warning("the chip of %r was not checked (%s)", sentence[:60], exc)
            return 1.0
    return judge


__all__ = ["UNSTATED", "Judge", "chip_judge", "model_judge"]
