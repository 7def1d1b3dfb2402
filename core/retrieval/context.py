"""Context assembly for the answer step: numbered sources grown small-to-big within a token budget.

* ``source_label`` — "Psychology 2e › Chapter 2 › 2.3 Analyzing Findings, p. 45" (printed pages).
* ``expand_small_to_big`` — grow a retrieved chunk into a passage with its neighbours in the same
  section, merging the 1–2 sentences neighbouring chunks share so nothing is read twice.
* ``build_sources`` — hits -> ``Source`` records numbered 1..n, within a token budget.

Token counts come from a caller-supplied function (the chat model's tokenizer); ``approx_tokens`` is a
conservative stand-in.  Pure functions: no storage, no model.  The prompt built from these sources is
``core.answer.prompt``'s.
"""
from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from core.ingest.captions import table_sentences
from core.models import Chunk, Hit, Source
from core.retrieval.focus import Relevance, focused_cut

log = logging.getLogger(__name__)

CountTokens = Callable[[str], int]
SEP = " › "
ELLIPSIS = " …"


def approx_tokens(text: str) -> int:
    """A deliberately high estimate of LLM tokens (≈4 characters or ¾ of a word each, whichever is more).

    Used when no tokenizer is at hand; overestimating keeps prompts inside the context window.
    """
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), math.ceil(len(text.split()) * 4 / 3))


# -- labels --------------------------------------------------------------------------------------
def page_span(chunk: Chunk) -> str:
    """"p. 45" or "pp. 45–46" from the chunk's printed page labels (physical numbers if unlabelled)."""
    first = (chunk.printed_page_start or str(chunk.page_start)).strip()
    last = (chunk.printed_page_end or str(chunk.page_end)).strip()
    if not first:
        return ""
    return f"p. {first}" if not last or last == first else f"pp. {first}–{last}"


def source_label(book_title: str, chunk: Chunk) -> str:
    """"Book › Chapter 2 › 2.3 Section title, p. 45" — the parts that exist, printed pages; a figure's or a
    table's chunk ends with its label ("... › Figure 3.2, p. 57").

    The chapter part is "Chapter N" when numbered, else the chapter title (when it differs from the
    section's); a chunk directly under a chapter heading shows the chapter title as its section.
    """
    parts = [book_title.strip()] if book_title and book_title.strip() else []
    chapter_no = (chunk.chapter_number or "").strip()
    chapter_title = (chunk.chapter_title or "").strip()
    sec_no = (chunk.section_number or "").strip()
    sec_title = (chunk.section_title or "").strip()
    if chapter_no:
        parts.append(f"Appendix {chapter_no}" if chapter_no.isalpha() and len(chapter_no) == 1
                     else f"Chapter {chapter_no}")
    elif chapter_title and chapter_title != sec_title:
        parts.append(chapter_title)
    if sec_no and sec_no != chapter_no:
        parts.append(sec_title if sec_title.startswith(sec_no) else f"{sec_no} {sec_title}".strip())
    elif sec_title:
        parts.append(sec_title)
    elif chapter_no and chapter_title:
        parts.append(chapter_title)
    if chunk.label:  # a figure's or table's own chunk: "... › Figure 3.2, p. 57"
        parts.append(chunk.label)
    label = SEP.join(parts)
    pages = page_span(chunk)
    return f"{label}, {pages}" if label and pages else (label or pages)


# -- small to big ----------------------------------------------------------------------------------
_WORD_SPAN = re.compile(r"\S+")
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*$")


def merge_overlap(a: str, b: str, *, min_words: int = 3) -> str:
    """Join two consecutive chunk texts, writing once the sentences ``b`` repeats from ``a``'s end.

    The overlap is the longest run of words that ends ``a`` and starts ``b``; it must be at least
    ``min_words`` long or end on a sentence boundary (chunks overlap by whole sentences), so a
    chance repetition of a word or two is not mistaken for it.  Without an overlap the texts are
    joined by a line break.  Whitespace inside ``b`` is kept as it was.
    """
    if not a.strip():
        return b
    if not b.strip():
        return a
    aw = [m.group() for m in _WORD_SPAN.finditer(a)]
    bspans = list(_WORD_SPAN.finditer(b))
    bw = [m.group() for m in bspans]
    first = bw[0]
    for k in range(min(len(aw), len(bw)), 0, -1):
        if aw[-k] != first or aw[-k:] != bw[:k]:
            continue
        if k < min_words and not _SENTENCE_END.search(bw[k - 1]):
            break
        if k == len(bw):
            return a  # b is entirely a's tail
        sep = b[bspans[k - 1].end():bspans[k].start()] or " "
        return a.rstrip() + sep + b[bspans[k].start():]
    if b.strip() in a:
        return a
    return a.rstrip() + "\n" + b.lstrip()


def _same_section(hit: Chunk, other: Chunk) -> bool:
    if other.book_id != hit.book_id:
        return False
    if hit.section_id is not None:
        return other.section_id == hit.section_id
    return (other.section_number, other.chapter_number) == (hit.section_number, hit.chapter_number)


def expand_passage(hit_chunk: Chunk, neighbours: Iterable[Chunk], token_budget: int,
                   count_tokens: CountTokens = approx_tokens,
                   relevance: Relevance | None = None) -> tuple[str, tuple[Chunk, ...]]:
    """``expand_small_to_big`` that also returns the chunks the passage is made of, in reading order.  With
    ``relevance``, a hit over the budget is cut around its sentence that scores highest (``focus.focused_cut``)."""
    same = {c.id: c for c in neighbours if _same_section(hit_chunk, c)}
    same[hit_chunk.id] = hit_chunk
    run = sorted(same.values(), key=lambda c: c.ordinal)
    i = next(j for j, c in enumerate(run) if c.id == hit_chunk.id)
    text = hit_chunk.text
    if count_tokens(text) > token_budget:
        focused = focused_cut(text, token_budget, count_tokens, relevance) if relevance is not None else None
        return focused or truncate_to_tokens(text, token_budget, count_tokens), (hit_chunk,)
    lo = hi = i
    forward_open = backward_open = True
    # Alternate forward/backward: the text after a hit usually finishes its thought, the text
    # before sets it up; growing both ways keeps the hit near the middle of the passage.
    while forward_open or backward_open:
        for forward in (True, False):
            if forward and forward_open:
                nxt = hi + 1
                if nxt >= len(run) or run[nxt].ordinal != run[hi].ordinal + 1:
                    forward_open = False
                    continue
                candidate = merge_overlap(text, run[nxt].text)
                if count_tokens(candidate) <= token_budget:
                    text, hi = candidate, nxt
                else:
                    forward_open = False
            elif not forward and backward_open:
                prv = lo - 1
                if prv < 0 or run[prv].ordinal != run[lo].ordinal - 1:
                    backward_open = False
                    continue
                candidate = merge_overlap(run[prv].text, text)
                if count_tokens(candidate) <= token_budget:
                    text, lo = candidate, prv
                else:
                    backward_open = False
    return text, tuple(run[lo:hi + 1])


def expand_small_to_big(hit_chunk: Chunk, neighbours: list[Chunk], token_budget: int,
                        count_tokens: CountTokens = approx_tokens) -> str:
    """Grow the hit into a passage of at most ``token_budget`` tokens with its section neighbours.

    ``neighbours`` are chunks near the hit (the caller fetches them; any order, the hit itself and
    chunks of other sections are allowed and ignored).  Growth alternates forward and backward
    over consecutive ordinals only (a gap means text is missing, so growth stops there) and each
    side stops at the first neighbour that would exceed the budget.  A hit larger than the budget
    alone is cut at a sentence boundary.
    """
    return expand_passage(hit_chunk, neighbours, token_budget, count_tokens)[0]


def truncate_to_tokens(text: str, max_tokens: int, count_tokens: CountTokens = approx_tokens) -> str:
    """The longest prefix of ``text`` within ``max_tokens`` (ending " …"), cut at a sentence end when one
    lies in the last third of that prefix, else at a word boundary."""
    if count_tokens(text) <= max_tokens:
        return text
    spans = list(_WORD_SPAN.finditer(text))
    lo, hi = 0, len(spans)  # words that fit: binary search, O(log n) tokenizer calls
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count_tokens(text[:spans[mid - 1].end()] + ELLIPSIS) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return ""
    cut = lo
    for j in range(lo, max(1, lo * 2 // 3) - 1, -1):
        if _SENTENCE_END.search(spans[j - 1].group()):
            cut = j
            break
    return text[:spans[cut - 1].end()] + ELLIPSIS


def build_sources(hits: Sequence[Hit | Chunk], *, book_titles: Mapping[str, str] | None = None,
                  neighbours: Iterable[Chunk] = (), count_tokens: CountTokens = approx_tokens,
                  per_source_tokens: int = 350, total_tokens: int | None = None,
                  max_sources: int | None = None, min_source_tokens: int = 40,
                  relevance: Relevance | None = None) -> tuple[Source, ...]:
    """Numbered sources (1..n, in hit order) with small-to-big passages, for the prompt and citations.

    ``neighbours``: one pool of nearby chunks for all hits (e.g. every chunk within ±3 ordinals of
    each hit).  A hit already inside an earlier source's passage is skipped, so no text is given
    twice.  Each passage gets up to ``per_source_tokens``; with ``total_tokens`` the sum of passages
    stays within it (a last passage is shortened; sources stop when under ``min_source_tokens`` remain).
    A figure or table hit (``Chunk.label``) is its own text, outside that sum.  With ``relevance`` (how much a
    sentence has to do with the question) a hit longer than its budget is cut so that it keeps its most
    relevant sentence (``core.retrieval.focus``), not only its first ones.
    The label shows the printed pages the whole passage spans.
    """
    titles = book_titles or {}
    pool = list(neighbours)
    covered: set[int] = set()
    out: list[Source] = []
    remaining = total_tokens
    for item in hits:
        chunk = item.chunk if isinstance(item, Hit) else item
        if chunk.id in covered:
            continue
        if max_sources is not None and len(out) >= max_sources:
            break
        budget = per_source_tokens if remaining is None else min(per_source_tokens, remaining)
        if chunk.label:
            # A figure's caption or a table answers on its own and is the thing to cite: it gets its own
            # room (not what the prose before it left over) and no neighbours around it.
            room = max(per_source_tokens, total_tokens or 0)  # a table's rows are its answer: more room
            body = table_sentences(chunk.text) if chunk.label.startswith("Table") else chunk.text
            text = truncate_to_tokens(body, room, count_tokens) or body
            used: tuple[Chunk, ...] = (chunk,)
        elif remaining is not None and budget < min_source_tokens and out:
            continue
        else:
            text, used = expand_passage(chunk, pool, max(budget, 1), count_tokens, relevance)
        if not text.strip():
            continue
        covered.update(c.id for c in used)
        if remaining is not None and not chunk.label:
            remaining -= count_tokens(text)
        # A figure or table is cited at its own page, whatever prose the passage adds around it.
        first = chunk if chunk.label else min(used, key=lambda c: c.page_start)
        last = chunk if chunk.label else max(used, key=lambda c: c.page_end)
        span = replace(chunk, page_start=first.page_start, page_end=last.page_end,
                       printed_page_start=first.printed_page_start, printed_page_end=last.printed_page_end)
        title = titles.get(chunk.book_id, "")
        out.append(Source(n=len(out) + 1, chunk=chunk, text=text, label=source_label(title, span),
                          book_title=title))
    return tuple(out)


__all__ = ["CountTokens", "approx_tokens", "build_sources", "expand_passage", "expand_small_to_big",
           "merge_overlap", "page_span", "source_label", "table_sentences", "truncate_to_tokens"]
