"""Does an answer sentence say what its source says, or something close to it but wrong?

Attribution (``core.answer.attribution``) finds the source sentence most like an answer sentence; a
high similarity is not agreement.  Small models keep a source's words and change its meaning: they
attach a definition to the wrong term ("*kinetic* energy is the capacity to do work" beside "energy is
the capacity to do work"), drop or add a "not", or put in a number the book never gives.  ``conflict``
names the first such mismatch between a sentence and its best supporting source sentence (and the
whole passage), or returns None.  Pure functions over strings: cheap, offline, and deliberately
narrow — each rule fires only on a pattern that changes what a sentence claims.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from core.index.fts import function_word_language, query_terms, text_tokens
from core.ingest.language import NOUNS_CAPITALISED
from core.retrieval.mentions import TermKind, named_terms

_NEGATION = re.compile(r"\b(?:not|no|never|cannot|can't|won't|isn't|aren't|doesn't|don't|didn't|wasn't|weren't|"
                       r"neither|nor|without|none|nothing)\b|n't\b", re.I)
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:[.,]\d+)*(?:\s?%)?")
# "<subject> is/are/means/refers to <predicate>": the subject is what a definition is about.
_DEFINITION = re.compile(r"^(?:an?\s+|the\s+)?(?P<subject>[^,;:()]{2,60}?)\s+"
                         r"(?:is|are|was|were|means|refers to|is defined as|is called)\s+(?P<rest>.+)$", re.I)
# A sentence that opens with one of these words takes its subject from the sentence before it.
_ANAPHOR = re.compile(r"^(?:it|its|this|these|that|those|they|their|such|he|she|his|her)\b", re.I)
_STEM_SUFFIX = re.compile(r"(?:ies|es|s|ing|ed|ly)$")


def _stem(word: str) -> str:
    return _STEM_SUFFIX.sub("", word) if len(word) > 4 else word


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in query_terms(text)}


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


# Words that state a factor ("doubles", "twice", "quadruples", "halved"), as the number they stand for.
_FACTORS = {w: v for v, words in (("2", "double doubles doubled doubling twice"), ("3", "triple triples tripled tripling"),
                                  ("4", "quadruple quadruples quadrupled quadrupling"),
                                  ("0.5", "half halve halves halved halving")) for w in words.split()}
_ANY_NUMBER_WORD = _NUMBER_WORDS | _FACTORS


def _stated_numbers(text: str, words: dict[str, str]) -> list[str]:
    """Each number the text states, in order and repeated: digits, and the ``words`` that stand for one."""
    found = [n.replace(",", "").replace("−", "-").replace(" ", "") for n in _NUMBER.findall(text)]
    return found + [words[w] for w in re.findall(r"[a-z]+", text.lower()) if w in words]


def _numbers(text: str) -> set[str]:
    return set(_stated_numbers(text, _NUMBER_WORDS))


def unstated_factor(sentence: str, evidence: str, question: str = "") -> bool:
    """Does the sentence state a factor ("doubles", "twice") more often than the evidence and the question state
    that number (in digits, number words or factor words)?  "If you double the speed, its kinetic energy will also
    double" beside "doubling the speed … multiplies its kinetic energy by four": the second "double" is the model's
    (the sample book's own question was so answered, and cited, in a fresh clone's self-test)."""
    own = Counter(_FACTORS[w] for w in re.findall(r"[a-z]+", sentence.lower()) if w in _FACTORS)
    if not own:
        return False
    have = Counter(_stated_numbers(evidence, _ANY_NUMBER_WORD)) + Counter(_stated_numbers(question, _ANY_NUMBER_WORD))
    return any(n > have[v] for v, n in own.items())


def negated(text: str) -> bool:
    """Does the sentence contain a negation ("not", "never", "n't", "no", ...)?"""
    return bool(_NEGATION.search(text))


def definition_subject(sentence: str) -> str | None:
    """The term a definitional sentence defines ("Kinetic energy" in "Kinetic energy is ..."), or None."""
    m = _DEFINITION.match(sentence.strip())
    if not m:
        return None
    subject = m.group("subject").strip()
    return subject if 1 <= len(subject.split()) <= 6 else None


def leans_on_previous(sentence: str) -> bool:
    """Does the sentence take its subject from the one before ("It comes in many forms", "This is why …")?
    When that one is dropped, this one says something about the wrong thing, or about nothing."""
    return bool(_ANAPHOR.match(sentence.strip().lstrip("\"“(")))


def unsourced_names(sentence: str, passage: str, question: str = "") -> list[str]:
    """Names and acronyms in ``sentence`` ("James Madison", "the Virginia Plan", "NASA") that neither the passage
    nor the question contains, word for word after folding case and inflection: a name the model brought in.  In a
    German sentence a single capitalised word is a noun, not a name (``NOUNS_CAPITALISED``): there only runs of
    capitalised words ("Uncomplicated Firewall"), acronyms, code and quoted terms count."""
    known = _stems(passage) | _stems(question)
    nouns = function_word_language(text_tokens(sentence)) in NOUNS_CAPITALISED
    out = []
    for term in named_terms(sentence, nouns_capitalised=nouns):
        words = _stems(term.text) if term.kind in (TermKind.NAME, TermKind.ACRONYM) else set()
        if words and not words <= known:
            out.append(term.text)
    return out


def conflict(sentence: str, quote: str, passage: str, question: str = "") -> str | None:
    """Why ``sentence`` misstates its best source sentence ``quote`` (from ``passage``), or None.

    * ``"negation"`` — one says "not"/"never"/"no" where the other, otherwise alike, does not;
    * ``"number"`` — a number the whole passage never gives (the question's own numbers excepted);
    * ``"name"`` — a name or acronym neither the passage nor the question contains ("Madison" beside a
      passage about Washington);
    * ``"subject"`` — a definition of a term whose words are not in the quote (the right definition
      attached to the wrong term). When the question asks about exactly that term, only a quote that
      defines another named term counts ("Energy is …" for "Kinetic energy is …"); one that says "It is
      …" or "This is …" may well be about the asked term.
    """
    own, theirs = _stems(sentence), _stems(quote)
    if own and len(own & theirs) / len(own) >= 0.6 and negated(sentence) != negated(quote):
        return "negation"
    extra = _numbers(sentence) - _numbers(passage) - _numbers(question)
    if extra:
        return "number"
    if unsourced_names(sentence, passage, question):
        return "name"
    subject = definition_subject(sentence)
    q_subject = definition_subject(quote)
    if subject and q_subject:
        words = _stems(subject)
        names_another = bool(_stems(q_subject))  # not a pronoun: "Energy", not "It" or "This"
        if words and not words <= theirs and (names_another or not words <= _stems(question)):
            return "subject"
    return None


# "X is the …", "X are a …": a term defined by its kind (genus and difference).  Narrower than
# ``definition_subject``, whose lazy subject also matches "The complex has unpaired electrons because it is …".
_TERM_DEFINITION = re.compile(r"^(?:an?\s+|the\s+)?(?P<term>[^,;:()]{2,60}?)\s+(?:is|are|means|refers to)\s+"
                              r"(?:an?|the)\s", re.I)


def _term_defined(sentence: str) -> set[str]:
    """The stems of the term a sentence defines by its kind ("Energy is the capacity …" → {energy}), or empty."""
    m = _TERM_DEFINITION.match(sentence.strip())
    return _stems(m.group("term")) if m else set()


def borrows_definition(sentence: str, evidence: Iterable[str]) -> bool:
    """Does a definition ("Kinetic energy is the capacity to do work, measured in joules") hold every word of what
    an evidence sentence says defines another term ("Energy is the capacity to do work.")?  Then it gives its term
    the other's definition, whichever sentence shares its remaining words."""
    term = _term_defined(sentence)
    own = _stems(sentence)
    return bool(term) and any(_defines_another(e, sentence, term) and (_stems(e) - _term_defined(e)) <= own
                              for e in evidence)


def _defines_another(evidence: str, sentence: str, term: set[str]) -> bool:
    """Does the evidence define by its kind another term ("Energy is the capacity to do work.") than the sentence's
    ``term`` ("Kinetic energy is the …": its words are not all in the evidence), one the sentence's predicate does
    not use ("SnCl4 is not a salt" rests on what a salt is)?  Then its predicate is another term's."""
    defined = _term_defined(evidence)
    return bool(defined) and not term <= _stems(evidence) and not defined <= _stems(sentence) - term


__all__ = ["borrows_definition", "conflict", "definition_subject", "leans_on_previous", "negated", "unsourced_names"]
