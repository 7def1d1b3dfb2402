"""Key-term answer keys: is a free-form answer right?  (``benchmarks/data/answer_keys/<book>.jsonl``)

A key names the few terms any correct answer must contain, each with its acceptable alternatives:
``{"qid": ..., "key_terms": [["public goods", "public good"]]}``.  An answer's key-term recall is the
share of key terms of which at least one alternative occurs in it as a whole-word sequence, after
lower-casing and Porter stemming (stopwords are kept: "does not compile" must not match "does compile").
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.ingest.language import SNOWBALL, snowball_stemmer

_TOKEN = re.compile(r"[a-z0-9_]+(?:'[a-z]+)?|[^\sa-z0-9_]")


@dataclass(frozen=True)
class AnswerKey:
    """The key terms of one gold question (each term: a tuple of acceptable alternatives)."""

    qid: str
    key_terms: tuple[tuple[str, ...], ...]


def load_keys(path: str | Path) -> dict[str, AnswerKey]:
    """Answer keys by qid from a JSON Lines file."""
    out: dict[str, AnswerKey] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            out[str(r["qid"])] = AnswerKey(str(r["qid"]), tuple(tuple(t) for t in r["key_terms"]))
    return out


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer  # pure Python, no data files
    return PorterStemmer()


def _tokens(text: str) -> list[str]:
    words = _TOKEN.findall(text.lower().replace("’", "'").replace("n't", " not"))
    return [_stemmer().stem(w) if w[0].isalpha() else w for w in words]


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return n > 0 and any(list(haystack[i:i + n]) == list(needle) for i in range(len(haystack) - n + 1))


def key_term_recall(text: str, key_terms: Sequence[Sequence[str]], language: str = "en") -> float:
    """Share of ``key_terms`` (each a list of alternatives) found in ``text``; 0 for no terms.  An answer in another
    ``language`` ("es", "fr", "de", "pt": Snowball stems, so "philosophes" holds "philosophie"; "zh": characters)
    may hold a term in that language or in English.

    >>> key_term_recall("Public goods are available to all.", [["public goods", "public good"]])
    1.0
    """
    if not key_terms:
        return 0.0
    if language in SNOWBALL or language == "zh":
        found = sum(1 for alternatives in key_terms if any(_holds(text, a, language) for a in alternatives))
        return found / len(key_terms)
    tokens = _tokens(text)
    found = sum(1 for alternatives in key_terms if any(_contains(tokens, _tokens(a)) for a in alternatives))
    return found / len(key_terms)


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?|[^\w\s]", re.U)


def _holds(text: str, term: str, language: str) -> bool:
    """Does an answer in ``language`` hold ``term`` (in that language, or the English one)?"""
    if _contains(_tokens(text), _tokens(term)):  # the book's English term, as for an English answer
        return True
    if language == "zh":  # no spaces between words: the characters, in order
        return "".join(term.lower().split()) in "".join(text.lower().split())
    stem = snowball_stemmer(language).stem

    def stems(s: str) -> list[str]:  # accents folded after stemming: "filósofos" and "filosofia" meet
        return [_fold(stem(w)) for w in _WORD.findall(s.lower().replace("’", "'"))]
    return _contains(stems(text), stems(term))


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


__all__ = ["AnswerKey", "key_term_recall", "load_keys"]
