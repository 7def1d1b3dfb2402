"""``SearchOnlyAsker``: a model-free answerer so the app is useful before a chat model is wired.

It searches the library, yields the hits as numbered sources, then streams an *extractive* answer:
the best sentence of each top source followed by its ``[n]`` marker.  A question whose words match
nothing in the books (no keyword hit) is declined with the nearest sections instead.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence

from core.models import Answer, AnswerEvent, AnswerEventKind, Chunk, ChunkRole, Citation, Hit, Source, Turn
from core.answer.replies import stream_words
from core.answer.followup import rewrite_followup
from core.index.fts import query_terms

log = logging.getLogger(__name__)

_FALLBACK_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")
_SENTENCE_END = re.compile(r"[.!?:;][\"”’)\]]*$")
_EXERCISE_ITEM = re.compile(r"^\(?[a-h0-9]{1,2}[.)]\s")
_DEFINING = re.compile(r"\b(is|are|means|called|defined|measures?)\b", re.I)
_ROLE_ORDER = {ChunkRole.CONCEPT: 0, ChunkRole.GLOSSARY: 0, ChunkRole.SUMMARY: 0, ChunkRole.EXAMPLE: 2,
               ChunkRole.EXERCISE: 3}


def page_text(chunk: Chunk) -> str:
    """``"p. 9"`` or ``"pp. 9–10"`` from a chunk's printed labels."""
    a, b = chunk.printed_page_start, chunk.printed_page_end
    return f"p. {a}" if not b or a == b else f"pp. {a}–{b}"


def source_label(chunk: Chunk, book_title: str = "") -> str:
    """``"Book › Chapter 2 › 2.3 Title, p. 9"`` for a chunk (parts that are missing are left out)."""
    chapter = f"Chapter {chunk.chapter_number}" if chunk.chapter_number else chunk.chapter_title
    section = f"{chunk.section_number or ''} {chunk.section_title}".strip()
    if section == chapter or section == chunk.chapter_title:
        section = ""
    parts = [p for p in (book_title, chapter, section) if p]
    return f"{' › '.join(parts)}, {page_text(chunk)}"


def sources_from_hits(hits: Sequence[Hit], titles: dict[str, str]) -> tuple[Source, ...]:
    """Number hits 1..n as ``Source``s (the passage is the chunk's own text: no neighbour expansion)."""
    return tuple(Source(n=i, chunk=h.chunk, text=h.chunk.text,
                        label=source_label(h.chunk, titles.get(h.chunk.book_id, "")),
                        book_title=titles.get(h.chunk.book_id, ""))
                 for i, h in enumerate(hits, start=1))


def citation_for(source: Source, quote: str) -> Citation:
    """The ``Citation`` of ``source`` supported by ``quote``."""
    c = source.chunk
    return Citation(n=source.n, chunk_id=c.id, book_id=c.book_id, chapter=c.chapter_number,
                    section=c.section_number, section_title=c.section_title, page_start=c.page_start,
                    page_end=c.page_end, printed_page=c.printed_page_start, quote=quote)


def paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs, whitespace-normalised; a paragraph that stops mid-sentence
    (e.g. before a display equation) is joined to the next one."""
    out: list[str] = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(para.split())
        if not para:
            continue
        if out and not _SENTENCE_END.search(out[-1]):
            out[-1] = f"{out[-1]} {para}"
        else:
            out.append(para)
    return out


def sentences(text: str) -> list[str]:
    """Sentences of ``text``, paragraph by paragraph."""
    try:
        from core.ingest.sentences import split_sentences
    except ImportError:  # pragma: no cover - core.ingest.sentences is part of core; keep a fallback anyway
        split_sentences = _FALLBACK_SENTENCES.split
    return [s.strip() for para in paragraphs(text) for s in split_sentences(para) if s.strip()]


def sentence_score(sentence: str, terms: set[str]) -> float:
    """How well ``sentence`` answers a question with ``terms``: shared words, plus a nudge for
    definitions; questions and exercise items ("(a) ...") are not answers."""
    if sentence.endswith("?") or _EXERCISE_ITEM.match(sentence):
        return -1.0
    score = 2.0 * len(terms & set(query_terms(sentence)))
    if _DEFINING.search(sentence):
        score += 1.0
    if not _SENTENCE_END.search(sentence):  # cut off at a chunk boundary
        score -= 1.5
    return score


def distinct_quotes(pairs: Sequence[tuple[Source, str]]) -> list[tuple[Source, str]]:
    """Drop repeated quotes and quotes that are the cut-off start of another (overlapping chunks)."""
    norm = [" ".join(q.lower().split()) for _, q in pairs]
    out, seen = [], set()
    for (src, quote), q in zip(pairs, norm):
        if q in seen or any(other != q and other.startswith(q) for other in norm):
            continue
        seen.add(q)
        out.append((src, quote))
    return out


def best_sentence(text: str, terms: Sequence[str]) -> str:
    """The sentence of ``text`` that best answers the question (ties: the earliest)."""
    candidates = [s for s in sentences(text) if len(s.split()) >= 5] or sentences(text) or [text.strip()]
    wanted = set(terms)
    return max(candidates, key=lambda s: sentence_score(s, wanted))


def answer_order(sources: Sequence[Source]) -> list[Source]:
    """Sources to quote from: explanations before worked examples before exercises (stable by rank)."""
    return sorted(sources, key=lambda s: _ROLE_ORDER.get(s.chunk.role, 1))




class SearchOnlyAsker:
    """Extractive answers from ``library.search``: no model, instant, always cites."""

    model_name = "No chat model (answers quote the book)"

    def __init__(self, library, *, k: int = 5, answer_sources: int = 3):
        self.library = library
        self.k = k
        self.answer_sources = answer_sources

    def ask(self, question: str, *, book_id: str | None, chapters: tuple[str, ...],
            pages: tuple[int, int] | None, cancel: Callable[[], bool],
            previous: Turn | None = None) -> Iterator[AnswerEvent]:
        """Yield SOURCES, TOKEN*, DONE (see ``desktop.protocols.Asker``)."""
        if cancel():
            return
        if previous is not None:  # "why?" after a question searches with that question's words
            query = rewrite_followup(question, previous.search_question or previous.question).text
        else:
            query = question
        hits = self.library.search(query, self.k, book_id=book_id, chapters=chapters, pages=pages)
        titles = {b.id: b.title for b in self.library.books()}
        if not any(dict(h.stage_scores).get("keyword") is not None for h in hits):
            yield from self._decline(question, hits, titles, cancel)
            return
        sources = sources_from_hits(hits, titles)
        yield AnswerEvent(AnswerEventKind.SOURCES, sources=sources)
        terms = query_terms(query)
        pairs = [(src, best_sentence(src.text, terms)) for src in answer_order(sources)]
        pairs = [(s, q) for s, q in distinct_quotes(pairs)
                 if sentence_score(q, set(terms)) > 0 and set(terms) & set(query_terms(q))]
        pairs = pairs[: self.answer_sources] or distinct_quotes(pairs)[:1]
        citations = [citation_for(src, quote) for src, quote in pairs]
        parts = [f"{quote} [{src.n}]" for src, quote in pairs]
        text = " ".join(parts)
        yield from stream_words(text, cancel)
        if cancel():
            return
        answer = Answer(question=question, text=text, citations=tuple(citations), extractive=True,
                        search_question=query)
        yield AnswerEvent(AnswerEventKind.DONE, answer=answer)

    def _decline(self, question: str, hits: Sequence[Hit], titles: dict[str, str],
                 cancel: Callable[[], bool]) -> Iterator[AnswerEvent]:
        """Nothing in scope matches the question's words: say so and point at the nearest sections."""
        yield AnswerEvent(AnswerEventKind.SOURCES, sources=())
        nearest: list[str] = []
        for h in hits:
            c = h.chunk
            name = f"{c.section_number or ''} {c.section_title}".strip() or c.chapter_title
            if name and name not in nearest:
                nearest.append(name)
        text = ("I couldn't find this in your book." if hits or titles
                else "Your library is empty: import a book first.")
        if nearest:
            text += " These sections are the closest:"
        yield from stream_words(text, cancel)
        if cancel():
            return
        answer = Answer(question=question, text=text, citations=(), refused=True, extractive=True,
                        nearest_sections=tuple(nearest[:3]))
        yield AnswerEvent(AnswerEventKind.DONE, answer=answer)
