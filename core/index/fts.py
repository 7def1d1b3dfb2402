"""What the keyword index matches: word tokens, stopwords and a safe FTS5 MATCH expression.

Pure functions (no database, no model), shared by the section index, retrieval and attribution.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

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
