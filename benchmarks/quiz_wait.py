"""No waiting: seconds until a student can answer the first quiz item, and until a 5-item quiz is complete.

Per book, two chapters (a third and two thirds into the book), as the desktop makes a quiz: the
chapter's lesson built from scratch (not cached), the chat model (``--model``, the app's 1.5B by
default) loaded once per book as the app does on its first quiz, then ``lesson_quiz(n=5,
budget_s=QUIZ_BUDGET_S)`` with each item timed as it is handed on.  The baseline in the same run is
the same quiz made the old way: nothing answerable until all five are ready (its first-item time is
the whole quiz's) and no time budget (``budget_s=None``).

    LANTERN_CHAT_MODEL=qwen2.5-coder-1.5b .venv/bin/python benchmarks/quiz_wait.py --libs /work/libs
"""
from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.library import Library  # noqa: E402
from core.study.lesson import book_chapters, build_lesson  # noqa: E402
from core.study.quizgen import QUIZ_BUDGET_S, lesson_quiz  # noqa: E402
from study_books import open_model  # noqa: E402

BOOKS = ("psychology-2e", "chemistry-2e", "american-government-4e", "astronomy-2e", "rust-book")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", default="/work/libs")
    ap.add_argument("--books", default=",".join(BOOKS))
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--baseline", action="store_true", help="also make each quiz without a time budget")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    rows = []
    for name in [b for b in args.books.split(",") if b]:
        with Library(Path(args.libs) / name) as lib:
            book = lib.books()[0]
            chapters = book_chapters(lib, book.id)
            model = None
            for chapter in (chapters[len(chapters) // 3], chapters[2 * len(chapters) // 3]):
                started = time.monotonic()
                lesson = build_lesson(book.id, chapter, lib.study_chunks(book.id, chapter=chapter),
                                      book_chunks=lib.study_chunks(book.id))
                lesson_s = time.monotonic() - started
                if model is None:  # the app loads its model on the first quiz
                    model = open_model(args.model)
                times: list[float] = []
                run = lesson_quiz(lesson, 5, model=model, budget_s=QUIZ_BUDGET_S,
                                  on_item=lambda _q: times.append(time.monotonic() - started))
                row = {"book": name, "chapter": chapter, "lesson_s": lesson_s, "first_s": times[0] if times else None,
                       "all_s": time.monotonic() - started, "items": len(run.questions),
                       "by_model": sum(q.generator == getattr(model, "display_name", "") for q in run.questions)}
                if args.baseline:
                    t0 = time.monotonic()
                    old = lesson_quiz(lesson, 5, model=model, budget_s=None)
                    row["old_all_s"] = time.monotonic() - t0 + lesson_s
                    row["old_by_model"] = sum(q.generator == getattr(model, "display_name", "") for q in old.questions)
                rows.append(row)
                print(row, file=sys.stderr, flush=True)
            if model is not None:
                model.close()
    load = os.getloadavg()
    print(f"model {args.model}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores\n")
    print("| book | ch. | lesson s | first item s | 5 items s | items (by model) | no budget: 5 items s (by model) |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        old = f"{r['old_all_s']:.0f} ({r['old_by_model']})" if "old_all_s" in r else "–"
        print(f"| {r['book']} | {r['chapter']} | {r['lesson_s']:.1f} | {r['first_s']:.1f} | {r['all_s']:.0f} | "
              f"{r['items']} ({r['by_model']}) | {old} |")
    firsts = [r["first_s"] for r in rows if r["first_s"] is not None]
    print(f"\nfirst item p50 {statistics.median(firsts):.1f} s (max {max(firsts):.1f}); 5-item quiz p50 "
          f"{statistics.median(r['all_s'] for r in rows):.0f} s (max {max(r['all_s'] for r in rows):.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
