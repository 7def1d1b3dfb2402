"""Follow-up questions ("why?", "give another example", "how does it work?") made self-contained.

Retrieval and the model see one question at a time, so a follow-up that leans on the previous
turn is rewritten with that turn's topic before anything is searched: "give another example" after
"What is operant conditioning?" becomes "Give another example of operant conditioning."  A
question that already names its own topic is left alone.  Pure functions, no model: small local
models rewrite unreliably and slowly, and these patterns cover what students type.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from core.index.fts import query_terms

# Words that carry no topic of their own in a follow-up.
_FOLLOWUP_WORDS = frozenset("""
why how come what about give show another more other example examples again simpler simply explain
mean means meant detail details elaborate expand clarify tell me please can could you would it that this
those these they them their its one ones different else so then ok okay and but instead also really sure
difference differ compare does work happen matter important use used step steps next continue go on
""".split())
_PRONOUN = re.compile(r"\b(it|this|that|these|those|they|them|its|their)\b", re.I)
_LEAD = re.compile(
    r"^\s*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:please\s+)?"
    r"(?:what|who|which|why|how|when|where)?\s*(?:is|are|was|were|does|do|did|can|could|would|should|"
    r"has|have|exactly)?\s*(?:an?|the)?\s*"
    r"(?:(?:define|explain|describe|tell me about|give me|what's|whats|meaning of|definition of)\s+)?"
    r"(?:an?\s+|the\s+)?", re.I)
_TAIL = re.compile(r"\s*(?:\b(?:mean|means|work|happen|do|matter)\b)?\s*[?.!]*\s*$", re.I)
_EXAMPLE = re.compile(r"\b(another|more|other|different|one more)\b.*\bexamples?\b|\bexamples?\b", re.I)
_WHY = re.compile(r"^\s*(why|how come)\b", re.I)
_SIMPLER = re.compile(r"\b(simpl(?:er|y|e)|easier|again|in other words|rephrase|eli5|more detail|elaborate|"
                      r"expand|clarify|i don'?t (?:get|understand))\b", re.I)
_WHAT_ABOUT = re.compile(r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(.+?)\s*[?.!]*\s*$", re.I)


@dataclass(frozen=True)
class Rewrite:
    """The question to answer: ``text`` is self-contained; ``rewritten`` says whether it changed."""

    text: str
    rewritten: bool = False
    topic: str = ""


# Our own rewrites, so a follow-up of a follow-up keeps the original topic.
_OWN_REWRITES = (
    re.compile(r"^Why\? Explain the reason behind this: (?P<q>.+)$"),
    re.compile(r"^Give another example of (?P<t>.+?)\.?$"),
    re.compile(r"^Explain (?P<t>.+?) more simply\.?$"),
    re.compile(r"^What about (?P<t>.+?), compared with .+\?$"),
)


def topic_of(question: str) -> str:
    """The subject of a question: "What is operant conditioning?" → "operant conditioning"."""
    q = " ".join(question.split())
    for pattern in _OWN_REWRITES:
        m = pattern.match(q)
        if m:
            return topic_of(m.group("q")) if "q" in m.groupdict() else m.group("t")
    q = _LEAD.sub("", q, count=1)
    q = _TAIL.sub("", q)
    return q.strip(" ,;:") or question.strip(" ?")


def is_followup(question: str) -> bool:
    """True when ``question`` needs the previous turn to be understood.

    It does when it has no content word of its own beyond follow-up vocabulary ("why?", "give
    another example", "explain it more simply"), or when it is short and leans on a pronoun
    ("how does it work?", "is that always true?").
    """
    words = query_terms(question, keep_stopwords=True)
    if not words:
        return bool(question.strip())
    content = [w for w in query_terms(question) if w not in _FOLLOWUP_WORDS]
    if not content:
        return True
    return len(words) <= 6 and bool(_PRONOUN.search(question)) and len(content) <= 2 and not _WHAT_ABOUT.match(
        question) and _pronoun_is_subject(question)


def _pronoun_is_subject(question: str) -> bool:
    # "is it true that X" leans on context; "what is it in X" rarely happens in short questions
    return bool(re.search(r"\b(?:does|is|was|do|are|did|can|why|how)\s+(?:it|this|that|they|these|those)\b"
                          r"|\b(?:it|this|that|they|these|those)\s*[?.!]*\s*$", question, re.I))


_BLANK = re.compile(r"_{3,}|…{2,}|\.{5,}")


def fill_blanks(question: str) -> str:
    """A fill-in-the-blank exercise as a question: "Daily rhythms are called ________." → "Daily rhythms are
    called what?" (small models answer the question; the blank leaves them guessing what is asked)."""
    if not _BLANK.search(question):
        return question
    text = _BLANK.sub("what", question).strip()
    text = text[0].upper() + text[1:]
    return text if text.endswith("?") else re.sub(r"[.!:;\s]*$", "", text) + "?"


def rewrite_followup(question: str, previous_question: str | None) -> Rewrite:
    """A self-contained version of ``question`` given the previous turn's question (or None).  A first
    question keeps its line breaks (a pasted program needs them); blanks become "what"."""
    q = " ".join(fill_blanks(question).split())
    if not previous_question or not previous_question.strip():
        return Rewrite(fill_blanks(question.strip()))
    m = _WHAT_ABOUT.match(q)
    topic = topic_of(previous_question)
    if m and len(query_terms(m.group(1))) <= 4:
        other = m.group(1)
        return Rewrite(f"What about {other}, compared with {topic}?", True, topic)
    if not is_followup(q):
        return Rewrite(q)
    if _EXAMPLE.search(q):
        text = f"Give another example of {topic}."
    elif _WHY.match(q) and len(query_terms(q)) <= 1:
        inner = _OWN_REWRITES[0].match(" ".join(previous_question.split()))
        text = f"Why? Explain the reason behind this: {inner.group('q') if inner else previous_question.strip()}"
    elif _SIMPLER.search(q) and not _PRONOUN.search(_SIMPLER.sub("", q)):
        text = f"Explain {topic} more simply."
    elif _PRONOUN.search(q):
        text = _PRONOUN.sub(lambda m: _possessive(m.group(1), topic), q, count=1)
        text = text[0].upper() + text[1:]
    else:
        text = f"{q.rstrip('?.! ')} (about {topic})?"
    return Rewrite(text, True, topic)


def _possessive(pronoun: str, topic: str) -> str:
    return f"{topic}'s" if pronoun.lower() in {"its", "their"} else topic


__all__ = ["Rewrite", "is_followup", "rewrite_followup", "topic_of"]
