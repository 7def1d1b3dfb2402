"""Chunk metadata from text alone: role, key terms, equations, figure references.

Pure functions (plus one small fitted scorer) used by the chunker; each is cheap enough to run on
every chunk of a 500-page book in well under a second or two, and none needs a model or data.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence

from core.models import BlockKind, ChunkRole, SectionKind

# -- roles -------------------------------------------------------------------------------------
# Order matters: the first pattern that matches a heading wins ("Summary of Exercises" is rare,
# "Key Concepts and Summary" common, so summary/terms come before the generic ones).
_HEADING_ROLES: tuple[tuple[re.Pattern[str], ChunkRole], ...] = tuple(
    (re.compile(p, re.IGNORECASE), role) for p, role in (
        (r"\blearning (?:objectives?|outcomes?|goals?)\b|\bobjectives\b|\bwhat you(?:'|’)ll learn\b|"
         r"\bin this (?:chapter|section) you will\b", ChunkRole.OBJECTIVES),
        (r"\bkey terms?\b|\bglossary\b|\bvocabulary\b|\bterms to know\b|\bdefinitions\b", ChunkRole.GLOSSARY),
        (r"\bsummary\b|\bkey (?:takeaways?|points|concepts|ideas|equations)\b|\bchapter review\b|"
         r"\brecap\b|\bin review\b|\bconclusions?\b|\bwrap[- ]up\b|\bmain ideas\b", ChunkRole.SUMMARY),
        # Headings like "Examples of Learning" or "Problems of Memory" are explanatory prose, so
        # example/exercise words only count at the start ("Example 3.2") or end ("... Exercises").
        (r"^(?:worked |sample )?example\b|^solutions?\b|\bworked examples?$|\bcase study\b|"
         r"\bsample problems?\b|^walkthrough\b", ChunkRole.EXAMPLE),
        (r"^(?:exercises?|problems?|questions|quiz|assignments?|answers?(?: key)?|homework)"
         r"(?:$|\s+\d|\s*[:.(]|\s+(?:for|and|set|to)\b)|"
         r"\b(?:exercises|problems|questions|quiz|answers)$|\bcheck your (?:learning|understanding)\b|"
         r"^try it\b|^your turn\b|\bquestions for (?:review|discussion)\b", ChunkRole.EXERCISE),
        (r"^(?:listing|code|program)\b", ChunkRole.CODE),
    ))
_OTHER_HEADINGS = re.compile(
    r"^(?:preface|foreword|contents|table of contents|acknowledg(?:e)?ments?|about the authors?|about this book|"
    r"dedication|copyright|index|bibliography|references|works cited|further reading|credits|colophon|"
    r"list of (?:figures|tables)|notes)$", re.IGNORECASE)

_OBJECTIVES_TEXT = re.compile(
    r"\bby the end of this (?:section|chapter|module|lesson|unit),? you (?:will|should) be able to\b|"
    r"\blearning objectives?\s*:|\bafter (?:reading|studying|completing) this (?:section|chapter),? you "
    r"(?:will|should)\b", re.IGNORECASE)
_EXERCISE_TEXT = re.compile(r"^\s*(?:exercise|problem|question)\s+\d+(?:[.\-]\d+)*\b[.:)]?", re.IGNORECASE)
_EXAMPLE_TEXT = re.compile(r"^\s*(?:worked\s+)?example\s+\d+(?:[.\-]\d+)*\b|^\s*solution\s*[:.]?\s*$|"
                           r"^\s*solution\s*:", re.IGNORECASE | re.MULTILINE)
_DEFINITION = re.compile(
    r"\b(?:is|are) (?:defined|known) as\b|\brefers? to\b|\b(?:is|are) called\b|\bis termed\b|"
    r"\bwe (?:define|call)\b|\bdefinition\b", re.IGNORECASE)
_GLOSSARY_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?(?P<term>[^:\n*]{2,60}?)(?:\*\*)?\s*[:\u2014\u2013]\s+\S")
# Signals strong enough to call a line code; prose lists ending in ";" and chemical equations
# with arrows must not qualify, so bare ";", "=", "->" are not enough on their own.
_CODE_LINE = re.compile(
    r"^\s*(?:def|class|import|from\s+[\w.]+\s+import|return|elif|except|#include|#define|public|private|"
    r"static|void|function|fn|let|const|var|SELECT|INSERT|UPDATE|CREATE|>>>|\$\s)\b|"
    r"^\s*(?:if|for|while|else|try|switch)\b.*[:{]\s*$|\{\s*$|^\s*\}[;,)]?\s*$|"
    r"[\w\])]\s*\([^()]*\)\s*;\s*$|\b[A-Za-z_]\w*\.[A-Za-z_]\w*\([^()]*\)|^\s*(?:#|//)\s?\w|"
    r"^\s{4,}\S.*[=(:]|\b\w+\s*(?:==|!=|\+=|-=|&&|\|\|)\s*\w|^\s*[\w.\[\]]+\s*=\s*[^=;]+;\s*$")


def role_from_heading(title: str) -> ChunkRole | None:
    """The role a section heading announces ("Key Takeaways" -> SUMMARY), or None."""
    t = re.sub(r"\s+", " ", title or "").strip()
    if not t:
        return None
    if _OTHER_HEADINGS.match(t):
        return ChunkRole.OTHER
    for pattern, role in _HEADING_ROLES:
        if pattern.search(t):
            return role
    return None


def code_fraction(text: str) -> float:
    """Share of non-empty lines that look like program code."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return 0.0
    return sum(1 for ln in lines if _CODE_LINE.search(ln)) / len(lines)


def is_glossary_like(text: str, emphasis: Sequence[str] = ()) -> bool:
    """Most lines are "term: definition" (or emphasised terms followed by a definition)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 2:
        return False
    hits = sum(1 for ln in lines if _GLOSSARY_LINE.match(ln) and len(ln.split(":", 1)[0].split()) <= 6)
    return hits >= 0.6 * len(lines)


def role_from_text(text: str, *, block_kinds: Sequence[BlockKind] = (), emphasis: Sequence[str] = ()
                   ) -> ChunkRole | None:
    """The role cues inside the text imply ("By the end of this section...", "Exercise 2.3.", code)."""
    head = text[:400]
    if _OBJECTIVES_TEXT.search(head):
        return ChunkRole.OBJECTIVES
    if _EXERCISE_TEXT.match(text):
        return ChunkRole.EXERCISE
    if _EXAMPLE_TEXT.search(text):
        return ChunkRole.EXAMPLE
    if block_kinds and sum(k is BlockKind.CODE for k in block_kinds) * 2 >= len(block_kinds):
        return ChunkRole.CODE
    if code_fraction(text) >= 0.5 and len(text.splitlines()) >= 3:
        return ChunkRole.CODE
    if is_glossary_like(text, emphasis):
        return ChunkRole.GLOSSARY
    return None


def classify_role(heading: str, text: str, *, section_kind: SectionKind | None = None,
                  ancestor_titles: Sequence[str] = (), block_kinds: Sequence[BlockKind] = (),
                  emphasis: Sequence[str] = ()) -> ChunkRole:
    """A chunk's role: its heading first, then cues in its text, then its ancestors' headings.

    Front and back matter (preface, index...) is OTHER unless its heading says glossary;
    explanatory prose (including definitions) is CONCEPT.
    """
    by_heading = role_from_heading(heading)
    if by_heading is not None:
        return by_heading
    if section_kind in (SectionKind.FRONT_MATTER, SectionKind.BACK_MATTER):
        return ChunkRole.OTHER
    by_text = role_from_text(text, block_kinds=block_kinds, emphasis=emphasis)
    if by_text is not None:
        return by_text
    for title in reversed(ancestor_titles):  # nearest ancestor first
        role = role_from_heading(title)
        if role in (ChunkRole.EXERCISE, ChunkRole.EXAMPLE, ChunkRole.GLOSSARY, ChunkRole.OTHER):
            return role
    return ChunkRole.CONCEPT


def is_definition(text: str) -> bool:
    """True when the text defines something ("X is defined as", "X refers to", "is called")."""
    return bool(_DEFINITION.search(text))


# -- equations and figures ---------------------------------------------------------------------
_MATH = re.compile(
    r"\\(?:frac|sum|int|sqrt|alpha|beta|gamma|delta|theta|lambda|mu|sigma|pi|infty|partial|cdot|times|"
    r"left|right|begin|mathrm|mathbf|hat|bar|vec|le|ge|neq|approx)\b|[∑∏∫√∞≈≠≤≥±∂∆∇]|"
    r"\w\s*\^\s*[\w({-]|\b\w+_\{|"  # x^2, v_{iron}
    r"(?:^|[\s(])[\w)\]]+\s*[=<>]\s*[-\w(\\√]|"  # a = b, x < 3
    r"\(\w[^()]{0,40}\)\s*/\s*\(\w",  # (mass)/(volume)
    re.MULTILINE)


def has_equation(text: str, block_kinds: Sequence[BlockKind] = ()) -> bool:
    """True for EQUATION blocks or math-looking text ("=", "∑", "√", "^", LaTeX commands)."""
    if BlockKind.EQUATION in block_kinds:
        return True
    return bool(_MATH.search(text))


_FIG_REF = re.compile(
    r"\b(?P<kind>Figures?|Figs?\.|Tables?|Tab\.)\s*(?P<num>[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?)(?![\d])",
    re.IGNORECASE)


def figure_refs(text: str) -> tuple[str, ...]:
    """Figure and table references in order of appearance, normalised ("Fig. 4" -> "Figure 4")."""
    out: dict[str, None] = {}
    for m in _FIG_REF.finditer(text):
        kind = "Table" if m.group("kind").lower().startswith("tab") else "Figure"
        num = m.group("num").replace("–", "-").rstrip(".")
        out[f"{kind} {num}"] = None
    return tuple(out)


# -- key terms ---------------------------------------------------------------------------------
_STOP = frozenset("""
a about above after again against all also although am an and any are as at be because been before
being below between both but by can could did do does doing down during each either else even ever
every few for from further had has have having he her here hers herself him himself his how however i
if in into is it its itself just least less like many may me might more most much must my myself
neither no nor not now of off often on once one only or other others our ours ourselves out over own
per perhaps rather same shall she should since so some such than that the their theirs them
themselves then there these they this those though through thus to too toward towards under until up
upon us very via was we well were what when where whether which while who whom whose why will with
within without would yet you your yours yourself yourselves called known used use using uses first
second third new many several various different example examples figure figures table tables section
chapter see shown show shows given may might also called include includes including based another
""".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*[A-Za-z]|[A-Za-z]")


def candidate_phrases(text: str, max_words: int = 3) -> list[str]:
    """Stopword-delimited word runs (1-``max_words`` words, lowercased): cheap noun-phrase stand-ins.

    Runs longer than ``max_words`` yield their trailing ``max_words``-gram (English noun phrases
    end in their head noun), so "the classical conditioning paradigm" gives one candidate.
    """
    out: list[str] = []
    for piece in re.split(r"[.,;:!?()\[\]{}\"“”‘’/\n]|\s[-–—]\s", text):
        run: list[str] = []
        for w in _WORD.findall(piece) + [""]:
            lw = w.lower()
            if not w or lw in _STOP or len(lw) < 3 and lw.isalpha() and not w.isupper():
                if run:
                    out.append(" ".join(run[-max_words:]))
                run = []
            else:
                run.append(lw)
    return [p for p in out if len(p) >= 4]


class KeyphraseScorer:
    """TF-IDF over stopword-delimited candidates, with document frequencies from the book's sections."""

    def __init__(self) -> None:
        self.df: Counter[str] = Counter()
        self.docs = 0

    def fit(self, documents: Iterable[str]) -> KeyphraseScorer:
        for doc in documents:
            self.df.update(set(candidate_phrases(doc)))
            self.docs += 1
        return self

    def top(self, text: str, k: int = 3) -> list[str]:
        """The ``k`` candidates of ``text`` most specific to it relative to the whole book."""
        return self.top_counts(Counter(candidate_phrases(text)), k)

    def top_counts(self, tf: Counter[str], k: int = 3) -> list[str]:
        """``top`` from precomputed candidate counts (the chunker counts per sentence, once)."""
        if not tf:
            return []
        n = max(self.docs, 1)
        scored = []
        for phrase, count in tf.items():
            df = self.df.get(phrase, 0)
            if df > 0.3 * n and n >= 5:  # common across the book: not a key term of this chunk
                continue
            words = phrase.count(" ") + 1
            # Multi-word phrases and repeated ones are better key terms; rare-in-book ones too.
            score = (1 + math.log(count)) * math.log((n + 1) / (df + 0.5)) * (1 + 0.5 * (words - 1))
            scored.append((score, phrase))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [p for _, p in scored[:k]]


def glossary_terms(text: str) -> list[str]:
    """Terms defined glossary-style: "**term**: definition" or "term: definition" list lines."""
    out = []
    for line in text.splitlines():
        m = _GLOSSARY_LINE.match(line)
        if m and ("**" in line or line.lstrip().startswith(("-", "*", "•"))):
            term = m.group("term").strip(" *")
            if 0 < len(term.split()) <= 6:
                out.append(term)
    return out


def key_terms(text: str, emphasis: Sequence[str] = (), *, scorer: KeyphraseScorer | None = None,
              k: int = 3, extra: Sequence[str] = (), limit: int = 10) -> tuple[str, ...]:
    """Key terms of a chunk: emphasised runs present in it, glossary entries, then keyphrases.

    Keyphrases come from ``scorer.top(text, k)`` and/or are given ready-made in ``extra``.
    """
    seen: dict[str, str] = {}
    lowered = text.lower()

    def add(term: str) -> None:
        term = re.sub(r"\s+", " ", term).strip(" .,;:*_")
        if 2 <= len(term) <= 80 and len(term.split()) <= 8 and term.lower() not in seen:
            seen[term.lower()] = term

    for term in emphasis:
        if term.strip().lower() in lowered:
            add(term)
    for term in glossary_terms(text):
        add(term)
    for phrase in [*(scorer.top(text, k) if scorer is not None else []), *extra]:
        add(phrase)
    return tuple(list(seen.values())[:limit])
