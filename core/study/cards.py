"""Flashcards from the book: glossary/key-term lists, marked definitions and defining sentences.

Every card keeps a ``quote`` that is verbatim text of its source chunk; ``verify_card`` checks it
and ``extract_cards`` only returns cards that pass.  Sources, in order of preference:

* glossary lines ``term: definition`` (a "Key Terms" or "Glossary" list);
* marked definitions ``Definition (Term). ...``;
* a chunk's key terms in a defining sentence: "A hypothesis is ...", "... is called inertia".
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.models import Chunk, ChunkRole, Citation
from core.study.models import CardOrigin, Flashcard, SourceRef
from core.study.text import is_prose, normalize, sentences, stitch

_GLOSSARY_LINE = re.compile(
    r"(?m)^[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?P<term>[^:\n*]{2,60}?)(?:\*\*)?[ \t]*[:\u2014\u2013][ \t]+"
    r"(?P<definition>\S[^\n]{8,})$")
_MARKED = re.compile(r"(?:\*\*)?Definition\s*\((?P<term>[^)]{2,60})\)\.?(?:\*\*)?\s*(?P<definition>[^\n]{10,})")
MAX_BACK_CHARS = 400


def clean_term(term: str) -> str:
    return " ".join(term.strip(" -*•").split())


def verify_card(card: Flashcard, chunk: Chunk) -> bool:
    """True when the card's quote is verbatim (up to spacing, case and emphasis) in ``chunk`` and its
    back is inside the quote."""
    quote = normalize(card.quote)
    return bool(quote) and quote in normalize(chunk.text) and normalize(card.back) in quote


def _cited_chunk(run_chunks: Sequence[Chunk], quote: str) -> Chunk | None:
    q = normalize(quote)
    for c in run_chunks:
        if q in normalize(c.text):
            return c
    return None


_LIST_HEADING = re.compile(r"(?im)^\s*(?:key terms|glossary|key concepts|terms to know|vocabulary)\s*$")


def _glossary_lists(chunks: Sequence[Chunk]) -> Iterable[tuple[str, list[Chunk]]]:
    """(text, chunks) of the book's term lists: the chunks the importer marked as glossary, and the lines
    after a "Key Terms" (or "Glossary") heading in any other chunk (a list too short to be marked)."""
    for run in stitch([c for c in chunks if c.role is ChunkRole.GLOSSARY and is_prose(c)]):
        yield run.text, [c for _, c in run.spans]
    for c in chunks:
        head = _LIST_HEADING.search(c.text) if c.role is not ChunkRole.GLOSSARY else None
        if head:
            yield c.text[head.end():], [c]


def _glossary_cards(chunks: Sequence[Chunk]) -> Iterable[Flashcard]:
    for text, members in _glossary_lists(chunks):
        for m in _GLOSSARY_LINE.finditer(text):
            term = clean_term(m.group("term"))
            if len(term.split()) > 6 or term.lower() in {"note", "answer", "solution", "example"}:
                continue
            quote = m.group(0).strip()
            chunk = _cited_chunk(members, quote)
            if chunk is None:  # cut by a chunk boundary: cannot cite it verbatim
                continue
            back = m.group("definition").strip()[:MAX_BACK_CHARS]
            yield Flashcard(term, back, quote, CardOrigin.GLOSSARY, SourceRef.of(chunk))


def _definition_cards(chunk: Chunk) -> Iterable[Flashcard]:
    for m in _MARKED.finditer(chunk.text):
        term = clean_term(m.group("term"))
        first = sentences(m.group("definition"))
        back = (first[0] if first else m.group("definition")).strip()[:MAX_BACK_CHARS]
        yield Flashcard(term, back, back, CardOrigin.DEFINITION, SourceRef.of(chunk))
    if not chunk.key_terms:
        return
    terms = "|".join(re.escape(t) for t in sorted(set(chunk.key_terms), key=len, reverse=True) if t.strip())
    if not terms:
        return
    # "A hypothesis is a tentative ...", "Inertia refers to ...", "... is called inertia."
    defines = re.compile(rf"(?i)^(?:an?\s+|the\s+)?(?:\*\*)?(?P<t1>{terms})(?:\*\*)?(?:\s*\([^)]*\))?,?\s+"
                         rf"(?:(?:is|are)\s+(?:an?|the|one|any|defined as|called|known as)\b|refers? to\b|means\b)"
                         rf"|\b(?:is|are)\s+(?:called|known as|termed)\s+(?:an?\s+|the\s+)?(?:\*\*)?(?P<t2>{terms})\b")
    for sentence in sentences(chunk.text):
        s = sentence.strip()
        if not (40 <= len(s) <= MAX_BACK_CHARS) or "\n" in s or "[" in s or "]" in s or not s.endswith("."):
            continue
        m = defines.search(s)
        if m:
            yield Flashcard(clean_term(m.group("t1") or m.group("t2")), s, s, CardOrigin.DEFINITION,
                            SourceRef.of(chunk))


def extract_cards(chunks: Sequence[Chunk]) -> list[Flashcard]:
    """Verified flashcards from a book's (or chapter's) chunks in reading order, one per term."""
    by_id = {c.id: c for c in chunks}
    candidates = list(_glossary_cards(chunks))
    for c in chunks:
        if c.role in (ChunkRole.CONCEPT, ChunkRole.SUMMARY, ChunkRole.EXAMPLE) and is_prose(c):
            candidates.extend(_definition_cards(c))
    cards: list[Flashcard] = []
    seen: set[str] = set()
    for card in candidates:
        if card.key in seen or not card.front or not card.back:
            continue
        chunk = by_id.get(card.source.chunk_id)
        if chunk is None or not verify_card(card, chunk):
            continue
        seen.add(card.key)
        cards.append(card)
    return cards


def card_from_citation(front: str, citation: Citation, chunk: Chunk) -> Flashcard | None:
    """"Make a card" from an answer: ``front`` (usually the question) and the cited quote as the back;
    None unless the quote is verbatim in the cited chunk."""
    card = Flashcard(" ".join(front.split()), citation.quote.strip(), citation.quote.strip(), CardOrigin.ANSWER,
                     SourceRef.of(chunk))
    return card if card.front and card.back and verify_card(card, chunk) else None
