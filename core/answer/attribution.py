"""Which source supports which answer sentence: attribution, supporting quotes and the citations shown.

Small local models rarely write ``[n]`` on their own and sometimes invent numbers, so the model's
markers are only a hint.  Every answer sentence is compared with every sentence of every source:
embedding similarity (MiniLM, computed by the caller and passed in as a matrix) plus lexical
overlap (the share of the sentence's content-word stems found in the source).  A sentence gets the
best-supporting source as its citation (the model's own ``[n]`` wins when it is almost as good);
sentences nothing supports are flagged, and those far below the bar are dropped.  The supporting
quote of a citation is the source sentence that matched best, verbatim.

Pure functions over strings and a similarity matrix: no model, no storage.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from core.answer.faithfulness import conflict, leans_on_previous
from core.answer.markers import parse_citations, strip_citations
from core.index.fts import query_terms
from core.ingest.sentences import DEFAULT_ABBREVIATIONS, default_splitter, must_join
from core.models import Chunk, Citation, Source
from core.retrieval.context import source_label

# Calibrated by eye on Qwen2.5 0.5B answers over the dev books (benchmarks/answers.py prints the
# resulting support rates): paraphrases of a source sentence score ≥ 0.5, on-topic sentences that
# add facts from memory 0.3–0.45, unrelated sentences below 0.25.
SUPPORTED = 0.45
DROP_BELOW = 0.25
MODEL_CITATION_SLACK = 0.08  # the model's own [n] is kept when within this of the best source
EMBED_WEIGHT = 0.5
MIN_CONTENT_WORDS = 3  # shorter sentences ("Great question!") are connectives, never cited or dropped
QUOTE_CHARS = 220
BEYOND_BOOK_LABEL = "Beyond the book:"
UNSUPPORTED_LABEL = "not found in your book"  # how the CLI and the desktop mark a sentence no source backs
# ... and a sentence about a program the student pasted, which no book can confirm (``grounding.ABOUT_PROGRAM``)
ABOUT_CODE_LABEL = "about your code: run it to check"  # the tooltip says why the book cannot confirm it

_SENT_SPLIT = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[\"“(]?[A-Z0-9])")
_PARAGRAPH = re.compile(r"\n\s*\n")
_FENCED = re.compile(r"```(.*?)(?:```|$)", re.S)


class Support(str, enum.Enum):
    """How well the sources back one answer sentence."""

    SUPPORTED = "supported"  # cited
    WEAK = "weak"  # kept, uncited, listed as unsupported
    NONE = "none"  # dropped
    CONNECTIVE = "connective"  # too short to judge ("Here is why:"), kept uncited
    BEYOND = "beyond"  # in the labelled "Beyond the book" paragraph: kept, uncited, not judged


@dataclass(frozen=True)
class SourceSentence:
    """One sentence of a source passage (``n`` = the source's number)."""

    n: int
    text: str


@dataclass(frozen=True)
class Attributed:
    """An answer sentence and what supports it."""

    text: str  # the sentence without citation markers
    support: Support
    source: int | None = None  # the cited source number
    quote: str = ""  # the verbatim source sentence that supports it best
    score: float = 0.0
    paragraph: int = 0  # index of the paragraph it came from (to rebuild the layout)
    conflict: str = ""  # why it was dropped although a source is alike (``core.answer.faithfulness``)

    @property
    def cited(self) -> tuple[int, ...]:
        """The numbers this sentence cites (none when unsupported)."""
        return (self.source,) if self.source is not None else ()


# -- sentences -----------------------------------------------------------------------------------
def split_answer(text: str) -> list[tuple[int, str, tuple[int, ...]]]:
    """(paragraph index, sentence without markers, numbers the model cited) for each answer sentence.

    A marker right after a sentence's end ("... energy. [2]") belongs to that sentence.
    """
    out: list[tuple[int, str, tuple[int, ...]]] = []
    for p, para in enumerate(x for x in _PARAGRAPH.split(text) if x.strip()):
        # "x. [2] Next" -> "x [2]. Next": a marker after the full stop still belongs to the sentence
        para = re.sub(r"([.!?])\s*((?:\[[\d\s,;–\-]+\]\s*)+)", lambda m: f" {m.group(2).strip()}{m.group(1)} ", para)
        for raw in _rejoin_abbreviations(_SENT_SPLIT.split(" ".join(para.split()))):
            if raw.strip():
                out.append((p, " ".join(strip_citations(raw).split()), tuple(parse_citations(raw))))
    return out


_LAST_WORD = re.compile(r"(\S+)\.$")
_DOTTED = re.compile(r"(?:[a-z]\.)+[a-z]")  # "a.k.a", "n.b": letters with full stops between


def _split_is_wrong(text: str, following: str) -> bool:
    """Does the regex split between ``text`` and ``following`` break an abbreviation or a name?  What the book
    splitter repairs (``must_join``: "Dr.", "e.g.", "B. F. Skinner", "John F. Kennedy", but not "vitamin C."),
    plus what Punkt is taught and so never splits ("U.S.", "D.C.", "p.") and letters with full stops between."""
    if must_join(text, following):
        return True
    m = _LAST_WORD.search(text.rstrip())
    word = m.group(1).lower().lstrip("(\"“") if m else ""
    return word in DEFAULT_ABBREVIATIONS or bool(_DOTTED.fullmatch(word))


def _rejoin_abbreviations(pieces: list[str]) -> list[str]:
    """Join a piece to the next where the split broke an abbreviation or an initial: "The U.S. Senate has 100
    members." is one claim, and half of it matches no source."""
    out: list[str] = []
    for piece in pieces:
        if out and _split_is_wrong(out[-1], piece.lstrip()):
            out[-1] = f"{out[-1].rstrip()} {piece.lstrip()}"
        else:
            out.append(piece)
    return out


def source_sentences(n: int, text: str, split: Callable[[str], list[str]]) -> list[SourceSentence]:
    """The sentences of source ``n``'s passage (``split``: a sentence splitter for one paragraph)."""
    out = []
    for para in _PARAGRAPH.split(text):
        para = " ".join(para.split())
        if para:
            out.extend(SourceSentence(n, s.strip()) for s in split(para) if s.strip())
    return out


# -- lexical overlap -------------------------------------------------------------------------------
@lru_cache(maxsize=50_000)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer  # pure Python, no data files to download
    return PorterStemmer()


def stems(text: str) -> frozenset[str]:
    """Stemmed content words of ``text`` (stopwords and one-letter words dropped)."""
    return frozenset(_stem(t) for t in query_terms(text))


def overlap(sentence: str, passage_stems: frozenset[str]) -> float:
    """Share of ``sentence``'s content stems that occur in the passage (0 when it has none)."""
    own = stems(sentence)
    return len(own & passage_stems) / len(own) if own else 0.0


def is_connective(sentence: str) -> bool:
    """Too few content words to check against a source ("Here is why:", "Great question!")."""
    return len(query_terms(sentence)) < MIN_CONTENT_WORDS


# -- attribution -----------------------------------------------------------------------------------
def attribute(sentences: Sequence[tuple[int, str, tuple[int, ...]]], passages: dict[int, str],
              candidates: Sequence[SourceSentence], similarity: np.ndarray | None, *,
              beyond_book: bool = False, supported: float = SUPPORTED, drop_below: float = DROP_BELOW,
              question: str = "") -> list[Attributed]:
    """Attribute each answer sentence (``split_answer`` output) to the source that supports it best.

    ``passages``: source number → passage text; ``candidates``: their sentences;
    ``similarity[i, j]``: cosine between answer sentence i and candidate j (None: lexical only,
    e.g. when no embedder is available).  A source's score for a sentence is
    ``EMBED_WEIGHT × best cosine + (1 − EMBED_WEIGHT) × overlap with the whole passage``.  With
    ``beyond_book``, sentences from the paragraph that starts with "Beyond the book:" onwards are
    kept without judging them; without it, such a paragraph is dropped.  A sentence that misstates its
    best source sentence (``core.answer.faithfulness.conflict``: a flipped negation, a number the passage
    never gives, a definition attached to the wrong term) is dropped however alike the two are, and so
    is a sentence right after a dropped one that takes its subject from it (``drop_orphans``).
    """
    passage_stems = {n: stems(t) for n, t in passages.items()}
    # A program the student pasted is theirs to reason about: a sentence about it (not backed by a source)
    # is kept, uncited, instead of being dropped as unsupported.
    pasted = stems(pasted_code(question))
    by_source: dict[int, list[int]] = {}
    for j, c in enumerate(candidates):
        by_source.setdefault(c.n, []).append(j)
    out: list[Attributed] = []
    beyond_from: int | None = None
    for i, (para, text, cited) in enumerate(sentences):
        if beyond_from is None and text.lower().startswith(BEYOND_BOOK_LABEL.lower()):
            beyond_from = para
        if beyond_from is not None and para >= beyond_from:
            # Asked for: kept, labelled, not judged.  Not asked for (small models copy the instruction):
            # dropped, whatever it says.
            out.append(Attributed(text, Support.BEYOND if beyond_book else Support.NONE, paragraph=para))
            continue
        if is_connective(text):
            out.append(Attributed(text, Support.CONNECTIVE, paragraph=para))
            continue
        own = stems(text)
        scores: dict[int, tuple[float, int]] = {}  # source -> (score, best candidate index)
        for n, idx in by_source.items():
            lex = len(own & passage_stems.get(n, frozenset())) / len(own) if own else 0.0
            if similarity is not None and idx:
                sims = similarity[i, idx]
                best = int(np.argmax(sims))
                cos = float(sims[best])
            else:
                cos, best = 0.0, 0
            # the quote: the candidate sentence most like the answer sentence (cosine + word overlap)
            local = [(cos_j + 0.5 * overlap(text, stems(candidates[j].text)) - quote_penalty(candidates[j].text), j)
                     for cos_j, j in
                     zip((similarity[i, idx] if similarity is not None else [0.0] * len(idx)), idx)]
            quote_j = max(local)[1] if local else idx[best]
            score = EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * lex if similarity is not None else lex
            scores[n] = (score, quote_j)
        if not scores:
            out.append(Attributed(text, Support.NONE, paragraph=para))
            continue
        best_n = max(scores, key=lambda n: scores[n][0])
        chosen = best_n
        for n in cited:  # respect the model's own citation when it is nearly as good
            if n in scores and scores[n][0] >= scores[best_n][0] - MODEL_CITATION_SLACK:
                chosen = n
                break
        score, j = scores[chosen]
        reason = conflict(text, candidates[j].text, passages.get(chosen, ""), question) if score >= drop_below else None
        if reason:
            out.append(Attributed(text, Support.NONE, None, "", score, para, reason))
        elif score >= supported:
            out.append(Attributed(text, Support.SUPPORTED, chosen, short_quote(candidates[j].text), score, para))
        elif pasted and overlap(text, pasted) >= drop_below:
            out.append(Attributed(text, Support.CONNECTIVE, None, "", score, para))
        elif score >= drop_below or beyond_book:
            out.append(Attributed(text, Support.WEAK, None, "", score, para))
        else:
            out.append(Attributed(text, Support.NONE, None, "", score, para))
    return drop_orphans(out)


def orphans(attributed: Sequence[Attributed], lost: Callable[[Attributed], bool], kept: Callable[[Attributed], bool],
            lose: Callable[[Attributed], Attributed]) -> list[Attributed]:
    """``lose`` each ``kept`` sentence that takes its subject from a ``lost`` one just before it in its paragraph
    ("It comes in many forms" after a removed "Kinetic energy is the capacity to do work"): its "it" now points at
    something the book does not back.  A sentence so lost can orphan the next one in turn."""
    out: list[Attributed] = []
    for a in attributed:
        before = out[-1] if out else None
        if before is not None and lost(before) and before.paragraph == a.paragraph and kept(a) \
                and leans_on_previous(a.text):
            a = lose(a)
        out.append(a)
    return out


def drop_orphans(attributed: Sequence[Attributed]) -> list[Attributed]:
    """Drop a sentence that leans on a dropped one in its paragraph (``orphans``)."""
    return orphans(attributed, lambda b: b.support is Support.NONE,
                   lambda a: a.support is not Support.NONE and a.support is not Support.BEYOND,
                   lambda a: replace(a, support=Support.NONE, source=None, quote="",
                                     conflict="leans on a dropped sentence"))


def pasted_code(question: str) -> str:
    """The program(s) a question carries in ``` fences ("" when none)."""
    return "\n".join(_FENCED.findall(question))


def render(attributed: Sequence[Attributed]) -> str:
    """The answer text rebuilt from kept sentences, each supported one followed by its ``[n]``; a sentence
    the model wrote twice is kept once (small models loop)."""
    paras: dict[int, list[str]] = {}
    seen: set[str] = set()
    for a in attributed:
        key = " ".join(a.text.lower().split())
        if a.support is Support.NONE or (key in seen and len(key) > 20):
            continue
        seen.add(key)
        s = a.text
        if a.cited:
            marks = "".join(f"[{n}]" for n in a.cited)
            m = re.search(r"[.!?:;][\"”’)]*$", s)
            s = f"{s[:m.start()]} {marks}{s[m.start():]}" if m else f"{s} {marks}"
        paras.setdefault(a.paragraph, []).append(s)
    return "\n\n".join(" ".join(p) for _, p in sorted(paras.items()))


def short_quote(sentence: str, limit: int | None = QUOTE_CHARS) -> str:
    """The sentence itself when short enough (always, with ``limit=None``), else its first ``limit`` characters
    cut at a word (…)."""
    # table-cell bars and a stray leading ";" or "," (from a split equation) are not part of the sentence
    s = " ".join(sentence.split()).lstrip("|;:, ").rstrip("| ")
    if limit is None or len(s) <= limit:
        return s
    cut = s.rfind(" ", 0, limit)
    return s[:cut if cut > limit // 2 else limit].rstrip(",;: ") + " …"


def quote_penalty(sentence: str) -> float:
    """How much worse ``sentence`` is as a quote than its match suggests: table rows, list fragments
    and run-on blocks (learning-objective lists, captions) read badly beside an answer."""
    penalty = 0.0
    if sentence.count("|") >= 2:
        penalty += 0.3
    if not re.search(r"[.!?][\"”’)\]]*$", sentence.strip()):
        penalty += 0.1
    if len(sentence.split()) > 45 or sentence.count(" - ") >= 2:
        penalty += 0.1
    if _LIST_ITEM.match(sentence):  # "2. calculate kinetic energy and use …;": an objective, not a statement
        penalty += 0.1
    return penalty


_LIST_ITEM = re.compile(r"^\s*(?:\d{1,2}[.)]|[a-h][.)]|[•*–-])\s")


def best_quotes(question: str, candidates: Sequence[SourceSentence], q_similarity: np.ndarray | None,
                *, per_source: int = 1) -> dict[int, tuple[str, float]]:
    """For each source, the sentence that best answers ``question``: source n → (quote, score).

    ``q_similarity[j]`` is the cosine between the question and candidate j (None: lexical only).
    Questions ("…?") and fragments under 5 words are not answers; definitions get a small bonus.
    """
    q = stems(question)
    best: dict[int, tuple[str, float]] = {}
    for j, c in enumerate(candidates):
        text = c.text
        words = len(text.split())
        if text.rstrip().endswith("?") or words < 5:
            continue
        lex = len(q & stems(text)) / len(q) if q else 0.0
        cos = float(q_similarity[j]) if q_similarity is not None else 0.0
        score = EMBED_WEIGHT * cos + (1 - EMBED_WEIGHT) * lex if q_similarity is not None else lex
        if re.search(r"\b(is|are|means|called|defined as|refers to)\b", text):
            score += 0.03
        score -= quote_penalty(text)
        if c.n not in best or score > best[c.n][1]:
            best[c.n] = (short_quote(text), score)
    return best



_LAST_SENTENCE_END = re.compile(r"[.!?][\"”’)\]]*(?:\s*\[\d{1,3}(?:\s*[,;–\-]\s*\d{1,3})*\])*")


def complete_sentences(text: str) -> str:
    """``text`` up to its last complete sentence (with the citation markers right after it): what is kept of
    an answer the token budget cut short.  Text without a sentence end is returned as it is."""
    ends = list(_LAST_SENTENCE_END.finditer(text))
    return text[:ends[-1].end()].rstrip() if ends else text


# -- candidates and citations ---------------------------------------------------------------------
@lru_cache(maxsize=1)
def _splitter():
    return default_splitter()


def sentence_candidates(sources: Sequence[Source]) -> list[SourceSentence]:
    """Every sentence of every source passage (what answer sentences are matched against)."""
    split = _splitter().split
    return [c for s in sources for c in source_sentences(s.n, s.text, split)]


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def chunk_for_quote(source: Source, quote: str, pool: Sequence[Chunk]) -> Chunk:
    """The chunk of ``source``'s passage that contains ``quote`` (for its page); the hit itself if unsure."""
    needle = _norm(quote.removesuffix(" …"))[:80]
    if needle and needle in _norm(source.chunk.text):
        return source.chunk
    for c in pool:
        if c.book_id == source.chunk.book_id and c.section_id == source.chunk.section_id and needle in _norm(c.text):
            return c
    return source.chunk


def citation(source: Source, quote: str, pool: Sequence[Chunk] = (), support: float = 0.0) -> Citation:
    """The ``Citation`` of ``source`` shown beside ``quote``: pages of the chunk the quote is in."""
    c = chunk_for_quote(source, quote, pool) if quote else source.chunk
    # A quote from the prose around a cited figure is cited to that prose, not to the figure.
    figure = c.label or source.chunk.label
    label = source.label if c.id == source.chunk.id or not figure else source_label(source.book_title, c)
    return Citation(n=source.n, chunk_id=c.id, book_id=c.book_id, chapter=c.chapter_number,
                    section=c.section_number, section_title=c.section_title, page_start=c.page_start,
                    page_end=c.page_end, printed_page=c.printed_page_start or str(c.page_start), quote=quote,
                    printed_page_end=c.printed_page_end, label=label, support=round(support, 3),
                    frame=c.frame, figure=c.label)


def build_citations(supported: Sequence[Attributed], sources: Sequence[Source],
                    pool: Sequence[Chunk] = ()) -> tuple[Citation, ...]:
    """One citation per cited source, in order of first use, with its best-supporting quote."""
    by_n = {s.n: s for s in sources}
    best: dict[int, Attributed] = {}
    for a in supported:
        if a.source in by_n and (a.source not in best or a.score > best[a.source].score):
            best[a.source] = a
    order = list(dict.fromkeys(a.source for a in supported if a.source in by_n))
    return tuple(citation(by_n[n], best[n].quote, pool, best[n].score) for n in order)


__all__ = ["ABOUT_CODE_LABEL", "Attributed", "BEYOND_BOOK_LABEL", "SourceSentence", "Support", "UNSUPPORTED_LABEL", "attribute", "best_quotes",
           "build_citations", "chunk_for_quote", "citation", "complete_sentences", "drop_orphans", "is_connective", "orphans", "overlap",
           "pasted_code", "render", "sentence_candidates", "short_quote", "source_sentences", "split_answer", "stems"]
