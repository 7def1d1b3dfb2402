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
from core.answer.prompt import format_evidence, format_sources
from core.evaluation.retrieval import GoldQuestion

LETTERS = "ABCDEFGH"
MC_SYSTEM = "You are a helpful tutor. Answer the multiple-choice question."


def mc_prompt(question: str, choices: Sequence[str], sources_block: str | None = None) -> str:
    """The user message of a multiple-choice question (options by their words, not letters)."""
    opts = "\n".join(f"- {c}" for c in choices)
    body = (f"Question: {question}\nOptions:\n{opts}\n"
            "Which option is correct? Reply with the correct option's exact words.")
    return f"From the textbook:\n{sources_block}\n\n{body}" if sources_block is not None else body


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
                    max_tokens: int = 20, without: dict[str, str] | None = None) -> dict[str, Any]:
    """Accuracy on keyed multiple-choice questions, with the tutor's sources and without them.

    The same model, system prompt and option wording both times; the book's part is what the tutor's reader
    would give the model for the question with its options appended (as a student pastes it): numbered
    evidence sentences by section, or whole passages with ``reader="passages"``.  ``without``: replies
    without the book from an earlier call with the same model (they do not depend on the reader), by qid;
    the result's ``without_book_replies`` holds them for the next call.
    """
    items = [q for q in questions if q.choices and q.answer_letter]
    right = {"with_book": 0, "without_book": 0}
    replies_without: dict[str, str] = {}
    for q in items:
        asked = q.text(with_choices=True)
        hits, _ = tutor.retrieve(asked, book_id=book_id)
        if tutor.settings.reader == "evidence":
            block = format_evidence(tutor.sources(asked, hits))
        else:
            block = format_sources(tutor.sources(q.question, hits))
        right["with_book"] += _ask(tutor, mc_prompt(q.question, q.choices, block), max_tokens, q)
        reply = (without or {}).get(q.qid)
        if reply is None:
            reply = _reply(tutor, mc_prompt(q.question, q.choices), max_tokens)
        replies_without[q.qid] = reply
        right["without_book"] += pick_choice(reply, q.choices) == q.answer_letter
    n = len(items)
    return {"questions": n, **{f"accuracy_{k}": round(v / n, 3) if n else 0.0 for k, v in right.items()},
            "chance": round(statistics.fmean(1 / len(q.choices) for q in items), 3) if n else 0.0,
            "without_book_replies": replies_without}


def _reply(tutor: Any, user: str, max_tokens: int) -> str:
    messages = [{"role": "system", "content": MC_SYSTEM}, {"role": "user", "content": user}]
    return "".join(tutor.model.stream_chat(messages, max_tokens=max_tokens, temperature=0.0))


def _ask(tutor: Any, user: str, max_tokens: int, q: GoldQuestion) -> bool:
    return pick_choice(_reply(tutor, user, max_tokens), q.choices) == q.answer_letter


__all__ = ["LETTERS", "MC_SYSTEM", "mc_prompt", "multiple_choice", "pick_choice"]
