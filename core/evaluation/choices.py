"""Multiple choice with and without the book: does the model pick the keyed option when it is shown the
options, once with the tutor's retrieved passages in the prompt and once without them?

The reply names the option by its words (small models answer with the option's words far more reliably
than with its letter) and is matched back to a letter.
"""
from __future__ import annotations

import difflib
import statistics
from collections.abc import Sequence
from typing import Any

from core.answer.attribution import stems
from core.answer.prompt import format_sources
from core.evaluation.retrieval import GoldQuestion

LETTERS = "ABCDEFGH"
MC_SYSTEM = "You are a helpful tutor. Answer the multiple-choice question."


def mc_prompt(question: str, choices: Sequence[str], sources_block: str | None = None) -> str:
    """The user message of a multiple-choice question (options by their words, not letters)."""
    opts = "\n".join(f"- {c}" for c in choices)
    body = (f"Question: {question}\nOptions:\n{opts}\n"
            "Which option is correct? Reply with the correct option's exact words.")
    return f"Textbook passages:\n{sources_block}\n\n{body}" if sources_block is not None else body


def pick_choice(reply: str, choices: Sequence[str]) -> str:
    """The letter of the option the reply names.  Small models answer with the option's words far more
    reliably than with its letter (Qwen 0.5B said "C" to almost every lettered question)."""
    if not choices:
        raise ValueError("no choices")
    first = next((ln for ln in reply.strip().splitlines() if ln.strip()), "").lower()
    words = stems(first)

    def score(c: str) -> float:
        own = stems(c)
        return ((len(own & words) / len(own) if own else 0.0) + (1.0 if c.lower() in first else 0.0)
                + 0.5 * difflib.SequenceMatcher(None, first, c.lower()).ratio())
    return LETTERS[max(range(len(choices)), key=lambda i: score(choices[i]))]


def multiple_choice(tutor: Any, questions: Sequence[GoldQuestion], *, book_id: str | None = None,
                    max_tokens: int = 20) -> dict[str, Any]:
    """Accuracy on keyed multiple-choice questions, with the tutor's sources and without them.

    The same model, system prompt and option wording both times; the sources are what the tutor would
    give the model for the question with its options appended (the retrieval the options help).
    """

    items = [q for q in questions if q.choices and q.answer_letter]
    right = {"with_book": 0, "without_book": 0}
    for q in items:
        hits, _ = tutor.retrieve(q.text(with_choices=True), book_id=book_id)
        block = format_sources(tutor.sources(q.question, hits))
        for kind, user in (("with_book", mc_prompt(q.question, q.choices, block)),
                           ("without_book", mc_prompt(q.question, q.choices))):
            messages = [{"role": "system", "content": MC_SYSTEM}, {"role": "user", "content": user}]
            reply = "".join(tutor.model.stream_chat(messages, max_tokens=max_tokens, temperature=0.0))
            right[kind] += pick_choice(reply, q.choices) == q.answer_letter
    n = len(items)
    return {"questions": n, **{f"accuracy_{k}": round(v / n, 3) if n else 0.0 for k, v in right.items()},
            "chance": round(statistics.fmean(1 / len(q.choices) for q in items), 3) if n else 0.0}


__all__ = ["LETTERS", "MC_SYSTEM", "mc_prompt", "multiple_choice", "pick_choice"]
