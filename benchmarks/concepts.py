"""Concepts first: how many of a chapter's key terms the study tools cover, with and without the glossary.

The gold is the chapter's own "Key Terms" lists in the bench's ``book.md`` (``- **term**: definition``).
For each book, two chapters spread over it (at a third and two thirds of its chapter list, ``--at``; no choosing):

* **with glossary** — the chapter's chunks as imported from ``book.pdf``;
* **glossary cut** — the same chunks with every glossary line ("- term: definition" after "Key Terms")
  removed and the key terms those lines gave dropped, as if the book had no key-terms lists: the
  concepts must then be found in the running text alone.

A key term is covered when a card's front, or a quiz item's keyed answer, names it (case, plural and a
parenthesised abbreviation aside).  The quiz is made without a model (its items are keyed to the same
ranked concepts the model would be asked about), ``-n`` items.  The baseline in the same run is the
chapter's terms as the lesson ranked them before concepts (``term_pool``: emphasis, repetition,
keyphrases), cut to the number of cards.  Books without key-terms lists (the Rust book) are reported
as such.

    .venv/bin/python benchmarks/concepts.py --libs /work/libs --bench ../shared/bench
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.library import Library  # noqa: E402
from core.models import ChunkRole  # noqa: E402
from core.study.lesson import book_chapters, build_lesson  # noqa: E402
from core.study.lesson_cards import lesson_cards  # noqa: E402
from core.study.quizgen import lesson_quiz  # noqa: E402
from core.study.statements import term_pool  # noqa: E402

log = logging.getLogger("concepts")
BOOKS = ("psychology-2e", "chemistry-2e", "american-government-4e", "astronomy-2e", "rust-book")
_GLOSSARY_LINE = re.compile(r"^\s*[-*•]\s*\**([^:*\n]{1,80}?)\**\s*:\s+\S")


def gold_terms(book_md: Path) -> dict[str, list[str]]:
    """Chapter number -> the terms of its "Key Terms" lists, in the book's order."""
    out: dict[str, list[str]] = {}
    chapter, in_terms = None, False
    for line in book_md.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^# Chapter (\w+):", line)
        if m:
            chapter, in_terms = m.group(1), False
            continue
        if line.startswith("#"):
            in_terms = "key terms" in line.lower()
            continue
        g = _GLOSSARY_LINE.match(line) if in_terms and chapter else None
        if g:
            out.setdefault(chapter, []).append(g.group(1).strip())
    return out


def _norm(term: str) -> set[str]:
    """The forms a term goes by: lower case, singular, with and without a parenthesised abbreviation."""
    t = term.lower().replace("’", "'").strip(" .`")
    forms = {t, re.sub(r"\s*\([^)]*\)", "", t).strip()}
    forms |= {m.lower() for m in re.findall(r"\(([^)]{2,12})\)", term) if m.isupper()}
    forms = {re.sub(r"\s+", " ", f) for f in forms if f}
    return {re.sub(rf"(?<=[a-z]{{3}}){end}\b", "", f) for f in forms for end in ("s", "es")}  # crimes, boxes


def covered(gold: list[str], names: list[str]) -> list[str]:
    """The gold terms some name names."""
    have = set().union(*(_norm(n) for n in names)) if names else set()
    return [g for g in gold if _norm(g) & have]


def cut_glossary(chunks):
    """The chunks as if the book printed no key-terms lists (see the module docstring)."""
    out = []
    for c in chunks:
        lines = c.text.splitlines()
        glossary = [ln for ln in lines if _GLOSSARY_LINE.match(ln)]
        if not glossary and c.role is not ChunkRole.GLOSSARY:
            out.append(c)
            continue
        dropped = {_GLOSSARY_LINE.match(ln).group(1).strip().lower() for ln in glossary}
        kept = [ln for ln in lines if not _GLOSSARY_LINE.match(ln) and ln.strip().lower() not in
                {"key terms", "glossary"}]
        text = "\n".join(kept).strip()
        if len(text) < 40:
            continue
        out.append(dataclasses.replace(c, text=text, role=ChunkRole.CONCEPT,
                                       key_terms=tuple(t for t in c.key_terms if t.lower() not in dropped)))
    return out


def measure(chunks, book_chunks, book_id: str, chapter: str, gold: list[str], n: int) -> dict:
    lesson = build_lesson(book_id, chapter, chunks, book_chunks=book_chunks)
    cards = [c.front for c in lesson_cards(lesson)]
    quiz = [q.answer for q in lesson_quiz(lesson, n).questions]
    baseline = term_pool(chunks)[:len(cards)]
    return {"gold": len(gold), "cards": len(cards), "quiz": len(quiz),
            "by_cards": len(covered(gold, cards)), "by_quiz": len(covered(gold, quiz)),
            "both": len(covered(gold, cards + quiz)), "baseline": len(covered(gold, baseline)),
            "missed": [g for g in gold if g not in covered(gold, cards + quiz)]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", default="/work/libs")
    ap.add_argument("--bench", default=str(Path(__file__).resolve().parents[2] / "shared" / "bench"))
    ap.add_argument("--books", default=",".join(BOOKS))
    ap.add_argument("-n", type=int, default=10, help="quiz items per chapter")
    ap.add_argument("--dump", help="write the missed terms per chapter to this JSON file")
    ap.add_argument("--at", default="1/3,2/3",
                    help="where in each book's chapter list to take the chapters (other chapters: e.g. 1/4,3/4)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    rows, dump = [], []
    for name in [b for b in args.books.split(",") if b]:
        gold = gold_terms(Path(args.bench) / name / "book.md")
        with Library(Path(args.libs) / name) as lib:
            book = lib.books()[0]
            chapters = book_chapters(lib, book.id)
            picks = [chapters[len(chapters) * int(a) // int(b)] for a, b in (f.split("/") for f in args.at.split(","))]
            whole = lib.study_chunks(book.id)
            cut = cut_glossary(whole)
            for chapter in picks:
                chunks = lib.study_chunks(book.id, chapter=chapter)
                terms = gold.get(chapter, [])
                if not terms:
                    rows.append({"book": name, "chapter": chapter, "mode": "no key-terms list"})
                    continue
                for mode, cs, bs in (("with glossary", chunks, whole), ("glossary cut", cut_glossary(chunks), cut)):
                    row = {"book": name, "chapter": chapter, "mode": mode,
                           **measure(cs, bs, book.id, chapter, terms, args.n)}
                    rows.append(row)
                    dump.append(row)
                    print(json.dumps({k: v for k, v in row.items() if k != "missed"}), file=sys.stderr, flush=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; quiz -n {args.n} without a model\n")
    print("| book | ch. | glossary | key terms | cards | covered by cards | by quiz | by both | baseline: emphasised and repeated terms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "gold" not in r:
            print(f"| {r['book']} | {r['chapter']} | {r['mode']} | – | – | – | – | – | – |")
            continue
        g = r["gold"]
        print(f"| {r['book']} | {r['chapter']} | {r['mode']} | {g} | {r['cards']} | {r['by_cards'] / g:.2f} | "
              f"{r['by_quiz'] / g:.2f} | **{r['both'] / g:.2f}** | {r['baseline'] / g:.2f} |")
    for mode in ("with glossary", "glossary cut"):
        sel = [r for r in rows if r.get("mode") == mode]
        if sel:
            print(f"\n{mode}: mean coverage by cards and quiz {sum(r['both'] / r['gold'] for r in sel) / len(sel):.2f}"
                  f" (baseline {sum(r['baseline'] / r['gold'] for r in sel) / len(sel):.2f}) over {len(sel)} chapters")
    if args.dump:
        Path(args.dump).write_text(json.dumps(dump, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
