"""Pieces of ``core.answer`` that need no model: citations, extractive answers, refusals, word streaming.

Pure functions over ``Source``/``Chunk`` records (kept apart so ``core.answer`` stays short).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from core.attribution import Attributed, SourceSentence, short_quote, source_sentences
from core.context import page_span
from core.models import AnswerEvent, AnswerEventKind, Chunk, Citation, Source

EXTRACTIVE_SOURCES = 3  # sentences an extractive answer quotes at most
EXTRACTIVE_MIN_SCORE = 0.2  # a quote below this (question similarity / overlap) does not answer it
_TOKEN_SPLIT = re.compile(r"(\s+)")


@dataclass
class Prepared:
    """Working state of one ``ask``: filled step by step (so not frozen), never leaves ``core.answer``."""

    sources: tuple[Source, ...]
    messages: list[dict[str, str]]
    pool: tuple[Chunk, ...]  # the hits' neighbours: where a quote's page is looked up
    candidates: list[SourceSentence] = field(default_factory=list)
    question_sims: np.ndarray | None = None  # cosine(question, candidate j)
    answer_sims: np.ndarray | None = None  # cosine(answer sentence i, candidate j)


@lru_cache(maxsize=1)
def _splitter():
    from core.sentences import default_splitter
    return default_splitter()


def sentence_candidates(sources: Sequence[Source]) -> list[SourceSentence]:
    """Every sentence of every source passage (what answer sentences are matched against)."""
    split = _splitter().split
    return [c for s in sources for c in source_sentences(s.n, s.text, split)]


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


def chunk_for_quote(source: Source, quote: str, pool: Sequence[Chunk]) -> Chunk:
    """The chunk of ``source``'s passage that contains ``quote`` (for its page); the hit itself if unsure."""
    needle = _norm(quote.removesuffix(" …"))[:80]
    if needle and needle in _norm(source.chunk.text):
        return source.chunk
    for c in pool:
        if c.book_id == source.chunk.book_id and c.section_id == source.chunk.section_id and needle in _norm(c.text):
            return c
    return source.chunk


def citation(source: Source, quote: str, pool: Sequence[Chunk] = (), support: float = 0.0) -> Citation:
    """The ``Citation`` of ``source`` shown beside ``quote``: pages of the chunk the quote is in."""
    c = chunk_for_quote(source, quote, pool) if quote else source.chunk
    return Citation(n=source.n, chunk_id=c.id, book_id=c.book_id, chapter=c.chapter_number,
                    section=c.section_number, section_title=c.section_title, page_start=c.page_start,
                    page_end=c.page_end, printed_page=c.printed_page_start or str(c.page_start), quote=quote,
                    printed_page_end=c.printed_page_end, label=source.label, support=round(support, 3))


def build_citations(supported: Sequence[Attributed], sources: Sequence[Source],
                    pool: Sequence[Chunk] = ()) -> tuple[Citation, ...]:
    """One citation per cited source, in order of first use, with its best-supporting quote."""
    by_n = {s.n: s for s in sources}
    best: dict[int, Attributed] = {}
    for a in supported:
        if a.source in by_n and (a.source not in best or a.score > best[a.source].score):
            best[a.source] = a
    order = list(dict.fromkeys(a.source for a in supported if a.source in by_n))
    return tuple(citation(by_n[n], best[n].quote, pool, best[n].score) for n in order)


def extractive_text(sources: Sequence[Source], quotes: dict[int, tuple[str, float]]
                    ) -> tuple[str, list[Attributed]]:
    """An answer made of the book's own sentences: the best quote of up to 3 sources, each cited."""
    from core.attribution import Support

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
