"""Pure retrieval algorithms: FTS5 query building, reciprocal rank fusion, filters.

Nothing here touches the database or a model; ``core.library`` feeds these functions.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having
he her here hers herself him himself his how i if in into is it its itself just me more most my myself no
nor not now of off on once only or other our ours ourselves out over own same she should so some such than
that the their theirs them themselves then there these they this those through to too under until up very
was we were what when where which while who whom why will with would you your yours yourself yourselves
following mentioned called known describe explain define example refers refer term best statement
true false would whose ____ _____ ______ _______ ________
""".split())

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def query_terms(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens of ``text`` (letters/digits only), de-duplicated, stopwords dropped."""
    seen: dict[str, None] = {}
    for tok in _TOKEN.findall(text.lower()):
        tok = tok.replace("’", "'")
        if "'" in tok:
            tok = tok.split("'")[0]
        if not tok or (not keep_stopwords and tok in STOPWORDS):
            continue
        if len(tok) == 1 and not tok.isdigit():
            continue
        seen.setdefault(tok, None)
    return list(seen)


def fts_match_expression(text: str, *, max_terms: int = 32) -> str | None:
    """A safe FTS5 MATCH expression: every term double-quoted (so no user text is FTS syntax), OR-ed.

    Returns None when nothing searchable is left (then keyword search returns no hits).
    """
    terms = query_terms(text) or query_terms(text, keep_stopwords=True)
    if not terms:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms[:max_terms]]
    return " OR ".join(quoted)


def reciprocal_rank_fusion(rankings: Mapping[str, Sequence[int]], *, k: int = 60,
                           weights: Mapping[str, float] | None = None) -> list[tuple[int, float]]:
    """Fuse ranked id lists: score(d) = Σ_r w_r / (k + rank_r(d)), ranks starting at 1.

    ``k`` is explicit because it matters: small k trusts the top of each list more.
    Ties keep the order in which ids were first seen (stable and deterministic).
    """
    scores: dict[int, float] = {}
    for name, ids in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        if w == 0:
            continue
        for rank, doc in enumerate(ids, start=1):
            scores[doc] = scores.get(doc, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


@dataclass(frozen=True)
class SearchFilter:
    """Restrict a search to one book, some chapters, and/or a physical page range (inclusive)."""

    book_id: str | None = None
    chapters: tuple[str, ...] = ()
    page_range: tuple[int, int] | None = None
    roles: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.book_id or self.chapters or self.page_range or self.roles)

    def sql(self, alias: str = "c") -> tuple[str, list]:
        """A WHERE fragment (starting with AND) and its parameters for the chunks table."""
        parts, params = [], []
        if self.book_id:
            parts.append(f"{alias}.book_id = ?")
            params.append(self.book_id)
        if self.chapters:
            parts.append(f"{alias}.chapter_number IN ({','.join('?' * len(self.chapters))})")
            params.extend(self.chapters)
        if self.page_range:
            parts.append(f"{alias}.page_end >= ? AND {alias}.page_start <= ?")
            params.extend(self.page_range)
        if self.roles:
            parts.append(f"{alias}.role IN ({','.join('?' * len(self.roles))})")
            params.extend(self.roles)
        return "".join(" AND " + p for p in parts), params
