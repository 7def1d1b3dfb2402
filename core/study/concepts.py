"""A chapter's key concepts: what its study material starts from.

A concept is a term the book defines — in its glossary or key-terms lists, or in the running text ("X is
a ...", "... is called X", "a process called X", "In X, ...") — with the book's sentence for it.  Terms
met only in an example ("For example, a metro pass ...") or in a passage the importer marked as an
example are not concepts, nor is a term the text defines once and never uses again, unless it introduces
it by name ("… is called continuous reinforcement").  Concepts are ranked by how central they are to the
chapter: how many of its passages mention them (a term the chapter keeps returning to comes before one it
defines in passing), the book's own lists first among equals.  A book that prints no glossary and marks no
terms still has concepts: the phrases a chapter owns (most of the book's mentions are in it) with a
sentence about them, after the terms it defines, those the importer also marked as key terms first.
Nothing here needs a model.

``sibling_concepts`` gives the chapter's other concepts a student confuses with one (folkways / mores /
taboos): same sort of term, sharing words or a section, each checked wrong by the keyed sentence.
Pure functions; ``core.study.lesson`` stores the result with the lesson.
"""
from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.models import Chunk, ChunkRole
from core.study.models import SourceRef
from core.study.prose import line_problem, narrative, split_sentences, standalone
from core.study.statements import Statement, StatementKind, is_code_term, names_term, term_ok, term_pool
from core.study.text import STOPWORDS, content_words, loose

MAX_CONCEPTS = 80
FILL_TO = 40  # phrases found in the text alone fill a chapter's concepts up to this many (its cards' limit)
_URL = re.compile(r"https?://\S+|www\.\S+")


def term_forms(term: str) -> set[str]:
    """The forms a term goes by in running text: as printed, singular, without a parenthesised
    abbreviation, and the abbreviation itself ("unconditioned stimulus (UCS)" -> ..., "ucs")."""
    t = loose(term)
    bare = loose(re.sub(r"\s*\([^)]*\)", "", term))
    forms = {f for f in (t, bare) if f}
    forms |= {loose(m) for m in re.findall(r"\(([^)]{2,12})\)", term) if m.isupper()}
    return forms | {re.sub(rf"(?<=[a-z]{{3}}){end}$", "", f) for f in forms for end in ("s", "es")}  # crimes, boxes


def _mentions(term: str, texts: Sequence[str]) -> int:
    """How many of the chapter's passages mention the term (any of its forms, as whole words)."""
    forms = [f for f in term_forms(term) if len(f) >= 2]
    pats = [re.compile(rf"(?<![a-z0-9]){re.escape(f)}(?:e?s)?(?![a-z0-9])") for f in forms]
    return sum(1 for t in texts if any(p.search(t) for p in pats))


def _with_antecedent(s: Statement) -> Statement:
    """A defining sentence that leans on the one before ("This is called X.") with that sentence put first."""
    if s.standalone or not s.context:
        return s
    parts = split_sentences(s.context)
    at = next((i for i, p in enumerate(parts) if loose(p) == loose(s.text)), -1)
    if at <= 0:
        return s
    return dataclasses.replace(s, text=f"{parts[at - 1]} {s.text}", standalone=standalone(parts[at - 1]))


def _texts(chunks: Sequence[Chunk]) -> list[str]:
    return [f" {loose(_URL.sub(' ', c.text))} " for c in chunks if c.role not in (ChunkRole.GLOSSARY, ChunkRole.EXERCISE)]


def _stated(phrase: str, found: Sequence[Statement], raw: str, chunks: Sequence[Chunk]) -> Statement | None:
    """The chapter's first sentence about ``phrase`` (it opens the sentence's first part), when the book
    prints the phrase in lower case somewhere (a concept, not a name: "Freud", "Pew")."""
    if not re.search(rf"(?<![\w.]){re.escape(phrase)}(?!\w)", raw):
        return None
    for s in found:
        at = _loose_padded(s.text).find(f" {phrase} ")
        if s.kind is not StatementKind.EXAMPLE and s.standalone and not narrative(s.text) \
                and 0 <= at <= 0.4 * len(s.text):
            return dataclasses.replace(s, term=phrase, kind=StatementKind.FACT)  # found by use, not defined
    return next((s for s in sentences_about(phrase, chunks)), None)


@functools.lru_cache(maxsize=16384)
def _loose_padded(text: str) -> str:
    return f" {loose(text)} "  # asked again for every phrase of the chapter: worked out once


@functools.lru_cache(maxsize=4096)
def _sentences_of(text: str) -> tuple[str, ...]:
    return tuple(split_sentences(" ".join(text.split())))


def sentences_about(phrase: str, chunks: Sequence[Chunk]):
    """The chapter's whole, standalone sentences that open with ``phrase`` (in their first 40 %), in reading
    order, as statements (for a phrase no teachable statement was keyed to)."""
    for c in chunks:
        if c.role not in (ChunkRole.CONCEPT, ChunkRole.SUMMARY):
            continue
        for sentence in _sentences_of(c.text):
            at = _loose_padded(sentence).find(f" {phrase} ")
            if 0 <= at <= 0.4 * len(sentence) and 40 <= len(sentence) <= 300 and standalone(sentence) \
                    and not narrative(sentence) and line_problem(sentence) is None:
                yield Statement(StatementKind.FACT, sentence, phrase, SourceRef.of(c), 0.0, True, sentence)


def chapter_concepts(chunks: Sequence[Chunk], glossary: Sequence[Statement], found: Sequence[Statement],
                     book_chunks: Sequence[Chunk] = (), pool: Sequence[str] | None = None) -> tuple[Statement, ...]:
    """The chapter's key concepts, most central first (see the module docstring): each a ``Statement``
    whose ``term`` is the concept, ``text`` the book's sentence for it and ``score`` its centrality.
    With ``book_chunks`` (the whole book), phrases the chapter owns (``owned_phrases``) that have a
    sentence about them fill up to ``FILL_TO`` concepts, after the terms the book defines; those in ``pool``
    (the chapter's ``term_pool``, worked out here when not given) first."""
    role = {c.id: c.role for c in chunks}
    texts = _texts(chunks)
    defined = sorted((s for s in found if s.kind is StatementKind.DEFINITION and term_ok(s.term)
                      and role.get(s.source.chunk_id) is not ChunkRole.EXAMPLE),
                     key=lambda s: (not s.standalone, -s.score))
    named: set[str] = set()  # every form of every concept chosen so far
    chosen: list[tuple[bool, int, int, Statement]] = []  # (found by use only, -mentions, order, statement)

    def choose(s: Statement, forms: set[str], count: int, by_use: bool) -> None:
        named.update(forms)
        chosen.append((by_use, -count, len(chosen), s))

    for s in [*glossary, *defined]:
        forms = term_forms(s.term)
        if forms & named or not term_ok(s.term):
            continue
        count = _mentions(s.term, texts)
        if s not in glossary and count < 2 and not names_term(s.text, s.term):
            continue  # a term the text defines and never returns to is an aside, unless it is named as a term
        choose(s if s in glossary else _with_antecedent(s), forms, count, False)
    if book_chunks and len(chosen) < FILL_TO:
        raw = _URL.sub(" ", " ".join(c.text for c in chunks))
        book_texts = _texts(book_chunks)
        nouns = nouns_used(book_texts)
        # the importer's key terms (emphasis, keyphrases) first among the owned phrases: two signals agree
        marked = {f for t in (term_pool(chunks) if pool is None else pool) for f in term_forms(t)}
        for phrase, count in sorted(owned_phrases(texts, book_texts), key=lambda pc: not term_forms(pc[0]) & marked):
            if len(chosen) >= FILL_TO:
                break
            forms = term_forms(phrase)
            named_thing = term_ok(phrase) and names_a_thing(phrase, texts, nouns, raw)
            stated = None if forms & named or not named_thing else _stated(phrase, found, raw, chunks)
            if stated is not None:  # after every term the book defines: ranked among themselves
                choose(stated, forms, count, True)
    return tuple(dataclasses.replace(s, score=float(-neg)) for _, neg, _, s in sorted(chosen)[:MAX_CONCEPTS])


_TOKEN = re.compile(r"[a-z][a-z\-’']*[a-z]|[a-z]")


def _phrases(text: str, longest: int = 3) -> set[str]:
    """The 1-3 word phrases of a loose text with no stop word at either edge."""
    words = _TOKEN.findall(text)
    out = set()
    for i in range(len(words)):
        for n in range(1, longest + 1):
            gram = words[i:i + n]
            if len(gram) == n and gram[0] not in STOPWORDS and gram[-1] not in STOPWORDS and len(gram[-1]) > 2:
                out.add(" ".join(gram))
    return out


def owned_phrases(chapter_texts: Sequence[str], book_texts: Sequence[str]) -> list[tuple[str, int]]:
    """Phrases the chapter owns, most mentioned first, with the passages that mention them: said in at
    least two of its passages and in no more passages anywhere else in the book (most of the book's
    mentions are here), and not mostly inside a longer such phrase.  Found in the text alone, for
    books that print no glossary and mark no terms."""
    here: dict[str, int] = {}
    for t in chapter_texts:
        for p in _phrases(t):
            here[p] = here.get(p, 0) + 1
    wanted = {p: n for p, n in here.items() if n >= 2}
    book: dict[str, int] = dict.fromkeys(wanted, 0)
    for t in book_texts:
        for p in _phrases(t) & wanted.keys():
            book[p] += 1
    owned = {p: n for p, n in wanted.items() if book[p] < 2 * n}  # most of the book's mentions are here
    keep = [p for p, n in owned.items()  # not mostly inside a longer owned phrase ("exit" of "exit polls")
            if not any(p != q and f" {p} " in f" {q} " and 2 * owned[q] > n for q in owned)]
    return sorted(((p, owned[p]) for p in keep), key=lambda x: (-x[1], x[0]))


_DETERMINERS = r"(?:a|an|the|these|those|each|every|its|their|our|your|his|her|any|some|another)"  # not "this",
_COPULAS = r"(?:is|are|was|were|refers|means)"  # "that", "which": pronouns before a verb too
_DETERMINER_BEFORE = re.compile(rf"(?<![a-z0-9]){_DETERMINERS}$")
_COPULA_AFTER = re.compile(rf"{_COPULAS} ")  # "X refers to …": the subject of a sentence
_NOT_IN_A_NAME = frozenset("must can could would should may might shall cannot doesn don isn aren won didn wasn "
                           "weren hasn haven couldn wouldn shouldn instead rather too also again now then".split())


_NOUN_USE = re.compile(rf"(?<![a-z0-9]){_DETERMINERS} ([a-z][\w\-’']*)|([a-z][\w\-’']*) {_COPULAS} ")


def nouns_used(texts: Sequence[str]) -> frozenset[str]:
    """The words ``texts`` (loose) write as nouns at least once: right after a determiner, or before
    "is/are/…" ("the passes" never: "passes" is a verb there)."""
    return frozenset(w for t in texts for pair in _NOUN_USE.findall(t) for w in pair if w)


def names_a_thing(phrase: str, texts: Sequence[str], nouns: frozenset[str] | None = None, raw: str = "") -> bool:
    """Does the chapter use ``phrase`` as the name of a thing: written at least once right after a determiner
    ("the heap", "a cons list", "these match guards"), before "is/are/was/were/refers/means", or opening a
    sentence of ``raw`` (the chapter's text as printed: "Positive reinforcement adds …"), with no modal,
    contraction or sentence adverb in it, not ending in a past tense, nor in a verb ("test passes": a last
    word in -s that is not among ``nouns``, the book's ``nouns_used``)?
    Phrases found by counting words are often pieces of a clause ("addition to providing", "keys must",
    "third arm doesn"), which the book never writes after "the" or "a".  ``texts`` (the chapter's) are loose."""
    words = phrase.split()
    if _NOT_IN_A_NAME & set(words) or "will" in words[:-1]:  # "harness will make"; "free will" is a name
        return False
    if len(words) > 1 and re.search(r"[^e]ed$", words[-1]):  # "probe continued", "seasons induced"
        return False
    if len(words) > 1 and re.search(r"[^s]s$", words[-1]) and \
            words[-1] not in (nouns if nouns is not None else nouns_used(texts)):
        return False  # a verb, not a plural: "test passes", "value goes" (the book never writes "the passes")
    if raw and re.search(rf"(?:^|[.!?]\s+){re.escape(phrase)}(?![\w-])", raw, re.IGNORECASE):
        return True
    needle = f" {phrase} "
    for t in texts:
        at = t.find(needle)
        while at >= 0:
            if _DETERMINER_BEFORE.search(t[max(0, at - 8):at]) or _COPULA_AFTER.match(t, at + len(needle)):
                return True
            at = t.find(needle, at + 1)
    return False


def _singular(word: str) -> str:
    return re.sub(r"(?<=[a-z]{3})(?:ies)$", "y", re.sub(r"(?<=[a-z]{3})(?<![su])s$", "", word))


def _head(term: str) -> str:
    words = content_words(term)
    return _singular(words[-1]) if words else ""


_GENUS_END = frozenset("that which who whom whose where when while in of on at by for to with from as than into "
                       "through about between among within without during after before under over used using based "
                       "consisting caused created made taken found given known called like such".split())
_WRAPPER = frozenset("type kind form class sort category variety group set collection series member part".split())
_COPULA = re.compile(r"\b(?:is|are)\s+(?:(?:an?|the|one)\s+)")


def genus(term: str, definition: str) -> str:
    """What a concept is a kind of, from its definition's first noun phrase: "a political and economic
    system in which ..." -> "system", "type of learning that ..." -> "learning", "an election poll taken
    ..." -> "poll"; for a defining sentence ("Public opinion is a collection of views") the phrase after
    its "is a".  "" when the definition does not open with one."""
    text = definition
    if loose(term) and loose(definition).startswith(loose(term)):
        m = _COPULA.search(definition)
        if not m:
            return ""
        text = definition[m.end():]
    words: list[str] = []
    tokens = re.findall(r"[a-z][a-z\-’']*|[,;:(—–]", text.lower())
    for i, w in enumerate(tokens):
        if w in ("a", "an", "the") and not words:
            continue
        if w == "of" and words and words[-1] in _WRAPPER:
            words = []  # "type of learning": the kind is learning
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if w in _GENUS_END or not w[0].isalpha() or (words and re.search(r"(?:ed|ing)$", w)
                                                      and (after in _GENUS_END or after in ("a", "an", "the"))):
            break  # "... information presented as ...": the participle ends the phrase
        words.append(w)
    return _singular(words[-1]) if words and words[-1] not in STOPWORDS else ""


def _kinds(c: Statement) -> set[str]:
    """A concept's kind: its definition's genus, else its own head word ("exit poll" -> poll).  The genus
    decides when there is one: "linear combination of atomic orbitals" is a technique, not an orbital."""
    kind = genus(c.term, c.text) or _head(c.term)
    return {kind} if kind else set()


def concept_kin(concepts: Sequence[Statement], encode: Callable[[Sequence[str]], Any]
                ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """For each defined concept, the chapter's other defined concepts nearest in meaning first ("term:
    definition" embedded; an ideology's nearest are ideologies, an orbital's are orbitals): the order in
    which ``sibling_concepts`` offers them."""
    defined = [c for c in concepts if c.kind is StatementKind.DEFINITION]
    if len(defined) < 2:
        return ()
    vectors = np.asarray(encode([f"{c.term}: {c.text}" for c in defined]), dtype=np.float32)
    sims = vectors @ vectors.T
    return tuple((c.term, tuple(defined[j].term for j in np.argsort(-sims[i]) if j != i))
                 for i, c in enumerate(defined))


def sibling_concepts(key: Statement, concepts: Sequence[Statement], seed: int = 0,
                     kin: Sequence[tuple[str, Sequence[str]]] = (), same_subject: bool = True) -> list[str]:
    """The chapter's other defined concepts (glossary or defining sentence) a student could mistake for
    ``key.term``: of the same kind — their definitions' genus or their head word match ("socialism" and
    "fascism" are both "a political ... system"; "exit poll" and "straw poll" are polls) — nearest in
    meaning first with ``kin`` (``concept_kin``), then from the key's section, then by centrality.  A
    concept of another kind is never offered (an item without three siblings is not made), nor one of the
    same genus whose definition shares no other word with the key's and whose term ends otherwise (a
    substance that stabilises emulsions is no option among substances that give ions in water; not checked
    without ``same_subject``, for a false statement made of another definition); a key whose last word names
    a family of two or more siblings ("open primary", "top-two primary") gets only that family.
    A sibling printed in the keyed sentence, or whose own definition is that sentence, is left out: the
    book's sentence for the key must make every sibling wrong."""
    proof = f" {loose(key.text)} {loose(key.context)} "
    key_forms = term_forms(key.term)
    own = next((c for c in concepts if term_forms(c.term) & key_forms), key)
    key_kinds, key_head, key_differentia = _kinds(own), _head(key.term), _differentia(own)
    order = next((terms for term, terms in kin if term_forms(term) & key_forms), ())
    near = {t: i for i, t in enumerate(order)}
    rng = random.Random(seed)
    out: list[tuple[tuple, str]] = []
    for c in concepts:
        if c.kind is not StatementKind.DEFINITION:
            continue  # a phrase found by use alone may be a fragment ("keys must", "type of galaxy")
        forms = term_forms(c.term)
        if any(f" {f} " in proof for f in forms) or loose(c.text) == loose(key.text):
            continue
        if same_or_part(key_forms, forms):
            continue  # the answer itself, or "reinforcement" for "positive reinforcement": a part of it
        if is_code_term(c.term) != is_code_term(key.term) or not _kinds(c) & key_kinds:
            continue  # not the same kind of thing: an ideology is no option for a poll
        if any(f" {k} " in f" {loose(c.text)} " for k in key_forms) or (
                genus(c.term, c.text) == key_head != _head(c.term)):
            continue  # a kind of the key ("regression" is a defense mechanism): it would be right too
        if same_subject and _head(c.term) != key_head and not key_differentia & _differentia(c):
            continue  # of the same genus but about something else: "emulsifying agent" among electrolytes
        out.append(((near.get(c.term, len(near)), c.source.section_id != key.source.section_id, -c.score,
                     rng.random()), c.term))
    family = [x for x in out if _head(x[1]) == key_head]
    if len(family) >= 2:  # "closed primary": the other primaries, not "midterm elections" (also an election)
        out = family
    return [t for _, t in sorted(out)]


def _differentia(c: Statement) -> set[str]:
    """What a definition says besides its genus and its own term: its other content words, stemmed to five
    letters ("substance that produces ions when dissolved in water" -> ions, disso, water)."""
    own = {w[:5] for w in content_words(c.term)} | {genus(c.term, c.text)[:5]}
    return {w[:5] for w in content_words(c.text)} - own


def same_or_part(a: set[str], b: set[str]) -> bool:
    """Two concepts' forms (``term_forms``) name the same thing, or one is a part of the other
    ("reinforcement" of "positive reinforcement")."""
    return bool(a & b) or any(f in k or k in f for f in b for k in a if min(len(f), len(k)) >= 4)


def swappable(key: Statement, other: Statement) -> bool:
    """Is ``other``'s definition plainly wrong for ``key`` by the book: a different concept, neither a kind
    of the other ("regression" is a defense mechanism; "positive reinforcement" is a reinforcement), and
    neither definition naming the other's term?"""
    kf, of = term_forms(key.term), term_forms(other.term)
    if same_or_part(kf, of):
        return False
    if any(f" {f} " in f" {loose(other.text)} " for f in kf) or any(f" {f} " in f" {loose(key.text)} " for f in of):
        return False
    return genus(other.term, other.text) != _head(key.term) and genus(key.term, key.text) != _head(other.term)
