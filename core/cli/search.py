"""``lantern search`` and ``lantern eval``: retrieval on its own, and measured on gold questions."""
from __future__ import annotations

import argparse
from typing import Any

from core.answer.tutor import Tutor
from core.cli.output import emit, hit_record, json_flag, reranker_flag
from core.errors import LanternError
from core.evaluation.answers import evaluate_answers, format_answer_report, refusal_metrics, spread
from core.evaluation.choices import multiple_choice
from core.evaluation.keys import load_keys
from core.evaluation.retrieval import coverage_rates, evaluate, format_coverage, format_table, load_questions
from core.library import Library
from core.llm.choice import Quality, resolve_model
from core.llm.model import LocalModel
from core.models import ChunkRole, SearchMode
from core.retrieval.coverage import DEFAULT_THRESHOLD, assess
from core.retrieval.rescoring import reranker_from_setting


def add_parsers(sub: Any) -> None:
    """Add ``search`` and ``eval`` to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("search", help="search the library (hybrid keyword + vector)")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--book", metavar="ID", help="only this book")
    p.add_argument("--chapter", metavar="N", action="append", default=[], help="only chapter N (repeatable)")
    p.add_argument("-k", type=int, default=5, help="number of results (default 5)")
    p.add_argument("--mode", choices=[m.value for m in SearchMode], default=SearchMode.HYBRID.value)
    p.add_argument("--role", action="append", default=[], choices=[r.value for r in ChunkRole],
                   help="only chunks of this role (repeatable)")
    p.add_argument("--pages", metavar="A-B", help="only physical pages A to B")
    p.add_argument("--raw", action="store_true",
                   help="plain retrieval: no query planning, de-duplication or per-section diversity")
    p.add_argument("--explain", action="store_true", help="show each stage's score and the coverage score")
    reranker_flag(p)
    json_flag(p)

    p = sub.add_parser("eval", help="measure retrieval on gold questions (shared benchmark format)")
    p.add_argument("--questions", required=True, metavar="FILE.jsonl")
    p.add_argument("--book", metavar="ID", help="search only this book (default: the whole library)")
    p.add_argument("--limit", type=int, help="use only the first N questions")
    p.add_argument("--choices", choices=["without", "with", "both"], default="both",
                   help="append multiple-choice options to the question (default: report both)")
    p.add_argument("--offbook", metavar="FILE.jsonl", action="append", default=[],
                   help="questions the library does NOT answer (repeatable): report how often coverage flags "
                        "them beside the --questions (in-book) rate")
    p.add_argument("--answers", type=int, default=0, metavar="N",
                   help="also answer N questions (spread over the set) with the local model: citation validity, "
                        "citation in the gold section, multiple-choice accuracy with and without the book, "
                        "and (with --offbook) refusal precision/recall")
    p.add_argument("--keys", metavar="FILE.jsonl", help="answer keys for --answers (benchmarks/data/answer_keys/): "
                   "key-term recall of the free-form answers; the keyed questions are asked first")
    p.add_argument("--model", metavar="PATH|KEY", help="chat model for --answers (default: the one chosen for this "
                   "computer)")
    reranker_flag(p)
    json_flag(p)


def cmd_search(lib: Library, args: argparse.Namespace) -> int:
    pages = _page_range(args.pages)
    _apply_reranker(lib, args)
    search = lib.search if args.raw else lib.find
    hits = search(args.query, args.k, book_id=args.book, chapters=tuple(args.chapter), pages=pages,
                  roles=tuple(args.role), mode=SearchMode(args.mode))
    coverage = None
    if args.explain and not args.raw:
        coverage = assess(args.query, hits)
    lines = []
    for h in hits:
        c = h.chunk
        where = " › ".join(x for x in (c.chapter_title, f"{c.section_number or ''} {c.section_title}".strip()) if x)
        pages = c.printed_page_start if c.printed_page_start == c.printed_page_end else \
            f"{c.printed_page_start}–{c.printed_page_end}"
        snippet = " ".join(c.text.split())[:220]
        lines.append(f"[{h.rank}] {where}, p. {pages}  ({c.role.value}, {h.score:.3f})\n    {snippet}")
        if args.explain:
            lines.append("    stages: " + ", ".join(f"{k}={v:.3f}" for k, v in h.stage_scores))
    records = [hit_record(h) for h in hits]
    if args.explain:
        for r, h in zip(records, hits):
            r["stages"] = dict(h.stage_scores)
    if coverage is not None:
        verdict = "covered" if coverage.covered else "probably not in the book"
        lines.append(f"coverage: {coverage.score:.3f} ({verdict})")
        if args.json:  # keep the list shape of plain --json output; coverage rides on the first record
            for r in records[:1]:
                r["coverage"] = round(coverage.score, 4)
    emit(args, records, "\n".join(lines) or "No results.")
    return 0


def _apply_reranker(lib: Library, args: argparse.Namespace) -> None:
    """``--reranker`` overrides the setting (a cross-encoder folder, ``default`` or ``off``)."""
    if getattr(args, "reranker", None) is not None:
        lib.reranker = reranker_from_setting(args.reranker)


def _page_range(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    a, _, b = text.replace("–", "-").partition("-")
    try:
        first, last = int(a), int(b or a)
    except ValueError:
        raise LanternError(f"--pages wants A-B with page numbers, not {text!r}.") from None
    return (min(first, last), max(first, last))


def cmd_eval(lib: Library, args: argparse.Namespace) -> int:
    from pathlib import Path


    questions = load_questions(args.questions, args.limit)
    book = lib.book(args.book).id if args.book else None
    _apply_reranker(lib, args)
    searchers = {m.value: (lambda q, m=m: lib.search(q, 10, book_id=book, mode=m)) for m in
                 (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID)}
    # each stage in the same run: query planning + de-duplication + per-section diversity + role
    # quotas, then (when one is active) the re-ranking stage on top of it
    searchers["hybrid+plan"] = lambda q: lib.find(q, 10, book_id=book, reranker=None)
    if lib.reranker is not None:
        searchers[f"+rerank({lib.reranker.name})"] = lambda q: lib.find(q, 10, book_id=book)
    variants = {"without": [False], "with": [True], "both": [False, True]}[args.choices]
    report, text = {}, []
    for with_choices in variants:
        if with_choices and not any(q.choices for q in questions):
            continue
        name = "with_choices" if with_choices else "question_only"
        report[name] = evaluate(questions, searchers, with_choices=with_choices)
        text.append(format_table(report[name], f"== {name} ({len(questions)} questions) =="))
    if args.offbook:
        def short(path: str) -> str:  # "chemistry-2e/questions.jsonl": enough to tell the sets apart
            return "/".join(Path(path).parts[-2:])
        sets = {"in-book: " + short(args.questions): [q.question for q in questions]}
        for path in args.offbook:
            sets["off-book: " + short(path)] = [q.question for q in load_questions(path, args.limit)]
        report["coverage"] = coverage_rates(sets, lambda q: lib.find(q, 10, book_id=book), assess)
        report["coverage_threshold"] = DEFAULT_THRESHOLD
        text.append(format_coverage(report["coverage"], DEFAULT_THRESHOLD))
    if args.answers > 0:
        report["answers"] = _eval_answers(lib, args, questions, book)
        text.append(format_answer_report(report["answers"]))
    emit(args, report, "\n\n".join(text))
    return 0


def _eval_answers(lib: Library, args: argparse.Namespace, questions, book: str | None) -> dict:
    """``lantern eval --answers N``: the tutor end to end on N questions, multiple choice, refusal."""

    llm, _ = resolve_model(args.model, quality=Quality.from_env())
    tutor = Tutor(lib, LocalModel(llm))
    try:
        error = tutor.model_error()
        if error is not None:
            raise LanternError(f"--answers needs a chat model: {error.message}")
        tutor.prewarm().result()  # as the app does at start-up: the fixed instructions are cached
        out: dict = {"model": tutor.model_name}
        keys = load_keys(args.keys) if args.keys else {}
        asked = [q for q in questions if q.qid in keys] or questions
        out["answers"] = evaluate_answers(tutor, spread(asked, args.answers), book_id=book, keys=keys)
        keyed = [q for q in questions if q.choices and q.answer_letter]
        out["multiple_choice"] = multiple_choice(tutor, spread(keyed, args.answers), book_id=book)
        if args.offbook:
            off = [q.question for path in args.offbook for q in load_questions(path)]
            out["refusal"] = refusal_metrics(tutor, [q.question for q in spread(questions, args.answers * 5)],
                                             spread(off, args.answers * 5), book_id=book)
        return out
    finally:
        tutor.close()


COMMANDS = {"search": cmd_search, "eval": cmd_eval}
