"""Study tools on every dev book and on a real manual without glossary or exercises: one table per run.

For each book, chapters with at least 4 pages of text (``--chapters`` of them, spread over the book):
``quiz -n 5`` (items delivered, verified, seconds per item, kinds), ``cards`` (count), ``practice``
(items whose answer the book states), the guide (lines, share that are whole sentences by the automatic
check, seconds).  The chat model is the one the app runs (``--model``, default qwen2.5-coder-1.5b).

The tools write caches and cards, so run it on copies of the libraries::

    mkdir -p /tmp/study-libs && for b in psychology-2e chemistry-2e american-government-4e astronomy-2e \\
        rust-book; do cp -r /work/libs/$b /tmp/study-libs/; done
    .venv/bin/lantern --library /tmp/study-libs/r-intro import .cache/debian-pdfs/usr/share/R/doc/manual/R-intro.pdf
    .venv/bin/lantern --library /tmp/study-libs/octave import .cache/debian-pdfs/usr/share/doc/octave/octave.pdf
    .venv/bin/python benchmarks/study_books.py --libs /tmp/study-libs --books r-intro,rust-book --dump /tmp/items.json

``--dump`` writes every item (questions, cards, practice, guide lines) for checking by hand.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.library import Library  # noqa: E402
from core.study.lesson_cards import lesson_cards  # noqa: E402
from core.study.drills import lesson_practice  # noqa: E402
from core.study.guide import build_guide, guide_lines  # noqa: E402
from core.study.lesson import MIN_PAGES, book_chapters, chapter_lesson  # noqa: E402
from core.study.practice import find_exercises  # noqa: E402
from core.study.prose import line_problem  # noqa: E402
from core.study.quizgen import lesson_quiz  # noqa: E402

log = logging.getLogger("study_books")
BOOKS = ("psychology-2e", "chemistry-2e", "american-government-4e", "astronomy-2e", "rust-book", "r-intro", "octave")


def open_model(key: str | None):
    """The chat model (loaded), or None for ``--no-model``."""
    if not key:
        return None
    from core.llm.model import LocalModel
    from core.llm.settings import LLMSettings
    model = LocalModel(LLMSettings(model=key))
    model.load()
    return model


def pick_chapters(lib: Library, book_id: str, want: int) -> list[tuple[str, object]]:
    """Up to ``want`` chapters with at least ``MIN_PAGES`` pages of text, spread over the book."""
    lessons = [(ch, chapter_lesson(lib, book_id, ch)) for ch in book_chapters(lib, book_id)]
    long = [(ch, le) for ch, le in lessons if le.pages >= MIN_PAGES]
    if len(long) <= want:
        return long
    step = len(long) / want
    return [long[int(i * step + step / 2)] for i in range(want)]


def measure(lib: Library, book_id: str, chapter: str, lesson, model, n: int, dump: list) -> dict:
    """One chapter's numbers (and its items appended to ``dump``)."""
    run = lesson_quiz(lesson, n, model=model)
    cards = lesson_cards(lesson)
    own = [e for e in find_exercises(lib.study_chunks(book_id, chapter=chapter))]
    made = lesson_practice(lesson)
    answered = [e for e in own if e.answer] + made
    started = time.monotonic()
    guide = build_guide(book_id, chapter, lib.study_chunks(book_id, chapter=chapter), lesson)
    guide_s = time.monotonic() - started
    lines = guide_lines(guide)
    whole = [ln for ln in lines if line_problem(ln) is None]
    dump.append({"book": book_id, "chapter": chapter, "note": run.note,
                 "quiz": [q.to_json() for q in run.questions], "cards": [
                     {"front": c.front, "back": c.back, "page": c.source.printed_page, "origin": c.origin.value}
                     for c in cards],
                 "practice": [e.to_json() for e in made], "guide": lines})
    return {"chapter": chapter, "pages": lesson.pages, "asked": n, "quiz": len(run.questions),
            "verified": sum(1 for q in run.questions if q.verified), "quiz_s": run.seconds,
            "s_per_item": run.seconds / max(1, len(run.questions)),
            "kinds": sorted({q.type.value for q in run.questions}), "cards": len(cards), "practice": len(answered),
            "own_exercises": len(own), "guide_lines": len(lines), "whole": len(whole), "guide_s": guide_s,
            "note": run.note}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", default="/tmp/study-libs", help="folder of library copies, one per book")
    ap.add_argument("--books", default=",".join(BOOKS), help="comma-separated library folder names")
    ap.add_argument("--chapters", type=int, default=2, help="chapters per book (with >= 4 pages of text)")
    ap.add_argument("-n", type=int, default=5, help="quiz questions asked")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", help="catalogue key; '' for no model")
    ap.add_argument("--dump", help="write every item to this JSON file for checking by hand")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    model = open_model(args.model)
    dump: list = []
    rows = []
    try:
        for name in [b for b in args.books.split(",") if b]:
            with Library(Path(args.libs) / name) as lib:
                book = lib.books()[0]
                for chapter, lesson in pick_chapters(lib, book.id, args.chapters):
                    row = measure(lib, book.id, chapter, lesson, model, args.n, dump)
                    row["book"] = name
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
    finally:
        if model is not None:
            model.close()
    load = os.getloadavg()
    print(f"model: {args.model or 'none'}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on "
          f"{os.cpu_count()} cores\n")
    print("| book | ch. | pages | quiz -n 5 (verified) | s / quiz item | kinds | cards | practice (book answers) "
          "| guide lines whole | s / guide |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['book']} | {r['chapter']} | {r['pages']} | {r['quiz']} ({r['verified']}) | "
              f"{r['s_per_item']:.1f} | {', '.join(r['kinds'])} | {r['cards']} | {r['practice']} "
              f"({r['own_exercises']} own) | {r['whole']}/{r['guide_lines']} | {r['guide_s']:.2f} |")
    if args.dump:
        Path(args.dump).write_text(json.dumps(dump, ensure_ascii=False, indent=1), encoding="utf-8")
    short = [r for r in rows if r["quiz"] < r["asked"] or r["cards"] < 8 or r["practice"] < 5
             or r["whole"] < r["guide_lines"]]
    for r in short:
        why = [w for w, bad in (("quiz", r["quiz"] < r["asked"]), ("cards < 8", r["cards"] < 8),
                                ("practice < 5", r["practice"] < 5), ("guide lines", r["whole"] < r["guide_lines"])) if bad]
        print(f"\nshort: {r['book']} chapter {r['chapter']} ({', '.join(why)}): {r['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
