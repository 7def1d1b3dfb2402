"""Sentence splitting that works fully offline: nltk's Punkt trained on the book itself.

Punkt is unsupervised, so no ``punkt`` data package is needed: ``train_splitter`` learns the
book's own abbreviations, collocations and sentence starters from (a sample of) its text, and we
add a curated list of textbook abbreviations.  Because Punkt's statistics can still be fooled, a
small rule pass afterwards re-joins splits that must never happen: "e.g.", "Fig. 3.2", "Eq. 4",
"et al.", "No. 5", "p. 12", initials such as "B. F. Skinner", and a split followed by a lowercase
word.  Decimals like "3.14" are a single Punkt token and never split.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing nltk pulls in scipy and scikit-learn (~1.2 s): only when splitting
    from nltk.tokenize.punkt import PunktParameters

log = logging.getLogger(__name__)

# Lowercase and without the final period, as Punkt stores abbreviation types.  Only words that
# rarely end a sentence belong here: "no", "min", "ex"... do end sentences, so they are handled by
# the number rule below ("No. 5") instead of being taught to Punkt.
DEFAULT_ABBREVIATIONS: frozenset[str] = frozenset({
    "e.g", "i.e", "cf", "vs", "viz", "al", "approx", "ca", "resp", "incl",
    "fig", "figs", "eq", "eqs", "eqn", "eqns", "p", "pp", "ch", "chap", "chaps", "sec", "secs", "vol", "vols",
    "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "mt", "ft", "capt", "lt", "sgt",
    "inc", "ltd", "corp", "dept", "univ", "assn", "natl", "intl", "jan", "feb", "apr", "aug", "sept", "oct", "nov",
    "u.s", "u.k", "u.n", "a.m", "p.m", "ph.d", "m.d", "b.a", "m.a", "b.s", "m.s", "n.d", "d.c",
})
# Short everyday words Punkt may wrongly learn as abbreviations when they often end sentences.
_NEVER_ABBREVIATIONS = frozenset({
    "so", "us", "it", "up", "me", "do", "go", "he", "we", "be", "is", "am", "an", "as", "at", "by", "if", "in",
    "of", "on", "or", "to", "my", "oh", "ok", "no", "yes", "too", "now", "out", "one", "two", "all", "etc",
})

# Abbreviations after which a split is always wrong, whatever follows.
_ALWAYS_JOIN = re.compile(
    r"(?:^|[\s(\[{\"'“‘])(?:e\.g|i\.e|cf|vs|viz|approx|et\s+al|fig|figs|eq|eqs|eqn|eqns|ch|chap|sec|secs|"
    r"dr|mr|mrs|ms|prof|v)\.$", re.IGNORECASE)  # "v.": a case name ("Marbury v. Madison")
# Abbreviations that only bind to a number (or numbered thing) after them: "No. 5", "p. 12", "Vol. II".
_JOIN_BEFORE_NUMBER = re.compile(
    r"(?:^|[\s(\[{\"'“‘])(?:no|nos|p|pp|vol|vols|art|ref|refs|tab|para|ex|pt|app|appx)\.$", re.IGNORECASE)
_STARTS_NUMBERISH = re.compile(r"^[(\[]?(?:\d|[ivxlcIVXLC]+\b|[A-Z]\d|[A-Z]\.\d)")
# A single capital initial ending the sentence: "... B." (optionally after another initial).
_INITIAL_END = re.compile(r"(?:^|[\s(\[\"'“‘])(?P<prev>\S+\s+)?(?P<init>[A-Z])\.$")
_INITIAL_START = re.compile(r"^[A-Z]\.(?:\s|$)")
# Words that often precede a single capital letter that really does end a sentence ("Appendix B.").
_NOT_NAME_WORDS = frozenset({
    "appendix", "figure", "table", "part", "plan", "type", "group", "step", "vitamin", "section", "chapter",
    "exhibit", "model", "phase", "stage", "class", "grade", "option", "form", "schedule", "unit", "point",
    "answer", "choice", "item", "case", "version", "level", "list", "box", "row", "column", "line", "at",
    "in", "is", "of", "to", "and", "or", "be", "was", "were", "are", "as", "from", "with", "by", "hepatitis",
})


# Punkt's own initials rule keeps "vitamin C. Deficiency" together; after these words a single
# capital letter is a label, not an initial, so a following capitalised word starts a sentence.
_LABEL_THEN_SENTENCE = re.compile(
    r"\b(?:" + "|".join(sorted(w for w in _NOT_NAME_WORDS if len(w) > 3)) + r")\s+[A-Z]\.(?P<gap>\s+)(?=[A-Z][a-z])",
    re.IGNORECASE)


class SentenceSplitter:
    """Splits text into sentences with trained Punkt parameters plus Lantern's repair rules."""

    def __init__(self, params: PunktParameters):
        from nltk.tokenize.punkt import PunktSentenceTokenizer
        self._punkt = PunktSentenceTokenizer(params)

    @property
    def abbreviations(self) -> frozenset[str]:
        return frozenset(self._punkt._params.abbrev_types)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans ``(start, end)`` of each sentence in ``text`` (whitespace excluded)."""
        if not text or not text.strip():
            return []
        raw = list(self._punkt.span_tokenize(text))
        if not raw:
            return []
        merged: list[tuple[int, int]] = [raw[0]]
        for start, end in raw[1:]:
            prev_start, prev_end = merged[-1]
            if must_join(text[prev_start:prev_end], text[start:end]):
                merged[-1] = (prev_start, end)
            else:
                merged.append((start, end))
        out: list[tuple[int, int]] = []
        for start, end in merged:
            for m in _LABEL_THEN_SENTENCE.finditer(text, start, end):
                out.append((start, m.start("gap")))
                start = m.end("gap")
            out.append((start, end))
        return [span for span in (_trim(text, s, e) for s, e in out) if span[1] > span[0]]

    def split(self, text: str) -> list[str]:
        """The sentences of ``text``, in order, each stripped."""
        return [text[s:e].strip() for s, e in self.spans(text) if text[s:e].strip()]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_CLOSERS = "\"'”’)]"


def must_join(prev: str, nxt: str) -> bool:
    """True when a split between ``prev`` and ``nxt`` (Punkt's, or any splitter's) breaks an abbreviation or a
    name.  Abbreviations Punkt is taught (``DEFAULT_ABBREVIATIONS``: "U.S.", "D.C.", "St.") it never splits after,
    so they are not repeated here."""
    prev = prev.rstrip()
    nxt = nxt.lstrip()
    if not nxt or not prev.rstrip(_CLOSERS).endswith((".", "?", "!")):
        return False
    first_word = nxt.split(None, 1)[0]
    # Edited prose never starts a sentence in lowercase ('"Why?" she asked'); mixed-case starts
    # ("pH", "iPhone") may.
    if first_word[0].islower() and first_word.islower():
        return True
    if not prev.endswith("."):
        return False
    if _ALWAYS_JOIN.search(prev):
        return True
    if _JOIN_BEFORE_NUMBER.search(prev) and _STARTS_NUMBERISH.match(nxt):
        return True
    m = _INITIAL_END.search(prev)
    if m and nxt[0].isupper():
        if _INITIAL_START.match(nxt):  # "B. | F. Skinner"
            return True
        before = (m.group("prev") or "").strip().strip("(\"'“‘")
        if not before:
            # The initial opens the sentence: only a name if another initial or a name follows.
            return bool(re.match(r"^[A-Z][a-z]+\b", nxt)) and len(prev) <= 3
        if re.fullmatch(r"[A-Z]\.", before):  # "B. F. | Skinner"
            return True
        if before[:1].isupper() and before.lower().strip(".,;:") not in _NOT_NAME_WORDS \
                and before.isalpha():  # "John B. | Watson"
            return True
    return False


def _sample(texts: Iterable[str] | str, limit: int) -> str:
    """Up to ``limit`` characters taken from evenly spaced stretches of the text, cut at paragraphs."""
    text = texts if isinstance(texts, str) else "\n\n".join(t for t in texts if t)
    if len(text) <= limit:
        return text
    pieces = 8  # several stretches so abbreviations from every part of the book are seen
    size = limit // pieces
    stride = len(text) // pieces
    out = []
    for i in range(pieces):
        start = i * stride
        para = text.find("\n\n", start)
        if 0 <= para < start + stride // 2:
            start = para + 2
        out.append(text[start:start + size])
    return "\n\n".join(out)


def _keep_learned(abbrev: str) -> bool:
    """Punkt also 'learns' ordinary short words that often end sentences ("cry", "hat"); drop them."""
    if abbrev in _NEVER_ABBREVIATIONS:
        return False
    return "." in abbrev or len(abbrev) <= 2 or abbrev in DEFAULT_ABBREVIATIONS


def train_splitter(texts: Iterable[str] | str, *, sample_chars: int = 400_000,
                   extra_abbreviations: Iterable[str] = ()) -> SentenceSplitter:
    """Train Punkt on the book's text (a sample of ``sample_chars`` when larger) -> a splitter.

    ~0.7 s for the default sample; training on a whole 1.7 MB book takes ~3.5 s for no
    measurable gain in abbreviations found.
    """
    from nltk.tokenize.punkt import PunktParameters, PunktTrainer
    sample = _sample(texts, sample_chars)
    params = PunktParameters()
    if sample.strip():
        trainer = PunktTrainer()
        trainer.train(sample, finalize=False)
        trainer.finalize_training()
        params = trainer.get_params()
        learned = {a for a in params.abbrev_types if _keep_learned(a)}
        dropped = set(params.abbrev_types) - learned
        if dropped:
            log.debug("punkt: ignoring learned abbreviations %s", sorted(dropped))
        params.abbrev_types = learned
    params.abbrev_types |= DEFAULT_ABBREVIATIONS
    params.abbrev_types |= {a.lower().rstrip(".") for a in extra_abbreviations}
    return SentenceSplitter(params)


@lru_cache(maxsize=1)
def default_splitter() -> SentenceSplitter:
    """An untrained splitter (curated abbreviations only), for short texts such as queries."""
    from nltk.tokenize.punkt import PunktParameters
    params = PunktParameters()
    params.abbrev_types = set(DEFAULT_ABBREVIATIONS)
    return SentenceSplitter(params)


def split_sentences(text: str, splitter: SentenceSplitter | None = None) -> list[str]:
    """Sentences of ``text`` using ``splitter`` (default: ``default_splitter()``)."""
    return (splitter or default_splitter()).split(text)
