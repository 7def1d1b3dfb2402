"""Does the book even mention what the question names?  "The book never mentions X."

A student asking about a tool, a function, a named theory or a person the book never mentions should
hear exactly that — small models otherwise answer from memory, and the passages retrieved for such a
question are always about something else.  ``named_terms`` picks the specific terms a question names:

* code: anything in backticks, ``a::b``, ``f()``, ``macro!``, ``snake_case``, ``camelCase``, ``--flag``;
* names: runs of capitalised words inside the sentence ("the Wisconsin Card Sorting Test");
* acronyms ("DSM-5", "NASA") and quoted terms;
* rare words: a lower-case word the embedder's vocabulary does not know whole (``is_rare``), such as
  "photoredox" — common English words are single word pieces.

``absent_terms`` keeps those that occur nowhere in the books in scope (``mentioned`` is the keyword
index's phrase search, so case and inflection are folded the way search folds them).  Pure functions:
the caller supplies both look-ups.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core.index.fts import STOPWORDS
from core.ingest.language import FUNCTION_WORDS

_CODE_SPAN = re.compile(r"`([^`\n]{1,80})`")
_CODE_TOKEN = re.compile(
    r"(?<![\w`])(?:"
    r"[A-Za-z_][\w]*(?:::[\w]+)+!?(?:\(\))?"  # a::b, a::b!, a::b()
    r"|[A-Za-z_][\w]*!(?=[\s(\[{.,;:?]|$)"  # macro!
    r"|[A-Za-z_][\w]*\(\)"  # f()
    r"|[a-z][a-z0-9]*(?:_[a-z0-9]+)+"  # snake_case
    r"|[a-z]+[A-Z][A-Za-z0-9]*"  # camelCase
    r"|--[a-z][a-z0-9-]+"  # --flag
    r"|#!?\[[^\]\n]{1,40}\]"  # #[attribute]
    r")")
_QUOTED = re.compile(r"[\"“]([^\"”\n]{2,60})[\"”]|(?<!\w)'([^'\n]{2,60})'(?!\w)")
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,4})?s?\b")
_CAPITALISED = re.compile(r"[A-Z][\w’'\-–]*")
# Words whose full stop does not end a sentence: "INS v. Chadha", "Dr. Ruiz", "e.g. Ohm".
_ABBREVIATIONS = frozenset("v vs dr mr mrs ms st prof e.g i.e etc al cf no fig eq ch sec approx".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z\-’']*[A-Za-z]|[A-Za-z]")
# Capitalised words that begin questions and clauses without naming anything.
_FUNCTION_WORDS = STOPWORDS | frozenset("""
explain describe define compare contrast list name give show tell discuss identify summarize summarise
please can could would should is are was were does did do how what why when where which who whom whose
i i'm i've chapter section page figure table example exercise question answer true false yes no
suppose imagine consider assume state use using calculate determine find predict estimate write draw
let given if in on at for from to of by with as after before during under over between into
""".split())
# A German article, pronoun or question word that opens a run of capitalised words: "Die Datei", "Welche Größe".
_GERMAN_LEADING = FUNCTION_WORDS["de"] | {"die", "dies", "jede", "jeder", "jedes", "alle", "mehrere", "viele"}
_FENCED = re.compile(r"```.*?(?:```|$)", re.S)
_POSSESSIVE = re.compile(r"(?<=\w)[’']s\b")
MIN_RARE_LETTERS = 6
_ELEMENTS = frozenset("""
H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr
Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir
Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl
Mc Lv Ts Og
""".split())
_FORMULA_PART = re.compile(r"([A-Z][a-z]?)|[\d_{}()\[\]·•–−+^-]+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w{2,}")


class TermKind:
    CODE = "code"
    NAME = "name"
    ACRONYM = "acronym"
    QUOTED = "quoted"
    RARE = "rare"


@dataclass(frozen=True)
class NamedTerm:
    """A specific term a question names, as written, and what made it specific."""

    text: str
    kind: str


def is_formula(term: str) -> bool:
    """Is ``term`` a chemical formula ("Rb_2O", "KHS", "Se–H", "NaCl")?  An exercise's compound is something
    to work out, not a topic the book has to name."""
    pos, symbols = 0, 0
    while pos < len(term):
        m = _FORMULA_PART.match(term, pos)
        if m is None:
            return False
        if m.group(1):  # a capital and maybe a small letter: an element symbol, or no formula at all
            if m.group(1) not in _ELEMENTS:
                return False
            symbols += 1
        pos = m.end()
    return symbols >= 2 or (symbols == 1 and any(c.isdigit() for c in term))


def _contraction(word: str) -> bool:
    """"wouldn't", "they’re": a contraction is no term, whatever the book's vocabulary says."""
    return "'" in word or "’" in word


def _clean(term: str) -> str:
    return term.strip(" \t.,;:?!\"'“”‘’()[]{}").strip()


def _opens_sentence(words: list[re.Match[str]], i: int) -> bool:
    """Does the ``i``-th whitespace token open a sentence (the first, or after ".", "?", "!" or ":" that does not
    end an abbreviation: "INS v. Chadha", "Dr. Ruiz")?"""
    previous = words[i - 1].group(0) if i else ""
    return i == 0 or (previous.endswith((".", "?", "!", ":")) and previous.rstrip(".?!:").lower() not in _ABBREVIATIONS)


def _names(question: str, nouns_capitalised: bool = False) -> Iterable[str]:
    """Runs of capitalised words that are not the first word of a sentence (unless the run is 2+ words).  Where
    every noun is capitalised (German), a single capitalised word is a noun: only a run of two or more, after a
    leading article or pronoun ("Die", "Welche"), is a name ("Uncomplicated Firewall", "James Madison")."""
    words = list(re.finditer(r"\S+", question))
    run: list[str] = []
    run_starts_sentence = False
    out: list[str] = []

    def close() -> None:
        if nouns_capitalised and run and run[0].lower() in _GERMAN_LEADING:
            del run[0]
        if run and (len(run) >= 2 or not (run_starts_sentence or nouns_capitalised)):
            out.append(" ".join(run))
        run.clear()

    for i, m in enumerate(words):
        token = _clean(m.group(0))
        sentence_start = _opens_sentence(words, i)
        bare = token.lower().strip("’'")
        if token and _CAPITALISED.fullmatch(token) and bare not in _FUNCTION_WORDS and not token.isupper():
            if not run:
                run_starts_sentence = sentence_start
            run.append(token)
            if m.group(0)[-1] in ".?!,;:":
                close()
        else:
            close()
    close()
    return out


def named_terms(question: str, is_rare: Callable[[str], bool] | None = None, *,
                nouns_capitalised: bool = False) -> list[NamedTerm]:
    """The specific terms ``question`` names (code, names, acronyms, quoted terms, rare words), in order,
    without duplicates.  ``nouns_capitalised``: the text is in a language that capitalises every noun (``_names``)."""
    found: dict[str, NamedTerm] = {}

    def add(text: str, kind: str) -> None:
        text = text.strip().rstrip(".,;:?") if kind == TermKind.CODE else _clean(text)
        key = text.lower()
        if len(text) >= 2 and key not in found and key not in _FUNCTION_WORDS:
            found[key] = NamedTerm(text, kind)

    # A pasted program's names are the student's own, not the book's: skip code that uses only them.
    local = {w for block in _FENCED.findall(question) for w in re.findall(r"\w+", block)}
    question = _POSSESSIVE.sub("", _FENCED.sub(" ", question))

    def add_code(text: str) -> None:
        if not local or not set(re.findall(r"\w+", text)) <= local:
            add(text, TermKind.CODE)

    for m in _CODE_SPAN.finditer(question):
        add_code(m.group(1))
    plain = _CODE_SPAN.sub(" ", question)
    for m in _CODE_TOKEN.finditer(plain):
        add_code(m.group(0))
    for m in _QUOTED.finditer(plain):
        add(m.group(1) or m.group(2), TermKind.QUOTED)
    for m in _ACRONYM.finditer(plain):
        if m.group(0) not in ("I", "A") and not m.group(0).isdigit() and not is_formula(m.group(0)):
            add(m.group(0), TermKind.ACRONYM)
    for name in _names(plain, nouns_capitalised):
        if not is_formula(name):
            add(name, TermKind.NAME)
    if is_rare is not None:
        for m in _WORD.finditer(plain):
            w = m.group(0)
            if (w.islower() and len(w) >= MIN_RARE_LETTERS and w not in STOPWORDS and not _contraction(w)
                    and is_rare(w)):
                add(w, TermKind.RARE)
    return list(found.values())


def _is_mentioned(term: NamedTerm, mentioned: Callable[[str, bool], bool]) -> bool:
    if mentioned(term.text, term.kind == TermKind.ACRONYM):
        return True
    words = term.text.split()
    if term.kind == TermKind.NAME and len(words) >= 2:  # "Dillon Rule" is written "Dillon’s Rule"
        return any(mentioned(" ".join(words[:i] + ["s"] + words[i:]), False) for i in range(1, len(words)))
    if term.kind == TermKind.CODE:  # `f.await`, `a.push_str(b)`: the question's own names around the book's
        parts = _IDENTIFIER.findall(term.text)
        return bool(parts) and len(parts) < len(re.findall(r"\w+", term.text)) and \
            all(mentioned(p, False) for p in parts)
    return False


def absent_terms(terms: Iterable[NamedTerm], mentioned: Callable[[str, bool], bool]) -> tuple[NamedTerm, ...]:
    """The terms the books never mention (``mentioned(text, exact_case)``: does the phrase occur in the books in
    scope; acronyms are matched with their case, so "INS" is not the word "ins").  A name is also found in its
    possessive form, and code made of one-letter names around the book's identifiers is the book's."""
    return tuple(t for t in terms if not _is_mentioned(t, mentioned))




def content_words(question: str) -> list[str]:
    """Lower-case content words of five letters or more (no stopwords, no code, no pasted program)."""
    plain = _CODE_SPAN.sub(" ", _POSSESSIVE.sub("", _FENCED.sub(" ", question)))
    return list(dict.fromkeys(w.lower() for w in _WORD.findall(plain) if len(w) >= 5 and not _contraction(w)
                              and w.lower() not in _FUNCTION_WORDS))


def content_bigrams(question: str) -> list[str]:
    """Adjacent pairs of content words ("dialectical behavior", "behavior therapy") — a topic's name is often
    a phrase of common words the book never puts together."""
    plain = _CODE_SPAN.sub(" ", _POSSESSIVE.sub("", _FENCED.sub(" ", question)))
    words = [w.lower() for w in _WORD.findall(plain)]
    return list(dict.fromkeys(f"{a} {b}" for a, b in zip(words, words[1:])
                              if len(a) >= 4 and len(b) >= 4 and a not in _FUNCTION_WORDS
                              and b not in _FUNCTION_WORDS))


RARE_WORD_PIECES = 3  # a word the embedder's vocabulary splits into this many pieces is not everyday English


@dataclass(frozen=True)
class Absence:
    """What a question names that the books in scope never mention (the inputs of ``core.retrieval.coverage``).

    ``terms``: specific terms (code, names, acronyms, quoted, rare words); ``words``: any content word of five
    letters or more; ``phrases_missing`` of ``phrases``: adjacent content-word pairs never found together.
    """

    terms: tuple[NamedTerm, ...] = ()
    words: tuple[str, ...] = ()
    rare_words: tuple[str, ...] = ()
    phrases: int = 0
    phrases_missing: int = 0

    @property
    def named(self) -> tuple[str, ...]:
        """The absent terms and rare words, as the refusal names them."""
        return tuple(dict.fromkeys([t.text for t in self.terms] + list(self.rare_words)))


def scenario_names(question: str) -> frozenset[str]:
    """Lower-cased one-word names that a question of several sentences uses twice or more, once to open a
    sentence ("Carson enjoys writing … When he's writing, Carson …"): the people of an exercise's own scenario,
    like a pasted program's variable names, not topics the book must mention.  ("What is the Stroop effect? Why
    does the Stroop effect …" names a topic: it never opens a sentence with it.)"""
    words = list(re.finditer(r"\S+", _POSSESSIVE.sub("", _FENCED.sub(" ", question))))
    if not any(_opens_sentence(words, i) for i in range(1, len(words))):
        return frozenset()
    names = [(_clean(m.group(0)), _opens_sentence(words, i)) for i, m in enumerate(words)]
    names = [(n.lower(), opens) for n, opens in names if re.fullmatch(r"[A-Z][a-z]+", n)]
    counts = Counter(n for n, _ in names)
    return frozenset(n for n, opens in names if opens and counts[n] >= 2 and n not in _FUNCTION_WORDS)


def absence(question: str, mentioned: Callable[[str, bool], bool],
            pieces: Callable[[str], int] | None = None, *, nouns_capitalised: bool = False) -> Absence:
    """What ``question`` names that the books never mention: ``mentioned(phrase, exact_case)`` is the keyword
    index's phrase look-up, ``pieces(word)`` the embedder's word-piece count (None: no rare words);
    ``nouns_capitalised`` when the question's language capitalises every noun (``named_terms``)."""
    is_rare = (lambda w: pieces(w) >= RARE_WORD_PIECES) if pieces is not None else None
    actors = scenario_names(question)
    # Where every noun is capitalised, even runs of capitalised words are mostly nouns ("XML-Dokument Zeichen",
    # "Meine SSH-Verbindung": 6 of 36 German questions about a German book read as naming something it lacks), so
    # no name decides coverage there; grounding still checks them (``faithfulness.unsourced_names``).
    terms = absent_terms([t for t in named_terms(question, is_rare, nouns_capitalised=nouns_capitalised)
                          if t.text.lower() not in actors and not (nouns_capitalised and t.kind == TermKind.NAME)],
                         mentioned)
    words = tuple(w for w in content_words(question) if w not in actors and not mentioned(w, False))
    rare = tuple(w for w in words if is_rare is not None and is_rare(w))
    bigrams = [g for g in content_bigrams(question) if not actors & set(g.split())]
    missing = sum(1 for g in bigrams if not mentioned(g, False))
    return Absence(terms, words, rare, len(bigrams), missing)


__all__ = ["Absence", "NamedTerm", "RARE_WORD_PIECES", "TermKind", "absence", "absent_terms", "content_bigrams",
           "content_words", "is_formula", "named_terms", "scenario_names"]
