"""FTS5 (Lantern's keyword index) vs rank_bm25 (the seeds' approach) at ~50k chunks, same queries.

    .venv/bin/python benchmarks/keyword_scale.py LIBRARY_DIR [--target 50000] [--queries 100]

Takes the chunks of an existing library (e.g. one made by benchmarks/retrieval.py), repeats them with
distinct ids up to --target chunks, builds both indexes and times OR-queries made from the shared
benchmark's questions.  Prints p50/p95 per engine, the speed ratio, and rank_bm25's memory growth.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from core.index.fts import fts_match_expression, query_terms  # noqa: E402

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("--target", type=int, default=50_000)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    src = sqlite3.connect(Path(args.library) / "lantern.db")
    rows = src.execute("SELECT titles, key_terms, text FROM chunks").fetchall()
    reps = -(-args.target // len(rows))
    corpus = (rows * reps)[: args.target]
    questions = [json.loads(line)["question"] for line in
                 open(REPO.parent / "shared/bench/psychology-2e/questions.jsonl", encoding="utf-8")][: args.queries]

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE f USING fts5(titles, key_terms, text, "
               "tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO f VALUES (?,?,?)", corpus)
    fts_ms = []
    for q in questions:
        t = time.perf_counter()
        db.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f, 3.0, 2.0, 1.0) LIMIT 50",
                   [fts_match_expression(q)]).fetchall()
        fts_ms.append((time.perf_counter() - t) * 1000)

    from rank_bm25 import BM25Okapi

    rss0 = psutil.Process().memory_info().rss
    bm25 = BM25Okapi([_WORD.findall(f"{a} {b} {c}".lower()) for a, b, c in corpus])
    rss1 = psutil.Process().memory_info().rss
    bm_ms = []
    for q in questions:
        t = time.perf_counter()
        np.argsort(-bm25.get_scores(query_terms(q)))[:50]
        bm_ms.append((time.perf_counter() - t) * 1000)

    def p(v, pct):
        return sorted(v)[min(len(v) - 1, int(pct / 100 * len(v)))]
    print(f"{len(corpus)} chunks, {len(questions)} queries")
    print(f"FTS5      p50 {statistics.median(fts_ms):7.1f} ms  p95 {p(fts_ms, 95):7.1f} ms")
    print(f"rank_bm25 p50 {statistics.median(bm_ms):7.1f} ms  p95 {p(bm_ms, 95):7.1f} ms  "
          f"(+{(rss1 - rss0) / 2**20:.0f} MiB RSS to build)")
    print(f"FTS5 is {statistics.median(bm_ms) / statistics.median(fts_ms):.1f}x faster at p50")
    return 0


if __name__ == "__main__":
    sys.exit(main())
