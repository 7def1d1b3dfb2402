"""Pure retrieval algorithms: FTS5 escaping, reciprocal rank fusion, filters."""
from __future__ import annotations

import sqlite3

import pytest

from core.retrieval.retriever import SearchFilter
from core.index.fts import fts_match_expression, query_terms
from core.retrieval.fusion import reciprocal_rank_fusion

HOSTILE = [
    'what is "NEAR(a b)" AND OR NOT *',
    "titles:secret - ( ) ^ + {x}",
    "C++ vs. C# — what's the différence?",
    "' OR 1=1; DROP TABLE chunks; --",
    "\x00\x01 weird \u202e bidi",
]


@pytest.fixture
def fts():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(titles, text, tokenize='porter unicode61 remove_diacritics 2')")
    db.execute("INSERT INTO t VALUES ('Cells', 'the cell membrane controls transport')")
    db.execute("INSERT INTO t VALUES ('Energy', 'photosynthesis turns light into sugar; NEAR and AND are words')")
    return db


@pytest.mark.parametrize("text", HOSTILE)
def test_any_user_text_is_a_valid_fts_query(fts, text):
    expr = fts_match_expression(text)
    if expr is not None:
        fts.execute("SELECT rowid FROM t WHERE t MATCH ?", [expr]).fetchall()  # must not raise


def test_operators_in_user_text_are_searched_as_words(fts):
    expr = fts_match_expression("near and")
    rows = fts.execute("SELECT rowid FROM t WHERE t MATCH ?", [expr]).fetchall()
    assert rows == [(2,)]


def test_column_filter_syntax_cannot_escape(fts):
    expr = fts_match_expression("titles:Cells")
    assert ":" not in expr.replace('"titles"', "").replace('"cells"', "")
    assert fts.execute("SELECT rowid FROM t WHERE t MATCH ?", [expr]).fetchall() == [(1,)]


def test_query_terms_drop_stopwords_and_duplicates():
    assert query_terms("What is the cell, the CELL membrane?") == ["cell", "membrane"]
    assert query_terms("what is it") == []
    assert fts_match_expression("what is it") == '"what" OR "is" OR "it"'  # falls back to all words
    assert fts_match_expression("?!") is None


def test_rrf_uses_explicit_k_and_weights():
    fused = reciprocal_rank_fusion({"a": [1, 2, 3], "b": [3, 1]}, k=10)
    scores = dict(fused)
    assert scores[1] == pytest.approx(1 / 11 + 1 / 12)
    assert scores[3] == pytest.approx(1 / 13 + 1 / 11)
    assert scores[2] == pytest.approx(1 / 12)
    assert [d for d, _ in fused] == [1, 3, 2]
    only_b = reciprocal_rank_fusion({"a": [1, 2, 3], "b": [3, 1]}, k=10, weights={"a": 0.0})
    assert [d for d, _ in only_b] == [3, 1]


def test_rrf_small_k_trusts_the_top_more():
    lists = {"a": [1, 2], "b": [2, 3]}
    assert reciprocal_rank_fusion(lists, k=1)[0][0] == 2
    assert reciprocal_rank_fusion({"a": [1], "b": [5, 6, 7, 1]}, k=1)[0][0] == 1


def test_filter_sql_fragments():
    assert SearchFilter().sql() == ("", [])
    where, params = SearchFilter(book_id="b1", chapters=("2", "3"), page_range=(10, 20)).sql("c")
    assert where == " AND c.book_id = ? AND c.chapter_number IN (?,?) AND c.page_end >= ? AND c.page_start <= ?"
    assert params == ["b1", "2", "3", 10, 20]


def test_prune_common_terms_drops_the_commonest_until_under_the_cap_and_keeps_order():
    from core.index.fts import prune_common_terms
    df = {"the": 90_000, "cell": 40_000, "membrane": 2_000, "osmosis": 300}
    terms = ["cell", "the", "osmosis", "membrane"]
    assert prune_common_terms(terms, df, cap=200_000) == terms  # under the cap: untouched
    assert prune_common_terms(terms, df, cap=50_000) == ["cell", "osmosis", "membrane"]
    assert prune_common_terms(terms, df, cap=1_000, keep=3) == ["cell", "osmosis", "membrane"]
    assert prune_common_terms(["x", "cell"], {"cell": 10**6}, cap=10, keep=1) == ["x"]  # unknown counts 0


def test_the_cap_is_reachable_only_with_more_terms_than_kept_and_enough_chunks():
    from core.index.fts import POSTINGS_CAP, cap_reachable
    assert not cap_reachable(3, 10**9)  # never fewer than the kept terms
    assert not cap_reachable(10, POSTINGS_CAP // 10)  # every term in every chunk is still at most the cap
    assert cap_reachable(10, POSTINGS_CAP // 10 + 1)


def test_function_words_of_the_language_a_text_is_in_are_not_search_terms():
    assert query_terms("La taille d'un tube est toujours nulle") == ["taille", "tube", "toujours", "nulle"]
    assert query_terms("¿Qué tamaño muestra y por qué?") == ["tamaño", "muestra"]
    # in English text the same letters are content: chemical symbols, astronomical units, "el Niño"
    assert query_terms("What happens when Na and Cl react?") == ["happens", "na", "cl", "react"]
    assert query_terms("The orbit is 5 AU from the Sun") == ["orbit", "5", "au", "sun"]
