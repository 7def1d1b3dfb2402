"""Query understanding: what kind of answer a question wants, and where to look.

``plan_query`` turns a student's question into a ``QueryPlan``: the ``Intent`` (definition,
worked example, practice exercise, summary...), the ``Scope`` written into the question
("in chapter 5", "pages 40–60"), the cleaned text to search with, expansions for very short or
structural questions, and the chunk roles the answer should draw on.  ``core.retrieval.selection``
then shapes a candidate list with it.

Everything is rules over regular expressions: no model, well under a millisecond per question,
deterministic, and nothing specific to any book.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from core.index.fts import query_terms
from core.models import ChunkRole
from core.retrieval.scope import Scope, parse_scope


class Intent(str, enum.Enum):
    DEFINITION = "definition"  # what is / define / meaning of / explain X
    EXAMPLE = "example"  # show me an example, worked example, how do I solve...
    PROCEDURE = "procedure"  # how to / steps / how do you...
    EXERCISE = "exercise"  # practice problem, quiz me, an exercise like 3.14
    SUMMARY = "summary"  # summarize, key points, main ideas, recap
    COMPARISON = "comparison"  # difference between, compare, X vs Y
    STRUCTURAL = "structural"  # learning objectives of chapter 2, what does chapter 3 cover
    FACTUAL = "factual"  # everything else


@dataclass(frozen=True)
class RoleQuota:
    """At least ``count`` of the top-k should have ``role`` when candidates of that role exist."""

    role: ChunkRole
    count: int = 1


@dataclass(frozen=True)
class QueryPlan:
    """What to search for and what a good answer's sources look like.

    ``text`` is the question without its scope phrase; ``search_text`` adds the expansions and is
    what retrieval should be given.  ``lead_role``: put the best chunk of this role first (the
    student asked for an example / an exercise / a summary).  ``min_sections``: a comparison needs
    sources from at least this many sections.  ``facets``: the two sides of a comparison, each
    worth a search of its own.  ``references``: "exercise 3.14", "figure 2.1" as written.
    """

    question: str
    intent: Intent
    text: str
    scope: Scope
    preferred_roles: tuple[RoleQuota, ...] = ()
    lead_role: ChunkRole | None = None
    min_sections: int = 1
    expansions: tuple[str, ...] = ()
    facets: tuple[str, ...] = ()
    topic: str = ""
    references: tuple[str, ...] = ()

    @property
    def key_terms(self) -> tuple[str, ...]:
        """Content words of the question (topic if known) without intent cues ("define", "quiz", ...).

        Used to check that a chunk promoted for its role is about the question at all.
        """
        return tuple(t for t in query_terms(self.topic or self.text) if t not in _CUE_WORDS)

    @property
    def search_text(self) -> str:
        """Cleaned question plus expansions (the original question if scope removal left no words)."""
        base = self.text if query_terms(self.text) else ""
        parts = [p for p in (base, *self.expansions) if p]
        return " ".join(parts) if parts else self.question


# Words that say what kind of answer is wanted, not what it is about.
_CUE_WORDS = frozenset("""
define definition meaning mean means meant explain explanation tell example examples show give worked solve
calculate compute summarize summarise summary key points ideas idea main recap takeaways takeaway overview quiz
test exercise exercises practice problem problems question questions compare comparison difference differences
differ contrast vs versus similar similarities learning objectives objective cover covers covered list sections
section chapter chapters steps step procedure please like help need want some more another quick briefly simple
""".split())

# Classic intent -> roles table: which kinds of chunk a good answer is built from.
ROLE_TABLE: dict[Intent, tuple[tuple[RoleQuota, ...], ChunkRole | None, int]] = {
    Intent.DEFINITION: ((RoleQuota(ChunkRole.CONCEPT), RoleQuota(ChunkRole.GLOSSARY),
                         RoleQuota(ChunkRole.EXAMPLE)), None, 1),
    Intent.EXAMPLE: ((RoleQuota(ChunkRole.EXAMPLE, 2), RoleQuota(ChunkRole.CONCEPT)), ChunkRole.EXAMPLE, 1),
    Intent.EXERCISE: ((RoleQuota(ChunkRole.EXERCISE, 2),), ChunkRole.EXERCISE, 1),
    Intent.SUMMARY: ((RoleQuota(ChunkRole.SUMMARY), RoleQuota(ChunkRole.OBJECTIVES)), ChunkRole.SUMMARY, 1),
    Intent.STRUCTURAL: ((RoleQuota(ChunkRole.OBJECTIVES), RoleQuota(ChunkRole.SUMMARY)), ChunkRole.OBJECTIVES, 1),
    Intent.PROCEDURE: ((RoleQuota(ChunkRole.EXAMPLE), RoleQuota(ChunkRole.CONCEPT)), None, 1),
    Intent.COMPARISON: ((RoleQuota(ChunkRole.CONCEPT, 2),), None, 2),
    Intent.FACTUAL: ((), None, 1),
}

_I = re.IGNORECASE


class _Rule:
    """A regex plus substrings at least one of which every match contains.

    Python's ``re`` tries every alternative at every position, so a long pasted exercise costs
    ~100 µs per rule; checking the (lower-cased) substrings first skips most rules outright.
    """

    def __init__(self, triggers: tuple[str, ...], *parts: str):
        self.triggers = triggers
        self.rx = re.compile("|".join(parts), _I)

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        lower = text.lower() if lower is None else lower
        if not any(t in lower for t in self.triggers):
            return None
        return self.rx.search(text)


# -- intent rules (checked in this order; the first that fires wins) -----------------------------
# Structural cues mention "chapter"/"section", which scope parsing removes, so they are matched
# against the original question; every other rule sees the cleaned text.
_STRUCTURAL = _Rule(
    ("objective", "outcome", "goal", "aim", "contents", "chapter", "section", "unit", "module", "lesson", "book",
     "part", "learn", "by the end"),
    # "goals of therapy" is content; objectives *of a chapter* or *learning* objectives are structure.
    r"\b(?:objectives?|outcomes?|goals?|aims?)\s+(?:of|for|in)\s+(?:this\s+|the\s+|each\s+)?"
    r"(?:chapter|section|unit|module|lesson|part|book)s?\b",
    r"\blearning\s+(?:objectives?|outcomes?|goals?)\b|^(?:the\s+)?objectives\b",
    r"\btable of contents\b|\b(?:outline|structure|organi[sz]ation|layout)\s+of\s+(?:the\s+|this\s+)?"
    r"(?:chapter|section|book|unit|part|module)",
    r"\bwhat\s+(?:does|do|will|did)\s+(?:this\s+|the\s+)?(?:chapter|section|unit|book|part|module|lesson)"
    r"(?:s)?\b[^?.!]{0,40}\b(?:cover|discuss|include|contain|teach|deal with|go over|talk about|about)\b",
    r"\bwhat(?:'s|\s+is|\s+are)?\s+(?:covered\s+)?(?:in|inside)\s+(?:this\s+|the\s+)?(?:chapter|section|unit|module)\b",
    r"\bwhat\s+(?:is|are)\s+(?:this\s+|the\s+)?(?:chapter|section|unit|module)s?\s*(?:\d[\d.]*\s*)?about\b",
    r"\b(?:list|show|name|give me|what are)\b[^?.!]{0,30}\b(?:sections|subsections|topics|headings|chapters)\b",
    r"\bwhich\s+(?:chapters?|sections?|pages?)\b",
    r"\bwhat\s+(?:will|should)\s+i\s+(?:learn|be able to)\b|\bby the end of (?:this|the) (?:chapter|section)\b",
)
_SOLVE = _Rule(  # asking for a worked solution: examples of the method are what helps
    ("how", "solve", "calculat", "comput", "balanc", "convert", "determin", "find", "predict", "estimat"),
    r"\bhow\s+(?:do|would|can|should|could|did|might)\s+(?:i|you|we|one)\s+(?:go about\s+)?"
    r"(?:solve|work out|tackle|approach|answer|do)\b[^?]{0,40}\b(?:problem|exercise|question|equation|this|it)\b",
    r"\bhow\s+(?:do|would|can|should|could)\s+(?:i|you|we|one)\s+solve\b",
    # Imperatives at a clause start ("Using the data, calculate..."), not "how do you calculate X"
    # (a procedure) nor "explain how you could determine" (an explanation).
    r"(?:(?:^|[.?!:;,]\s*)(?:please\s+|(?:can|could|would)\s+you\s+(?:please\s+)?|now\s+)?|\b(?:then|and)\s+)"
    r"(?:solve|calculate|compute|balance|convert)\b",
    r"(?:(?:^|[.?!:;,]\s*)(?:please\s+|(?:can|could|would)\s+you\s+(?:please\s+)?|now\s+)?|\b(?:then|and)\s+)"
    r"(?:determine|find|predict|estimate)\b[^?]*\d",
    r"\bsolve\s+(?:exercise|problem|question|equation|for)\b",
)
_EXERCISE = _Rule(
    ("quiz", "test", "drill", "flash", "practice", "exercise", "problem", "question"),
    r"\bquiz\s+me\b|\btest\s+(?:me|my\s+(?:knowledge|understanding))\b|\bdrill\s+me\b|\bflash ?cards?\b",
    r"\bpractice\s+(?:problems?|questions?|exercises?|quiz(?:zes)?|tests?|sets?)\b",
    r"\b(?:give|generate|make|create|write|suggest|recommend|provide|send|set)\s+(?:me\s+|us\s+)?"
    r"(?:some\s+|an?\s+|more\s+|another\s+|few\s+|a few\s+|\d+\s+|two\s+|three\s+|five\s+)?"
    r"(?:\w+\s+){0,2}(?:exercises?|problems?|questions?|quiz(?:zes)?)\b",
    r"\b(?:want|need|like)\s+(?:some\s+|an?\s+|more\s+|another\s+)(?:practice\s+)?(?:exercises?|problems?|quiz)\b",
    r"\b(?:more|another|similar|extra|additional)\s+(?:practice\s+)?(?:exercises?|problems?)\b",
    r"\b(?:exercises?|problems?)\s+(?:like|similar to)\b",
    r"^(?:some\s+|more\s+)?(?:exercises?|practice problems?)\s+(?:on|about|for)\b",
)
_COMPARISON = _Rule(
    ("differ", "compar", "contrast", "vs", "versus", "similar", "alike", "distinguish"),
    # "different" alone is too common ("many different programs"): only comparative phrasings count.
    r"\bdifferences?\s+(?:between|among|in)\b|\bwhat(?:'s|\s+is|\s+are)\s+the\s+differences?\b",
    r"\bdifferentiate\s+(?:between|among)\b|\bdiffer(?:s|ed)?\b|\bdifferent\s+(?:from|than)\b",
    r"\bhow\s+(?:are|is|do|does)\b[^?]{1,80}\b(?:different|differ|similar|alike)\b",
    r"\bcompar(?:e|es|ed|ing|ison|isons)\b|\bcontrast(?:s|ed|ing)?\b",
    r"\bvs\.?(?=\s)|\bversus\b",
    r"\bsimilarit(?:y|ies)\s+(?:between|and)\b|\bdistinguish\s+(?:between|\w+\s+from)\b",
)
_SUMMARY = _Rule(
    ("summar", "key", "main", "recap", "tl", "takeaway", "overview", "nutshell", "big picture", "gist",
     "important", "review", "revise"),
    r"\bsummar(?:y|ies|ise|ize|ised|ized|ising|izing)\b",
    r"\bkey\s+(?:points|ideas|takeaways?|concepts|facts|messages)\b|\bmain\s+(?:ideas?|points|takeaways?)\b",
    r"\brecap\b|\btl;?\s?dr\b|\btakeaways?\b|\boverview\b|\bin a nutshell\b|\bbig picture\b|\bgist\b",
    r"\bwhat\s+(?:are|were)\s+the\s+(?:most\s+)?important\s+(?:things|points|ideas)\b",
    r"^(?:please\s+|can you\s+|help me\s+)?(?:review|revise)\s+(?:the\s+|this\s+)?(?:chapter|section|unit|material)",
)
_EXAMPLE = _Rule(
    ("example", "worked", "sample", "show me how", "step"),
    # Asking *for* an example; "Which of the following is an example of X?" identifies one (factual).
    r"\b(?:give|show|provide|list|need|want|see|have|share|offer|generate|think\s+of|come\s+up\s+with)\s+"
    r"(?:me\s+|us\s+)?(?:(?:an?|some|another|more|one|two|three|few|several|good|simple|real|concrete|"
    r"original|novel|everyday|\w+-\w+)\s+){0,3}examples?\b",
    r"^(?:what(?:'s|\s+is|\s+are)|any)\s+(?:an?\s+|some\s+|good\s+)?examples?\s+of\b|^examples?\b",
    r"\bfor\s+(?:an|some)\s+examples?\b|\bexamples?\s+please\b",
    r"\bworked[- ](?:out\s+)?(?:examples?|solutions?|problems?)\b|\bsample\s+problems?\b",
    r"\bshow\s+me\s+how\b|\bstep[- ]by[- ]step\s+solution\b",
)
_PROCEDURE = _Rule(
    ("how", "step", "procedure", "walk me", "method", "technique", "algorithm"),
    r"\bhow\s+to\b",
    r"\bhow\s+(?:do|can|should|would|could|does)\s+(?:i|you|one)\b",
    r"\bsteps\s+(?:to|for|of|in|involved)\b|\bwhat\s+are\s+the\s+steps\b|\bstep[- ]by[- ]step\b",
    r"\bprocedure\s+(?:for|to|of)\b|\bwalk\s+me\s+through\b|\b(?:method|technique|algorithm)\s+(?:for|to)\b",
)
_DEFINITION_CUES = _Rule(
    ("defin", "mean", "call", "term", "known", "referred", "key", "vocabulary", "glossary", "tell me about"),
    r"\bdefin(?:e|es|ition|itions)\b(?!\s+(?:proportions?|integrals?))",
    r"\bmeaning\s+of\b|\bwhat\s+(?:does|do)\b.+\bmean\b|\bmeant\s+by\b",
    r"\bwhat\s+(?:do|does)\s+(?:we|you|they|scientists|psychologists)\s+call\b|\bterm\s+(?:for|used)\b",
    r"\b(?:is|are|was|were)\s+(?:called|known\s+as|termed|referred\s+to\s+as|defined\s+as)\b",
    r"\bkey\s+terms?\b|\bvocabulary\b|\bglossary\b",
    r"\btell\s+me\s+about\b",
)
_EXPLAIN_X = re.compile(
    r"^(?:please\s+|can you\s+|could you\s+)?(?:explain|describe)\s+(?!how\b|why\b|what\b|whether\b|if\b|when\b|"
    r"where\b|which\b|who\b|your\b|the\s+(?:difference|results?|reasons?)\b)(?P<x>[^,;:?]{2,60}?)[.?!]?$", _I)
_WHAT_IS_X = re.compile(
    r"^(?:so\s+|and\s+|ok\s+|okay\s+)?(?:what|wat)(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+"
    r"(?:an?\s+|the\s+)?(?P<x>[^?]{1,80}?)\s*\??$", _I)
# "the role of X" / "the pH of Y": a relation, not a term to define; these heads still are terms.
_TERM_HEADS = frozenset("definition meaning concept idea notion law principle theory term study science "
                        "model effect hypothesis rule process".split())
_QUESTION_WORDS = frozenset("what who whom whose which when where why how is are do does did can could should "
                            "would will was were define explain describe".split())
_REFERENCE = re.compile(
    r"\b(?P<kind>exercises?|problems?|questions?|examples?|figures?|fig\.|tables?|equations?|eqn?\.|"
    r"chapter review|check your learning)\s*(?P<num>\d{1,3}(?:[.\-]\d{1,3}){0,2}[a-z]?)\b", _I)
_LIKE_NUMBER = re.compile(r"\b(?:like|similar to)\s+(?:number\s+|no\.\s*|#\s*)?(?P<num>\d{1,3}\.\d{1,3})\b", _I)


def detect_intent(question: str, cleaned: str | None = None) -> Intent:
    """The intent of ``question`` (``cleaned`` = the question without its scope phrase, if known)."""
    original = _normalise(question)
    text = _normalise(cleaned) if cleaned is not None else original
    low = text.lower()
    if _STRUCTURAL.search(original):
        return Intent.STRUCTURAL
    for rule, intent in ((_SOLVE, Intent.EXAMPLE), (_EXERCISE, Intent.EXERCISE), (_COMPARISON, Intent.COMPARISON),
                         (_SUMMARY, Intent.SUMMARY), (_EXAMPLE, Intent.EXAMPLE), (_PROCEDURE, Intent.PROCEDURE)):
        if rule.search(text, low):
            return intent
    if _DEFINITION_CUES.search(text, low) or _definition_subject(text) or _explain_subject(text):
        return Intent.DEFINITION
    if _is_bare_term(text):
        return Intent.DEFINITION
    return Intent.FACTUAL


def _normalise(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip()


def _definition_subject(text: str) -> str | None:
    """X in "what is (a|the) X?" when X looks like a term to define, else None."""
    m = _WHAT_IS_X.match(text)
    return _term_like(m.group("x"), 6) if m else None


def _explain_subject(text: str) -> str | None:
    """X in "explain X" / "describe X" when X is a short term ("explain osmosis"), else None."""
    m = _EXPLAIN_X.match(text)
    return _term_like(m.group("x"), 4) if m else None


def _term_like(x: str, max_words: int) -> str | None:
    """``x`` (articles stripped) if it reads as a term to define rather than a relation or a clause."""
    x = _ARTICLE.sub("", x.strip(" .!\"'"))
    words = x.split()
    if not words or len(words) > max_words or any(ch.isdigit() for ch in x) or "_" in x:
        return None
    if words[0].lower() in _QUESTION_WORDS or words[0].lower() in {"it", "this", "that", "they", "there", "he",
                                                                   "she", "wrong", "happening", "going"}:
        return None
    rel = re.search(r"\s(?:of|in|for|between|on|at|to|from|with|during|when|if|that|which)\s", f" {x} ", _I)
    if rel:
        head = x[:rel.start()].split()
        if not head or head[-1].lower().rstrip("s") not in _TERM_HEADS:
            return None
    if re.search(r"\b(?:you|your|i|my|we|our|someone|somebody|people)\b", x, _I):
        return None
    return x


def _is_bare_term(text: str) -> bool:
    """A 1–3 word query with no question word ("entropy", "operant conditioning") asks for a definition."""
    if "__" in text:  # a fill-in-the-blank sentence, however short
        return False
    words = re.findall(r"[^\W_][\w'\-]*", text)
    return 0 < len(words) <= 3 and not any(w.lower() in _QUESTION_WORDS for w in words) and not re.search(r"\d", text)


# -- facets, topic and expansions ---------------------------------------------------------------
_FACET_PATTERNS = tuple(re.compile(p, _I) for p in (
    r"\b(?:differences?|similarit(?:y|ies)|distinguish|differentiate|relationship|contrast)\s+between\s+"
    r"(?P<a>.+?)\s+(?:and|&)\s+(?P<b>.+?)\s*(?:[?.!,;]|$)",
    r"\bcompare\s+(?:and\s+contrast\s+)?(?P<a>.+?)\s+(?:and|with|to|&|vs\.?|versus)\s+(?P<b>.+?)\s*(?:[?.!,;]|$)",
    r"\bhow\s+(?:is|are|does|do)\s+(?P<a>.+?)\s+(?:different|differ)\s+(?:from|to|than)\s+(?P<b>.+?)\s*(?:[?.!,;]|$)",
    r"(?:^|\b(?:is|are|between)\s+)(?P<a>[^?,;]+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)\s*(?:[?.!,;]|$)",
))
_MODIFIER = re.compile(r"^[\w]+(?:al|ic|ive|ous|ar|ant|ent|ary|ory|ed|ing|ible|able)$|^\w+-\w+$", _I)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", _I)


def comparison_facets(text: str) -> tuple[str, ...]:
    """The two things compared: "classical and operant conditioning" -> ("classical conditioning", ...)."""
    for rx in _FACET_PATTERNS:
        m = rx.search(text)
        if not m:
            continue
        a = _ARTICLE.sub("", m.group("a").strip(" \"'"))
        b = _ARTICLE.sub("", m.group("b").strip(" \"'"))
        if not a or not b or len(a.split()) > 8 or len(b.split()) > 8:
            continue
        # "classical and operant conditioning": the single modifier shares the other side's head noun.
        if len(a.split()) == 1 and len(b.split()) >= 2 and _MODIFIER.match(a):
            a = f"{a} {b.split()[-1]}"
        return (a, b)
    return ()


def _topic(intent: Intent, text: str) -> str:
    """The noun phrase the question is about, when the phrasing makes it plain ("" otherwise)."""
    if intent is Intent.DEFINITION:
        subject = _definition_subject(text) or _explain_subject(text)
        if subject:
            return subject
        m = re.search(r"\bwhat\s+(?:does|do)\s+(?:the\s+(?:term|word)\s+)?(?P<x>[^?]{1,60}?)\s+mean\b", text, _I)
        if m:
            return _ARTICLE.sub("", m.group("x").strip(" \"'"))
        m = re.search(r"\b(?:define|definition of|meaning of|meant by|tell me about)\s+(?:the\s+|an?\s+)?"
                      r"(?:term\s+|word\s+)?(?P<x>[^?.!,;]{1,60})", text, _I)
        if m:
            return m.group("x").strip(" \"'")
        if _is_bare_term(text):
            return text.strip(" ?.!\"'")
    return ""


def _expansions(intent: Intent, question: str, text: str, topic: str) -> tuple[str, ...]:
    """Extra words that help keyword and vector search find the kind of chunk the intent wants."""
    q = question.lower()
    out: list[str] = []
    if intent is Intent.STRUCTURAL:
        if re.search(r"objective|outcome|goal|learn|able to|by the end", q):
            out.append("learning objectives by the end of this section you will be able to")
        else:
            out.append("introduction overview learning objectives")
    elif intent is Intent.SUMMARY:
        out.append("key takeaways summary key concepts")
    elif intent is Intent.EXERCISE:
        out.append("exercise practice problem review questions")
    if len(query_terms(text)) <= 2 and topic and intent is Intent.DEFINITION and _is_bare_term(text):
        out.append(f"what is {topic} definition of {topic}")
    return tuple(out)


def plan_query(question: str) -> QueryPlan:
    """Understand one question: intent, scope, cleaned text, expansions and role quotas.

    >>> plan_query("chapter 3 only: what is work?").intent
    <Intent.DEFINITION: 'definition'>
    """
    question = question or ""
    cleaned, scope = parse_scope(question)
    text = _normalise(cleaned)
    intent = detect_intent(question, text)
    quotas, lead, min_sections = ROLE_TABLE[intent]
    topic = _topic(intent, text)
    facets = comparison_facets(text) if intent is Intent.COMPARISON else ()
    refs = [f"{m.group('kind').lower().rstrip('.')} {m.group('num')}" for m in _REFERENCE.finditer(question)]
    refs += [m.group("num") for m in _LIKE_NUMBER.finditer(question) if not any(m.group("num") in r for r in refs)]
    return QueryPlan(question=question, intent=intent, text=text, scope=scope, preferred_roles=quotas,
                     lead_role=lead, min_sections=min_sections, expansions=_expansions(intent, question, text, topic),
                     facets=facets, topic=topic, references=tuple(refs))


__all__ = ["Intent", "QueryPlan", "RoleQuota", "ROLE_TABLE", "comparison_facets", "detect_intent", "plan_query"]
