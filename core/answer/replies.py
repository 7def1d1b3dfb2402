"""Replies that need no model: the honest refusal, the extractive answer (the book's own sentences, cited)
and word-by-word streaming of a finished text.  Pure functions over ``Source``/``Chunk`` records.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from core.answer.attribution import Attributed, Support, citation, short_quote
from core.errors import LanternError
from core.models import Answer, AnswerEvent, AnswerEventKind, Chunk, Citation, Source
from core.retrieval.context import page_span

EXTRACTIVE_SOURCES = 3  # sentences an extractive answer quotes at most
EXTRACTIVE_MIN_SCORE = 0.2  # a quote below this (question similarity / overlap) does not answer it
TRIM_KEEP_RATIO = 0.5  # a source whose best sentence answers under half as well as the best one's is left out
PREVIEW_RANK_PENALTY = 0.02  # per source rank: retrieval's order breaks near-ties between quotes
_TOKEN_SPLIT = re.compile(r"(\s+)")


def section_name(chunk: Chunk) -> str:
    """"2.3 Analyzing Findings, p. 45" — how a refusal names a nearby section."""
    name = f"{chunk.section_number or ''} {chunk.section_title}".strip() or chunk.chapter_title
    pages = page_span(chunk)
    return f"{name}, {pages}" if name and pages else name or pages


# The refusal in the student's language: (never mentions {named}, doesn't cover, closest sections, how to go
# beyond, "or").  Written by hand, not by the model: a refusal must say exactly this.
_REFUSALS = {
    "en": ("Your book never mentions {named}, so I won't guess.",
           "Your book doesn't seem to cover this, so I won't guess.", " The closest sections are: ",
           " (Turn on \u201cexplain beyond the book\u201d for a general answer, clearly labelled.)", " or "),
    "es": ("Tu libro nunca menciona {named}, así que no voy a adivinar.",
           "Tu libro no parece tratar esto, así que no voy a adivinar.", " Las secciones más cercanas son: ",
           " (Activa \u201cexplain beyond the book\u201d para una respuesta general, claramente señalada.)", " o "),
    "fr": ("Ton livre ne mentionne jamais {named}, donc je ne vais pas deviner.",
           "Ton livre ne semble pas traiter cette question, donc je ne vais pas deviner.",
           " Les sections les plus proches sont : ",
           " (Active \u00ab explain beyond the book \u00bb pour une réponse générale, clairement signalée.)", " ou "),
    "de": ("Dein Buch erwähnt {named} nirgends, deshalb rate ich nicht.",
           "Dein Buch scheint das nicht zu behandeln, deshalb rate ich nicht.", " Die nächsten Abschnitte sind: ",
           " (Schalte \u201eexplain beyond the book\u201c ein für eine allgemeine, klar gekennzeichnete Antwort.)",
           " oder "),
    "pt": ("Seu livro nunca menciona {named}, então não vou adivinhar.",
           "Seu livro não parece tratar disso, então não vou adivinhar.", " As seções mais próximas são: ",
           " (Ative \u201cexplain beyond the book\u201d para uma resposta geral, claramente identificada.)", " ou "),
    "zh": ("你的书从未提到{named}，所以我不会猜测。", "你的书似乎没有讲到这个问题，所以我不会猜测。", "最接近的章节是：",
           "（打开\u201cexplain beyond the book\u201d可得到一般性的回答，并会明确标注。）", "或"),
}


# When the model wrote an answer but no sentence of it is one the book states: the book may well cover the question
# (the evidence missed the sentence that answers it), so "your book doesn't cover this" would be a claim of our own.
_UNCHECKED = {
    "en": "I couldn't write an answer that your book's sentences state, so I won't guess.",
    "es": "No pude escribir una respuesta que las frases de tu libro afirmen, así que no voy a adivinar.",
    "fr": "Je n'ai pas pu écrire une réponse que les phrases de ton livre affirment, donc je ne vais pas deviner.",
    "de": "Ich konnte keine Antwort schreiben, die Sätze deines Buches belegen, deshalb rate ich nicht.",
    "pt": "Não consegui escrever uma resposta que as frases do seu livro afirmem, então não vou adivinhar.",
    "zh": "我无法写出你的书中句子所支持的回答，所以我不会猜测。",
}


def refusal_text(nearest: Sequence[str], *, empty_library: bool = False, absent: Sequence[str] = (),
                 language: str = "en", unchecked: bool = False) -> str:
    """The honest "not in your book" reply (naming the ``absent`` terms the book never mentions), in
    ``language`` (a key of ``_REFUSALS``; English for any other).  ``unchecked``: the model answered, but nothing
    it wrote is a sentence the book states (then the reply says that, not that the book lacks the topic)."""
    if empty_library:
        return "Your library is empty: import a book first, then ask about it."
    never, uncovered, closest, beyond, either = _REFUSALS.get(language, _REFUSALS["en"])
    if absent:
        text = never.format(named=either.join(f"\u201c{t}\u201d" for t in absent[:2]))
    elif unchecked:
        text = _UNCHECKED.get(language, _UNCHECKED["en"])
    else:
        text = uncovered
    if nearest:
        text += closest + "; ".join(nearest) + ("" if language == "zh" else ".")
    return text + beyond


def declined_answer(base: Answer, verdict: Any, *, empty_library: bool = False, never_used: Sequence[str] = (),
                    **fields: Any) -> Answer:
    """``base`` as "not in your book": the refusal naming what the book never mentions (``verdict``, a
    ``core.retrieval.coverage.Coverage``, or ``never_used``: the question's words the book never uses that the
    model's answer rested on) and the nearest sections; ``fields`` set the rest (timings, model, and ``dropped``:
    what the model wrote, when nothing of it was the book's)."""
    nearest = tuple(section_name(h.chunk) for h in verdict.nearest)
    # After the model: what the question names that the books never mention is still worth saying (nothing the
    # model wrote about "Raspberry Pi" could be the book's).
    absent = tuple(verdict.absent_terms) or tuple(never_used) or (
        tuple(verdict.unused) if fields.get("dropped") else ())
    text = refusal_text(nearest, empty_library=empty_library, absent=absent,
                        unchecked=unchecked(fields.get("dropped", ())))
    return replace(base, text=text, refused=True, nearest_sections=nearest, absent_terms=absent, **fields)


def unchecked(dropped: Sequence[str]) -> bool:
    """Was an answer declined because nothing the model wrote (``Answer.dropped``) is the book's, rather than
    because the model itself said the book does not answer?"""
    return bool(dropped) and not says_not_covered(" ".join(dropped))


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


def preview_citation(sources: Sequence[Source], quotes: dict[int, tuple[str, float]],
                     pool: Sequence[Chunk] = (), rank_penalty: float = PREVIEW_RANK_PENALTY,
                     prefer: int | None = None) -> Citation | None:
    """The book's own best sentence for the question (the best-scoring quote; earlier sources win ties), as a
    citation to show before the model writes: verbatim, with its page.  (Evidence sentences are numbered in book
    order, not by retrieval rank: pass ``rank_penalty=0``.)  ``prefer``: the number of an evidence sentence to show
    instead, whole (the book's definition of all the question asks about, ``preparation.book_definition``)."""
    by_n = {s.n: s for s in sources}
    if prefer in by_n:
        return citation(by_n[prefer], by_n[prefer].text, pool, max((sc for _, sc in quotes.values()), default=1.0))
    ranked = sorted(((score - rank_penalty * (n - 1), n, q) for n, (q, score) in quotes.items()
                     if q and n in by_n), reverse=True)
    if not ranked or ranked[0][0] < EXTRACTIVE_MIN_SCORE:
        return None
    _, n, quote = ranked[0]
    return citation(by_n[n], quote, pool, ranked[0][0])


def trim_sources(sources: Sequence[Source], quotes: dict[int, tuple[str, float]],
                 keep_ratio: float = TRIM_KEEP_RATIO) -> tuple[Source, ...]:
    """The sources the answer needs: the first (retrieval's best) and every other whose best sentence answers
    the question at least ``keep_ratio`` as well as the best one does; renumbered 1..n.  (A table is judged by
    its rows read as sentences, ``table_sentences``, which name their columns as the question does.)  Fewer passages mean
    fewer prompt tokens to evaluate before the first word."""
    best = max((score for _, score in quotes.values()), default=0.0)
    kept = [s for s in sources if s.n == 1 or quotes.get(s.n, ("", 0.0))[1] >= keep_ratio * best]
    return tuple(replace(s, n=i) for i, s in enumerate(kept, start=1))


_NOT_COVERED = re.compile(
    r"\b(?:(?:do|does|did)(?:n['’]t| not)|cannot|can['’]t|could not|couldn['’]t)\s+(?:seem to\s+)?"
    r"(?:cover|mention|contain|include|discuss|address|answer|provide|explain|say)\b"
    r"|\bnot (?:covered|mentioned|discussed|addressed|provided|included)\b|\bno information\b"
    r"|\b(?:is|are) not (?:in|part of) the (?:text|textbook|sources|passages)\b", re.I)


_ABOUT_SOURCES = re.compile(r"\b(?:sources?|passages?|text(?:book)?|book|context|provided|given|information)\b",
                            re.I)


def says_not_covered(text: str) -> bool:
    """Does the model's reply open by saying the passages do not answer the question (it was told to say so
    rather than guess)?  Only the first sentence counts: later ones may qualify a real answer."""
    first = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0] if text.strip() else ""
    return bool(_NOT_COVERED.search(first) and _ABOUT_SOURCES.search(first))


def collect(events: Iterator[AnswerEvent]) -> Answer:
    """Run ``ask`` to the end and return its ``Answer`` (raises ``LanternError`` on an ERROR event)."""
    answer = None
    for ev in events:
        if ev.kind is AnswerEventKind.ERROR:
            raise LanternError(ev.text)
        if ev.kind is AnswerEventKind.DONE:
            answer = ev.answer
    if answer is None:
        raise LanternError("The answer was cancelled.")
    return answer
