"""A student's question → the best few passages: the whole retrieval pipeline around one search function.

``find`` plans the question (intent, scope written into it, expansions), binds the scope to the
caller's search, re-scores the candidates (with their sections' signals when the re-scorer reads
them), then de-duplicates, diversifies and meets the plan's role quotas (``core.retrieval.selection``).
``Library.find`` calls it with its own search, page labels and section scores.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Protocol

from core.index import sections as section_index
from core.models import Chunk, Hit
from core.retrieval.plan import plan_query
from core.retrieval.rescoring import Rescorer, rescore
from core.retrieval.selection import select_hits

SectionScores = Callable[[str, Iterable[tuple[str, str]]], tuple[dict, dict]]
"""``section_scores(question, wanted (book id, section key) pairs)`` -> (keyword scores, vector scores)."""


class ScopedSearch(Protocol):
    """``search(text, n, chapters=..., pages=..., roles=...)`` -> up to n hits, best first."""

    def __call__(self, text: str, n: int, *, chapters: tuple[str, ...], pages: tuple[int, int] | None,
                 roles: tuple[str, ...]) -> list[Hit]: ...


def find(question: str, k: int, search: ScopedSearch, *, chapters: tuple[str, ...] = (),
         pages: tuple[int, int] | None = None, roles: tuple[str, ...] = (),
         printed_to_pages: Callable[..., tuple[int, int] | None] | None = None,
         rescorer: Rescorer | None = None, section_scores: SectionScores | None = None,
         labelled: Callable[[list[str]], list[Chunk]] | None = None) -> list[Hit]:
    """The best ``k`` hits for ``question``.

    Scope from arguments wins over scope in the question; printed pages in the question ("pages
    40–60") become physical pages through ``printed_to_pages(first, last)`` (given when one book is
    searched).  ``rescorer`` None skips re-scoring.  A figure or table the question names ("what does
    Figure 3.2 show?") comes first when ``labelled(["Figure 3.2"])`` finds it.
    """
    plan = plan_query(question)
    chapters = tuple(chapters) or plan.scope.chapter_filter()
    if pages is None and plan.scope.pages and printed_to_pages is not None:
        pages = printed_to_pages(*plan.scope.pages)

    def bound(text: str, n: int, want: tuple[str, ...]) -> list[Hit]:
        return search(text, n, chapters=chapters, pages=pages, roles=want or tuple(roles))

    stage = None
    if rescorer is not None:
        def stage(text: str, hits: list[Hit]) -> list[Hit]:
            return rescore(text, with_section_scores(text, hits, rescorer, section_scores), rescorer)
    hits = select_hits(plan, bound, k, rescore=stage)
    named = labelled(named_labels(plan.references)) if labelled is not None and plan.references else []
    named = [c for c in named if (not chapters or c.chapter_number in chapters)
             and (pages is None or pages[0] <= c.page_start <= pages[1])]  # the scope holds for them too
    if not named:
        return hits
    ids = {c.id for c in named}
    top = [Hit(rank=0, chunk=c, score=hits[0].score if hits else 1.0, stage_scores=()) for c in named]
    rest = [h for h in hits if h.chunk.id not in ids]
    return [replace(h, rank=i) for i, h in enumerate((top + rest)[:k], start=1)]


def named_labels(references: Iterable[str]) -> list[str]:
    """The figure and table labels among a plan's references: "fig. 3.2" -> "Figure 3.2", "tables 1" -> "Table 1"."""
    out = []
    for ref in references:
        kind, _, num = ref.partition(" ")
        word = "Figure" if kind.startswith("fig") else "Table" if kind.startswith("table") else None
        if word and num:
            out.append(f"{word} {num}")
    return out


def with_section_scores(text: str, hits: Sequence[Hit], rescorer: Rescorer,
                        section_scores: SectionScores | None) -> list[Hit]:
    """The re-scorer's first ``top_n`` hits with their sections' keyword and centroid scores for ``text``,
    when it reads them (``uses_section_scores``); otherwise the hits as they are."""
    if section_scores is None or not getattr(rescorer, "uses_section_scores", False):
        return list(hits)
    head = list(hits[:rescorer.top_n])
    wanted = {(h.chunk.book_id, section_index.chunk_section_key(h.chunk)) for h in head}
    keyword, vector = section_scores(text, wanted)
    return section_index.annotate(head, keyword, vector) + list(hits[rescorer.top_n:])
