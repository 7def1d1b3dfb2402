"""Does each answer sentence rest on the evidence it cites?  Per-sentence citations, checked.

The model reads numbered evidence sentences (``core.answer.evidence``) and cites them as ``[n]``; a
grammar makes a number it was not given impossible.  ``ground`` gives each answer sentence the one evidence
sentence most like it that *carries* it alone (``not_carried``), whatever the model cited.  Evidence carries a
sentence when:

* its numbers, names and acronyms appear in the evidence or the question, and a factor it states ("doubles",
  "twice") as often as it states it (``unstated_factor``);
* it says "not" where the evidence does, and not where the evidence does not, and it keeps the "not" of a
  question it restates;
* its direction words (increase/decrease, more/less, before/after …) are the evidence's;
* most of the content words it adds to the question's are the evidence's (and, when it adds none, most of
  its own words are: a restated question is not carried by an unrelated sentence);
* a definition it states is of a term the evidence is about;
* the evidence is a sentence, not a heading (``is_heading``);
* one evidence sentence holds both some of the question's words it uses and some of its own (the book itself
  links the answer to what was asked);
* a claim about X rests only on what an "In contrast to X, …"/"Unlike X, …" sentence says of X, not on its
  main clause about something else;
* a claim that gives a cause ("because", "due to", "which is why") rests on a sentence that gives one too;
* each half of a contrast ("A does x, while B does y") is carried, not only the sentence as a whole;
* a sentence that takes its subject from a greyed one ("This was done …") is greyed too (``grey_orphans``);
* a short sentence that names something ("It's called dispositional attribution.") is checked, not passed
  over as a connective;
* a sentence whose subject is a bare pronoun ("Thus, they prevent …") carries no claim that names its own
  subject, unless it names that subject too: "they" may be something else;
* it uses no term of the question that the books never mention (``unused``): the book cannot state a claim
  about it ("Download the Rust compiler for the Raspberry Pi …");
* it uses no other word of the question that the books never use (``unused_words``, ``NEVER_USED``): greyed, and an
  answer whose only carried sentences are such is declined, naming the word.

A sentence that fails is kept, shown greyed as not found in the book, and cites nothing: a chip must
never show a sentence that does not state its claim.  Pure functions over strings and a similarity matrix.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.answer.attribution import (BEYOND_BOOK_LABEL, Attributed, Support, citation, is_connective, orphans,
                                     overlap, pasted_code, short_quote, stems)
from core.answer.evidence import is_heading
from core.answer.faithfulness import (_numbers, borrows_definition, definition_subject, leans_on_previous, negated,
                                      unsourced_names, unstated_factor)
from core.models import Chunk, Citation, Source
from core.retrieval.directions import directions

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
# The chat model reads the chip's sentence as not stating the claim (``core.answer.verification``): bearing, as
# the words of that sentence carried it.
UNSTATED = "its sentence does not state it"
BEARING = frozenset({ABOUT_PROGRAM, TOGETHER, UNSTATED, "cause", "half"})
MAX_TOGETHER = 3  # the most alike sentences tried together for ``TOGETHER`` (it was the citation limit)
CONTENT_SHARE = 0.5  # a majority of a sentence's content words must come from its evidence (or the question)

# Words a sentence uses to point at its source ("According to the evidence, the textbook states that …"): they
# carry no claim, so they are not content the evidence must hold.
_ABOUT_SOURCE = stems("according evidence textbook book text passage passages source sources states stated say "
                      "says said mention mentions mentioned explain explains explained describe describes described "
                      "note notes noted provided given sentence sentences chapter section")
# Words that say how many, not what: a book sentence sharing "many" with the question is not about its topic.
_QUANTIFIERS = stems("many much most some few several all every each various other others another")
# "The formula for kinetic energy is Ek = ½mv²": the subject's head says what kind of thing follows, not what it is
# about; the book's sentence shows the formula without calling it one.  So does "The key difference between X and
# Y is that …" (a hand check found a right answer declined for "key").
_RELATIONAL = stems("formula formulas equation equations unit units symbol symbols definition meaning difference "
                    "differences key main")
_SOURCE_NOUNS = stems("evidence textbook book text passage passages source sources chapter section sentence sentences")


def _about_source(sentence: str) -> frozenset[str]:
    """The pointing words a sentence uses of its source, when it names one ("The textbook states that …"); in a
    sentence that names no source they are content ("The meat remains in its liquid state")."""
    return _ABOUT_SOURCE if stems(sentence) & _SOURCE_NOUNS else frozenset()


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


# A claim that gives a reason.  "since" is left out: as often a time ("since 1990") as a reason.
_CAUSE_CLAIM = re.compile(r"\b(?:because|due to|owing to|as a result|therefore|thus|hence|consequently|so that|"
                          r"(?:which|this|that) is why|leads? to|led to|causes?|caused|results? in|resulting in)\b", re.I)
# A sentence that gives a reason, a consequence or a purpose, in any of the ways a textbook does.
_CAUSE_EVIDENCE = re.compile(r"\b(?:because|since|due|owing|therefore|thus|hence|so|why|reasons?|consequen\w*|"
                             r"results?|resulting|lead|leads|led|caus\w*|effects?|produc\w*|allow\w*|enabl\w*|"
                             r"means?|order to|responsib\w*|explain\w*)\b|^\W*to\s+[a-z]+", re.I)
# "A does x, while B does y": two claims, each needing the evidence.
_CONTRAST_HALVES = re.compile(r",?\s*\b(?:while|whereas)\b\s*", re.I)


def not_carried(sentence: str, evidence: Sequence[str], question: str = "",
                unused: Sequence[str] = ()) -> str | None:
    """Why the ``evidence`` sentences do not carry ``sentence`` ("heading", "unused", "number", "name", "negation",
    "direction", "subject", "content", "echo", "link", "cause", "pronoun", "half"), or None when they do.
    ``unused``: the terms and rare words the question names that the books in scope never mention
    (``core.retrieval.mentions.Absence.named``)."""
    # A heading states nothing: "… you need to know the mass of sulfuric acid and its volume" was cited to the
    # example heading "Calculating Molar Concentrations from the Mass of Solute" (a hand check: wrong, as the
    # book's molarity is moles per litre), and a model that copies a heading as a sentence cited it to itself.
    evidence = [e for e in evidence if not is_heading(e)]
    if not evidence:
        return "heading"
    own = stems(sentence)
    # Whatever the evidence, a claim about what the book never mentions is the model's, not the book's: on stored
    # answers this greyed two sentences of a Raspberry Pi recipe, and no right sentence.  (Everyday words the book
    # lacks are not such terms: "typos" in a student's question is no absent topic.)
    if any(stems(term) and stems(term) <= own for term in unused):
        return "unused"
    evidence = about_the_contrasted(sentence, evidence, question)
    joined = " ".join(evidence)
    if _numbers(sentence) - _numbers(joined) - _numbers(question) or unstated_factor(sentence, joined, question):
        return "number"
    if unsourced_names(sentence, joined, question):
        return "name"
    carried = stems(joined) | stems(question)
    if own and negated(sentence) and not negated(joined) and not negated(question):
        return "negation"
    # "Why didn't the framers want Congress to pick the president?" answered "The framers wanted Congress to pick the
    # president because …": restating most of a negated question without its "not" asserts the opposite.
    asked_all = stems(question)
    if asked_all and negated(question) and not negated(sentence) \
            and len(own & asked_all) / len(asked_all) >= CONTENT_SHARE:
        return "negation"
    if own and not negated(sentence) and evidence and all(negated(e) for e in evidence) \
            and len(own & stems(joined)) / len(own) >= CONTENT_SHARE:
        return "negation"
    if directions(sentence) - directions(joined) - directions(question):
        return "direction"
    subject = definition_subject(sentence)
    if subject and not stems(subject) - _RELATIONAL <= carried:
        return "subject"
    # The question's own words prove nothing: what the sentence adds to them must come from the evidence.  A
    # sentence that adds nothing restates the question as a claim ("The Sérsic index tells you about the
    # brightness profile"): then most of its own words must be in the evidence, or the chip shows an unrelated
    # sentence (six such chips in 133 stored answers; none of them right).
    about = _about_source(sentence)
    new = own - stems(question) - about
    ev = stems(joined)
    if new and len(new & ev) / len(new) < CONTENT_SHARE:
        return "content"
    if own and not new and len(own & ev) / len(own) < CONTENT_SHARE:
        return "echo"
    # A claim joins what was asked to what it answers ("The somatic nervous system | receives incoming signals"):
    # one evidence sentence must join them too, or the answer was pieced together from words of sentences that
    # each say something else.  On 193 stored answers this greyed 6 sentences: 4 wrong claims, one whose chip was
    # about threads (not the claim), and one verbatim quiz option.
    asked = (own & stems(question)) - about - _QUANTIFIERS
    if asked and new and not any(stems(e) & asked and stems(e) & new for e in evidence):
        return "link"
    # "… because it is octahedral" on "The complexes are octahedral.": the words are the book's, the reason is the
    # model's.  On 175 stored answers this greyed 9 wrong reasons (methyl orange chosen for the way the book says
    # it fails, "because it is octahedral", "due to geometric isomerism (cis/trans)") and 3 right ones.
    if _CAUSE_CLAIM.search(sentence) and not _CAUSE_CLAIM.search(question) and not _CAUSE_EVIDENCE.search(joined):
        return "cause"
    if len(evidence) == 1 and _someone_else(sentence, evidence[0]):
        return "pronoun"
    return _half_not_carried(sentence, joined, question)


# Discourse openers that come before a sentence's subject ("Thus, they …", "This means that cocaine …").
_OPENER = re.compile(r"^\W*(?:(?:thus|however|therefore|in addition|also|similarly|instead|again|so|hence|in fact|"
                     r"in other words|for example|for instance|as a result|indeed|moreover|furthermore|consequently|"
                     r"then|this means that|this is because|that is)\b\s*,?\s*)+", re.I)
_BARE_PRONOUN = re.compile(r"(?:they|it|he|she|these|those)\b", re.I)


def _someone_else(sentence: str, evidence: str) -> bool:
    """Does the evidence say its claim of a bare pronoun ("Thus, they prevent dopamine … from signaling") while the
    sentence names a subject of its own that the evidence never names ("cocaine prevents dopamine …")?  The
    pronoun was something else (antipsychotics, in the book).  One sentence so greyed in 175 stored answers, a
    wrong one."""
    claim = _OPENER.sub("", sentence)
    return bool(_BARE_PRONOUN.match(_OPENER.sub("", evidence))) and not leans_on_previous(claim) \
        and not _head(claim, 1) & stems(evidence)


def _half_not_carried(sentence: str, evidence: str, question: str) -> str | None:
    """"half" when one half of a contrast ("A …, while B …") says "not" where the evidence does not, or adds
    content words the evidence lacks: a sentence long enough to share half its words with a sentence on something
    else ("… a select committee is appointed by the House or Senate to explore specific issues, while a standing
    committee is an approximate department in the executive branch" on a sentence about joint committees)."""
    halves = [h for h in _CONTRAST_HALVES.split(sentence) if h.strip()]
    if len(halves) < 2:
        return None
    ev, asked = stems(evidence), stems(question)
    for half in halves:
        if negated(half) and not negated(evidence) and not negated(question):
            return "half"
        new = stems(half) - asked - _about_source(half)
        if new and len(new & ev) / len(new) < CONTENT_SHARE:
            return "half"
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
           beyond_book: bool = False, unused: Sequence[str] = (), unused_words: Sequence[str] = ()) -> list[Attributed]:
    """Each answer sentence (``split_answer`` output) with the one evidence sentence that carries it
    (``_carrying``; the model's own ``[n]`` are not consulted).  A sentence nothing carries is ``Support.WEAK``
    (shown greyed, uncited).  With ``beyond_book`` the "Beyond the book:" paragraph is kept unjudged; without
    it, it is dropped.  ``unused``: what the question names that the books never use (``not_carried``);
    ``unused_words``: any content word of the question they never use (a sentence using one is ``NEVER_USED``)."""
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
        chosen, reason = _carrying(text, ranked, question, g, unused)
        # Carried but for a word the books never use: greyed (``NEVER_USED``).
        if chosen is not None and words_never_used(text, unused_words):
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=NEVER_USED))
        elif chosen is not None:
            quote = g.texts[chosen]
            out.append(Attributed(text, Support.SUPPORTED, chosen, quote, overlap(text, stems(quote)), para))
        elif _carried_together(text, [n for n in dict.fromkeys(cited) if n in g.texts], ranked, question, g, unused):
            # Greyed all the same, but the book does bear on the question: not a reason to decline the answer.
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=TOGETHER))
        else:
            out.append(Attributed(text, Support.WEAK, None, "", 0.0, para, conflict=reason or ""))
    return grey_orphans(out)


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
    return any(w.isalpha() for w in stems(sentence) - stems(question) - _about_source(sentence) - _GENERIC)


def grey_orphans(attributed: Sequence[Attributed]) -> list[Attributed]:
    """Grey a cited sentence that takes its subject from a greyed one just before it in its paragraph ("This was done
    through a series of steps: …" after a greyed "each state would have one seat in Congress"): what "this" is, the
    book does not say.  (``attribution.orphans``, as the passage reader's ``drop_orphans`` for dropped sentences.)"""
    return orphans(attributed, lambda b: b.support is Support.WEAK and b.conflict != ABOUT_PROGRAM,
                   lambda a: a.support is Support.SUPPORTED,
                   lambda a: replace(a, support=Support.WEAK, source=None, quote="", score=0.0, conflict=ORPHAN))


_PROGRAM_TALK = re.compile(r"\b(?:program|code|compil\w*|prints?|printed|output|error|panics?|runs?)\b", re.I)


def about_program(sentence: str, program: str) -> bool:
    """Does the sentence talk about the pasted ``program`` (its run, output or compilation, or its own names)?"""
    names = {w for w in re.findall(r"[A-Za-z_]\w+", program)}
    return bool(_PROGRAM_TALK.search(sentence)) or bool(names & set(re.findall(r"[A-Za-z_]\w+", sentence)) - {
        "the", "a", "an", "is", "in", "of", "to", "and", "it", "let", "fn", "main"})


def _carrying(text: str, ranked: Sequence[int], question: str, g: Grounded,
              unused: Sequence[str] = ()) -> tuple[int | None, str | None]:
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
        why = not_carried(text, [g.texts[n]], question, unused)
        if why is None:
            return n, None
        reason = reason or why
    return None, reason or "uncited"


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


__all__ = ["ABOUT_PROGRAM", "BEARING", "CONTENT_SHARE", "NEVER_USED", "TOGETHER", "UNSTATED", "Grounded",
           "about_program", "bears_on_question", "directions", "evidence_citations", "ground", "never_used_words",
           "not_carried", "words_never_used"]
