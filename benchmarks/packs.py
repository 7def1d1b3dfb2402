"""Course packs (issue 36): export and import times and pack sizes for each dev book and for all five in one
pack, beside importing the same PDFs from scratch, and whether a round trip changes anything a student sees.

    .venv/bin/python benchmarks/packs.py --libs /work/libs --out /tmp/packs [--books a,b] [--scratch all|BOOK,..]
        [--questions 60] [--json out.json]

1. Each book's library ``<libs>/<book>`` (one dev book, imported by ``lantern import``) exports it to
   ``<out>/<book>.lantern``: seconds and bytes.
2. A fresh "teacher" library imports every per-book pack (seconds each: no embedding), then builds the study
   set of chapters 1 and 2 of every book (their lessons, flashcards and a saved 5-item quiz of the book's own
   sentences), and exports all five books with their
   study sets as one pack; a fresh "student" library imports that pack.
3. Round trip: ``Library.find`` on ``--questions`` of each book's gold questions (spread over the book): the
   same passages (text, page, section) in the same order in the original library and in a fresh library that
   imported its pack; and between the teacher's five-book library and the student's (keyword statistics are
   library-wide, so a five-book library is compared with a five-book library); the same flashcards (front,
   back, quote, page), cached lessons and saved quizzes; ``doctor`` ok.
4. From scratch: the same PDFs imported into a fresh library with the same embedding model (drop → complete),
   for ``--scratch`` books (default: Psychology, the 522-page book).

Prints one Markdown table with the load average; ``--json`` keeps every number.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS  # noqa: E402
from core.evaluation.answers import spread  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.library import Library  # noqa: E402
from core.study.lesson import chapter_lesson, lesson_key  # noqa: E402
from core.study.lesson_cards import lesson_cards  # noqa: E402
from core.study.quizgen import lesson_quiz, save_quiz, saved_quiz  # noqa: E402
from core.study.schedule import new_schedule  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def passages(lib: Library, book_id: str, questions) -> list:
    return [[(h.chunk.text, h.chunk.page_start, h.chunk.section_title)
             for h in lib.find(q.question, 5, book_id=book_id)] for q in questions]


def study_items(lib: Library, book_id: str, chapters) -> tuple:
    cards = sorted((c.card.front, c.card.back, c.card.quote, c.card.source.page_start, c.card.source.section_title)
                   for c in lib.cards(book_id))
    lessons, quizzes = [], []
    for ch in chapters:
        cached = json.loads(lib.study_cache_get(book_id, lesson_key(ch)) or "{}")
        lessons.append(json.dumps(_without_ids(cached), sort_keys=True))
        run = saved_quiz(lib, book_id, ch)
        quizzes.append(None if run is None else [
            (q.question, q.choices, q.answer, q.evidence, q.source.page_start,
             lib.chunks([q.source.chunk_id])[q.source.chunk_id].text) for q in run.questions])
    return cards, lessons, quizzes


def _without_ids(value):
    """A cached lesson with its row ids dropped (each library numbers its rows itself)."""
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k not in ("chunk_id", "section_id", "id")}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def chapters_of(lib: Library, book_id: str) -> list[str]:
    return [s.number for s in lib.sections(book_id) if s.level == 1 and s.number][:2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, default=Path("/work/libs"))
    ap.add_argument("--out", type=Path, default=Path("/tmp/lantern-packs"))
    ap.add_argument("--books", default=",".join(DEV_BOOKS))
    ap.add_argument("--scratch", default="psychology-2e",
                    help="books imported from their PDFs too ('all', or none: '')")
    ap.add_argument("--questions", type=int, default=60)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    books = [b for b in args.books.split(",") if b]
    scratch = books if args.scratch == "all" else [b for b in args.scratch.split(",") if b]
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    rows: dict[str, dict] = {b: {} for b in books}
    ids: dict[str, str] = {}
    print(f"load average at start: {load()}", flush=True)

    for book in books:  # 1. one pack per book, from its own library
        with Library(args.libs / book) as src:
            [b] = src.books()
            ids[book] = b.id
            summary, secs = timed(lambda: src.export_pack([b.id], args.out / f"{book}.lantern"))
            rows[book].update(pages=b.page_count, export_s=secs, pack_mb=summary.size / 1e6,
                              pdf_mb=(BENCH / book / "book.pdf").stat().st_size / 1e6)
        print(f"{book}: exported in {secs:.1f} s, {summary.size / 1e6:.1f} MB; load {load()}", flush=True)

    for book in books:  # 2. each pack into a fresh library: its time, and the same passages as the original
        questions = spread(load_questions(BENCH / book / "questions.jsonl"), args.questions)
        with Library(args.out / f"one-{book}") as one:
            one.embedder.encode_query("warm up")  # the app loads the model at start
            results, secs = timed(lambda: one.import_pack(args.out / f"{book}.lantern"))
            assert [r.status.value for r in results] == ["imported"], results
            mine = passages(one, ids[book], questions)
        with Library(args.libs / book) as src:
            same = passages(src, ids[book], questions) == mine
        rows[book].update(import_s=secs, questions=len(questions), same_passages=same)
        print(f"{book}: pack imported in {secs:.1f} s; passages identical: {same} ({len(questions)} questions); "
              f"load {load()}", flush=True)

    with Library(args.out / "teacher") as teacher:  # 3. teacher: the five packs, study sets, one pack out
        for book in books:
            teacher.import_pack(args.out / f"{book}.lantern")
        for book in books:
            for ch in chapters_of(teacher, ids[book]):
                lesson = chapter_lesson(teacher, ids[book], ch)
                schedule, due = new_schedule()
                teacher.add_cards(ids[book], lesson_cards(lesson), schedule, due)
                save_quiz(teacher, ids[book], ch, lesson_quiz(lesson, 5))  # the book's own sentences (no model)
        all_ids = [ids[b] for b in books]
        summary, export_all = timed(lambda: teacher.export_pack(all_ids, args.out / "all.lantern"))
        print(f"all {len(books)}: exported with study sets in {export_all:.1f} s, {summary.size / 1e6:.1f} MB",
              flush=True)
        with Library(args.out / "student") as student:
            results, import_all = timed(lambda: student.import_pack(args.out / "all.lantern"))
            print(f"all {len(books)}: imported in {import_all:.1f} s; load {load()}", flush=True)
            doctor_ok = student.doctor().ok
            for book in books:  # the five-book libraries: the same passages, cards and lessons
                questions = spread(load_questions(BENCH / book / "questions.jsonl"), args.questions)
                same = passages(teacher, ids[book], questions) == passages(student, ids[book], questions)
                chapters = chapters_of(teacher, ids[book])
                t_items, s_items = study_items(teacher, ids[book], chapters), study_items(student, ids[book], chapters)
                quiz_items = sum(len(q or ()) for q in t_items[2])
                rows[book].update(same_passages=rows[book]["same_passages"] and same, cards=len(t_items[0]),
                                  lessons=len(chapters), quiz_items=quiz_items, same_study=t_items == s_items)
                print(f"{book} in the five-book pack: passages identical {same}; {len(t_items[0])} cards, "
                      f"{len(chapters)} lessons, {quiz_items} quiz items identical {t_items == s_items}", flush=True)

    for book in scratch:  # 4. the same PDF from scratch, same embedding model
        with Library(args.out / f"scratch-{book}") as fresh:
            fresh.embedder.encode_query("warm up")  # the app loads the model at start
            result, secs = timed(lambda: fresh.import_book(BENCH / book / "book.pdf"))
            rows[book]["scratch_s"] = secs
            print(f"{book}: from the PDF in {secs:.1f} s ({result.status.value}); load {load()}", flush=True)

    print(f"\nload average at end: {load()}\n")
    print("| book | pages | PDF MB | pack MB | export s | import pack s | import PDF s | same passages "
          "| same study items |")
    print("|---|---|---|---|---|---|---|---|---|")
    for book, r in rows.items():
        print(f"| {book} | {r['pages']} | {r['pdf_mb']:.1f} | {r['pack_mb']:.1f} | {r['export_s']:.1f} | "
              f"{r['import_s']:.1f} | {r.get('scratch_s', float('nan')):.0f} | "
              f"{'yes' if r['same_passages'] else 'NO'} ({r['questions']} q) | "
              f"{'yes' if r['same_study'] else 'NO'} ({r['cards']} cards, {r['lessons']} lessons, "
              f"{r['quiz_items']} quiz items) |")
    total_scratch = sum(r.get("scratch_s", 0) for r in rows.values()) if len(scratch) == len(books) else None
    print(f"| all {len(books)}, one pack with study sets | {sum(r['pages'] for r in rows.values())} | "
          f"{sum(r['pdf_mb'] for r in rows.values()):.1f} | {summary.size / 1e6:.1f} | {export_all:.1f} | "
          f"{import_all:.1f} | {total_scratch if total_scratch is None else round(total_scratch)} | | doctor ok: "
          f"{doctor_ok} |")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "all": {"export_s": export_all, "import_s": import_all,
                                                               "pack_mb": summary.size / 1e6, "doctor_ok": doctor_ok},
                                         "load_end": load()}, indent=1))


if __name__ == "__main__":
    main()
