"""HTML for the Study tab (pure strings, no Qt): the guide with cited points and "try this" links, a quiz
question with its code, feedback, and the one-line summaries that say what a tool delivered and why.

Links: ``practice:<label>`` opens a practice item, ``page:<n>`` opens the n-th cited page of the view.

Every function takes ``translate(context, text)``: the desktop passes Qt's, so these words follow the interface's
language (``pyside6-lupdate`` reads the literal ``translate("Study", ...)`` calls here too); the default keeps
English.  The book's own words (its sentences, titles, terms) are never translated.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Sequence

from core.study.models import ChapterGuide, Exercise, Feedback, QuestionType, QuizQuestion, SourceRef


Translate = Callable[[str, str], str]


def english(_context: str, text: str) -> str:
    """The default ``translate``: the interface's words as written (English)."""
    return text


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 card", "2 cards", "0 cards"."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def cite(ref: SourceRef, link: int | None = None) -> str:
    """A small grey citation; a link to the page when ``link`` is given."""
    text = html.escape(ref.label)
    if link is not None:
        text = f"<a href='page:{link}'>{text}</a>"
    return f"<small style='color:#666'>— {text}</small>"


def guide_html(guide: ChapterGuide, translate: Translate = english) -> tuple[str, list[SourceRef]]:
    """The guide as HTML and the sources its ``page:<n>`` links open."""
    refs: list[SourceRef] = []

    def c(ref: SourceRef) -> str:
        refs.append(ref)
        return cite(ref, len(refs) - 1)

    chapter = translate("Study", "Chapter {number}: {title}")
    parts = [f"<h2>{chapter.format(number=html.escape(guide.chapter), title=html.escape(guide.title))}</h2>"]
    if guide.objectives:
        able = translate("Study", "You should be able to")
        parts.append(f"<h3>{able}</h3><ul>")
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
            try_this = translate("Study", "Try this:")
            parts.append(f"<p style='margin-left:20px'>{try_this} {links}</p>")
    if not guide.sections and guide.summary:
        summary = translate("Study", "Summary")
        parts.append(f"<h3>{summary}</h3><ul>")
        parts += [f"<li>{html.escape(i.text)} {c(i.source)}</li>" for i in guide.summary]
        parts.append("</ul>")
    if guide.key_terms:
        key_terms = translate("Study", "Key terms")
        parts.append(f"<h3>{key_terms}</h3><ul>")
        for item in guide.key_terms:
            sep = " — " if " — " in item.text else ": "
            term, _, rest = item.text.partition(sep)
            parts.append(f"<li><b>{html.escape(term)}</b> — {html.escape(rest)} {c(item.source)}</li>")
        parts.append("</ul>")
    return "".join(parts), refs


def question_html(q: QuizQuestion, index: int, total: int, translate: Translate = english) -> str:
    """The question (with its code in a monospace block)."""
    kind = {QuestionType.TRUE_FALSE: translate("Study", "True or false"), QuestionType.CODE_OUTPUT:
            translate("Study", "Code"), QuestionType.CLOZE: translate("Study", "Fill in the blank")}.get(
        q.type, translate("Study", "Multiple choice"))
    text = q.question.removeprefix("True or false: ").removeprefix("Fill in the blank: ")
    code = f"<pre style='background:#f4f4f4;padding:6px'>{html.escape(q.code)}</pre>" if q.code else ""
    if not q.choices and q.type is not QuestionType.SHORT_ANSWER:  # a term to type, not one of options
        kind += " · " + translate("Study", "type the missing term")
    return f"<small style='color:#666'>{index}/{total} · {kind}</small><br><b>{html.escape(text)}</b>{code}"


def result_html(q: QuizQuestion, ok: bool, translate: Translate = english) -> str:
    """Right / not quite, with the book's sentence (or output) as the proof and the page."""
    wrong = translate("Study", "Not quite: the answer is {answer}.")
    verdict = translate("Study", "Right!") if ok else wrong.format(answer=f"<b>{html.escape(q.answer)}</b>")
    proof = "<pre>" + html.escape(q.evidence) + "</pre>" if q.type is QuestionType.CODE_OUTPUT else \
        f"<i>{html.escape(q.evidence)}</i>"
    book = translate("Study", "The book:")
    return f"{verdict}<br>{book} {proof}<br>{cite(q.source, 0)}"


def score_html(answered: Sequence[tuple[QuizQuestion, bool]], total: int, translate: Translate = english) -> str:
    """The end of a quiz: the score, and each missed question with its answer, the book's sentence and page."""
    right = sum(ok for _, ok in answered)
    head = "<b>" + translate("Study", "Your score: {right} of {total}").format(right=right, total=total) + "</b>"
    if len(answered) < total:
        head += " " + translate("Study", "({count} not answered)").format(count=total - len(answered))
    missed = [q for q, ok in answered if not ok]
    if not missed:
        return head + (". " + translate("Study", "All right.") if answered else ".")
    answer, book = translate("Study", "The answer:"), translate("Study", "The book:")
    rows = "".join(f"<li>{html.escape(q.question)}<br>{answer} <b>{html.escape(q.answer)}</b>. {book} "
                   f"<i>{html.escape(q.evidence)}</i> {cite(q.source)}</li>" for q in missed)
    review = translate("Study", "To review:")
    return f"{head}. {review}<ol>{rows}</ol>"


def quiz_summary(questions: Sequence[QuizQuestion], asked: int, seconds: float, note: str,
                 translate: Translate = english) -> str:
    """"5 questions (3 multiple choice, 1 true/false, 1 code) in 42 s" or why fewer."""
    if not questions:
        advice = translate("Study", "Try a longer chapter, or read this one in the Guide tab.")
        return (note or translate("Study", "No questions.")) + " " + advice
    kinds = Counter(q.type for q in questions)
    names = {QuestionType.MULTIPLE_CHOICE: translate("Study", "multiple choice"),
             QuestionType.TRUE_FALSE: translate("Study", "true/false"), QuestionType.CODE_OUTPUT:
             translate("Study", "code"), QuestionType.CLOZE: translate("Study", "fill in the blank")}
    parts = ", ".join(f"{v} {names.get(k, k.value)}" for k, v in kinds.items())
    count = (translate("Study", "{n} question") if len(questions) == 1 else
             translate("Study", "{n} questions")).format(n=len(questions))
    head = translate("Study", "{count} ({kinds}), every answer checked against the book").format(count=count,
                                                                                                  kinds=parts)
    head += translate("Study", ", in {seconds} s").format(seconds=f"{seconds:.0f}") if seconds >= 1 else ""
    return f"{head}. {note}" if note else head + "."


def exercise_html(e: Exercise, translate: Translate = english) -> str:
    """A practice item: its text (code in a monospace block) and where it comes from."""
    text, _, code = e.text.partition("\n\n")
    if e.kind.value not in ("predict_output", "worked_example") or e.text.startswith("Rework"):
        text, code = e.text, ""  # prose: no code block
    body = html.escape(text).replace("\n", "<br>")
    if code:
        body += f"<pre style='background:#f4f4f4;padding:6px'>{html.escape(code)}</pre>"
    origin = translate("Study", "made from the book's text; the answer is the book's") if e.kind.generated else \
        translate("Study", "the book's exercise (the book prints its answer)") if e.answer else \
        translate("Study", "the book's exercise")
    return f"<b>{html.escape(e.label)}</b> <small style='color:#666'>{origin}</small><br>{body}<br>{cite(e.source)}"


def feedback_html(fb: Feedback, code: bool = False, translate: Translate = english) -> str:
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
    verdicts = {"correct": translate("Study", "Correct"), "partly": translate("Study", "Partly"),
                "incorrect": translate("Study", "Incorrect"), "unchecked": translate("Study", "Unchecked")}
    verdict = verdicts.get(fb.verdict.value, fb.verdict.value.capitalize())
    return f"<b>{verdict}</b><br>{body}<ul>{cites}</ul>"


def practice_summary(own: int, made: int, chapter: str, note: str = "", translate: Translate = english) -> str:
    """What the Practice tab lists."""
    if not own and not made:
        return (translate("Study", "No practice in chapter {chapter}.").format(chapter=chapter) + f" {note}").strip()
    made_items = (translate("Study", "{n} item") if made == 1 else translate("Study", "{n} items")).format(n=made)
    if not own:
        return (translate("Study", "Chapter {chapter} has no exercises, so here is {items} made from its text; "
                                   "every answer is the book's own.") if made == 1 else
                translate("Study", "Chapter {chapter} has no exercises, so here are {items} made from its text; "
                                   "every answer is the book's own.")).format(chapter=chapter, items=made_items)
    parts = [(translate("Study", "{n} exercise from the book") if own == 1 else
              translate("Study", "{n} exercises from the book")).format(n=own)]
    if made:
        parts.append(translate("Study", "{items} made from its text, answers from the book").format(items=made_items))
    return "; ".join(parts) + "."
