"""Does the sentence a chip shows state the answer sentence it is attached to?  The chat model reads each pair.

``core.answer.grounding`` gives each answer sentence the evidence sentence that carries it by words, numbers,
negations and directions; words alone let through a chip on the same topic that does not say the claim ("One
form of sexual harassment is called quid pro quo." for what quid pro quo is; a sentence about cable programming
for "… is called a cable station").  So each cited sentence is put to the model, quote and claim alone, as a
statement to check against the textbook (``core.llm.judge``), and a sentence it finds more likely false than true
is greyed (``UNSTATED``) like any sentence the book does not state.  No threshold: the model's own odds.

Off in the app (``AnswerSettings.check_chips``); ``benchmarks/reground.py --verify`` measures it on stored answers.
On session 19's 40 hand-checked cited sentences it greyed 8 of the 14 whose chip did not state them (6 of the 8
wrong ones among them) and 1 of the 26 whose chip did.  On a fresh run it greyed 3 wrong keyed sentences and 4 right
ones their chips stated, and 6 wrong near-domain ones.  On the held-out manuals' stored answers it greyed 18
sentences, most of them right ("The log file is written to "fit.log" by default."): the 1.5B reads technical
sentences badly.  Kept as an option for a better judge.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from core.answer.attribution import Attributed, Support
from core.answer.grounding import EVEN_ODDS, UNSTATED, Judge  # UNSTATED bears (``grounding.BEARING``)
from core.errors import LanternError
from core.llm.judge import can_judge, statement_true

log = logging.getLogger(__name__)


def verify_cited(attributed: Sequence[Attributed], judge: Judge) -> list[Attributed]:
    """Grey each cited sentence the ``judge`` finds its own quote does not make true (odds below even).

    A sentence that leans on one so greyed ("This process is called evaporation.") keeps its own chip when that
    chip states it: each is judged with its own quote.  Greying those too (``grounding.grey_orphans``) greyed 3
    sentences on the hand-checked answers, all 3 right."""
    return [replace(a, support=Support.WEAK, source=None, quote="", score=0.0, conflict=UNSTATED)
            if a.support is Support.SUPPORTED and a.quote and judge(a.quote, a.text) < EVEN_ODDS else a
            for a in attributed]


def model_judge(model) -> Judge | None:
    """The judge the chat ``model`` gives, or None when it cannot tell its odds (a scripted test model).  When the
    model fails, the sentence keeps the chip its words earned: a broken model must not cost the answer."""
    if not can_judge(model):
        return None

    def judge(quote: str, sentence: str) -> float:
        try:
            return statement_true(model, quote, sentence)
        except (LanternError, ValueError) as exc:
            log.warning("the chip of %r was not checked (%s)", sentence[:60], exc)
            return 1.0
    return judge


__all__ = ["UNSTATED", "Judge", "model_judge", "verify_cited"]
