"""What a chapter teaches: its teachable statements.

``statements`` reads one chapter's chunks (stitched per section) and returns ``Statement``s: whole sentences of the book that define a term ("A dimension vector is a vector of
  ..."), state a rule ("Negative indices are not allowed in index matrices."), a fact about one of the
  book's key terms or identifiers, a procedure ("To install R, ...") or an example; each tied to the
  chunk that holds it verbatim, with its topic (``term``) and a score.  Code examples with their printed
  output are ``core.study.examples``.

The book's emphasis comes in through the chunks' ``key_terms`` (bold/italic/monospace spans, glossary
entries, keyphrases); its structure through sections.  Pure functions; ``core.study.lesson`` caches them.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.models import Chunk, ChunkRole
from core.study.models import SourceRef
from core.study.prose import line_problem, prose_sentences, standalone
from core.study.text import Run, is_prose, loose, normalize, stitch


class StatementKind(str, enum.Enum):
    DEFINITION = "definition"
    RULE = "rule"
    FACT = "fact"
    PROCEDURE = "procedure"
    EXAMPLE = "example"


@dataclass(frozen=True)
class Statement:
    """One teachable sentence, verbatim from the chunk in ``source``; ``term`` is what it is about."""

    kind: StatementKind
    text: str
    term: str
    source: SourceRef
    score: float
    standalone: bool = True
    context: str = ""  # the paragraph it was read from (what a model sees with it)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "text": self.text, "term": self.term, "score": self.score,
                "standalone": self.standalone, "context": self.context, "source": self.source.to_json()}


_TERM_WORDS = r"[A-Za-z][\w\-’']*(?: [A-Za-z][\w\-’']*){0,4}"
_ABBR = r"(?:\s+\([^()\d]{1,20}\))?"  # "A pi bond (π bond) is …": the term's abbreviation, not part of it
_NAMED_AS = r"called|known as|termed|referred to as"  # the words that introduce a term by its name
_DEFINES = (
    re.compile(rf"\b(?:(?:is|are)\s+(?:{_NAMED_AS}|named|nicknamed|dubbed)|"
               r"(?:was|were)\s+(?:known as|termed|nicknamed|dubbed))\s+(?:an?\s+|the\s+)?"
               r"(?P<t>“?[\w\-’' ]{2,40}?”?|`[^`]+`)\s*[.,(:;]"),  # "… known as latent learning: learning …"
    re.compile(rf"^(?:An?|The)\s+(?P<t>{_TERM_WORDS}?){_ABBR}\s+(?:is|are)\s+(?:(?:an?|the|one|any)\s(?!\w+ called)|"
               r"defined as|said to be|simply|just|essentially|basically|when\s)"),
    re.compile(r"^(?P<t>[A-Z][\w\-]*(?: [a-z][\w\-]*){0,3})\s+(?:is|are)\s+(?:an?|the|one of the)\s"),
    re.compile(rf"^(?:An?\s+|The\s+)?(?P<t>{_TERM_WORDS}?){_ABBR}\s+(?:refers? to|means|is defined as|denotes|"
               r"stands for|describes|occurs? when)\b"),
    re.compile(r"^The\s+(?:function|operator|command|method|macro|keyword|type|trait|attribute|argument|option|"
               r"expression|statement|variable|module|package|library)\s+(?P<t>`[^`]+`|\S+?)[,]?\s+(?:is|are|"
               r"was|can|may|must|should|will|works|performs|gives|returns|creates|calculates|computes|forms|makes|produces|takes|allows|does|has)\b"),
    re.compile(r"^(?P<t>`[^`]+`|[a-z_][\w.]*\([^()]{0,30}\)|%\S{1,3}%)\s+(?:is|are|gives|returns|creates|"
               r"calculates|computes|forms|makes|produces|takes|allows|can|does|has|stands)\b"),
    re.compile(rf"^(?:An?|The)\s+(?P<t>{_TERM_WORDS}?){_ABBR}\s+consists? of\b"),  # "A molecule consists of …"
)
_PHRASE = r"[a-z][\w\-’']*(?: [a-z][\w\-’']*){0,3}"
_WORD = r"(?!(?:of|the|an?|in|on|for|to|by|with|from|as|and|or|is|are)\b)[a-z][\w\-’']*"
_NOUNS = rf"{_WORD}(?: {_WORD}){{0,3}}"
_INTRODUCES = (  # a term the sentence introduces without a copula ("a process called repression", "In shaping, we ...")
    re.compile(rf"\b(?:an?|the)\s+(?:[A-Za-z’']+\s+){{0,2}}?(?:{_NAMED_AS})\s+(?:an?\s+|the\s+)?"
               rf"(?P<t>{_PHRASE}?)\s*[.,(;:]"),
    re.compile(rf"\b(?:an?|the|of|in|on|for|to|by|with|from|as)\s+(?P<t>{_NOUNS}),\s+"
               r"(?:in which(?! case\b)|(?:which|that)\s+"  # "…, in which case" is no definition
               r"(?:(?:is|are) (?:an?|the)|consists? of|refers? to|means|occurs? when|describes?))\s"),
    re.compile(rf"^In (?!(?:fact|addition|contrast|general|particular|practice|turn|short|sum|summary|other|"
               rf"response|return|theory|part|total|effect|time|order|reality|essence|conclusion|case|brief|"
               rf"comparison|principle|most|many|some|each|all|this|that|these|those|such|our|their|its|his|her|"
               rf"the|a|an|recent|early|later?|past|modern|today|time|times|years?|decades?|centur\w*)\b)"
               rf"(?P<t>{_PHRASE}),\s"),
    re.compile(rf"\bthe (?:concept|idea|notion|principle|process|phenomenon|theory|law) of (?P<t>{_PHRASE}?)[.,;]"),
    re.compile(rf"\bwhat (?:[A-Z][\w’']+ )?(?:called|termed|calls|terms|named)\s+(?:an?\s+|the\s+)?(?P<t>{_PHRASE}?)"
               r"\s*[.,(;:]"),  # "children enter what Freud termed the anal stage (1–3 years)"
    re.compile(rf"\b(?:[Ww]e|[Tt]hey|[A-Za-z][a-z]+(?:ists|ers|ians)) (?:call|term|name) (?:(?:this|it|these|them|such)(?: (?:effect|process|phenomenon|behaviou?r|type|kind|pattern|"
               rf"method|approach|condition|state|response|technique|form|region|layer|motion|force|object|class|group|"
               rf"stage|period|idea|relationship|change|quantity|value|property|structure|feature))? )?"
               rf"(?P<t>{_NOUNS})\s*(?:[.,;:(]|because\b|when\b)"),
)
_IDENT = re.compile(r"`([^`\n]{1,40})`|(?<![\w.$])([A-Za-z_][\w.]*)\((?:[^()\n]{0,30})\)|(%[^%\s]{1,3}%)")
_RULE = re.compile(r"(?i)\b(?:must(?: not)?|cannot|can't|can not|always|never|not allowed|should(?: not)?|"
                   r"is required|are required|has to|have to|only if|is not possible)\b")
_PROCEDURE = re.compile(r"^(?:To [a-z]+\b.{5,}?,|(?:Use|Call|Run|Type|Add|Set|Press|Click|Enter|Open|Choose|"
                        r"Select|Start|Write|Create|Install)\s)")
_EXAMPLE = re.compile(r"(?i)^(?:for (?:example|instance)|as an example|e\.g\.)\b")
_BAD_TERM = re.compile(r"(?i)^(?:if|when|while|but|and|or|so|because|although|remember|note|notice|she|he|we|they|"
                       r"you|i|normally|usually|generally|also|then|now|here|there|only|even|just|still|"
                       r"always|never|often|sometimes|rarely|already|again|almost|very|much|more|less|"
                       r"this|that|these|those|it|one|each|such|other|another|some|all|most|many|which|"
                       r"important|common|simple|useful|main|key|basic|major|special|general|alternative|easy|good|"
                       r"word|phrase|name|term|notion|concept|two|three|four|five|six|seven|eight|nine|ten|"
                       r"best|better|worst|most|least|latter|former|with|without|warning|caution|tip|"
                       r"there|here|what|its|their|our|your|his|her|first|second|next|last|same|following|"
                       r"result|reason|answer|problem|way|thing|idea|point|case|example|goal|purpose)\b|"
                       r"^(?:always|never|often|sometimes|usually|already|value|values|name|names|number|code)$|"
                       r"\b(?:of|and|or|to|in|on|with|for|by|from|as|at|that|which|is|are)$")
_SCORE = {StatementKind.DEFINITION: 3.0, StatementKind.RULE: 2.0, StatementKind.FACT: 1.5,
          StatementKind.PROCEDURE: 1.5, StatementKind.EXAMPLE: 1.0}

def clean_term(term: str) -> str:
    """A term as a card front: quotes and trailing articles dropped, spacing collapsed."""
    t = " ".join(term.strip(" “”\"'.,:;").split())
    return re.sub(r"^(?:an?|the)\s+", "", t, flags=re.IGNORECASE) if not t.startswith("`") else t


def identifiers(sentence: str) -> list[str]:
    """Code identifiers a sentence names: `spans`, ``name(...)`` calls (as ``name()``) and ``%op%`` operators."""
    out = []
    for m in _IDENT.finditer(sentence):
        ident = m.group(1) or (m.group(2) + "()" if m.group(2) else "") or m.group(3)
        if ident and ident not in out and len(ident) >= 2:
            out.append(ident)
    return out


def is_code_term(term: str) -> bool:
    """A term that names code ("sum()", "`mut`", "%in%", "snake_case", "std::io"), not a word of the prose."""
    return bool(re.search(r"[()`%_:]", term))


def names_term(sentence: str, term: str) -> bool:
    """Does ``sentence`` introduce ``term`` by name: "… is called X", "a period known as X", "X refers to …"?
    A term so introduced is one the book means to teach, even if it never uses it again."""
    t, ls = re.escape(loose(term)), loose(sentence)
    named = rf"\b(?:{_NAMED_AS}|nicknamed|dubbed) (?:an? |the )?{t}\b"
    return bool(t) and bool(re.search(named, ls) or re.search(rf"\b{t} (?:refers? to|(?:is|are) defined as)\b", ls))


def term_ok(term: str) -> bool:
    """A term a student can be asked for: 1-6 words, no pronoun or dangling word, no markup."""
    words = term.split()
    code = is_code_term(term)
    return (2 <= len(term) <= 50 and 1 <= len(words) <= 6 and not _BAD_TERM.search(term)
            and not (len(words) > 1 and _FUNCTION_WORDS & {w.lower() for w in words})
            and (len(term) >= 3 or code)  # "df", "x": a name in an example, not a term
            and not (len(words) > 1 and len(words[-1]) == 1 and words[-1].islower() and not code)  # "franklin d"
            and not re.match(r"^[A-Z]\w+ the \w+", term)  # "Prepare the justices ...": an instruction
            and term.count("`") % 2 == 0 and not re.search(r"[\[\]<>{}^]|https?:|\.html|^\(", term))


_CATEGORY = frozenset("function operator command method macro keyword type trait attribute argument option "
                      "expression statement variable module package library".split())
_FUNCTION_WORDS = frozenset("this these those case really also just only even still very quite usually generally "
                            "often normally typically that which who whom "
                            "whose what when where "
                            "why how if then than so but and or not no we you they he she it its there here".split())


def classify(sentence: str, key_terms: Sequence[str]) -> tuple[StatementKind, str] | None:
    """(kind, term) of a book sentence, or None when it teaches nothing a student can be asked about."""
    s = " ".join(sentence.split())
    if s.endswith("?"):
        return None  # a question the book asks, not a statement it makes
    known = {loose(t) for t in key_terms}
    for pattern in (*_DEFINES, *_INTRODUCES):
        m = pattern.search(s)
        if m:
            term = clean_term(m.group("t"))
            if pattern is _DEFINES[2] and loose(term) not in known and (
                    len(term.split()) < 2 or _FUNCTION_WORDS & set(term.lower().split())):
                continue  # "She is the first ...", "State courts really are ...": not a term
            if term_ok(term) and loose(term) != loose(s):
                if pattern is _DEFINES[4] and term.lower() in _CATEGORY:
                    continue  # "The type argument allows ...": a category word, not the name
                if pattern is _DEFINES[4] and (ids := identifiers(m.group("t"))):
                    term = ids[0]
                return StatementKind.DEFINITION, term
    ls = f" {loose(s)} "
    term = next((t for t in key_terms if len(t) >= 3 and f" {loose(t)} " in ls and term_ok(t)), "")
    term = term or next(iter(identifiers(s)), "")
    if not term:
        return None
    if _EXAMPLE.match(s):
        return StatementKind.EXAMPLE, term
    if _PROCEDURE.match(s):
        return StatementKind.PROCEDURE, term
    if _RULE.search(s):
        return StatementKind.RULE, term
    return StatementKind.FACT, term


def _chunk_for(run: Run, offset: int, sentence: str) -> Chunk | None:
    """The chunk of ``run`` that holds ``sentence`` whole (near ``offset``), or None."""
    want = normalize(sentence)
    first = run.chunk_at(max(0, offset))
    ordered = sorted((c for _, c in run.spans), key=lambda c: c.id != first.id)
    return next((c for c in ordered if want in normalize(c.text)), None)


def _score(kind: StatementKind, sentence: str, term: str, emphasised: set[str], alone: bool) -> float:
    score = _SCORE[kind]
    if loose(term) in emphasised:
        score += 1.0
    if loose(sentence).startswith(loose(term)) or loose(sentence).startswith(f"the {loose(term)}"):
        score += 0.5
    score += 0.8 if alone else 0.0
    n = len(sentence)
    score -= 0.0 if 50 <= n <= 240 else 0.6 if n < 50 else min(1.5, (n - 240) / 120)
    return round(score, 3)


_VERBISH = re.compile(r"(?i)\b(?:\w+ly|allows?|needs?|seems?|gives?|makes?|takes?|uses?|used|using|way|ways|"
                      r"concerning|following|shown|given|called|known|get|gets|got|need|want|wants|let|lets|said|"
                      r"says|see|seen|able|possible|certain|various|different|important|simple|common|main|new|"
                      r"good|best|better|same|etc)\b")


def term_pool(chunks: Sequence[Chunk]) -> list[str]:
    """The chapter's key terms worth asking about, best first: what the book emphasised (printed in
    mixed case, as code or in quotes) or repeats (three times or more); keyphrases with verbs dropped."""
    text = " " + " ".join(loose(c.text) for c in chunks) + " "
    raw = " ".join(c.text for c in chunks)
    pool: dict[str, float] = {}
    for c in chunks:
        for t in c.key_terms:
            lt = loose(t)
            if lt in pool or len(lt) < 3 or not term_ok(t):
                continue
            code = any(ch in t for ch in "_()`%")
            marked = t != t.lower() or code or f"“{t}" in raw or f'"{t}' in raw
            count = len(re.findall(rf"(?<= ){re.escape(lt)}(?= )", text))
            last = lt.split()[-1]
            verbish = bool(_VERBISH.search(t)) or (not marked and re.search(r"(?:ing|ed|ates|izes)$", last))
            if (marked or count >= 3) and (code or not verbish) and count >= 1 and "span class" not in lt:
                pool[lt] = (2.0 if marked else 0.0) + min(count, 8) / 4 + 0.1 * len(lt.split())
    best = sorted(pool, key=lambda lt: -pool[lt])
    originals = {loose(t): t for c in chunks for t in c.key_terms}
    return [originals[lt] for lt in best]


def statements(chunks: Sequence[Chunk], *, headings: Sequence[str] = (),
               cancel: Callable[[], bool] | None = None) -> list[Statement]:
    """Teachable sentences of a chapter's chunks in reading order (see the module docstring)."""
    readable = [c for c in chunks if c.role in (ChunkRole.CONCEPT, ChunkRole.EXAMPLE, ChunkRole.SUMMARY,
                                                ChunkRole.CODE, ChunkRole.OTHER) and is_prose(c)]
    heads = list(headings) + sorted({c.section_title for c in chunks if c.section_title})
    emphasised = {loose(t) for c in chunks for t in c.key_terms if t != t.lower()}
    pool = term_pool(readable)
    local = {c.id: {loose(t) for t in c.key_terms} | {loose(t) for t in pool if f" {loose(t)} " in f" {loose(c.text)} "}
             for c in readable}
    out: list[Statement] = []
    seen: set[str] = set()
    for run in stitch(readable):
        if cancel and cancel():
            break
        cursor = 0
        for sentence, para in prose_sentences(run.text):
            offset = run.text.find(sentence[:40], cursor)
            cursor = max(cursor, offset)
            key = normalize(sentence)
            if key in seen or line_problem(sentence, heads) is not None:
                continue
            chunk = _chunk_for(run, offset, sentence)
            found = classify(sentence, [t for t in pool if loose(t) in local.get(chunk.id, ())] or pool[:0]
                             ) if chunk is not None else None
            if chunk is None or found is None:
                continue
            seen.add(key)
            kind, term = found
            alone = standalone(sentence)
            out.append(Statement(kind, " ".join(sentence.split()), term, SourceRef.of(chunk),
                                 _score(kind, sentence, term, emphasised, alone), alone,
                                 " ".join(para.split())[:700]))
    return out
