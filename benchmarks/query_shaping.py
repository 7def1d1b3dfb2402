"""What query planning and candidate shaping do to retrieval on the shared benchmark.

    .venv/bin/python benchmarks/query_shaping.py psychology-2e --library DIR [--limit N] [--mode hybrid]

Imports the book into ``--library`` if it is not there yet (≈8 min for a 500-page book on 2 cores;
reuse the folder afterwards).  Same questions, same gold, same Hit@k as ``lantern eval``:
  question       Library.search(question) — today's behaviour, the baseline
  plan           Library.search(plan.search_text) with the plan's chapter filter and section check
  plan+div2      ... then dedupe_overlapping and diversify(max 2 per section)
  select         core.retrieval.selection.select_hits: plan+div2, role-filtered top-ups, apply_roles (the proposal)
  select+facets  select_hits(use_facets=True): comparison facets searched too and fused with RRF
Prints tables by question type and by detected intent, plus shaping latency.  Role quotas only act
where the book's chunks carry those roles; the counts per role are printed first.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.evaluation.retrieval import evaluate, format_table, load_questions, percentile  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import Hit, SearchMode  # noqa: E402
from core.retrieval.selection import dedupe_overlapping, diversify, select_hits
from core.retrieval.plan import plan_query  # noqa: E402
from core.retrieval.retriever import SearchFilter  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book", nargs="?", default="psychology-2e")
    ap.add_argument("--library", required=True, help="library folder (the book is imported if missing)")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--mode", default="hybrid", choices=[m.value for m in SearchMode])
    ap.add_argument("-k", type=int, default=10)
    args = ap.parse_args()
    mode = SearchMode(args.mode)
    lib = Library(args.library)
    result = lib.import_book(BENCH / args.book / "book.pdf")  # a duplicate when already imported
    book_id = result.book.id
    roles = Counter(r[0] for r in lib.db.execute("SELECT role FROM chunks WHERE book_id = ?", [book_id]))
    print(f"{args.book}: {sum(roles.values())} chunks, roles {dict(roles.most_common())}")
    questions = load_questions(BENCH / args.book / "questions.jsonl", args.limit)
    k, n = args.k, max(40, 4 * args.k)
    shape_ms: list[float] = []

    def bound(plan):
        def search(text: str, count: int, role_values: tuple[str, ...]) -> list[Hit]:
            flt = SearchFilter(book_id=book_id, chapters=plan.scope.chapter_filter(), roles=role_values)
            return lib.retriever.search(text, count, flt, mode)
        return search

    def plain(q: str) -> list[Hit]:
        return lib.search(q, k, book_id=book_id, mode=mode)

    def planned(q: str, diversified: bool = False) -> list[Hit]:
        plan = plan_query(q)
        hits = [h for h in bound(plan)(plan.search_text, n, ()) if plan.scope.matches(h.chunk)]
        if diversified:
            t = time.perf_counter()
            hits = diversify(dedupe_overlapping(hits), 2)
            shape_ms.append((time.perf_counter() - t) * 1000)
        return hits[:k]

    def selected(q: str, use_facets: bool = False) -> list[Hit]:
        plan = plan_query(q)
        return select_hits(plan, bound(plan), k, candidates=n, use_facets=use_facets)

    searchers = {"question": plain, "plan": planned, "plan+div2": lambda q: planned(q, True),
                 "select": selected, "select+facets": lambda q: selected(q, True)}
    by_type = evaluate(questions, searchers)
    print(format_table(by_type, f"== {args.book}: by question type ({len(questions)} questions, {mode.value}) =="))
    by_intent = [dataclasses.replace(q, qtype=plan_query(q.question).intent.value) for q in questions]
    res = evaluate(by_intent, {name: searchers[name] for name in ("question", "plan+div2", "select")})
    print(format_table(res, f"== {args.book}: by detected intent =="))
    lat = sorted(shape_ms)
    print(f"dedupe+diversify over {n} candidates: p50 {percentile(lat, 50):.2f} ms, p95 {percentile(lat, 95):.2f} ms")
    lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
