"""Does an evidence sentence carry an answer sentence alone?  ``not_carried`` says why not, or None.

The word-level test behind ``core.answer.grounding``: the model cites evidence by number, and each answer sentence
keeps a chip only when one evidence sentence carries it.  Evidence carries a sentence when:

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
* a sentence whose subject is a bare pronoun ("Thus, they prevent …") carries no claim that names its own
  subject, unless it names that subject too: "they" may be something else;
* it uses no term of the question that the books never mention (``unused``): the book cannot state a claim
  about it ("Download the Rust compiler for the Raspberry Pi …").

Pure functions over strings.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from core.answer.attribution import stems
from core.answer.evidence import REACTION_ARROWS, is_heading
from core.answer.faithfulness import (_numbers, definition_subject, leans_on_previous, negated, unsourced_names,
                                     unstated_factor)
from core.index.fts import STOPWORDS
from core.retrieval.directions import directions

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
# Y is that …" (a hand check found a right answer declined for "key"), and "The word "radiation" is used …" (a
# hand check found it greyed beside the book's "In everyday language, “radiation” is often used …").
_RELATIONAL = stems("formula formulas equation equations unit units symbol symbols definition meaning difference "
                    "differences key main word words term terms")
_SOURCE_NOUNS = stems("evidence textbook book text passage passages source sources chapter section sentence sentences")


def about_source(sentence: str) -> frozenset[str]:
    """The pointing words a sentence uses of its source, when it names one ("The textbook states that …"); in a
    sentence that names no source they are content ("The meat remains in its liquid state")."""
    return _ABOUT_SOURCE if stems(sentence) & _SOURCE_NOUNS else frozenset()


_WORD = re.compile(r"[a-z]+")
# "Yes, …" / "No. …": a verdict on a yes/no question ("No one …" is none).
_VERDICT = re.compile(r"^\W*(?:yes|no)\s*[,.;:!—–-]\s*", re.I)


def verdict_claim(sentence: str) -> str:
    """The claim a Yes/No verdict opens ("Yes, R is case sensitive." → "R is case sensitive."), or "" when the
    sentence opens with no verdict or is nothing but one."""
    m = _VERDICT.match(sentence)
    claim = sentence[m.end():].strip() if m else ""
    return claim[:1].upper() + claim[1:]


def denial(claim: str) -> str:
    """The claim denied, whatever its verb: "It is not true that the fit command uses …" (the first word kept
    capitalised when it is a name: "… that R is case sensitive")."""
    first = claim.split(" ", 1)[0]
    if first.lower() in STOPWORDS:
        claim = claim[:1].lower() + claim[1:]
    return f"It is not true that {claim}"


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
_ARROW = re.compile(REACTION_ARROWS)
# "A does x, while B does y": two claims, each needing the evidence.
_CONTRAST_HALVES = re.compile(r",?\s*\b(?:while|whereas)\b\s*", re.I)


def not_carried(sentence: str, evidence: Sequence[str], question: str = "",
                unused: Sequence[str] = ()) -> str | None:
    """Why the ``evidence`` sentences do not carry ``sentence`` ("heading", "unused", "number", "name", "equation",
    "negation", "direction", "subject", "content", "echo", "link", "cause", "pronoun", "half"), or None when they do.
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
    # A reaction written out ("HCO_3^- + OH^- → CO_3^2- + H_2O") on a sentence that only leads into the book's
    # reactions ("The equations below show the two possible acid-base reactions …:"): the reaction is the model's.
    if _ARROW.search(sentence) and not _ARROW.search(joined) and not _ARROW.search(question):
        return "equation"
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
            and len(own & stems(joined)) / len(own) >= CONTENT_SHARE and not _said_unnegated(own, evidence):
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
    about = about_source(sentence)
    new = own - stems(question) - about
    ev = stems(joined)
    if new and len(new & ev) / len(new) < CONTENT_SHARE:
        return "content"
    # A key, option or symbol in quotes ("is 'u'", "use '-'") has no word the stems can see: it is what the sentence
    # adds, and the evidence must show it.
    marks = _marks(sentence) - _marks(question)
    if any(not _shows(joined, m) and not _shows(question, m) for m in marks):
        return "content"
    if own and not new and not marks and len(own & ev) / len(own) < CONTENT_SHARE:
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


# Where a sentence's clauses part: "… may be specified in units of 1/100 second (default 5), but this value may or may
# not be honored …" says the first half without a "not".
_CLAUSES = re.compile(r",?\s*\b(?:but|while|whereas|although|though|yet)\b|;", re.I)


def _said_unnegated(own: frozenset[str], evidence: Sequence[str]) -> bool:
    """Does a clause of the evidence without a negation carry most of ``own`` (the claim's stems)?  Then a "not"
    elsewhere in the sentence does not deny the claim (a hand check found "The delay between frames is given in
    units of 1/100 second." greyed for the "may or may not be honored" after it)."""
    return any(not negated(c) and len(own & stems(c)) / len(own) >= CONTENT_SHARE
               for e in evidence for c in _CLAUSES.split(e) if c and c.strip())


_QUOTED = re.compile(r"['‘’\"“”`]([^'‘’\"“”`\s]{1,12})['‘’\"“”`]")
_CODE_SPAN = re.compile(r"`[^`]+`")


def _marks(text: str) -> frozenset[str]:
    """What ``text`` puts in quotes that has no word of its own ("'u'", "`-`", "'\\n'"): keys and symbols."""
    # A piece of code with a space in it (`set datafile separator ";"`) is code, whose quotes are its own.
    prose = _CODE_SPAN.sub(lambda m: " " if any(c.isspace() for c in m.group(0)) else m.group(0), text)
    return frozenset(m.lower() for m in _QUOTED.findall(prose) if not stems(m))


def _shows(evidence: str, mark: str) -> bool:
    """Does ``evidence`` show ``mark`` as a token of its own (the book's "’u’ hotkey" shows "u")?"""
    return re.search(rf"(?<![\w]){re.escape(mark)}(?![\w])", evidence.lower()) is not None


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
        new = stems(half) - asked - about_source(half)
        if new and len(new & ev) / len(new) < CONTENT_SHARE:
            return "half"
    return None


__all__ = ["CONTENT_SHARE", "about_source", "about_the_contrasted", "denial", "directions", "not_carried",
           "verdict_claim"]
