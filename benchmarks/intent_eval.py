"""Sanity check of query understanding on the shared benchmark's questions.

    .venv/bin/python benchmarks/intent_eval.py [psychology-2e chemistry-2e ...] [--samples N] [--repeat R]

For every question of each book's ``questions.jsonl`` this runs ``core.retrieval.plan.plan_query`` and prints:
  * the intent distribution per question type (qtype), as counts and percentages;
  * how many questions carried a scope, expansions or comparison facets;
  * planning time per question, p50/p95/max in microseconds (best of ``--repeat`` passes, so a
    cold regex cache or a scheduler hiccup does not count), against the 1 ms p50 budget;
  * ``--samples N`` example questions per (qtype, intent) cell, to eyeball misclassifications.
There is no gold intent in the benchmark: this is a distribution check and a crash/speed test.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.evaluation.retrieval import percentile  # noqa: E402
from core.retrieval.plan import Intent, plan_query  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"
BUDGET_P50_MS = 1.0
log = logging.getLogger("intent_eval")


def load(book: str) -> list[dict]:
    path = BENCH / book / "questions.jsonl"
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run(book: str, samples: int, repeat: int) -> tuple[bool, str]:
    records = load(book)
    by_type: dict[str, Counter] = defaultdict(Counter)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    scoped = expanded = faceted = 0
    best_ms = [float("inf")] * len(records)
    for _ in range(max(1, repeat)):
        for i, r in enumerate(records):
            t = time.perf_counter()
            plan = plan_query(r["question"])
            best_ms[i] = min(best_ms[i], (time.perf_counter() - t) * 1000)
    for r in records:
        plan = plan_query(r["question"])
        qtype = r.get("qtype") or "question"
        by_type[qtype][plan.intent] += 1
        by_type["all"][plan.intent] += 1
        scoped += not plan.scope.is_empty
        expanded += bool(plan.expansions)
        faceted += bool(plan.facets)
        cell = examples[(qtype, plan.intent.value)]
        if len(cell) < samples:
            cell.append(r["question"].replace("\n", " ")[:150])
    lines = [f"== {book}: {len(records)} questions"]
    intents = list(Intent)
    lines.append(f"{'qtype':22} {'n':>5} " + " ".join(f"{i.value[:10]:>11}" for i in intents))
    for qtype, counts in sorted(by_type.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        n = sum(counts.values())
        cells = " ".join(f"{counts[i]:5d} {100 * counts[i] / n:4.0f}%" for i in intents)
        lines.append(f"{qtype:22} {n:5d} {cells}")
    lat = sorted(best_ms)
    p50, p95 = percentile(lat, 50), percentile(lat, 95)
    lines.append(f"scope found: {scoped}  expansions: {expanded}  comparison facets: {faceted}")
    verdict = "OK" if p50 < BUDGET_P50_MS else "OVER"
    lines.append(f"plan_query latency: p50 {p50 * 1000:.0f} µs  p95 {p95 * 1000:.0f} µs  "
                 f"max {lat[-1] * 1000:.0f} µs (budget p50 < {BUDGET_P50_MS:.0f} ms: {verdict})")
    if samples:
        for (qtype, intent), qs in sorted(examples.items()):
            lines.append(f"  [{qtype} → {intent}]")
            lines.extend(f"    - {q}" for q in qs)
    return p50 < BUDGET_P50_MS, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("books", nargs="*", default=["psychology-2e", "chemistry-2e"])
    ap.add_argument("--samples", type=int, default=0, help="example questions printed per (qtype, intent)")
    ap.add_argument("--repeat", type=int, default=3, help="timing passes (the best per question is kept)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    ok = True
    for book in args.books:
        within, report = run(book, args.samples, args.repeat)
        ok &= within
        sys.stdout.write(report + "\n\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
