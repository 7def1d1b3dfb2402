"""Answer-quality metrics on gold questions: what ``lantern eval --answers`` and ``benchmarks/answers.py`` report.

* ``evaluate_answers`` — ``Tutor.ask`` end to end per question: citation validity (every ``[n]``
  names a returned citation whose chunk, section, pages and printed page exist in the library),
  citation in the gold section (per answer and per citation), refusals, latency.
* ``multiple_choice`` — the question with its options, answered by the same model once with the
  tutor's sources in the prompt and once without; the reply is matched back to a keyed letter.
* ``refusal_metrics`` — the coverage verdict on questions the library answers and on ones it does
  not: precision and recall of "declined" (no model needed).

Pure helpers (``spread``, ``pick_choice``, ``mc_prompt``, ``markers_valid``) are tested directly.
"""
from __future__ import annotations

import difflib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from core.answer.attribution import stems
from core.answer.followup import rewrite_followup
from core.answer.markers import parse_citations
from core.answer.prompt import format_sources
from core.evaluation.retrieval import GoldQuestion, is_gold, percentile
from core.models import Answer, AnswerEventKind, Chunk, Citation

LETTERS = "ABCDEFGH"
MC_SYSTEM = "You are a helpful tutor. Answer the multiple-choice question."


def spread(items: Sequence[Any], n: int) -> list[Any]:
    """``n`` items evenly spaced over ``items`` (deterministic, so every chapter is represented)."""
    if n <= 0:
        return []
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def markers_valid(answer: Answer) -> bool:
    """Does every ``[n]`` in the answer's text name one of its citations?"""
    return set(parse_citations(answer.text)) <= {c.n for c in answer.citations}


def citation_valid(c: Citation, chunk: Chunk | None, pages: dict[int, str]) -> bool:
    """Does the citation resolve: its ``chunk`` (as stored, or None) is in the cited book and section, its
    pages exist in ``pages`` (the book's index -> printed label) and the printed page is its first page's?"""
    if chunk is None or chunk.book_id != c.book_id:
        return False
    return (c.page_start in pages and c.page_end in pages and pages[c.page_start] == c.printed_page
            and chunk.section_number == c.section)


@dataclass(frozen=True)
class AnswerOutcome:
    """One question's answer, judged."""

    qid: str
    refused: bool
    extractive: bool
    citations: int
    valid: bool
    any_gold: bool
    gold_citations: int
    sources_ms: float
    first_token_ms: float | None
    total_ms: float | None
    dropped: int
    flagged: int


def judge_answer(library: Any, q: GoldQuestion, answer: Answer, sources_ms: float,
                 labels: dict[str, dict[int, str]]) -> AnswerOutcome:
    """Citation validity and gold-section agreement of one finished answer (``labels`` caches each
    book's page labels across answers)."""
    chunks = library.chunks([c.chunk_id for c in answer.citations])
    for book_id in {c.book_id for c in answer.citations} - labels.keys():
        labels[book_id] = {p.index: p.label for p in library.pages(book_id)}
    gold = [c.chunk_id in chunks and is_gold(chunks[c.chunk_id], q) for c in answer.citations]
    valid = markers_valid(answer) and all(citation_valid(c, chunks.get(c.chunk_id), labels[c.book_id])
                                          for c in answer.citations)
    return AnswerOutcome(qid=q.qid, refused=answer.refused, extractive=answer.extractive,
                         citations=len(answer.citations), valid=valid, any_gold=any(gold),
                         gold_citations=sum(gold), sources_ms=sources_ms,
                         first_token_ms=answer.timings.get("first_token_ms"), total_ms=answer.timings.get("total_ms"),
                         dropped=len(answer.dropped), flagged=len(answer.unsupported))


def ask_once(tutor: Any, question: str, **scope: Any) -> tuple[Answer, float]:
    """``tutor.ask`` to the end: the answer and the milliseconds until its sources were ready."""
    t0 = time.perf_counter()
    sources_ms, answer = 0.0, None
    for ev in tutor.ask(question, **scope):
        if ev.kind is AnswerEventKind.SOURCES:
            sources_ms = (time.perf_counter() - t0) * 1000
        elif ev.kind is AnswerEventKind.DONE:
            answer = ev.answer
        elif ev.kind is AnswerEventKind.ERROR:
            raise RuntimeError(ev.text)
    if answer is None:
        raise RuntimeError("the tutor produced no answer")
    return answer, sources_ms


def summarize_answers(rows: Sequence[AnswerOutcome]) -> dict[str, Any]:
    """Rates over judged answers (gold rates over the answers that were not declined)."""
    answered = [r for r in rows if not r.refused]
    cits = sum(r.citations for r in answered)
    first = sorted(r.first_token_ms for r in answered if r.first_token_ms is not None)
    srcs = sorted(r.sources_ms for r in rows)
    n = max(1, len(rows))
    return {
        "questions": len(rows), "refused": sum(r.refused for r in rows),
        "extractive": sum(r.extractive for r in rows),
        "citation_validity": round(sum(r.valid for r in rows) / n, 3),
        "answers_with_gold_citation": round(sum(r.any_gold for r in answered) / max(1, len(answered)), 3),
        "citations_in_gold": round(sum(r.gold_citations for r in answered) / max(1, cits), 3),
        "answers_without_citation": sum(1 for r in answered if not r.citations),
        "first_token_p50_ms": round(percentile(first, 50), 1), "first_token_p95_ms": round(percentile(first, 95), 1),
        "sources_p50_ms": round(percentile(srcs, 50), 1),
        "sentences_dropped": sum(r.dropped for r in rows), "sentences_flagged": sum(r.flagged for r in rows),
    }


def evaluate_answers(tutor: Any, questions: Sequence[GoldQuestion], *, book_id: str | None = None,
                     progress: Callable[[AnswerOutcome], None] | None = None) -> dict[str, Any]:
    """Ask every question (without its choices) and judge each answer; returns the summary and rows."""
    labels: dict[str, dict[int, str]] = {}
    rows = []
    for q in questions:
        answer, sources_ms = ask_once(tutor, q.question, book_id=book_id)
        rows.append(judge_answer(tutor.library, q, answer, sources_ms, labels))
        if progress:
            progress(rows[-1])
    return {**summarize_answers(rows), "rows": [asdict(r) for r in rows]}


def mc_prompt(question: str, choices: Sequence[str], sources_block: str | None = None) -> str:
    """The user message of a multiple-choice question (options by their words, not letters)."""
    opts = "\n".join(f"- {c}" for c in choices)
    body = (f"Question: {question}\nOptions:\n{opts}\n"
            "Which option is correct? Reply with the correct option's exact words.")
    return f"Textbook passages:\n{sources_block}\n\n{body}" if sources_block is not None else body


def pick_choice(reply: str, choices: Sequence[str]) -> str:
    """The letter of the option the reply names.  Small models answer with the option's words far more
    reliably than with its letter (Qwen 0.5B said "C" to almost every lettered question)."""
    if not choices:
        raise ValueError("no choices")
    first = next((ln for ln in reply.strip().splitlines() if ln.strip()), "").lower()
    words = stems(first)

    def score(c: str) -> float:
        own = stems(c)
        return ((len(own & words) / len(own) if own else 0.0) + (1.0 if c.lower() in first else 0.0)
                + 0.5 * difflib.SequenceMatcher(None, first, c.lower()).ratio())
    return LETTERS[max(range(len(choices)), key=lambda i: score(choices[i]))]


def multiple_choice(tutor: Any, questions: Sequence[GoldQuestion], *, book_id: str | None = None,
                    max_tokens: int = 20) -> dict[str, Any]:
    """Accuracy on keyed multiple-choice questions, with the tutor's sources and without them.

    The same model, system prompt and option wording both times; the sources are what the tutor would
    give the model for the question with its options appended (the retrieval the options help).
    """

    items = [q for q in questions if q.choices and q.answer_letter]
    right = {"with_book": 0, "without_book": 0}
    for q in items:
        hits, _ = tutor.retrieve(q.text(with_choices=True), book_id=book_id)
        block = format_sources(tutor.sources(q.question, hits))
        for kind, user in (("with_book", mc_prompt(q.question, q.choices, block)),
                           ("without_book", mc_prompt(q.question, q.choices))):
            messages = [{"role": "system", "content": MC_SYSTEM}, {"role": "user", "content": user}]
            reply = "".join(tutor.model.stream_chat(messages, max_tokens=max_tokens, temperature=0.0))
            right[kind] += pick_choice(reply, q.choices) == q.answer_letter
    n = len(items)
    return {"questions": n, **{f"accuracy_{k}": round(v / n, 3) if n else 0.0 for k, v in right.items()},
            "chance": round(statistics.fmean(1 / len(q.choices) for q in items), 3) if n else 0.0}


def refusal_metrics(tutor: Any, in_book: Sequence[str], off_book: Sequence[str], *,
                    book_id: str | None = None) -> dict[str, Any]:
    """How the coverage verdict declines: precision and recall of "declined" for off-book questions.

    Each question is retrieved as ``Tutor.ask`` would for a first question (no previous turn); no model runs.
    """
    def declined(question: str) -> bool:
        return not tutor.retrieve(rewrite_followup(question, None).text, book_id=book_id)[1].covered
    declined_in = sum(map(declined, in_book))
    declined_off = sum(map(declined, off_book))
    declined = declined_in + declined_off
    return {"in_book": len(in_book), "in_book_declined": declined_in,
            "off_book": len(off_book), "off_book_declined": declined_off,
            "in_book_declined_rate": round(declined_in / len(in_book), 3) if in_book else 0.0,
            "precision": round(declined_off / declined, 3) if declined else 0.0,
            "recall": round(declined_off / len(off_book), 3) if off_book else 0.0}


def format_answer_report(report: dict[str, Any]) -> str:
    """Plain-text lines for ``lantern eval --answers``."""
    lines = [f"== answers ({report.get('model', 'model')}) =="]
    a = report.get("answers")
    if a:
        lines.append(f"questions {a['questions']}: citations valid {a['citation_validity']:.3f}; answers citing the "
                     f"gold section {a['answers_with_gold_citation']:.3f}; citations in the gold section "
                     f"{a['citations_in_gold']:.3f}; declined {a['refused']}; extractive {a['extractive']}; "
                     f"first token p50 {a['first_token_p50_ms']:.0f} ms / p95 {a['first_token_p95_ms']:.0f} ms; "
                     f"sources p50 {a['sources_p50_ms']:.0f} ms")
    mc = report.get("multiple_choice")
    if mc and mc["questions"]:
        lines.append(f"multiple choice {mc['questions']}: accuracy with the book {mc['accuracy_with_book']:.3f}, "
                     f"without {mc['accuracy_without_book']:.3f} (chance {mc['chance']:.3f})")
    r = report.get("refusal")
    if r:
        lines.append(f"refusal: in-book declined {r['in_book_declined']}/{r['in_book']}, off-book declined "
                     f"{r['off_book_declined']}/{r['off_book']}: precision {r['precision']:.3f}, "
                     f"recall {r['recall']:.3f}")
    return "\n".join(lines)


__all__ = ["AnswerOutcome", "LETTERS", "ask_once", "citation_valid", "evaluate_answers", "format_answer_report",
           "judge_answer", "markers_valid", "mc_prompt", "multiple_choice", "pick_choice", "refusal_metrics",
           "spread", "summarize_answers"]
