"""The ``lantern`` command line: import, list, inspect and remove books (and later search/ask).

stdout carries JSON only with ``--json``; human-readable text otherwise.  Logs go to stderr.
Exit status is non-zero when anything failed.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from core import __version__
from core.errors import LanternError
from core.library import Library, file_sha256
from core.resources import sample_books
from core.models import ChunkRole, Hit, ImportResult, ImportStatus, SearchMode
from core.paths import resolve_library_dir

log = logging.getLogger("lantern")

Command = Callable[[Library, argparse.Namespace], int]
_COMMANDS: dict[str, Command] = {}


def command(name: str) -> Callable[[Command], Command]:
    """Register a sub-command handler (modules for later features add theirs the same way)."""
    def register(fn: Command) -> Command:
        _COMMANDS[name] = fn
        return fn
    return register


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lantern", description="Lantern: an offline tutor for your textbooks.")
    parser.add_argument("--version", action="version", version=f"lantern {__version__}")
    parser.add_argument("--library", metavar="DIR",
                        help="library folder (default: $LANTERN_LIBRARY or the user data dir)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("import", help="import book files (PDF, EPUB, Markdown, text, HTML)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    _json_flag(p)

    p = sub.add_parser("books", help="list the books in the library")
    _json_flag(p)

    p = sub.add_parser("toc", help="show a book's chapters and sections")
    p.add_argument("book_id", metavar="BOOK_ID")
    _json_flag(p)

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
    _reranker_flag(p)
    _json_flag(p)

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
    p.add_argument("--model", metavar="PATH|KEY", help="chat model for --answers (default: the configured one)")
    _reranker_flag(p)
    _json_flag(p)

    p = sub.add_parser("demo", help="import the bundled sample textbook and show its contents")
    p.add_argument("--ask", metavar="QUESTION", help="then answer QUESTION from it (as `lantern ask`)")
    _json_flag(p)

    p = sub.add_parser("remove", help="remove a book and everything derived from it")
    p.add_argument("book_id", metavar="BOOK_ID")
    _json_flag(p)

    p = sub.add_parser("doctor", help="check the library for damage (exit 1 if a problem remains)")
    p.add_argument("--repair", action="store_true", help="fix what can be fixed without losing data")
    _json_flag(p)

    p = sub.add_parser("ask", help="answer a question from your books with the local model, citing pages")
    p.add_argument("question", metavar="QUESTION")
    p.add_argument("--book", metavar="ID", help="only this book")
    p.add_argument("--chapter", metavar="N", action="append", default=[], help="only chapter N (repeatable)")
    p.add_argument("--model", metavar="PATH", help="a .gguf file or catalogue key (default: $LANTERN_CHAT_MODEL "
                   "or the bundled model)")
    p.add_argument("--conversation", metavar="ID", type=int,
                   help="continue this stored conversation (follow-ups like 'why?' use its last turn)")
    p.add_argument("--new-conversation", action="store_true", help="store this question as a new conversation")
    p.add_argument("--beyond-book", action="store_true",
                   help="when the book does not cover it, answer from general knowledge (labelled)")
    _json_flag(p)

    # study tools: practice, cards, quiz, guide, progress (core/study/cli.py)
    from core.study.cli import add_parsers as _add_study_parsers
    _add_study_parsers(sub, _json_flag)
    return parser


def _reranker_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reranker", metavar="DIR|default|off",
                   help="re-ranking stage: a local cross-encoder folder, the model-free default, or off "
                        "(default: $LANTERN_RERANKER, else the default)")


def _json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON on stdout")


def emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    """Print ``payload`` as JSON with --json, else the human text."""
    if getattr(args, "json", False):
        json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    elif text:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


class TerminalProgress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, label: str):
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 28
        filled = int(width * min(done, total) / total)
        line = f"\r{self.label[:30]:30} {stage[:14]:14} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        if line != self._last:
            sys.stderr.write(line)
            sys.stderr.flush()
            self._last = line

    def finish(self) -> None:
        if self.enabled and self._last:
            sys.stderr.write("\r" + " " * len(self._last) + "\r")
            sys.stderr.flush()


def _import_record(r: ImportResult) -> dict[str, Any]:
    b = r.book
    return {
        "book_id": b.id if b else None,
        "title": b.title if b else None,
        "path": r.path,
        "pages": b.page_count if b else None,
        "chapters": b.chapter_count if b else None,
        "sections": b.section_count if b else None,
        "status": r.status.value,
        "error": r.error if r.status is ImportStatus.ERROR else None,
    }


@command("import")
def cmd_import(lib: Library, args: argparse.Namespace) -> int:
    records, lines, failed = [], [], False
    for path in args.paths:
        bar = TerminalProgress(path.rsplit("/", 1)[-1])
        result = lib.import_book(path, progress=bar)
        bar.finish()
        records.append(_import_record(result))
        b = result.book
        if result.status is ImportStatus.IMPORTED and b:
            lines.append(f"imported  {b.id}  {b.title}  ({b.page_count} pages, {b.chapter_count} chapters,"
                         f" {b.section_count} sections)")
        elif result.status is ImportStatus.DUPLICATE and b:
            lines.append(f"duplicate {b.id}  {b.title}  (already in the library)")
        else:
            failed = True
            lines.append(f"error     {path}: {result.error}")
    emit(args, records, "\n".join(lines))
    return 1 if failed else 0


@command("books")
def cmd_books(lib: Library, args: argparse.Namespace) -> int:
    books = lib.books()
    payload = [{"book_id": b.id, "title": b.title, "pages": b.page_count, "chapters": b.chapter_count,
                "sections": b.section_count} for b in books]
    text = "\n".join(f"{b.id}  {b.title}  ({b.page_count} pages, {b.chapter_count} chapters)"
                     for b in books) or "The library is empty. Import a book with: lantern import FILE"
    emit(args, payload, text)
    return 0


@command("toc")
def cmd_toc(lib: Library, args: argparse.Namespace) -> int:
    book = lib.book(args.book_id)
    sections = lib.sections(book.id)
    payload = [{"level": s.level, "number": s.number, "title": s.title, "page_start": s.page_start,
                "page_end": s.page_end, "printed_page_start": s.printed_page_start} for s in sections]
    lines = [f"{book.title}  ({book.page_count} pages)"]
    for s in sections:
        where = f"p. {s.printed_page_start}" if book.paginated else f"screen {s.page_start}"
        lines.append(f"{'  ' * s.level}{s.display}  ·  {where}")
    emit(args, payload, "\n".join(lines))
    return 0


@command("remove")
def cmd_remove(lib: Library, args: argparse.Namespace) -> int:
    book = lib.remove(args.book_id)
    emit(args, {"book_id": book.id, "title": book.title, "status": "removed"},
         f"removed {book.id}  {book.title}")
    return 0


@command("doctor")
def cmd_doctor(lib: Library, args: argparse.Namespace) -> int:
    from core.doctor import format_report
    report = lib.doctor(repair=args.repair)
    emit(args, report.to_json(), format_report(report))
    return 0 if report.ok else 1


def _hit_record(h: Hit) -> dict[str, Any]:
    c = h.chunk
    return {"rank": h.rank, "chunk_id": c.id, "book_id": c.book_id, "chapter": c.chapter_number,
            "chapter_title": c.chapter_title, "section": c.section_number, "section_title": c.section_title,
            "page_start": c.page_start, "page_end": c.page_end,
            "printed_pages": [c.printed_page_start, c.printed_page_end], "role": c.role.value,
            "score": round(h.score, 6), "text": c.text}


@command("search")
def cmd_search(lib: Library, args: argparse.Namespace) -> int:
    pages = _page_range(args.pages)
    _apply_reranker(lib, args)
    search = lib.search if args.raw else lib.find
    hits = search(args.query, args.k, book_id=args.book, chapters=tuple(args.chapter), pages=pages,
                  roles=tuple(args.role), mode=SearchMode(args.mode))
    coverage = None
    if args.explain and not args.raw:
        from core.coverage import assess
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
    records = [_hit_record(h) for h in hits]
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
        from core.rescoring import reranker_from_setting
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


@command("eval")
def cmd_eval(lib: Library, args: argparse.Namespace) -> int:
    from pathlib import Path

    from core.coverage import DEFAULT_THRESHOLD, assess
    from core.answer_eval import format_answer_report
    from core.evaluation import coverage_rates, evaluate, format_coverage, format_table, load_questions

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
    from core.answer import Tutor
    from core.answer_eval import evaluate_answers, multiple_choice, refusal_metrics, spread
    from core.evaluation import load_questions

    tutor = Tutor(lib, args.model)
    try:
        error = tutor.model_error()
        if error is not None:
            raise LanternError(f"--answers needs a chat model: {error.message}")
        tutor.prewarm().result()  # as the app does at start-up: the fixed instructions are cached
        out: dict = {"model": tutor.model_name}
        out["answers"] = evaluate_answers(tutor, spread(questions, args.answers), book_id=book)
        keyed = [q for q in questions if q.choices and q.answer_letter]
        out["multiple_choice"] = multiple_choice(tutor, spread(keyed, args.answers), book_id=book)
        if args.offbook:
            off = [q.question for path in args.offbook for q in load_questions(path)]
            out["refusal"] = refusal_metrics(tutor, [q.question for q in spread(questions, args.answers * 5)],
                                             spread(off, args.answers * 5), book_id=book)
        return out
    finally:
        tutor.close()


@command("demo")
def cmd_demo(lib: Library, args: argparse.Namespace) -> int:
    books = sample_books()
    if not books:
        raise LanternError("The sample book is missing from resources/sample/.")
    args.paths = [str(books[0])]
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink):
        status = cmd_import(lib, args)
    result = json.loads(sink.getvalue()) if args.json else None
    if status:
        sys.stdout.write(sink.getvalue())
        return status
    book = next(b for b in lib.books() if b.file_hash == file_sha256(books[0]))
    if args.json:
        emit(args, {"import": result, "book_id": book.id}, "")
        return 0
    sys.stdout.write(sink.getvalue())
    sys.stdout.write(f"\nLibrary: {lib.root}\n\n")
    args.book_id = book.id
    status = cmd_toc(lib, args)
    if status or not args.ask:
        return status
    sys.stdout.write(f"\nQuestion: {args.ask}\n\n")
    sys.stdout.flush()
    ask = build_parser().parse_args(["ask", args.ask, "--book", book.id])
    return cmd_ask(lib, ask)


@command("ask")
def cmd_ask(lib: Library, args: argparse.Namespace) -> int:
    from core.answer import AnswerSettings, Tutor
    from core.answer_cli import answer_record, print_answer_tail
    from core.models import AnswerEventKind

    tutor = Tutor(lib, args.model, settings=AnswerSettings(beyond_book=args.beyond_book))
    try:
        conversation = args.conversation
        if conversation is None and args.new_conversation:
            conversation = tutor.start_conversation(args.question, args.book)
        answer, streamed = None, []
        for ev in tutor.ask(args.question, book_id=args.book, chapters=tuple(args.chapter),
                            conversation_id=conversation):
            if ev.kind is AnswerEventKind.ERROR:
                raise LanternError(ev.text)
            if ev.kind is AnswerEventKind.TOKEN and not args.json:
                streamed.append(ev.text)
                sys.stdout.write(ev.text)
                sys.stdout.flush()
            elif ev.kind is AnswerEventKind.DONE:
                answer = ev.answer
    finally:
        tutor.close()
    if answer is None:
        raise LanternError("No answer was produced.")
    if args.json:
        emit(args, answer_record(answer), "")
    else:
        print_answer_tail(answer, sys.stdout, "".join(streamed))
    return 0


def _register_study_commands() -> None:
    from core.study.cli import COMMANDS as study_commands
    for name, handler in study_commands.items():
        command(name)(handler)


_register_study_commands()


def _setup_logging(verbosity: int) -> None:
    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lantern`` command."""
    args = build_parser().parse_args(argv)
    _setup_logging(args.verbose)
    try:
        with Library(resolve_library_dir(args.library)) as lib:
            return _COMMANDS[args.command](lib, args)
    except LanternError as exc:
        if getattr(args, "json", False):
            emit(args, {"error": exc.message, "code": exc.code}, "")
        sys.stderr.write(f"lantern: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("lantern: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
