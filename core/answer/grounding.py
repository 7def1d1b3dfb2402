"""Does each answer sentence rest on the evidence it cites?  Per-sentence citations, checked.

The model reads numbered evidence sentences (``core.answer.evidence``) and cites them as ``[n]``; a
grammar makes a number it was not given impossible.  ``ground`` gives each answer sentence the one evidence
sentence most like it that *carries* it alone (``not_carried``), whatever the model cited.  Evidence carries a
sentence when:

* its numbers, names and acronyms appear in the evidence or the question;
* it says "not" where the evidence does, and not where the evidence does not;
* its direction words (increase/decrease, more/less, before/after …) are the evidence's;
* most of the content words it adds to the question's are the evidence's (and, when it adds none, most of
  its own words are: a restated question is not carried by an unrelated sentence);
* a definition it states is of a term the evidence is about;
* one evidence sentence holds both some of the question's words it uses and some of its own (the book itself
  links the answer to what was asked);
* a claim about X rests only on what an "In contrast to X, …"/"Unlike X, …" sentence says of X, not on its
  main clause about something else.

A sentence that fails is kept, shown greyed as not found in the book, and cites nothing: a chip must
never show a sentence that does not state its claim.  Pure functions over strings and a similarity matrix.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from core.answer.attribution import (BEYOND_BOOK_LABEL, Attributed, Support, citation, is_connective, overlap,
                                     pasted_code, short_quote, stems)
from core.answer.faithfulness import _numbers, definition_subject, leans_on_previous, negated, unsourced_names
from core.models import Chunk, Citation, Source
from core.retrieval.directions import directions

ABOUT_PROGRAM = "about the student's program"  # a greyed sentence's reason: what it says of pasted code
TOGETHER = "only several evidence sentences together"  # greyed, yet the evidence bears on the question
MAX_TOGETHER = 3  # the most alike sentences tried together for ``TOGETHER`` (it was the citation limit)
CONTENT_SHARE = 0.5  # a majority of a sentence's content words must come from its evidence (or the question)

# Words a sentence uses to point at its source ("According to the evidence, the textbook states that …"): they
# carry no claim, so they are not content the evidence must hold.
_ABOUT_SOURCE = stems("according evidence textbook book text passage passages source sources states stated say "
                      "says said mention mentions mentioned explain explains explained describe describes described "
                      "note notes noted provided given sentence sentences chapter section")
_WORD = re.compile(r"[a-z]+")


# "In contrast to X, …", "Unlike X, …": the sentence is about something else; what it says of X is in this phrase.
_CONTRAST = re.compile(r"^\s*(?:in contrast (?:to|with)|unlike|as opposed to|compared (?:to|with)|rather than)\s+"
                       r"(?P<phrase>[^,;]+(?:,[^,;]*?\bin which\b[^,;]*)?),", re.I)


def about_the_contrasted(sentence: str, evidence: Sequence[str], question: str = "") -> list[str]:
    """The evidence as it speaks of the sentence's subject: an evidence sentence that opens by contrasting
    that subject with another ("In contrast to classical and operant conditioning, in which learning occurs
    only through direct experience, observational learning is …") is cut to its contrast phrase, since its
    main clause is about the other thing.  The subject is the sentence's own, or, for "It …"/"This …", the
    question's."""
    head = stems(question) if leans_on_previous(sentence) else _head(sentence)
    out = []
    for e in evidence:
        m = _CONTRAST.match(e)
        if m:
            phrase, main = stems(m.group("phrase")), stems(e[m.end():])
            if head & (phrase - main) and not head & (main - phrase):
                e = m.group(0)
        out.append(e)
    return out


def _head(sentence: str, words: int = 3) -> frozenset[str]:
    """The stems of a sentence's first few content words: what it is about."""
    found: list[str] = []
    for w in _WORD.findall(sentence.lower()):
        found += [x for x in stems(w) if x not in found]
        if len(found) >= words:
            break
    return frozenset(found[:words])


def not_carried(sentence: str, evidence: Sequence[str], question: str = "") -> str | None:
    """Why the ``evidence`` sentences do not carry ``sentence`` ("number", "name", "negation", "direction",
    "subject", "content", "echo", "link"), or None when they do."""
    evidence = about_the_contrasted(sentence, evidence, question)
    joined = " ".join(evidence)
    if _numbers(sentence) - _numbers(joined) - _numbers(question):
        return "number"
    if unsourced_names(sentence, joined, question):
        return "name"
    own = stems(sentence)
    carried = stems(joined) | stems(question)
    if own and negated(sentence) and not negated(joined) and not negated(question):
        return "negation"
    if own and not negated(sentence) and evidence and all(negated(e) for e in evidence) \
            and len(own & stems(joined)) / len(own) >= CONTENT_SHARE:
        return "negation"
    if directions(sentence) - directions(joined) - directions(question):
        return "direction"
    subject = definition_subject(sentence)
    if subject and not stems(subject) <= carried:
        return "subject"
    # The question's own words prove nothing: what the sentence adds to them must come from the evidence.  A
    # sentence that adds nothing restates the question as a claim ("The Sérsic index tells you about the
    # brightness profile"): then most of its own words must be in the evidence, or the chip shows an unrelated
    # sentence (six such chips in 133 stored answers; none of them right).
    new = own - stems(question) - _ABOUT_SOURCE
    ev = stems(joined)
    if new and len(new & ev) / len(new) < CONTENT_SHARE:
        return "content"
    if own and not new and len(own & ev) / len(own) < CONTENT_SHARE:
        return "echo"
    # A claim joins what was asked to what it answers ("The somatic nervous system | receives incoming signals"):
    # one evidence sentence must join them too, or the answer was pieced together from words of sentences that
    # each say something else.  On 193 stored answers this greyed 6 sentences: 4 wrong claims, one whose chip was
    # about threads (not the claim), and one verbatim quiz option.
    asked = (own & stems(question)) - _ABOUT_SOURCE
    if asked and new and not any(stems(e) & asked and stems(e) & new for e in evidence):
        return "link"
    return None


@dataclass(frozen=True)
class Grounded:
    """The evidence side of ``ground``: evidence id → text, and answer × evidence cosines (or None)."""

    texts: Mapping[int, str]
    similarity: np.ndarray | None = None  # [answer sentence i, evidence j] in the order of ``texts``


def _likeness(i: int, sentence: str, ids: Sequence[int], g: Grounded) -> list[tuple[float, int]]:
    """(cosine + word overlap, id) of every evidence sentence for answer sentence ``i``, best first."""
    own = stems(sentence)
    scored = []
    for j, n in enumerate(ids):
        cos = float(g.similarity[i, j]) if g.similarity is not None else 0.0
        lex = len(own & stems(g.texts[n])) / len(own) if own else 0.0
        scored.append((cos + lex, n))
    return sorted(scored, reverse=True)


def ground(sentences: Sequence[tuple[int, str, tuple[int, ...]]], g: Grounded, *, question: str = "",
           beyond_book: bool = False) -> list[Attributed]:
    """Each answer sentence (``split_answer`` output) with the one evidence sentence that carries it
    (``_carrying``; the model's own ``[n]`` are not consulted).  A sentence nothing carries is ``Support.WEAK``
    (shown greyed, uncited).  With ``beyond_book`` the "Beyond the book:" paragraph is kept unjudged; without
    it, it is dropped."""
    ids = list(g.texts)
    out: list[Attributed] = []
    beyond_from: int | None = None
    # A program the student pasted is theirs to reason about: what a sentence says of it ("This program does not
    # compile", "x is 5 here") cannot be in the book, even when a book sentence shares its words ("It prints
    # "will"" beside a listing that prints).  It is kept, as an answer, but greyed like any sentence the book does
    # not state (reason ``ABOUT_PROGRAM``).  Two hand checks found 12 of 14 and 8 of 10 wrong statements on Rust
    # in such sentences ("Yes, this program compiles", "It prints "null"") reaching the student as if the book
    # said them.
    program = pasted_code(question)
    for i, (para, text, cited) in enumerate(sentences):
        if beyond_from is None and text.lower().startswith(BEYOND_BOOK_LABEL.lower()):
            beyond_from = para
        if beyond_from is not None and para >= beyond_from:
            out.append(Attributed(text, Support.BEYOND if beyond_book else Support.NONE, paragraph=para))
            continue
        # Even a short one ('It prints "Hello".') and even when a book sentence shares its words.
        if program and about_program(text, program):
            out.append(Attributed(text, Support.WEAK, paragraph=para, conflict=ABOUT_PROGRAM))
            continue
        if is_connective(text):
            out.append(Attributed(text, Support.CONNECTIVE, paragraph=para))
            continue
        ranked = [n for _, n in _likeness(i, text, ids, g)]
        chosen, reason = _carrying(text, ranked, question, g)
        if chosen is not None:
            quote = g.texts[chosen]
            out.append(Attributed(text, Support.SUPPORTED, chosen, quote, overlap(text, stems(quote)), para))
        elif _carried_together(text, [n for n in dict.fromkeys(cited) if n in g.texts], ranked, question, g):
            # Greyed all the same, but the book does bear on the question: not a reason to decline the answer.
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=TOGETHER))
        else:
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=reason or ""))
    return out


_PROGRAM_TALK = re.compile(r"\b(?:program|code|compil\w*|prints?|printed|output|error|panics?|runs?)\b", re.I)


def about_program(sentence: str, program: str) -> bool:
    """Does the sentence talk about the pasted ``program`` (its run, output or compilation, or its own names)?"""
    names = {w for w in re.findall(r"[A-Za-z_]\w+", program)}
    return bool(_PROGRAM_TALK.search(sentence)) or bool(names & set(re.findall(r"[A-Za-z_]\w+", sentence)) - {
        "the", "a", "an", "is", "in", "of", "to", "and", "it", "let", "fn", "main"})


def _carrying(text: str, ranked: Sequence[int], question: str, g: Grounded) -> tuple[int | None, str | None]:
    """The evidence sentence most like ``text`` (``ranked``) that alone carries it, or None and why not (the
    reason the most alike one gave).

    One sentence, never several together, and not the model's own pick first:
    - the 1.5B often cites the neighbour of the sentence that states its claim.  On the 39 stored answer
      sentences whose chip the most alike carrying sentence changes, judges blind to which was which found it
      stating the claim 20 times against 15, and preferred it 20 times against 5 (14 alike);
    - words gathered from two or three sentences carried claims none of them makes ("the meat does not freeze
      because it is stored in nitrogen" from a sentence on nitrogen packing and one on freezing).  Of the 51
      stored sentences only such a union carried, a judge found 30 wrong, 7 unclear and 14 right: greyed,
      a right one is still shown."""
    reason = None
    for n in ranked:
        why = not_carried(text, [g.texts[n]], question)
        if why is None:
            return n, None
        reason = reason or why
    return None, reason or "uncited"


def _carried_together(text: str, cited: Sequence[int], ranked: Sequence[int], question: str, g: Grounded) -> bool:
    """Do the sentences the model cited, or the two or three most like it, carry ``text`` together?  Such a
    sentence is not cited (``_carrying``), but it shows the evidence bears on the question."""
    if cited and not_carried(text, [g.texts[n] for n in cited], question) is None:
        return True
    return any(not_carried(text, [g.texts[n] for n in ranked[:k]], question) is None
               for k in range(2, MAX_TOGETHER + 1))


def evidence_citations(supported: Sequence[Attributed], sources: Sequence[Source],
                       pool: Sequence[Chunk] = ()) -> tuple[Citation, ...]:
    """One citation per cited evidence sentence, in order of first use: the chip shows that very sentence and
    opens its page (two answer sentences citing one section show their own two sentences)."""
    by_n = {s.n: s for s in sources}
    best: dict[int, float] = {}
    for a in supported:
        for n in a.cited:
            if n in by_n:
                best[n] = max(best.get(n, 0.0), a.score)
    # The whole sentence, not its first 220 characters: the model read all of it (an evidence unit is already
    # bounded, ``evidence.MAX_UNIT_TOKENS``), and a cut one hid what the claim rests on (a hand check found
    # "… published by the American Psychiatric Association (2013)" cut off).
    return tuple(citation(by_n[n], short_quote(by_n[n].text, limit=None), pool, score) for n, score in best.items())


def evidence_similarity(encode: Callable[[list[str]], np.ndarray], answer: Sequence[str],
                        texts: Sequence[str]) -> np.ndarray | None:
    """Cosines between answer sentences and evidence sentences (None when the embedder fails)."""
    if not answer or not texts:
        return None
    try:
        vectors = encode(list(answer) + list(texts))
    except Exception:  # a broken embedder must not cost the student the answer: word overlap only
        return None
    return vectors[:len(answer)] @ vectors[len(answer):].T


__all__ = ["ABOUT_PROGRAM", "CONTENT_SHARE", "TOGETHER", "Grounded", "about_program", "directions", "evidence_citations", "evidence_similarity", "ground",
           "not_carried"]
