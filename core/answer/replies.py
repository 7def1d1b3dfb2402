"""Replies that need no model: the honest refusal, the extractive answer (the book's own sentences, cited)
and word-by-word streaming of a finished text.  Pure functions over ``Source``/``Chunk`` records.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from core.answer.attribution import Attributed, Support, short_quote
from core.models import AnswerEvent, AnswerEventKind, Chunk, Source
from core.retrieval.context import page_span

EXTRACTIVE_SOURCES = 3  # sentences an extractive answer quotes at most
EXTRACTIVE_MIN_SCORE = 0.2  # a quote below this (question similarity / overlap) does not answer it
_TOKEN_SPLIT = re.compile(r"(\s+)")


def section_name(chunk: Chunk) -> str:
    """"2.3 Analyzing Findings, p. 45" — how a refusal names a nearby section."""
    name = f"{chunk.section_number or ''} {chunk.section_title}".strip() or chunk.chapter_title
    pages = page_span(chunk)
    return f"{name}, {pages}" if name and pages else name or pages


def refusal_text(nearest: Sequence[str], *, empty_library: bool = False) -> str:
    """The honest "not in your book" reply."""
    if empty_library:
        return "Your library is empty: import a book first, then ask about it."
    text = "Your book doesn't seem to cover this, so I won't guess."
    if nearest:
        text += " The closest sections are: " + "; ".join(nearest) + "."
    return text + " (Turn on \u201cexplain beyond the book\u201d for a general answer, clearly labelled.)"


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def extractive_text(sources: Sequence[Source], quotes: dict[int, tuple[str, float]]
                    ) -> tuple[str, list[Attributed]]:
    """An answer made of the book's own sentences: the best quote of up to 3 sources, each cited."""
    ranked = sorted(((q, score, n) for n, (q, score) in quotes.items() if q), key=lambda x: -x[1])
    chosen = [x for x in ranked if x[1] >= EXTRACTIVE_MIN_SCORE][:EXTRACTIVE_SOURCES] or ranked[:1]
    chosen.sort(key=lambda x: x[2])
    seen: set[str] = set()
    parts, attributed = [], []
    for quote, score, n in chosen:
        if _norm(quote) in seen:
            continue
        seen.add(_norm(quote))
        parts.append(f"\u201c{quote}\u201d [{n}]")
        attributed.append(Attributed(quote, Support.SUPPORTED, n, short_quote(quote), score))
    return " ".join(parts), attributed


def stream_words(text: str, cancel: Callable[[], bool]) -> Iterator[AnswerEvent]:
    """``TOKEN`` events, one per word (with its following space), until ``cancel()``."""
    for piece in _TOKEN_SPLIT.split(text):
        if cancel():
            return
        if piece:
            yield AnswerEvent(AnswerEventKind.TOKEN, text=piece)
