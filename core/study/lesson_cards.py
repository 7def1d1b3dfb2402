"""Cards of one chapter from its lesson (``core.study.lesson.ChapterLesson``).

Built on the chapter's teachable statements rather than raw chunks, so a book with no glossary still
gets cards: definitions and sentences about a term (front: the term), code with the output the book
prints, and, when that gives fewer than ``MIN_CARDS``, the book's sentences with their term blanked.
It sits above ``lesson`` and ``quizchecks`` (which decides what a sentence can be keyed to); the
chunk-level cards it starts from are ``core.study.cards``.
"""
from __future__ import annotations

import re

from core.study.cards import clean_term
from core.study.lesson import ChapterLesson
from core.study.models import CardOrigin, Flashcard
from core.study.prose import narrative
from core.study.quizchecks import askable
from core.study.statements import StatementKind, is_code_term
from core.study.text import contains_answer, loose


MAX_LESSON_CARDS = 40
MAX_CONCEPT_CARDS = 80  # a chapter with more key concepts than MAX_LESSON_CARDS still gets a card for each
MIN_CARDS = 12  # below this, blanked sentences of the chapter fill up


def _about(statement) -> bool:
    """The sentence is about its term: the term opens it (or its first 40 %), as "The function eigen() ..."."""
    at = statement.text.lower().find(statement.term.lower())
    return 0 <= at <= max(12, 0.4 * len(statement.text))


def _as_printed(term: str, sentence: str) -> str:
    """The term with the sentence's own capitals ("Gilbreth", not the keyphrase "gilbreth")."""
    at = sentence.lower().find(term.lower())
    found = sentence[at:at + len(term)] if at >= 0 else term
    return clean_term(found[:1].lower() + found[1:] if at == 0 and found[:1].isupper() and
                       found.split()[0].lower() in {"the", "a", "an"} else found)


def _opens_with(statement) -> bool:
    """A fact card needs a sentence that opens with its term ("The function eigen() ...", "`mut` ...")."""
    text = loose_text(statement.text)
    term = loose_text(statement.term).removesuffix(" ")
    kinds = r"(?:function|operator|command|method|macro|keyword|type|trait|argument|option|term|process|law|" \
        r"principle|rule|theory|effect|module|package|variable|constant|statement|expression|syntax) "
    return bool(term) and re.match(rf"^(?:the |an? )?(?:{kinds})?{re.escape(term)}\b", text) is not None


def loose_text(text: str) -> str:
    return loose(text.replace("()", ""))


def lesson_cards(lesson: ChapterLesson, limit: int = MAX_LESSON_CARDS) -> list[Flashcard]:
    """Cards of one chapter from its lesson (``core.study.lesson.ChapterLesson``): the book's glossary lines,
    its defining sentences, sentences about an identifier or emphasised term (front: the term; back: the
    sentence, verbatim) and code examples (front: the code; back: the output the book prints)."""

    cards: list[Flashcard] = []
    seen: set[str] = set()

    def add(card: Flashcard, concept: bool = False) -> None:
        # every key concept gets its card (up to MAX_CONCEPT_CARDS); other cards only while under ``limit``
        room = len(cards) < (max(limit, MAX_CONCEPT_CARDS) if concept else limit)
        if card.key not in seen and card.front and card.back and room:
            seen.add(card.key)
            cards.append(card)

    glossary = {loose_text(g.term) for g in lesson.glossary}
    for c in lesson.concepts:  # the chapter's key concepts first, most central first (``core.study.concepts``)
        if loose_text(c.term) in glossary:
            add(Flashcard(c.term, c.text, c.context or c.text, CardOrigin.GLOSSARY, c.source), concept=True)
        else:
            add(Flashcard(_as_printed(c.term, c.text), c.text, c.text, CardOrigin.DEFINITION, c.source), concept=True)
    for g in lesson.glossary:
        add(Flashcard(g.term, g.text, g.context or g.text, CardOrigin.GLOSSARY, g.source))
    concepts = {loose_text(g.term) for g in lesson.glossary} | {loose_text(s.term) for s in lesson.statements
                                                              if s.kind is StatementKind.DEFINITION}
    ranked = sorted((s for s in lesson.statements if s.term and contains_answer(s.text, s.term) and _about(s)),
                    key=lambda s: (s.kind is not StatementKind.DEFINITION, not s.standalone, -s.score))
    for s in ranked:
        if not s.standalone or narrative(s.text):
            continue
        code = is_code_term(s.term)
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
        for s in sorted(askable(lesson, strict=False), key=lambda s: -s.score):
            blanked = re.sub(rf"(?i)(?<!\w){re.escape(s.term)}(?!\w)", "_____", s.text)
            used = {card.back for card in cards}
            if "_____" in blanked and s.standalone and not narrative(s.text) and len(cards) < MIN_CARDS \
                    and s.text not in used:
                add(Flashcard(f"Fill in the blank: {blanked}", s.text, s.text, CardOrigin.STATEMENT, s.source))
    return cards
