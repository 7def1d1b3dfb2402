"""What the keyword index matches: word tokens, stopwords and a safe FTS5 MATCH expression.

Pure functions (no database, no model), shared by the section index, retrieval and attribution.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from core.ingest.language import FUNCTION_WORDS

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


def text_tokens(text: str) -> list[str]:
    """``text``'s lower-cased word tokens (letters/digits; an elided article or pronoun dropped), stopwords kept."""
    return query_terms(text, keep_stopwords=True)


def query_terms(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens of ``text`` (letters/digits only), de-duplicated, stopwords dropped: the English
    ones, and the function words of another language when ``text`` is in it (``foreign_function_words``)."""
    tokens = []
    for tok in _TOKEN.findall(text.lower()):
        tok = tok.replace("’", "'")
        if "'" in tok:  # "don't" -> "don"; an elided article or pronoun goes ("l'économie" -> "économie")
            head, tail = tok.split("'", 1)
            tok = tail if len(head) <= 2 and len(tail) >= 3 else head
        if tok and (len(tok) > 1 or tok.isdigit()):
            tokens.append(tok)
    drop = frozenset() if keep_stopwords else STOPWORDS | foreign_function_words(tokens)
    return list(dict.fromkeys(t for t in tokens if t not in drop))


def function_word_language(tokens: Sequence[str]) -> str:
    """The language (French, Spanish, German, Portuguese) whose function words ``tokens`` use most, when they use
    them more than English stopwords; else English ("en").  No detector and no threshold: "Na", "Au" or "el Niño"
    in an English sentence are outnumbered by its "the", "of" and "is" (1 of 15,000 sentences of the dev books
    went to another language, a citation), while "la taille d'un tube est nulle" is French."""
    english = sum(t in STOPWORDS for t in tokens)
    counts = {lang: sum(t in words for t in tokens) for lang, words in FUNCTION_WORDS.items()}
    best = max(counts, key=counts.__getitem__)
    return best if counts[best] > english else "en"


def foreign_function_words(tokens: Sequence[str]) -> frozenset[str]:
    """The function words of the language ``tokens`` are in (``function_word_language``), none for English: so
    chemistry keeps its symbols, while "la taille d'un tube est nulle" drops "la", "un" and "est"."""
    return FUNCTION_WORDS.get(function_word_language(tokens), frozenset())


MAX_TERMS = 32
POSTINGS_CAP = 80_000
"""Above this many matching (term, chunk) pairs the OR-query drops its commonest terms.  FTS5 ranks every
row that matches before LIMIT, so a long question of common words over a 50-book library (183k chunks)
ranked ~150k rows: keyword p95 157 ms.  With the cap: 62 ms, and 96 % of the uncapped top 10 still in
the top 60 (``benchmarks/scale.py``).  A single book of a few thousand chunks never reaches it."""


def match_terms(text: str, *, max_terms: int = MAX_TERMS) -> list[str]:
    """The terms keyword search ORs together (stopwords only when nothing else is left)."""
    return (query_terms(text) or query_terms(text, keep_stopwords=True))[:max_terms]


def fts_match_expression(text: str | Sequence[str], *, max_terms: int = MAX_TERMS) -> str | None:
    """A safe FTS5 MATCH expression: every term double-quoted (so no user text is FTS syntax), OR-ed.

    ``text``: the question, or its terms already chosen.  Returns None when nothing searchable is left
    (then keyword search returns no hits).
    """
    terms = match_terms(text, max_terms=max_terms) if isinstance(text, str) else list(text)
    if not terms:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    return " OR ".join(quoted)


KEEP_TERMS = 3
"""The rarest terms a pruned query always keeps."""


def cap_reachable(n_terms: int, chunk_bound: int) -> bool:
    """Could ``n_terms`` terms match more than ``POSTINGS_CAP`` rows among at most ``chunk_bound`` chunks?
    When not, ``prune_common_terms`` would keep every term, and the frequency lookup can be skipped."""
    return n_terms > KEEP_TERMS and n_terms * chunk_bound > POSTINGS_CAP


def prune_common_terms(terms: Sequence[str], doc_freq: dict[str, int], *, cap: int | None = None,
                       keep: int = KEEP_TERMS) -> list[str]:
    """``terms`` without their commonest ones while their chunk counts add up to more than ``cap``
    (default ``POSTINGS_CAP``; at least the ``keep`` rarest stay; a term of unknown frequency counts as 0).
    Order is kept."""
    cap = POSTINGS_CAP if cap is None else cap
    ranked = sorted(terms, key=lambda t: doc_freq.get(t, 0))
    total = sum(doc_freq.get(t, 0) for t in terms)
    while total > cap and len(ranked) > keep:
        total -= doc_freq.get(ranked.pop(), 0)
    kept = set(ranked)
    return [t for t in terms if t in kept]


def term_patterns(terms: Sequence[str]) -> list[re.Pattern[str]]:
    """One regex per term, matching it with a short inflection ("hypothesis" ~ "hypotheses").

    Whole words only: "operant" must not match "operational".
    """
    out = []
    for t in dict.fromkeys(terms):
        if len(t) > 4 and t.endswith(("is", "es")):
            t = t[:-2]
        elif len(t) > 3 and t.endswith(("s", "y")):
            t = t[:-1]
        out.append(re.compile(r"\b" + re.escape(t) + r"\w{0,3}\b", re.IGNORECASE))
    return out
