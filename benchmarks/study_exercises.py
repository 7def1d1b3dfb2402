"""Practice items Lantern finds in a book, per chapter, against the benchmark's exercise counts.

    .venv/bin/python benchmarks/study_exercises.py psychology-2e=/tmp/bench-psy chemistry-2e=/tmp/bench-chem

Each argument is BOOK=LIBRARY_DIR: a library that already holds the shared benchmark's book.pdf
(import it once with ``lantern --library DIR import .../book.pdf``).  Per chapter it prints:
  bench       end-of-section exercises in the benchmark's questions.jsonl
  in text     how many of those the imported book's text actually contains (first 60 characters of
              the question, normalised, found in the chapter's stitched chunk text)
  found       practice items ``core.study.practice.find_exercises`` returns (numbered exercises and
              "Check Your Learning"-style items), and how many carry the book's own answer
  matched     benchmark exercises whose text one found item contains (recall where the text exists)
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.library import Library  # noqa: E402
from core.study.practice import find_exercises  # noqa: E402
from core.study.text import loose, stitch  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"


def report(book: str, library: Path) -> dict:
    lib = Library(library)
    found_book = [b for b in lib.books() if b.title.lower().replace(" ", "-").startswith(book.split("-")[0])]
    if not found_book:
        raise SystemExit(f"{library} holds no book like {book}")
    b = found_book[0]
    t0 = time.perf_counter()
    chunks = lib.study_chunks(b.id)
    exercises = find_exercises(chunks)
    seconds = time.perf_counter() - t0
    questions = [json.loads(line) for line in (BENCH / book / "questions.jsonl").open(encoding="utf-8")]
    bench = Counter(str(q["chapter"]) for q in questions)
    text_by_chapter: dict[str, str] = defaultdict(str)
    for run in stitch(chunks):
        text_by_chapter[run.spans[0][1].chapter_number or "?"] += " " + loose(run.text)
    found = Counter(e.source.chapter or "?" for e in exercises)
    keyed = Counter(e.source.chapter or "?" for e in exercises if e.answer)
    kinds = Counter(e.kind.value for e in exercises)
    in_text, matched = Counter(), Counter()
    found_text = defaultdict(list)
    for e in exercises:
        found_text[e.source.chapter or "?"].append(loose(e.text))
    for q in questions:
        ch, probe = str(q["chapter"]), loose(q["question"])[:60]
        if probe and probe in text_by_chapter.get(ch, ""):
            in_text[ch] += 1
        if probe and any(probe in t for t in found_text.get(ch, ())):
            matched[ch] += 1
    chapters = sorted(set(bench) | set(found), key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c))
    print(f"\n== {book}: {b.title} ({len(chunks)} chunks; extraction {seconds * 1000:.0f} ms) ==")
    print(f"{'chapter':>7} {'bench':>6} {'in text':>8} {'found':>6} {'with key':>9} {'matched':>8}")
    for ch in chapters:
        print(f"{ch:>7} {bench[ch]:>6} {in_text[ch]:>8} {found[ch]:>6} {keyed[ch]:>9} {matched[ch]:>8}")
    print(f"{'total':>7} {sum(bench.values()):>6} {sum(in_text.values()):>8} {sum(found.values()):>6} "
          f"{sum(keyed.values()):>9} {sum(matched.values()):>8}")
    print(f"found by kind: {dict(kinds)}")
    lib.close()
    return {"book": book, "bench": sum(bench.values()), "in_text": sum(in_text.values()),
            "found": sum(found.values()), "with_key": sum(keyed.values()), "matched": sum(matched.values())}


def main(argv: list[str]) -> int:
    pairs = [a.split("=", 1) for a in argv] or [["psychology-2e", "/tmp/bench-psy"],
                                                ["chemistry-2e", "/tmp/bench-chem"]]
    for book, library in pairs:
        report(book, Path(library))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
