"""Figure and table questions: does Lantern find, and cite, the right figure or table?

    .venv/bin/python benchmarks/figures.py --libs /work/libs [--answers] [--model qwen2.5-coder-1.5b]

Questions: ``benchmarks/data/figure_questions.jsonl`` (24, written for the dev books and checked against
their PDFs: the page a caption or table title is printed on, and words from it a right answer needs).
A figure or table is "found" when a top-5 hit is a labelled chunk (``Chunk.label``) on the gold page whose
text holds the caption; with ``--answers`` it is "cited" when the tutor's answer cites that chunk, and
"answered" when the answer holds every answer term.  Beside the default search: keyword-only and dense-only
(the same labelled-chunk test on their top 5).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import DEV_BOOKS, book_library, load_jsonl  # noqa: E402

from core.models import Chunk, SearchMode  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "data" / "figure_questions.jsonl"


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[|\[\]]", " ", text).lower().split())


def is_gold(chunk: Chunk, q: dict) -> bool:
    """A figure's or table's own chunk, on the gold page, holding the caption."""
    return bool(chunk.label) and chunk.page_start <= q["page"] <= chunk.page_end \
        and _norm(q["caption"])[:40] in _norm(chunk.text)


def _has_terms(text: str, terms: list[str]) -> bool:
    flat = text.lower().replace("\u2013", "-").replace("\u2014", "-")
    return all(t.lower().replace("\u2013", "-") in flat for t in terms)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--answers", action="store_true", help="also ask the tutor (the chat model) every question")
    ap.add_argument("--model", default=None, help="chat model key (default: the configured one)")
    ap.add_argument("--out", type=Path, help="write every question's outcome here (JSON)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.figures  load {os.getloadavg()[0]:.1f}  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    questions = load_jsonl(QUESTIONS)
    tutor_model = None
    if args.answers:
        from core.llm.model import LocalModel
        from core.llm.settings import LLMSettings
        tutor_model = LocalModel(LLMSettings.from_env(model=args.model))
    rows: list[dict] = []
    for book in args.books:
        qs = [q for q in questions if q["book"] == book]
        if not qs:
            continue
        lib = book_library(args.libs, book)
        book_id = lib.books()[0].id
        labelled = lib.reader.execute("SELECT COUNT(*) FROM chunks WHERE label != ''").fetchone()[0]
        tutor = None
        if tutor_model is not None:
            from core.answer.tutor import Tutor
            from core.evaluation.answers import ask_once
            tutor = Tutor(lib, tutor_model)
        for q in qs:
            row = {"book": book, "kind": q["kind"], "question": q["question"], "page": q["page"]}
            row["default"] = any(is_gold(h.chunk, q) for h in lib.find(q["question"], k=5, book_id=book_id))
            for mode in (SearchMode.KEYWORD, SearchMode.VECTOR):
                hits = lib.search(q["question"], 5, book_id=book_id, mode=mode)
                row[mode.value] = any(is_gold(h.chunk, q) for h in hits)
            if tutor is not None:
                answer, _ = ask_once(tutor, q["question"], book_id=book_id)
                cited = lib.chunks([c.chunk_id for c in answer.citations]).values()
                row["cited"] = any(is_gold(ch, q) for ch in cited)
                row["answered"] = not answer.refused and _has_terms(answer.text, q["answer_terms"])
                row["labels"] = [c.label for c in answer.citations]
                row["total_ms"] = answer.timings.get("total_ms")
            rows.append(row)
        lib.close()
        _print_book(book, [r for r in rows if r["book"] == book], labelled)
    _print_book("all", rows, None)
    if args.out:
        args.out.write_text(json.dumps({"load": os.getloadavg(), "rows": rows}, indent=1), encoding="utf-8")
    print(f"load {os.getloadavg()[0]:.1f}", flush=True)


def _print_book(book: str, rows: list[dict], labelled: int | None) -> None:
    def rate(key: str) -> str:
        vals = [r[key] for r in rows if key in r]
        return f"{sum(vals) / len(vals):.2f}" if vals else "-"
    extra = f"  labelled chunks {labelled}" if labelled is not None else ""
    print(f"{book:24} n={len(rows):2}  found@5 default {rate('default')}  keyword {rate('keyword')}  "
          f"dense {rate('vector')}  cited {rate('cited')}  answered {rate('answered')}{extra}", flush=True)


if __name__ == "__main__":
    main()
