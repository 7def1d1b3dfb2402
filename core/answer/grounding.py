"""Does each answer sentence rest on the evidence it cites?  Per-sentence citations, checked.

The model reads numbered evidence sentences (``core.answer.evidence``) and cites them as ``[n]``; a
grammar makes a number it was not given impossible.  ``ground`` gives each answer sentence the one evidence
sentence most like it that *carries* it alone (``core.answer.carrying.not_carried``: its numbers, names,
negations, directions and most of its content words are the evidence's), whatever the model cited.  Besides:

* a sentence that takes its subject from a greyed one ("This was done …") is greyed too (``grey_orphans``);
* a short sentence that names something ("It's called dispositional attribution.") is checked, not passed
  over as a connective;
* a sentence about a program the student pasted is greyed (``ABOUT_PROGRAM``): no book can confirm it;
* a sentence using a word of the question that the books never use is greyed (``NEVER_USED``), and an answer
  whose only carried sentences are such is declined, naming the word.

A sentence that fails is kept, shown greyed as not found in the book, and cites nothing: a chip must
never show a sentence that does not state its claim.  Pure functions over strings and a similarity matrix.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from core.answer.attribution import (BEYOND_BOOK_LABEL, Attributed, Support, citation, is_connective, orphans,
                                     overlap, pasted_code, short_quote, stems)
from core.answer.carrying import about_source, denial, not_carried, verdict_claim
from core.answer.faithfulness import borrows_definition
from core.models import Chunk, Citation, Source

ABOUT_PROGRAM = "about the student's program"  # a greyed sentence's reason: what it says of pasted code
TOGETHER = "only several evidence sentences together"  # greyed, yet the evidence bears on the question
# Greyed sentences that still show the book bears on the question, so an answer of only such sentences is shown
# greyed, not declined: one evidence sentence carries every word of a "cause" or "half" sentence but not its
# "because" or its other half (a hand check found "Energy is quantized because it can only be equal to certain
# values" and "SnCl4 is not a salt because it does not contain cations and anions" declined for want of a
# "because" in the book's sentence: right answers, better shown greyed than lost).
# A sentence using a word of the question that the books never use ("The discharge petition requires 500,000
# signatures" where the book never says "discharge"): no book sentence can state it, whichever shares its other
# words.  Only a sentence the evidence would otherwise carry is so greyed.  It does not bear on the question: an
# answer whose only carried sentences are such is declined, naming the word (``Tutor``).  In six stored runs (dev
# books and two held-out manuals), none of 351 answers to in-book questions (paraphrased and misspelt ones among
# them) was of only such sentences; 11 answers to near-domain ones ("discharge petition", "cargo nextest") were.
NEVER_USED = "uses a word the book never uses"
# The chat model reads none of the sentences that carry the claim by words as stating it (``chip_judge``;
# ``core.answer.verification``): bearing, as the words of those sentences carried it.
UNSTATED = "its sentence does not state it"
# A Yes/No verdict ("Yes, gnuplot's fit command uses the Marquardt-Levenberg method.") restates the question, so
# words cannot tell a right "yes" from a wrong one: the book's "Silver chloride … dissolves slightly" shares every
# word of "Yes, solid silver chloride can dissolve completely in plain water."  The sentence that carries its
# words is put to the chat model (``core.llm.judge``) with the claim and with its denial; the claim keeps the chip
# only when the model finds it more likely true than false and likelier than its denial.  Otherwise, or when no
# model checked it, or when only words spread over several sentences carry it, it is greyed for this reason.  It
# does not bear on the question: the book's sentence does not say yes.  Of the stored runs' verdicts one
# sentence carries (dev books and two held-out manuals), it kept three of four right ones (a loop's private
# variable, the fit method, a mental shortcut; not R's case sensitivity, .497) and greyed all three wrong ones
# (silver chloride; an odd number of electrons "can be diamagnetic", cited before; hallucinogens "can be used
# safely", on a CBT sentence: .23 against its denial's .21, which the denial alone let through).
VERDICT = "its sentence does not say yes or no to it"
BEARING = frozenset({ABOUT_PROGRAM, TOGETHER, UNSTATED, "cause", "half"})
Judge = Callable[[str, str], float]  # (a book sentence, a claim) -> probability the claim is true
EVEN_ODDS = 0.5  # a judged claim needs at least the model's even odds (verdicts here, chips in ``verification``)
MAX_TOGETHER = 3  # the most alike sentences tried together for ``TOGETHER`` (it was the citation limit)
# The carrying sentences put to the chip judge, most alike first: the 1.5B often cites the neighbour of the sentence
# that states its claim, so the next one gets its chance; more would cost a prompt evaluation each.
JUDGED_CHIPS = 2


@dataclass(frozen=True)
class Grounded:
    """The evidence side of ``ground``: evidence id → text, and answer × evidence cosines (or None)."""

    texts: Mapping[int, str]
    similarity: np.ndarray | None = None  # [answer sentence i, evidence j] in the order of ``texts``
    # id → the sentence before it, where it takes its subject from that one ("It is case sensitive …"): the judge
    # reads both, to know what "it" is (``core.answer.evidence.Evidence.leans_on``).  Words are still carried by one.
    leaned: Mapping[int, str] = field(default_factory=dict)

    def as_read(self, n: int) -> str:
        """Evidence sentence ``n`` as the judge reads it: with the sentence it leans on, if any."""
        return f"{self.leaned[n]} {self.texts[n]}" if n in self.leaned else self.texts[n]


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
           beyond_book: bool = False, unused: Sequence[str] = (), unused_words: Sequence[str] = (),
           judge: Judge | None = None, chip_judge: Judge | None = None) -> list[Attributed]:
    """Each answer sentence (``split_answer`` output) with the one evidence sentence that carries it
    (``_carrying``; the model's own ``[n]`` are not consulted).  A sentence nothing carries is ``Support.WEAK``
    (shown greyed, uncited).  With ``beyond_book`` the "Beyond the book:" paragraph is kept unjudged; without
    it, it is dropped.  ``unused``: what the question names that the books never use (``not_carried``);
    ``unused_words``: any content word of the question they never use (a sentence using one is ``NEVER_USED``);
    ``judge``: the chat model's odds that a book sentence makes a claim true, for Yes/No verdicts (``VERDICT``);
    ``chip_judge``: its odds that a book sentence states a claim: the chip is the first of the ``JUDGED_CHIPS``
    carrying sentences it finds more likely stating than not, and a sentence none of them states is greyed
    (``UNSTATED``)."""
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
        if is_connective(text) and not _names_something(text, question):
            out.append(Attributed(text, Support.CONNECTIVE, paragraph=para))
            continue
        if borrows_definition(text, g.texts.values()):
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict="subject"))
            continue
        ranked = [n for _, n in _likeness(i, text, ids, g)]
        out.append(_chip(para, text, ranked, [n for n in dict.fromkeys(cited) if n in g.texts], g, question, unused,
                         unused_words, judge, chip_judge))
    return grey_orphans(out)


def _says_yes(judge: Judge, quote: str, claim: str) -> bool:
    """Does the book's sentence make the claim true, by the chat model's odds: more likely true than false, and
    likelier than its denial?  No threshold of ours: the model's own even odds, and the claim against its denial."""
    odds = judge(quote, claim)
    return odds >= EVEN_ODDS and odds > judge(quote, denial(claim))


def _chip(para: int, text: str, ranked: Sequence[int], cited: Sequence[int], g: Grounded, question: str,
          unused: Sequence[str], unused_words: Sequence[str], judge: Judge | None,
          chip_judge: Judge | None) -> Attributed:
    """One answer sentence with the evidence sentence that carries it, or greyed with the reason."""
    # "Yes, R is case sensitive." answering "Is R case sensitive …?": the words to carry are the claim's; the
    # verdict is checked by the judge, not by words.
    claim = verdict_claim(text)
    carriers, reason = _carrying(claim or text, ranked, question, g, unused)
    chosen = carriers[0] if carriers else None
    if chosen is not None and words_never_used(text, unused_words):  # carried but for a word the books never use
        return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=NEVER_USED)
    if claim and chosen is None:  # words spread over several sentences do not say yes ("Yes, gnuplot can draw …")
        return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=reason or "")
    if claim and (judge is None or not _says_yes(judge, g.as_read(chosen), claim)):
        return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=VERDICT)
    if chosen is not None and chip_judge is not None and not claim:
        chosen = next((n for n in carriers[:JUDGED_CHIPS]
                       if copied(text, g.texts[n]) or chip_judge(g.as_read(n), text) >= EVEN_ODDS), None)
        if chosen is None:
            return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=UNSTATED)
    if chosen is not None:
        quote = g.texts[chosen]
        return Attributed(text, Support.SUPPORTED, chosen, quote, overlap(text, stems(quote)), para)
    if _carried_together(text, cited, ranked, question, g, unused):
        # Greyed all the same, but the book does bear on the question: not a reason to decline the answer.
        return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=TOGETHER)
    return Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=reason or "")


_TOKEN = re.compile(r"[a-z0-9]+")


def copied(sentence: str, quote: str) -> bool:
    """Are ``sentence``'s words a run of ``quote``'s, in order ("Lithium is used to treat bipolar disorder." in
    "… whereas lithium is used to treat bipolar disorder.")?  The book's sentence then states it: no need to ask
    the judge, which found all 55 such chips of 227 hand-labelled ones stating (session 26), at 1.3 s a question."""
    own, book = _TOKEN.findall(sentence.lower()), _TOKEN.findall(quote.lower())
    n = len(own)
    return n >= 4 and any(book[i:i + n] == own for i in range(len(book) - n + 1))


def words_never_used(sentence: str, unused_words: Sequence[str]) -> tuple[str, ...]:
    """The question's words the books never use (``unused_words``) that ``sentence`` uses."""
    own = stems(sentence)
    return tuple(w for w in unused_words if stems(w) and stems(w) <= own)


def never_used_words(attributed: Sequence[Attributed], unused_words: Sequence[str]) -> tuple[str, ...]:
    """The never-used words the ``NEVER_USED`` sentences use: what a declined answer names ("Your book never
    mentions “discharge”")."""
    used = {w for a in attributed if a.conflict == NEVER_USED for w in words_never_used(a.text, unused_words)}
    return tuple(w for w in unused_words if w in used)


def bears_on_question(attributed: Sequence[Attributed]) -> bool:
    """Does the answer answer from the book: a cited sentence, or a greyed one that still shows the book bears on
    the question (``BEARING``)?  Without one, ``Tutor`` declines (unless the evidence defines what was asked)."""
    return any(a.support is Support.SUPPORTED or a.conflict in BEARING for a in attributed)


ORPHAN = "leans on a greyed sentence"
# Short words that answer or point without claiming anything ("Yes, there is a name for that.").
_GENERIC = stems("yes no great good question answer name called term right sure example here why step steps follow "
                 "following show shows also")


def _names_something(sentence: str, question: str) -> bool:
    """Does a short sentence still claim something: a word that is neither the question's nor generic ("It's called
    dispositional attribution.", which the student would take for the answer)?  A hand check found that one shown
    unchecked, as a connective, and wrong."""
    if sentence.rstrip().endswith(":"):  # "You can do this by following these steps:" leads into what follows
        return False
    return any(w.isalpha() for w in stems(sentence) - stems(question) - about_source(sentence) - _GENERIC)


def grey_orphans(attributed: Sequence[Attributed]) -> list[Attributed]:
    """Grey a cited sentence that takes its subject from a greyed one just before it in its paragraph ("This was done
    through a series of steps: …" after a greyed "each state would have one seat in Congress"): what "this" is, the
    book does not say.  (``attribution.orphans``, as the passage reader's ``drop_orphans`` for dropped sentences.)"""
    # Not after a sentence greyed as ``UNSTATED`` or ``ABOUT_PROGRAM``: what follows is judged with its own chip
    # (greying "This process is called evaporation." after such a sentence greyed 3 right sentences of 40).
    return orphans(attributed, lambda b: b.support is Support.WEAK and b.conflict not in (ABOUT_PROGRAM, UNSTATED),
                   lambda a: a.support is Support.SUPPORTED,
                   lambda a: replace(a, support=Support.WEAK, source=None, quote="", score=0.0, conflict=ORPHAN))


_PROGRAM_TALK = re.compile(r"\b(?:program|code|compil\w*|prints?|printed|output|error|panics?|runs?)\b", re.I)


def about_program(sentence: str, program: str) -> bool:
    """Does the sentence talk about the pasted ``program`` (its run, output or compilation, or its own names)?"""
    names = {w for w in re.findall(r"[A-Za-z_]\w+", program)}
    return bool(_PROGRAM_TALK.search(sentence)) or bool(names & set(re.findall(r"[A-Za-z_]\w+", sentence)) - {
        "the", "a", "an", "is", "in", "of", "to", "and", "it", "let", "fn", "main"})


def _carrying(text: str, ranked: Sequence[int], question: str, g: Grounded,
              unused: Sequence[str] = ()) -> tuple[list[int], str | None]:
    """The first ``JUDGED_CHIPS`` evidence sentences that alone carry ``text``, most alike first (``ranked``), and,
    when there are none, why not (the reason the most alike one gave).

    One sentence, never several together, and not the model's own pick first:
    - the 1.5B often cites the neighbour of the sentence that states its claim.  On the 39 stored answer
      sentences whose chip the most alike carrying sentence changes, judges blind to which was which found it
      stating the claim 20 times against 15, and preferred it 20 times against 5 (14 alike);
    - words gathered from two or three sentences carried claims none of them makes ("the meat does not freeze
      because it is stored in nitrogen" from a sentence on nitrogen packing and one on freezing).  Of the 51
      stored sentences only such a union carried, a judge found 30 wrong, 7 unclear and 14 right: greyed,
      a right one is still shown."""
    reason = None
    carriers: list[int] = []
    for n in ranked:
        why = not_carried(text, [g.texts[n]], question, unused)
        if why is None:
            carriers.append(n)
            if len(carriers) == JUDGED_CHIPS:  # no more are ever put to the judge
                break
        reason = reason or why
    return carriers, None if carriers else reason or "uncited"


def _carried_together(text: str, cited: Sequence[int], ranked: Sequence[int], question: str, g: Grounded,
                      unused: Sequence[str] = ()) -> bool:
    """Do the sentences the model cited, or the two or three most like it, carry ``text`` together?  Such a
    sentence is not cited (``_carrying``), but it shows the evidence bears on the question."""
    if cited and not_carried(text, [g.texts[n] for n in cited], question, unused) is None:
        return True
    return any(not_carried(text, [g.texts[n] for n in ranked[:k]], question, unused) is None
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


__all__ = ["ABOUT_PROGRAM", "BEARING", "EVEN_ODDS", "NEVER_USED", "TOGETHER", "UNSTATED", "VERDICT", "Grounded",
           "Judge", "about_program", "bears_on_question", "evidence_citations", "ground", "never_used_words",
           "words_never_used"]
