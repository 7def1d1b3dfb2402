"""``lantern import``, ``books``, ``toc``, ``remove``, ``doctor`` and ``demo``: the library's books."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from typing import Any

from core.cli import ask
from core.cli.output import TerminalProgress, emit, import_record, json_flag
from core.errors import LanternError
from core.index.doctor import format_report
from core.library import Library
from core.models import ImportStatus
from core.paths import file_sha256, sample_books


def add_parsers(sub: Any) -> None:
    """Add the book sub-commands to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("import", help="import book files (PDF, EPUB, Markdown, text, HTML)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    json_flag(p)

    p = sub.add_parser("books", help="list the books in the library")
    json_flag(p)

    p = sub.add_parser("toc", help="show a book's chapters and sections")
    p.add_argument("book_id", metavar="BOOK_ID")
    json_flag(p)

    p = sub.add_parser("demo", help="import the bundled sample textbook and show its contents")
    p.add_argument("--ask", metavar="QUESTION", help="then answer QUESTION from it (as `lantern ask`)")
    json_flag(p)

    p = sub.add_parser("remove", help="remove a book and everything derived from it")
    p.add_argument("book_id", metavar="BOOK_ID")
    json_flag(p)

    p = sub.add_parser("doctor", help="check the library for damage (exit 1 if a problem remains)")
    p.add_argument("--repair", action="store_true", help="fix what can be fixed without losing data")
    json_flag(p)


def cmd_import(lib: Library, args: argparse.Namespace) -> int:
    records, lines, failed = [], [], False
    for path in args.paths:
        bar = TerminalProgress(path.rsplit("/", 1)[-1])
        result = lib.import_book(path, progress=bar)
        bar.finish()
        records.append(import_record(result))
        b = result.book
        if result.status is ImportStatus.IMPORTED and b:
            lines.append(f"imported  {b.id}  {b.title}  ({b.page_count} pages, {b.chapter_count} chapters,"
                         f" {b.section_count} sections)")
        elif result.status is ImportStatus.SEARCHABLE and b:  # usable, but the import did not finish
            failed = True
            lines.append(f"searchable {b.id}  {b.title}  ({result.error})")
        elif result.status is ImportStatus.DUPLICATE and b:
            lines.append(f"duplicate {b.id}  {b.title}  (already in the library)")
        else:
            failed = True
            lines.append(f"error     {path}: {result.error}")
    emit(args, records, "\n".join(lines))
    return 1 if failed else 0


def cmd_books(lib: Library, args: argparse.Namespace) -> int:
    books = lib.books()
    payload = [{"book_id": b.id, "title": b.title, "pages": b.page_count, "chapters": b.chapter_count,
                "sections": b.section_count, "pending": b.pending} for b in books]
    text = "\n".join(f"{b.id}  {b.title}  ({b.page_count} pages, {b.chapter_count} chapters)"
                     + (f"  [keyword search only: {lib.embedding_share(b.id):.0%} indexed; `lantern import "
                        f"{b.file_name}` finishes it]" if b.pending else "")
                     for b in books) or "The library is empty. Import a book with: lantern import FILE"
    emit(args, payload, text)
    return 0


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


def cmd_remove(lib: Library, args: argparse.Namespace) -> int:
    book = lib.remove(args.book_id)
    emit(args, {"book_id": book.id, "title": book.title, "status": "removed"},
         f"removed {book.id}  {book.title}")
    return 0


def cmd_doctor(lib: Library, args: argparse.Namespace) -> int:
    report = lib.doctor(repair=args.repair)
    emit(args, report.to_json(), format_report(report))
    return 0 if report.ok else 1


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
    return ask.cmd_ask(lib, ask.namespace([args.ask, "--book", book.id]))


COMMANDS = {"import": cmd_import, "books": cmd_books, "toc": cmd_toc, "remove": cmd_remove, "doctor": cmd_doctor,
            "demo": cmd_demo}
