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
from core.study.text import normalize, sentences, stitch

_GLOSSARY_LINE = re.compile(
    r"(?m)^[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?P<term>[^:\n*]{2,60}?)(?:\*\*)?[ \t]*[:\u2014\u2013][ \t]+"
    r"(?P<definition>\S[^\n]{8,})$")
_MARKED = re.compile(r"(?:\*\*)?Definition\s*\((?P<term>[^)]{2,60})\)\.?(?:\*\*)?\s*(?P<definition>[^\n]{10,})")
MAX_BACK_CHARS = 400


def _clean_term(term: str) -> str:
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


def _glossary_cards(chunks: Sequence[Chunk]) -> Iterable[Flashcard]:
    for run in stitch([c for c in chunks if c.role is ChunkRole.GLOSSARY]):
        members = [c for _, c in run.spans]
        for m in _GLOSSARY_LINE.finditer(run.text):
            term = _clean_term(m.group("term"))
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
        term = _clean_term(m.group("term"))
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
            yield Flashcard(_clean_term(m.group("t1") or m.group("t2")), s, s, CardOrigin.DEFINITION,
                            SourceRef.of(chunk))


def extract_cards(chunks: Sequence[Chunk]) -> list[Flashcard]:
    """Verified flashcards from a book's (or chapter's) chunks in reading order, one per term."""
    by_id = {c.id: c for c in chunks}
    candidates = list(_glossary_cards(chunks))
    for c in chunks:
        if c.role in (ChunkRole.CONCEPT, ChunkRole.SUMMARY, ChunkRole.EXAMPLE):
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


MAX_LESSON_CARDS = 40
MIN_CARDS = 12  # below this, blanked sentences of the chapter fill up


def _about(statement) -> bool:
    """The sentence is about its term: the term opens it (or its first 40 %), as "The function eigen() ..."."""
    at = statement.text.lower().find(statement.term.lower())
    return 0 <= at <= max(12, 0.4 * len(statement.text))


_NARRATIVE = re.compile(r"(?i)\b(?:we|we’ll|we'll|we’ve|we've|we’re|we're|let’s|let's|our|you|you’ll|you'll|"
                        r"you’re|you're|your|i)\b")


def _as_printed(term: str, sentence: str) -> str:
    """The term with the sentence's own capitals ("Gilbreth", not the keyphrase "gilbreth")."""
    at = sentence.lower().find(term.lower())
    found = sentence[at:at + len(term)] if at >= 0 else term
    return _clean_term(found[:1].lower() + found[1:] if at == 0 and found[:1].isupper() and
                       found.split()[0].lower() in {"the", "a", "an"} else found)


def _opens_with(statement) -> bool:
    """A fact card needs a sentence that opens with its term ("The function eigen() ...", "`mut` ...")."""
    text = loose_text(statement.text)
    term = loose_text(statement.term).removesuffix(" ")
    kinds = r"(?:function|operator|command|method|macro|keyword|type|trait|argument|option|term|process|law|" \
        r"principle|rule|theory|effect|module|package|variable|constant|statement|expression|syntax) "
    return bool(term) and re.match(rf"^(?:the |an? )?(?:{kinds})?{re.escape(term)}\b", text) is not None


def loose_text(text: str) -> str:
    from core.study.text import loose
    return loose(text.replace("()", ""))


def lesson_cards(lesson, limit: int = MAX_LESSON_CARDS) -> list[Flashcard]:
    """Cards of one chapter from its lesson (``core.study.lesson.ChapterLesson``): the book's glossary lines,
    its defining sentences, sentences about an identifier or emphasised term (front: the term; back: the
    sentence, verbatim) and code examples (front: the code; back: the output the book prints)."""
    from core.study.statements import StatementKind
    from core.study.text import contains_answer

    cards: list[Flashcard] = []
    seen: set[str] = set()

    def add(card: Flashcard) -> None:
        if card.key not in seen and card.front and card.back and len(cards) < limit:
            seen.add(card.key)
            cards.append(card)

    for g in lesson.glossary:
        add(Flashcard(g.term, g.text, g.context or g.text, CardOrigin.GLOSSARY, g.source))
    concepts = {loose_text(g.term) for g in lesson.glossary} | {loose_text(s.term) for s in lesson.statements
                                                              if s.kind is StatementKind.DEFINITION}
    ranked = sorted((s for s in lesson.statements if s.term and contains_answer(s.text, s.term) and _about(s)),
                    key=lambda s: (s.kind is not StatementKind.DEFINITION, not s.standalone, -s.score))
    for s in ranked:
        if not s.standalone or _NARRATIVE.search(s.text):
            continue
        code = re.search(r"[()`%_:]", s.term)
        defined = loose_text(s.term) in concepts  # the chapter defines it (glossary or a defining sentence)
        if s.kind is StatementKind.DEFINITION or s.kind in (StatementKind.RULE, StatementKind.FACT) \
                and _opens_with(s) and (code or defined):
            add(Flashcard(_as_printed(s.term, s.text), s.text, s.text, CardOrigin.DEFINITION if s.kind is
                          StatementKind.DEFINITION else CardOrigin.STATEMENT, s.source))
    for ex in sorted(lesson.examples, key=lambda e: e.output.count("\n"))[:4]:
        if len(ex.output) <= 300:
            front = ("What happens when this is compiled?\n" if ex.error else "What does this print?\n") + ex.code
            add(Flashcard(front, ex.output, ex.output, CardOrigin.CODE, ex.source))
    if len(cards) < MIN_CARDS:  # a question front: the book's sentence with its term blanked, the back verbatim
        from core.study.quizchecks import askable
        for s in sorted(askable(lesson, strict=False), key=lambda s: -s.score):
            blanked = re.sub(rf"(?i)(?<!\w){re.escape(s.term)}(?!\w)", "_____", s.text)
            used = {card.back for card in cards}
            if "_____" in blanked and s.standalone and not _NARRATIVE.search(s.text) and len(cards) < MIN_CARDS \
                    and s.text not in used:
                add(Flashcard(f"Fill in the blank: {blanked}", s.text, s.text, CardOrigin.STATEMENT, s.source))
    return cards
