"""Checks a quiz item passes before it is shown, against the book's sentence and the chapter.

* ``askable`` / ``keyable`` / ``opens_with``: which statements a question may be keyed to (the book's own
  voice, about their term, the term asserted and printed in the sentence);
* ``gives_away`` / ``clause_of``: the question does not contain its answer and is about the clause that
  holds it;
* ``fair_distractors``: wrong answers not printed in the sentence or paragraph and not named by another
  sentence of the chapter on the same question, topped up with other terms of the chapter;
* ``sentence_answers``: the read-back, where the model, given only the sentence, must pick the key;
* ``false_ok``: a false version of a sentence is a small change the chapter does not state;
* ``perturbed_outputs``: wrong outputs for a code example (values changed, other outputs of the chapter).
"""
from __future__ import annotations

import difflib
import logging
import random
import re
from collections.abc import Sequence

from core.errors import LanternError
from core.study.concepts import same_or_part, term_forms
from core.study.lesson import ChapterLesson
from core.study.prose import narrative
from core.study.quiz import on_topic
from core.study.statements import Statement, StatementKind
from core.study.text import contains_answer, content_words, loose, support

log = logging.getLogger(__name__)

def is_ident(term: str) -> bool:
    """A code name ("sum()", "`mut`", "snake_case", "camelCase"), not a word of the prose nor a term with its
    abbreviation ("rapid eye movement (REM) sleep", "heat (q)")."""
    return bool(re.search(r"[`%_]|\w\(|^[a-z]+[A-Z]", term))


def _same_kind(term: str, pool: Sequence[str]) -> list[str]:
    """Terms of ``pool`` of the same sort as ``term`` (code identifiers vs. words)."""
    want = is_ident(term)
    return [t for t in pool if is_ident(t) == want]


def fair_distractors(answer: str, offered: Sequence[str], statement: Statement, lesson: ChapterLesson,
                     question: str, seed: int, siblings: Sequence[str] = ()) -> list[str]:
    """Three wrong answers: the ``siblings`` (``core.study.concepts.sibling_concepts``), then those
    ``offered`` (the model's, which must not share a word with the answer), minus any printed in the
    sentence, overlapping the answer or whose own sentence in the chapter answers the question; a code
    name is topped up with the chapter's other names of the same sort."""
    la, lq = loose(answer), f" {loose(question)} "
    sentence = f" {loose(statement.text)} {loose(statement.context)} "
    on_it = [f" {loose(s.text)} " for s in lesson.statements if on_topic(question, s.text)]
    answers_it = {loose(s.term) for s in lesson.statements if s.term and on_topic(question, s.text)
                  and loose(s.term) != la}
    out: list[str] = []
    seen = {la}
    key_stems, question_stems = _stems(answer), _stems(question)

    def fits(d: str, sibling: bool = False) -> bool:
        ld = loose(d)
        if not ld or ld in seen or f" {ld} " in sentence or f" {ld} " in lq or la in ld or ld in la or len(d) > 80:
            return False
        if any(same_or_part(term_forms(d), term_forms(x)) for x in out):
            return False  # "standing committees" beside "standing committee", "excitement" beside "excitement phase"
        if sibling:  # a concept the book defines otherwise (``sibling_concepts`` checked its definition)
            return True
        return ld not in answers_it and not any(f" {ld} " in t for t in on_it) \
            and not _stems(d) & (key_stems | question_stems)  # "star explosion" for "supernova explosion"

    for d in siblings:  # "s orbital" for "p orbital": another concept the book defines, sharing words is the point
        if fits(d, sibling=True) and len(out) < 3:
            out.append(" ".join(d.split()))
            seen.add(loose(d))
    for d in offered:
        if fits(d) and len(out) < 3:
            out.append(" ".join(d.split()))
            seen.add(loose(d))
    # a code name may be any other name of the same sort the chapter uses; a word answer gets only the
    # sibling concepts it was offered (no "push", "pull" or "recent decades" for "friction")
    pool = list(lesson.terms) if is_ident(answer) else []
    spare = [t for t in _same_kind(answer, list(dict.fromkeys(pool))) if fits(t)][:25]
    random.Random(seed).shuffle(spare)
    words = len(answer.split())
    spare.sort(key=lambda t: abs(len(t.split()) - words))  # stable: shuffled within the same length
    for t in spare:
        if len(out) >= 3:
            break
        if fits(t):
            out.append(t)
            seen.add(loose(t))
    return out


def _stems(text: str) -> set[str]:
    return {w[:4] for w in content_words(text)}


def gives_away(question: str, answer: str) -> bool:
    """Two thirds or more of the answer's word stems are in the question ("calls a function" / "Calling a function")."""
    want = _stems(answer)
    return bool(want) and len(want & _stems(question)) / len(want) >= 0.67


def clause_of(sentence: str, term: str) -> str:
    """The clause of ``sentence`` that holds ``term`` ("While `break` only exits the current loop")."""
    lead = re.match(r"(?i)^(?:while|whereas|although|unlike)\s+([^,]+),\s+(.+)$", sentence)
    parts = list(lead.groups()) if lead else re.split(r"(?i);\s+|,?\s+(?:whereas|but|although|however)\s+", sentence)
    lt = f" {loose(term)} "
    found = [p for p in parts if p and lt in f" {loose(p)} "]
    return found[0] if len(found) == 1 and len(content_words(found[0])) >= 3 else sentence


QUIZ_SYSTEM = (
    "You help make quiz items from sentences of a student's textbook. Do the task named in the message and reply "
    "with JSON only.\n"
    "Task question: write a clear question that the sentence answers with exactly the given correct answer, without "
    "using the answer's words, and three wrong answers of the same kind (other terms, names or values) that the "
    "textbook would call wrong. Example: sentence \"The mitochondrion is the organelle that releases energy from "
    "food.\", correct answer \"mitochondrion\" -> {\"question\": \"Which organelle releases energy from food?\", "
    "\"distractors\": [\"ribosome\", \"nucleus\", \"vacuole\"]}\n"
    "Task check: give the choice that the sentence says is correct, or \"none\" when the sentence does not answer "
    "the question.\n"
    "Task false: change one key word, name or number of the sentence so that it states something the textbook "
    "says is wrong; keep every other word.")
"""One system prompt for every quiz task, so llama.cpp's prompt cache keeps it between calls."""


def sentence_answers(model, sentence: str, question: str, choices: Sequence[str], key: str) -> bool:
    """Read-back check: given only the book's sentence, the model picks ``key`` among ``choices``."""
    schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": [*choices, "none"]}},
              "required": ["answer"]}
    listed = "\n".join(f"- {c}" for c in choices)
    user = (f"Task: check\nSentence: \"{sentence}\"\nQuestion: {question}\nChoices:\n{listed}\n- none\n"
            'JSON: {"answer": "..."}')
    try:
        data = model.complete_json([{"role": "system", "content": QUIZ_SYSTEM}, {"role": "user", "content": user}],
                                   schema, max_tokens=60, temperature=0.0)
    except LanternError as exc:
        log.info("quiz: read-back check failed: %s", exc)
        return False
    picked = str(data.get("answer", "")) if isinstance(data, dict) else ""
    log.debug("quiz: read-back picked %r (key %r)", picked, key)
    return loose(picked) == loose(key)


def _changed_words(a: str, b: str) -> tuple[list[str], list[str]]:
    wa, wb = a.split(), b.split()
    old, new = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=[loose(w) for w in wa], b=[loose(w) for w in wb]
                                                      ).get_opcodes():
        if op != "equal":
            old += wa[i1:i2]
            new += wb[j1:j2]
    return old, new


_NEGATION = re.compile(r"(?i)^(?:not|never|no|cannot|can't|isn't|aren't|doesn't|don't|won't|n't)$")
_OPPOSITES = [frozenset(p.split("/")) for p in (
    "increase/decrease increases/decreases increased/decreased more/less larger/smaller largest/smallest "
    "higher/lower highest/lowest greater/fewer before/after always/never can/cannot true/false left/right "
    "first/last positive/negative maximum/minimum mutable/immutable inside/outside above/below input/output "
    "heavier/lighter hotter/colder faster/slower early/late earlier/later inner/outer upper/lower add/remove "
    "increasing/decreasing rows/columns row/column allowed/forbidden same/different all/none public/private "
    "static/dynamic north/south east/west top/bottom open/closed odd/even strong/weak").split()]


def _verifiable_change(old: Sequence[str], new: Sequence[str], lesson: ChapterLesson) -> bool:
    """A change the book can prove false: a number, a negation, an opposite, or one of the chapter's terms
    put in place of another (not a synonym the model chose: "Gibbs energy" for "free energy")."""
    lo, ln = [loose(w) for w in old if loose(w)], [loose(w) for w in new if loose(w)]
    if any(re.fullmatch(r"-?[\d.,]+", w) for w in lo + ln):
        return True
    if any(_NEGATION.match(w) for w in lo + ln):
        return True
    if any(frozenset((a, b)) in _OPPOSITES for a in lo for b in ln):
        return True
    terms = {loose(t) for t in lesson.terms} if hasattr(lesson, "terms") else set()
    return bool(ln) and " ".join(ln) in terms and bool(lo) and " ".join(lo) in terms


def false_ok(original: str, changed: str, lesson: ChapterLesson) -> str | None:
    """Why ``changed`` is not a fair false version of ``original`` (None when it is)."""
    old, new = _changed_words(original, changed)
    if not old and not new:
        return "false statement unchanged"
    if len(old) + len(new) > 4 or abs(len(original.split()) - len(changed.split())) > 2 \
            or difflib.SequenceMatcher(a=original, b=changed).ratio() < 0.8:
        return "false statement rewritten"
    if not (content_words(" ".join(new)) or content_words(" ".join(old)) or re.search(r"(?i)\bnot|n't\b",
                                                                                       " ".join(new))):
        return "false statement changes no content word"
    lo = {loose(w) for w in old}
    if {loose(w) for w in new if loose(w)} <= lo:
        return "false statement only reorders"
    if not _verifiable_change(old, new, lesson):
        return "false statement not a checkable change"
    for s in lesson.statements:
        if s.text != original and support(s.text, changed)[0] >= 1.0:
            return "the book states the changed sentence"
    return None


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def _squash(text: str) -> str:
    return " ".join(text.split())


def _values(output: str) -> list[re.Match[str]]:
    """Numbers of an output that are values, not ``[1,]`` / ``[,2]`` / ``[1]`` row and column labels."""
    labels = [m.span() for m in re.finditer(r"\[[^\]\n]*\]", output)]
    return [m for m in _NUMBER.finditer(output) if not any(a <= m.start() < b for a, b in labels)]


def _replace(output: str, m: re.Match[str], value: str) -> str:
    return output[:m.start()] + value + output[m.end():]


def perturbed_outputs(output: str, others: Sequence[str], seed: int) -> list[str]:
    """Wrong outputs for a code example: one printed value changed or two swapped, or other outputs of
    the chapter (each differs from the book's output, so the book shows it is wrong)."""
    rng = random.Random(seed)
    found: list[str] = []
    numbers = _values(output)
    if numbers:
        last, first = numbers[-1], numbers[0]
        step = lambda v: str(int(v) + 1) if v.lstrip("-").isdigit() else f"{float(v) * 2:g}"  # noqa: E731
        found.append(_replace(output, last, step(last.group(0))))
        if len(numbers) > 1 and numbers[0].group(0) != numbers[1].group(0):
            a, b = numbers[0], numbers[1]
            found.append(output[:a.start()] + b.group(0) + output[a.end():b.start()] + a.group(0) + output[b.end():])
        found.append(_replace(output, first, "0" if first.group(0) != "0" else "1"))
        found.append(_replace(output, first, step(first.group(0))))
    pool = [o for o in others if _squash(o) != _squash(output) and len(o) <= 240]
    rng.shuffle(pool)
    found += pool
    out: list[str] = []
    seen = {_squash(output)}
    for f in found:
        if f.strip() and _squash(f) not in seen:
            seen.add(_squash(f))
            out.append(f)
    return out[:3]


_DENIED = re.compile(r"(?i)\b(?:rather than|instead of|not|n't|never|without|unlike|except|no longer|nor)\s+"
                     r"(?:\S+\s+){0,3}$")


_IMPERATIVE = re.compile(r"(?i)^(?:return|raise|compute|calculate|create|set|get|print|display|plot|read|write|open|"
                         r"close|convert|test|check|evaluate|find|determine|generate|call|use|add|remove|load|save)\b")


def keyable(statement: Statement) -> bool:
    """The term is asserted by the sentence (not "rather than computing the inverse") and printed in it."""
    text, term = statement.text, statement.term
    if not term or loose(term) == loose(text) or len(term) > 60 or not contains_answer(text, term):
        return False
    at = text.lower().find(term.lower())
    if at == 0 and _IMPERATIVE.match(text):
        return False  # "Raise an error if ...": a reference manual's verb, not a term
    return at < 0 or not _DENIED.search(text[:at])


def opens_with(statement: Statement) -> bool:
    """The sentence is about its term: it opens with it ("The function eigen() ...", "A mutex is ...")."""
    text = loose(statement.text.replace("()", ""))
    term = loose(statement.term.replace("()", ""))
    kinds = r"(?:function|operator|command|method|macro|keyword|type|trait|argument|option|term|process|concept|law|" \
        r"principle|rule|theory|effect|module|package|variable|constant|statement|expression) "
    return bool(term) and re.match(rf"^(?:the |an? )?(?:{kinds})?{re.escape(term)}\b", text) is not None


def askable(lesson: ChapterLesson, *, strict: bool = True) -> list[Statement]:
    """Statements a question can be keyed to: facts the book states in its own voice (not "we should be able
    to ..."), about their term: the book's definitions, then sentences that open with their term
    (``strict=False`` adds the other sentences that assert a term)."""
    out = []
    for s in (*lesson.glossary, *lesson.statements):
        if s.kind is StatementKind.EXAMPLE or not keyable(s) or narrative(s.text):
            continue
        about = s in lesson.glossary or s.kind is StatementKind.DEFINITION or opens_with(s)
        if about or not strict:
            out.append(s)
    return out
