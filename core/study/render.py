"""HTML for the Study tab (pure strings, no Qt): the guide with cited points and "try this" links, a quiz
question with its code, feedback, and the one-line summaries that say what a tool delivered and why.

Links: ``practice:<label>`` opens a practice item, ``page:<n>`` opens the n-th cited page of the view.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence

from core.study.models import ChapterGuide, Exercise, Feedback, QuestionType, QuizQuestion, SourceRef


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 card", "2 cards", "0 cards"."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def cite(ref: SourceRef, link: int | None = None) -> str:
    """A small grey citation; a link to the page when ``link`` is given."""
    text = html.escape(ref.label)
    if link is not None:
        text = f"<a href='page:{link}'>{text}</a>"
    return f"<small style='color:#666'>— {text}</small>"


def guide_html(guide: ChapterGuide) -> tuple[str, list[SourceRef]]:
    """The guide as HTML and the sources its ``page:<n>`` links open."""
    refs: list[SourceRef] = []

    def c(ref: SourceRef) -> str:
        refs.append(ref)
        return cite(ref, len(refs) - 1)

    parts = [f"<h2>Chapter {html.escape(guide.chapter)}: {html.escape(guide.title)}</h2>"]
    if guide.objectives:
        parts.append("<h3>You should be able to</h3><ul>")
        parts += [f"<li>{html.escape(i.text)} {c(i.source)}</li>" for i in guide.objectives]
        parts.append("</ul>")
    for sec in guide.sections:
        head = f"{sec.number + ' ' if sec.number else ''}{sec.title}"
        parts.append(f"<h3>{html.escape(head)} <small style='color:#666'>p. {html.escape(sec.page)}</small></h3><ul>")
        parts += [f"<li>{html.escape(p.text)} {c(p.source)}</li>" for p in sec.points]
        parts.append("</ul>")
        if sec.practice:
            links = ", ".join(f"<a href='practice:{html.escape(label)}'>{html.escape(label)}</a>"
                              for label in sec.practice)
            parts.append(f"<p style='margin-left:20px'>Try this: {links}</p>")
    if not guide.sections and guide.summary:
        parts.append("<h3>Summary</h3><ul>")
        parts += [f"<li>{html.escape(i.text)} {c(i.source)}</li>" for i in guide.summary]
        parts.append("</ul>")
    if guide.key_terms:
        parts.append("<h3>Key terms</h3><ul>")
        for item in guide.key_terms:
            sep = " — " if " — " in item.text else ": "
            term, _, rest = item.text.partition(sep)
            parts.append(f"<li><b>{html.escape(term)}</b> — {html.escape(rest)} {c(item.source)}</li>")
        parts.append("</ul>")
    return "".join(parts), refs


def question_html(q: QuizQuestion, index: int, total: int) -> str:
    """The question (with its code in a monospace block)."""
    kind = {QuestionType.TRUE_FALSE: "True or false", QuestionType.CODE_OUTPUT: "Code",
            QuestionType.CLOZE: "Fill in the blank"}.get(q.type, "Multiple choice")
    text = q.question.removeprefix("True or false: ").removeprefix("Fill in the blank: ")
    code = f"<pre style='background:#f4f4f4;padding:6px'>{html.escape(q.code)}</pre>" if q.code else ""
    return f"<small style='color:#666'>{index}/{total} · {kind}</small><br><b>{html.escape(text)}</b>{code}"


def result_html(q: QuizQuestion, ok: bool) -> str:
    """Right / not quite, with the book's sentence (or output) as the proof and the page."""
    verdict = "Right!" if ok else f"Not quite: the answer is <b>{html.escape(q.answer)}</b>."
    proof = "<pre>" + html.escape(q.evidence) + "</pre>" if q.type is QuestionType.CODE_OUTPUT else \
        f"<i>{html.escape(q.evidence)}</i>"
    return f"{verdict}<br>The book: {proof}<br>{cite(q.source, 0)}"


def score_html(answered: Sequence[tuple[QuizQuestion, bool]], total: int) -> str:
    """The end of a quiz: the score, and each missed question with its answer, the book's sentence and page."""
    right = sum(ok for _, ok in answered)
    head = f"<b>Your score: {right} of {total}</b>"
    if len(answered) < total:
        head += f" ({total - len(answered)} not answered)"
    missed = [q for q, ok in answered if not ok]
    if not missed:
        return head + (". All right." if answered else ".")
    rows = "".join(f"<li>{html.escape(q.question)}<br>The answer: <b>{html.escape(q.answer)}</b>. The book: "
                   f"<i>{html.escape(q.evidence)}</i> {cite(q.source)}</li>" for q in missed)
    return f"{head}. To review:<ol>{rows}</ol>"


def quiz_summary(questions: Sequence[QuizQuestion], asked: int, seconds: float, note: str) -> str:
    """"5 questions (3 multiple choice, 1 true/false, 1 code) in 42 s" or why fewer."""
    if not questions:
        return (note or "No questions.") + " Try a longer chapter, or read this one in the Guide tab."
    kinds = Counter(q.type for q in questions)
    names = {QuestionType.MULTIPLE_CHOICE: "multiple choice", QuestionType.TRUE_FALSE: "true/false",
             QuestionType.CODE_OUTPUT: "code", QuestionType.CLOZE: "fill in the blank"}
    parts = ", ".join(f"{v} {names.get(k, k.value)}" for k, v in kinds.items())
    head = f"{plural(len(questions), 'question')} ({parts}), every answer checked against the book"
    head += f", in {seconds:.0f} s" if seconds >= 1 else ""
    return f"{head}. {note}" if note else head + "."


def exercise_html(e: Exercise) -> str:
    """A practice item: its text (code in a monospace block) and where it comes from."""
    text, _, code = e.text.partition("\n\n")
    if e.kind.value not in ("predict_output", "worked_example") or e.text.startswith("Rework"):
        text, code = e.text, ""  # prose: no code block
    body = html.escape(text).replace("\n", "<br>")
    if code:
        body += f"<pre style='background:#f4f4f4;padding:6px'>{html.escape(code)}</pre>"
    origin = "made from the book's text; the answer is the book's" if e.kind.generated else \
        "the book's exercise" + (" (the book prints its answer)" if e.answer else "")
    return f"<b>{html.escape(e.label)}</b> <small style='color:#666'>{origin}</small><br>{body}<br>{cite(e.source)}"


def feedback_html(fb: Feedback, code: bool = False) -> str:
    """Feedback with its citations (each a ``page:<n>`` link); with ``code`` the book's answer (an output)
    keeps its spacing in a monospace block."""
    if code and fb.key and fb.key in fb.text:
        head, _, tail = fb.text.partition(fb.key)
        body = (html.escape(head).replace("\n", "<br>") + f"<pre style='background:#f4f4f4;padding:6px'>"
                f"{html.escape(fb.key)}</pre>" + html.escape(tail).replace("\n", "<br>"))
    else:
        body = html.escape(fb.text).replace("\n", "<br>")
    cites = "".join(f"<li>[{c.n}] <a href='page:{i}'>{html.escape(c.label)}</a></li>"
                    for i, c in enumerate(fb.citations))
    return f"<b>{fb.verdict.value.capitalize()}</b><br>{body}<ul>{cites}</ul>"


def practice_summary(own: int, made: int, chapter: str, note: str = "") -> str:
    """What the Practice tab lists."""
    if not own and not made:
        return f"No practice in chapter {chapter}. {note}".strip()
    if not own:
        return f"Chapter {chapter} has no exercises, so here {'is' if made == 1 else 'are'} " \
               f"{plural(made, 'item')} made from its text; every answer is the book's own."
    parts = []
    if own:
        parts.append(f"{plural(own, 'exercise')} from the book")
    if made:
        parts.append(f"{plural(made, 'item')} made from its text, answers from the book")
    return "; ".join(parts) + "."
