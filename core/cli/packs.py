"""``lantern pack export`` and ``lantern pack import``: course packs (``core.index.pack``)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core.cli.output import TerminalProgress, emit, import_record, json_flag
from core.index.pack_format import SUFFIX
from core.library import Library
from core.models import ImportStatus


def add_parsers(sub: Any) -> None:
    """Add ``pack export`` / ``pack import`` to ``sub`` (an argparse sub-parsers object)."""
    p = sub.add_parser("pack", help="export books to a course pack, or import one (no re-embedding)")
    packs = p.add_subparsers(dest="pack_command", required=True, metavar="ACTION")
    e = packs.add_parser("export", help="write books (and their study sets) to one .lantern file")
    e.add_argument("book_ids", nargs="+", metavar="BOOK_ID")
    e.add_argument("-o", "--output", required=True, metavar="FILE", help=f"the pack to write (*{SUFFIX})")
    e.add_argument("--no-study", dest="with_study", action="store_false",
                   help="leave out the study sets (cards, lessons, guides)")
    e.add_argument("--with-my-progress", dest="with_progress", action="store_true",
                   help="include your own records: card reviews, practice and quiz attempts, conversations")
    json_flag(e)
    i = packs.add_parser("import", help="add the books of a .lantern course pack to the library")
    i.add_argument("path", metavar="FILE")
    json_flag(i)


def cmd_pack(lib: Library, args: argparse.Namespace) -> int:
    return {"export": _export, "import": _import}[args.pack_command](lib, args)


def _export(lib: Library, args: argparse.Namespace) -> int:
    target = Path(args.output)
    if target.suffix.lower() != SUFFIX:
        target = target.with_name(target.name + SUFFIX)
    bar = TerminalProgress(target.name)
    summary = lib.export_pack(args.book_ids, target, with_study=args.with_study, with_progress=args.with_progress,
                              progress=bar)
    bar.finish()
    payload = {"path": str(summary.path), "size": summary.size, "with_study": summary.with_study,
               "with_progress": summary.with_progress,
               "books": [{"book_id": b.id, "title": b.title, "pages": b.page_count} for b in summary.books]}
    extras = ", with study sets" if summary.with_study else ""
    extras += ", with your own progress" if summary.with_progress else ""
    lines = [f"exported  {b.id}  {b.title}" for b in summary.books]
    lines.append(f"wrote {summary.path} ({summary.size / 1e6:.1f} MB, {len(summary.books)} book(s){extras})")
    emit(args, payload, "\n".join(lines))
    return 0


def _import(lib: Library, args: argparse.Namespace) -> int:
    bar = TerminalProgress(Path(args.path).name)
    results = lib.import_pack(args.path, progress=bar)
    bar.finish()
    lines = []
    for r in results:
        b = r.book
        if r.status is ImportStatus.IMPORTED:
            lines.append(f"imported  {b.id}  {b.title}  ({b.page_count} pages, {b.chapter_count} chapters)")
        elif r.status is ImportStatus.DUPLICATE:
            lines.append(f"duplicate {b.id}  {b.title}  (already in the library; left as it is)")
        else:
            lines.append(f"searchable {b.id}  {b.title}  ({r.error})")
    emit(args, [import_record(r) for r in results], "\n".join(lines))
    return 0 if all(r.status in (ImportStatus.IMPORTED, ImportStatus.DUPLICATE) for r in results) else 1


COMMANDS = {"pack": cmd_pack}
