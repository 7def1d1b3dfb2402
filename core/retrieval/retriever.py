"""Keyword (FTS5), vector (FAISS) and hybrid (RRF) candidate retrieval over the library's chunks.

Owned by ``core.library.Library``; callers use ``Library.search``.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import sqlite_utils

from core.index.fts import cap_reachable, fts_match_expression, match_terms, prune_common_terms
from core.index.rows import (book_languages, chunk_from_row, chunk_id_bound, index_stems, spelled_like,
                             term_doc_frequencies)
from core.index.vectors import VectorIndex
from core.ingest.language import SNOWBALL, stems
from core.models import Chunk, Hit, SearchMode
from core.retrieval.fusion import reciprocal_rank_fusion

log = logging.getLogger(__name__)


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


# bm25() column weights for (titles, key_terms, text, stems): a match in a heading or a key term says more
# about what a chunk is about than one in running text.  ``stems`` (a French, Spanish, German or Portuguese
# book's Snowball stems of all three) is matched only by such a book's stemmed query words.
FTS_WEIGHTS = (3.0, 2.0, 1.0, 1.0)


@dataclass(frozen=True)
class RetrievalConfig:
    """Knobs of candidate retrieval (chosen on the dev benchmark; see README)."""

    candidates: int = 50  # per retriever, before fusion
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    stems: bool = True  # match a French/Spanish/German/Portuguese book's Snowball stems too (off: porter alone)


@dataclass
class Candidates:
    """Ranked ids from each retriever plus timings, before fusion (exposed for eval and --explain)."""

    keyword: list[tuple[int, float]] = field(default_factory=list)
    vector: list[tuple[int, float]] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


class Retriever:
    def __init__(self, db: Callable[[], sqlite_utils.Database], vectors: Callable[[], VectorIndex],
                 embed_query: Callable[[str], np.ndarray], labels: Callable[[str], dict[int, str]],
                 config: RetrievalConfig | None = None):
        self._db = db  # returns the calling thread's read connection
        self._vectors = vectors
        self._embed_query = embed_query
        self._labels = labels
        self.config = config or RetrievalConfig()

    @property
    def db(self) -> sqlite_utils.Database:
        return self._db()

    # -- candidate generators ------------------------------------------------------------------------
    def keyword(self, query: str, k: int, flt: SearchFilter = SearchFilter()) -> list[tuple[int, float]]:
        """FTS5 bm25 ranking; scores are positive (higher = better)."""
        terms = match_terms(query)
        if cap_reachable(len(terms), chunk_id_bound(self.db)):  # a big library: look the frequencies up
            terms = prune_common_terms(terms, term_doc_frequencies(self.db, terms))
        expr = self._with_stems(fts_match_expression(terms), terms, flt.book_id)
        if expr is None:
            return []
        weights = ", ".join(map(str, FTS_WEIGHTS))
        if flt.is_empty:  # no join: at 180k chunks it halves the p50 (every match is ranked before LIMIT)
            sql = f"SELECT rowid, bm25(chunks_fts, {weights}) AS s FROM chunks_fts WHERE chunks_fts MATCH ? " \
                  "ORDER BY s LIMIT ?"
            rows = self.db.execute(sql, [expr, k]).fetchall()
            return [(int(r[0]), -float(r[1])) for r in rows]
        where, params = flt.sql("c")
        sql = (f"SELECT c.id, bm25(chunks_fts, {weights}) AS s FROM chunks_fts "
               f"JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?{where} ORDER BY s LIMIT ?")
        rows = self.db.execute(sql, [expr, *params, k]).fetchall()
        return [(int(r[0]), -float(r[1])) for r in rows]

    def _with_stems(self, expr: str | None, words: Sequence[str], book_id: str | None, *,
                    phrase: bool = False) -> str | None:
        """``expr``, or else the words' Snowball stems in the ``stems`` column, for each language of the books
        searched that has them (``core.ingest.language``); ``phrase``: the stems as adjacent words."""
        alternatives = [expr] if expr else []
        if not self.config.stems:
            return expr
        for language in sorted(book_languages(self.db, book_id) & SNOWBALL.keys()):
            found = stems(" ".join(words), language).split()
            if found and phrase:
                alternatives.append('stems : "' + " ".join(found).replace('"', '""') + '"')
            elif found:
                alternatives.append("stems : (" + " OR ".join(f'"{w}"' for w in dict.fromkeys(found)) + ")")
        if len(alternatives) < 2:
            return expr
        return " OR ".join(f"({a})" for a in alternatives)

    def mentions(self, phrase: str, book_id: str | None = None, *, exact_case: bool = False) -> bool:
        """Does ``phrase`` occur (as adjacent words, case- and stem-folded like keyword search) in any chunk
        of the library, or of one book?  ``exact_case``: only where it is written with the same capitals."""
        words = re.findall(r"[^\W_]+", phrase.lower())
        if not words:
            return True
        expr = '"' + " ".join(words).replace('"', '""') + '"'
        if not exact_case:
            expr = self._with_stems(expr, words, book_id, phrase=True)
        scope, params = _match_scope(expr, book_id)
        if not exact_case:
            return self.db.execute(f"SELECT 1 FROM chunks_fts {scope} LIMIT 1", params).fetchone() is not None
        pattern = re.compile(r"(?<![\w])" + r"\W+".join(map(re.escape, re.findall(r"[^\W_]+", phrase))) + r"(?![\w])")
        rows = self.db.execute(f"SELECT chunks_fts.text FROM chunks_fts {scope} LIMIT 200", params)
        return any(pattern.search(row[0] or "") for row in rows)

    def mentions_loosely(self, phrase: str, book_id: str | None = None) -> bool:
        """Does ``phrase`` occur once a hyphenated term is read as its parts ("Pavlov-style": "Pavlov" and
        "style" each occur) or its words the index never saw as slips of words it did ("reserchers", "rythm",
        "Great Compromize")?  Each such word must be within a few letters of an indexed word
        (``rows.spelled_like``); the phrase is then matched with that word's stem as a prefix.  False when
        ``phrase`` holds neither."""
        parts = [p for p in re.split(r"[-‐–]", phrase) if p.strip()]
        if len(parts) > 1 and all(self.mentions(p, book_id) for p in parts):
            return True
        words = re.findall(r"[^\W_]+", phrase.lower())
        if not words:
            return True
        stems = index_stems(self.db, words)
        tokens, changed = [], False
        for word, stem in zip(words, stems):
            if not stem or self.db.execute("SELECT 1 FROM temp.chunks_vocab WHERE term = ?", [stem]).fetchone():
                tokens.append('"' + word.replace('"', '""') + '"')
                continue
            near = spelled_like(self.db, stem, word)
            if not near:
                return False
            tokens.append(near[0] + "*")  # a prefix token is matched unstemmed, as the index stored it
            changed = True
        if not changed:
            return False
        expr = " + ".join(tokens)
        scope, params = _match_scope(expr, book_id)
        return self.db.execute(f"SELECT 1 FROM chunks_fts {scope} LIMIT 1", params).fetchone() is not None

    def vector(self, query: str | np.ndarray, k: int, flt: SearchFilter = SearchFilter()) -> list[tuple[int, float]]:
        """FAISS inner-product ranking over normalised vectors (scores are cosines)."""
        qvec = self._embed_query(query) if isinstance(query, str) else query
        allowed = None
        if not flt.is_empty:
            where, params = flt.sql("c")
            allowed = [r[0] for r in self.db.execute(f"SELECT c.id FROM chunks c WHERE 1{where}", params)]
        return self._vectors().search(qvec, k, allowed)

    def candidates(self, query: str, flt: SearchFilter = SearchFilter(), *, modes: Sequence[SearchMode] = (
            SearchMode.KEYWORD, SearchMode.VECTOR)) -> Candidates:
        out = Candidates()
        n = self.config.candidates
        if SearchMode.KEYWORD in modes:
            t = time.perf_counter()
            out.keyword = self.keyword(query, n, flt)
            out.timings_ms["keyword"] = (time.perf_counter() - t) * 1000
        if SearchMode.VECTOR in modes:
            t = time.perf_counter()
            out.vector = self.vector(query, n, flt)
            out.timings_ms["vector"] = (time.perf_counter() - t) * 1000
        return out

    # -- fusion ------------------------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, flt: SearchFilter = SearchFilter(),
               mode: SearchMode = SearchMode.HYBRID) -> list[Hit]:
        """Top-``k`` hits for ``query`` with the given mode; hybrid fuses both lists with RRF."""
        modes = (SearchMode.KEYWORD, SearchMode.VECTOR) if mode is SearchMode.HYBRID else (mode,)
        cands = self.candidates(query, flt, modes=modes)
        if mode is SearchMode.KEYWORD:
            ranked = cands.keyword
        elif mode is SearchMode.VECTOR:
            ranked = cands.vector
        else:
            ranked = reciprocal_rank_fusion(
                {"keyword": [i for i, _ in cands.keyword], "vector": [i for i, _ in cands.vector]},
                k=self.config.rrf_k,
                weights={"keyword": self.config.keyword_weight, "vector": self.config.vector_weight})
        kw = dict(cands.keyword)
        vec = dict(cands.vector)
        chunks = self.chunks([i for i, _ in ranked[:k]])
        # A chunk ranked a moment ago may be gone: a staged import (here or in another process) replaced
        # its chapter's keyword-only chunks, or the book was removed.  Those are skipped, not fatal.
        top = [(cid, score) for cid, score in ranked[:k] if cid in chunks]
        hits = []
        for rank, (cid, score) in enumerate(top, start=1):
            stages = tuple((name, val) for name, val in (("keyword", kw.get(cid)), ("vector", vec.get(cid)))
                           if val is not None)
            hits.append(Hit(rank=rank, chunk=chunks[cid], score=float(score), stage_scores=stages))
        return hits

    def labelled(self, labels: Sequence[str], book_id: str | None = None, limit: int = 2) -> list[Chunk]:
        """The figures and tables a question names ("Figure 3.2"), up to ``limit`` per label, in book order."""
        ids: list[int] = []
        for label in labels:
            sql = "SELECT id FROM chunks WHERE label = ? COLLATE NOCASE" + (" AND book_id = ?" if book_id else "")
            ids += [r[0] for r in self.db.execute(sql + f" ORDER BY book_id, ordinal LIMIT {int(limit)}",
                                                  [label] + ([book_id] if book_id else []))]
        found = self.chunks(ids)
        return [found[i] for i in ids if i in found]

    def chunks(self, ids: Sequence[int]) -> dict[int, Chunk]:
        """Load chunks by id (with printed page labels)."""
        rows = [row for i in range(0, len(ids), 500)  # SQLite caps the parameters of one statement
                for row in self.db.query(f"SELECT * FROM chunks WHERE id IN ({','.join('?' * len(ids[i:i + 500]))})",
                                         list(ids[i:i + 500]))]
        out: dict[int, Chunk] = {}
        labels_by_book: dict[str, dict[int, str]] = {}
        for row in rows:
            labels = labels_by_book.setdefault(row["book_id"], self._labels(row["book_id"]))
            out[row["id"]] = chunk_from_row(row, labels)
        return out


def _match_scope(expr: str, book_id: str | None) -> tuple[str, list]:
    """The FROM-clause tail and parameters that match ``expr`` in the keyword index (of one book).  CROSS JOIN
    keeps the index match as the outer loop: with a plain JOIN, SQLite walks the book's chunks and runs the match
    once per chunk when the query asks for no ranking (0.1-1 s for a phrase the book never uses, 0.1 ms this
    way)."""
    if not book_id:
        return "WHERE chunks_fts MATCH ?", [expr]
    return "CROSS JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? AND c.book_id = ?", [expr, book_id]
