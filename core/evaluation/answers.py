"""Answer-quality metrics on gold questions: what ``lantern eval --answers`` and ``benchmarks/answers.py`` report.

* ``evaluate_answers`` — ``Tutor.ask`` end to end per question (asked as a student would, without its
  options): key-term recall against the answer key (``core.evaluation.keys``), a citation on the gold
  pages, citation validity (every ``[n]`` names a returned citation whose chunk, section, pages and printed
  page exist in the library), citation in the gold section, the share of answer sentences a cited
  passage supports, refusals, first-token and whole-answer latency.
* ``core.evaluation.choices.multiple_choice`` — the keyed option chosen with the options shown, with and
  without the book.
* ``refusal_metrics`` — the tutor's "not in your book" verdict on questions the library answers and on
  near-domain ones it does not: the share declined of each (no model needed).

Pure helpers (``spread``, ``markers_valid``, ``citation_valid``) are tested directly.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from core.answer.attribution import split_answer
from core.answer.followup import rewrite_followup
from core.answer.markers import parse_citations
from core.evaluation.keys import AnswerKey, key_term_recall
from core.evaluation.retrieval import GoldQuestion, is_gold, on_gold_pages, percentile
from core.models import Answer, AnswerEventKind, Chunk, Citation


def spread(items: Sequence[Any], n: int, shift: float = 0.0) -> list[Any]:
    """``n`` items evenly spaced over ``items`` (deterministic, so every chapter is represented); ``shift`` (0–1)
    moves every pick by that share of the spacing, so a fresh sample is drawn from the same spread."""
    if n <= 0:
        return []
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int((i + shift) * step)] for i in range(n)]


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
    gold_pages_cited: bool
    sources_ms: float
    first_token_ms: float | None
    total_ms: float | None
    supported: int
    flagged: int
    dropped: int
    key_recall: float | None = None
    sentences: int = 0  # sentences of the answer the student reads
    prompt_tokens: int = 0  # prompt tokens the model evaluated before its first word (not cached)
    key_read: bool | None = None  # every key term lies in what the model read (its sources); None without a key


def judge_answer(library: Any, q: GoldQuestion, answer: Answer, sources_ms: float,
                 labels: dict[str, dict[int, str]], key: AnswerKey | None = None,
                 read: Sequence[str] | None = None) -> AnswerOutcome:
    """Citation validity, gold agreement and (with ``key``) key-term recall of one finished answer
    (``labels`` caches each book's page labels across answers); with ``read`` (the texts the model was given)
    also whether the key was in them."""
    chunks = library.chunks([c.chunk_id for c in answer.citations])
    for book_id in {c.book_id for c in answer.citations} - labels.keys():
        labels[book_id] = {p.index: p.label for p in library.pages(book_id)}
    gold = [c.chunk_id in chunks and is_gold(chunks[c.chunk_id], q) for c in answer.citations]
    valid = markers_valid(answer) and all(citation_valid(c, chunks.get(c.chunk_id), labels[c.book_id])
                                          for c in answer.citations)
    recall = key_term_recall(answer.text, key.key_terms) if key is not None and not answer.refused else None
    if key is not None and answer.refused:
        recall = 0.0
    return AnswerOutcome(qid=q.qid, refused=answer.refused, extractive=answer.extractive,
                         citations=len(answer.citations), valid=valid, any_gold=any(gold),
                         gold_citations=sum(gold),
                         gold_pages_cited=any(on_gold_pages(c.page_start, c.page_end, q) for c in answer.citations),
                         sources_ms=sources_ms, first_token_ms=answer.timings.get("first_token_ms"),
                         total_ms=answer.timings.get("total_ms"), supported=len(answer.supported),
                         flagged=len(answer.unsupported), dropped=len(answer.dropped), key_recall=recall,
                         sentences=len(split_answer(answer.text)) if not answer.refused else 0,
                         prompt_tokens=int(answer.timings.get("prompt_tokens", 0)),
                         key_read=(key_term_recall("\n".join(read), key.key_terms) == 1.0
                                   if key is not None and read is not None else None))


def ask_once(tutor: Any, question: str, *, read: list[str] | None = None, **scope: Any) -> tuple[Answer, float]:
    """``tutor.ask`` to the end: the answer and the milliseconds until its sources were ready (``read``, when
    given, receives the texts of the sources the model read).  It waits first for the model to be primed with
    the answer instructions again, as it is while a student reads the last answer (the chip judge's prompts took
    the cache; ``preparation.ground_answer`` queues the priming): the first token is timed as the app's."""
    warm = getattr(tutor, "prewarm", None)
    primed = warm() if warm is not None else None
    if primed is not None:
        primed.result()
    t0 = time.perf_counter()
    sources_ms, answer = 0.0, None
    for ev in tutor.ask(question, **scope):
        if ev.kind is AnswerEventKind.SOURCES:
            sources_ms = (time.perf_counter() - t0) * 1000
            if read is not None:
                read.extend(s.text for s in ev.sources)
        elif ev.kind is AnswerEventKind.DONE:
            answer = ev.answer
        elif ev.kind is AnswerEventKind.ERROR:
            raise RuntimeError(ev.text)
    if answer is None:
        raise RuntimeError("the tutor produced no answer")
    return answer, sources_ms


def summarize_answers(rows: Sequence[AnswerOutcome]) -> dict[str, Any]:
    """Rates over judged answers (gold and support rates over the answers that were not declined)."""
    answered = [r for r in rows if not r.refused]
    cits = sum(r.citations for r in answered)
    first = sorted(r.first_token_ms for r in answered if r.first_token_ms is not None)
    whole = sorted(r.total_ms for r in answered if r.total_ms is not None)
    srcs = sorted(r.sources_ms for r in rows)
    keyed = [r.key_recall for r in rows if r.key_recall is not None]
    where_read = [r.key_recall for r in rows if r.key_recall is not None and r.key_read]
    sentences = sum(r.supported + r.flagged + r.dropped for r in answered)
    n = max(1, len(rows))
    return {
        "questions": len(rows), "refused": sum(r.refused for r in rows),
        "extractive": sum(r.extractive for r in rows),
        "key_term_recall": round(sum(keyed) / len(keyed), 3) if keyed else None, "keyed_questions": len(keyed),
        "key_read_share": round(len(where_read) / len(keyed), 3) if keyed and any(
            r.key_read is not None for r in rows) else None,
        "key_term_recall_where_read": round(sum(where_read) / len(where_read), 3) if where_read else None,
        "citation_validity": round(sum(r.valid for r in rows) / n, 3),
        "answers_citing_gold_pages": round(sum(r.gold_pages_cited for r in answered) / max(1, len(answered)), 3),
        "answers_with_gold_citation": round(sum(r.any_gold for r in answered) / max(1, len(answered)), 3),
        "citations_in_gold": round(sum(r.gold_citations for r in answered) / max(1, cits), 3),
        "answers_without_citation": sum(1 for r in answered if not r.citations),
        "sentences_supported_share": round(sum(r.supported for r in answered) / sentences, 3) if sentences else None,
        "first_token_p50_ms": round(percentile(first, 50), 1), "first_token_p95_ms": round(percentile(first, 95), 1),
        "total_p50_ms": round(percentile(whole, 50), 1), "total_p95_ms": round(percentile(whole, 95), 1),
        "sources_p50_ms": round(percentile(srcs, 50), 1),
        "sentences_p50": percentile(sorted(r.sentences for r in answered), 50),
        "sentences_max": max((r.sentences for r in answered), default=0),
        "prompt_tokens_p50": percentile(sorted(r.prompt_tokens for r in answered if r.prompt_tokens), 50),
        "sentences_dropped": sum(r.dropped for r in rows), "sentences_flagged": sum(r.flagged for r in rows),
    }


def evaluate_answers(tutor: Any, questions: Sequence[GoldQuestion], *, book_id: str | None = None,
                     keys: dict[str, AnswerKey] | None = None,
                     progress: Callable[[AnswerOutcome, Answer], None] | None = None) -> dict[str, Any]:
    """Ask every question (as a student would: without its choices) and judge each answer; returns the
    summary and the rows.  ``keys`` (by qid) add key-term recall."""
    labels: dict[str, dict[int, str]] = {}
    rows = []
    for q in questions:
        answer, sources_ms = ask_once(tutor, q.text(), book_id=book_id)
        rows.append(judge_answer(tutor.library, q, answer, sources_ms, labels, (keys or {}).get(q.qid)))
        if progress:
            progress(rows[-1], answer)
    return {**summarize_answers(rows), "rows": [asdict(r) for r in rows]}


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
        recall = f"key-term recall {a['key_term_recall']:.3f} ({a['keyed_questions']} keyed); " \
            if a.get("key_term_recall") is not None else ""
        support = a.get("sentences_supported_share")
        lines.append(f"questions {a['questions']}: {recall}citations valid {a['citation_validity']:.3f}; answers "
                     f"citing the gold pages {a['answers_citing_gold_pages']:.3f}, the gold section "
                     f"{a['answers_with_gold_citation']:.3f}; sentences supported "
                     f"{'-' if support is None else f'{support:.3f}'}; declined {a['refused']}; extractive "
                     f"{a['extractive']}; first token p50 {a['first_token_p50_ms'] / 1000:.1f} s / whole answer p50 "
                     f"{a['total_p50_ms'] / 1000:.1f} s; sources p50 {a['sources_p50_ms']:.0f} ms")
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


__all__ = ["AnswerOutcome", "ask_once", "citation_valid", "evaluate_answers", "format_answer_report",
           "judge_answer", "markers_valid", "refusal_metrics", "spread", "summarize_answers"]
