"""Text helpers shared by the study tools: stitching overlapping chunks back into running text,
normalising for comparison, sentence splitting and answer-in-passage verification; ``is_prose``, which
keeps figure captions and tables out of the material study items are made from; and ``round_robin``,
which spreads a chapter's items over its sections.

Pure functions; no storage, no models.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from core.models import Chunk

T = TypeVar("T")
_WS = re.compile(r"\s+")
_PUNCT = re.compile(r"[^\w\s.%/+\-]")
_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")  # a full stop, not a decimal point
_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_SENT = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[\"“(]?[A-Z0-9])|\n\s*\n")
STOPWORDS = frozenset(
    "a an the of and or to in on at by for with from as is are was were be been being it its this that these those "
    "which who whom what when where why how than then there their they them he she his her we you your our i not "
    "no do does did can could may might will would should shall has have had into onto about over under also such "
    "each any all some most more many much very only both either neither".split())


@dataclass(frozen=True)
class Run:
    """Consecutive chunks of one section stitched into one text; ``spans`` maps offsets to chunks."""

    text: str
    spans: tuple[tuple[int, Chunk], ...]  # (start offset in ``text``, chunk), ascending

    def chunk_at(self, offset: int) -> Chunk:
        """The chunk whose text covers ``offset``."""
        best = self.spans[0][1]
        for start, chunk in self.spans:
            if start > offset:
                break
            best = chunk
        return best


def is_prose(chunk: Chunk) -> bool:
    """True unless ``chunk`` is a figure caption or a table on its own (a non-empty ``label``).

    Study items (cards, quiz questions, true/false statements, lesson and guide lines, examples) are
    made from the book's running sentences; a caption ("Figure 3.2 A neuron has ...") or a grid of cells
    ("a | b | c") is not a sentence a card or question can be made from, so the generators skip such
    chunks.  Uses that are not making items (counting pages, listing sections, citing) keep them."""
    return not chunk.label


def normalize(text: str) -> str:
    """Lower case, NFKC, unified quotes/dashes, markdown emphasis dropped, whitespace collapsed."""
    t = unicodedata.normalize("NFKC", text).lower()
    t = t.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    t = t.replace("–", "-").replace("—", "-").replace("−", "-").replace("*", "").replace("_", " ")
    return _WS.sub(" ", t).strip()


def loose(text: str) -> str:
    """``normalize`` plus punctuation removed: for containment checks that ignore commas and quotes."""
    return _WS.sub(" ", _DOT.sub(" ", _PUNCT.sub(" ", normalize(text)))).strip()


def content_words(text: str) -> list[str]:
    """Lower-case words and numbers of ``text`` without stop words."""
    return [w for w in _WORD.findall(normalize(text)) if w not in STOPWORDS]


def sentences(text: str) -> list[str]:
    """A simple, fast sentence split (paragraph breaks and sentence punctuation)."""
    return [s.strip() for s in _SENT.split(text) if s and s.strip()]


def _overlap(acc: str, nxt: str) -> int:
    """Length of the longest suffix of ``acc`` that is a prefix of ``nxt`` (at least 8 chars), else 0."""
    probe = nxt[:8]
    if len(probe) < 8:
        return 0
    lo = max(0, len(acc) - 4000)
    pos = acc.find(probe, lo)
    while pos != -1:
        if nxt.startswith(acc[pos:]):
            return len(acc) - pos
        pos = acc.find(probe, pos + 1)
    return 0


def stitch(chunks: Sequence[Chunk]) -> list[Run]:
    """Group chunks (in reading order) by section and join each group's texts, removing the overlap
    the chunker repeats at chunk starts, so items cut across two chunks come back whole."""
    runs: list[Run] = []
    text, spans, section = "", [], object()
    for c in chunks:
        if c.section_id != section or not spans or spans[-1][1].ordinal + 1 != c.ordinal:
            if spans:
                runs.append(Run(text, tuple(spans)))
            text, spans, section = c.text, [(0, c)], c.section_id
            continue
        cut = _overlap(text, c.text)
        start = len(text) - cut if cut else len(text) + 2
        text = text[:start] + c.text if cut else text + "\n\n" + c.text
        spans.append((start, c))
    if spans:
        runs.append(Run(text, tuple(spans)))
    return runs


def contains_answer(passage: str, answer: str) -> bool:
    """True when the keyed ``answer`` occurs in ``passage`` (case, punctuation and spacing ignored)."""
    a = loose(answer)
    if not a:
        return False
    return f" {a} " in f" {loose(passage)} "


def support(passage: str, answer: str) -> tuple[float, str]:
    """How well one sentence of ``passage`` carries the answer's content words: (share 0..1, sentence).

    1.0 when every content word (and number) of ``answer`` appears in one sentence; the semantic
    fallback of the verifier for paraphrased keys.
    """
    want = set(content_words(answer))
    if not want:
        return 0.0, ""
    best, best_sentence = 0.0, ""
    for s in sentences(passage):
        have = set(content_words(s))
        # plural/singular and simple suffixes: "neurons" supports "neuron"
        hits = sum(1 for w in want if w in have or any(h.startswith(w[:max(4, len(w) - 2)]) for h in have))
        share = hits / len(want)
        if share > best:
            best, best_sentence = share, s
    return best, best_sentence


def evidence_sentence(passage: str, answer: str) -> str:
    """The sentence of ``passage`` that contains (or best supports) ``answer``."""
    a = loose(answer)
    for s in sentences(passage):
        if a and f" {a} " in f" {loose(s)} ":
            return s
    return support(passage, answer)[1]


def round_robin(groups: Iterable[Sequence[T]]) -> list[T]:
    """The first item of each group in turn, then the second of each, and so on (a chapter's items spread
    over its sections rather than all from the first)."""
    lists = list(groups)
    return [g[i] for i in range(max(map(len, lists), default=0)) for g in lists if i < len(g)]
