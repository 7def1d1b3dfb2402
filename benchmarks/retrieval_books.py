"""Retrieval on every dev book, every stage, one run: the default beside keyword-only and dense-only,
with the fusion weights (and Lantern's own cross-encoder) judged leave-one-book-out.

    .venv/bin/python benchmarks/retrieval_books.py --libs /work/libs [--rerankers /work/rr] [--fit]
                                                    [--limit 600] [--books ...]

``--libs DIR`` holds one library per dev book (``DIR/<book>``, see ``benchmarks/common.py``).
``--rerankers DIR`` holds the cross-encoders trained with one book left out
(``DIR/holdout-<book>``, ``packaging/train_reranker.py --holdout <book>``): a book's candidates are only
ever scored by the model that never saw it.  Stages (question only; Hit@k and MRR@10 as ``lantern eval``):

  keyword, vector, hybrid     FTS5 bm25, FAISS, and their reciprocal rank fusion (``Library.search``)
  hybrid+plan                 ``Library.find`` without re-scoring (planning, dedupe, diversity, roles)
  +blend                      the previous default re-scorer (``SignalBlend``: fixed weights)
  +learned                    ``LearnedBlend`` without the cross-encoder, weights fitted on the other books
  +learned+ce                 ``LearnedBlend`` with the held-out cross-encoder, weights fitted on the others

With ``--fit`` it prints the weights fitted on all books (what ``core.retrieval.learned_blend`` ships).
With ``--reach`` it first prints, per book, how often a gold chunk is among the keyword top k and the dense top k
together (k = 5, 10, 20, 50): the ceiling of any re-scorer that reorders that many candidates of each list, beside
the default's Hit@5.
Candidate features are cached in ``--cache`` so refits are instant.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library  # noqa: E402

from core.evaluation.answers import spread  # noqa: E402
from core.evaluation.retrieval import evaluate, format_table, is_gold, load_questions  # noqa: E402
from core.models import SearchMode  # noqa: E402
from core.retrieval.cross_encoder import OnnxCrossEncoder  # noqa: E402
from core.retrieval.learned_blend import FEATURES, LearnedBlend, candidate_features, fit_pairwise  # noqa: E402
from core.retrieval.rescoring import SignalBlend  # noqa: E402

TOP_N = 20


class Capture:
    """A re-scorer that records the candidates ``find`` hands it (with section signals) and keeps their order."""

    name = "capture"
    top_n = TOP_N
    uses_section_scores = True

    def __init__(self, cross_encoder: OnnxCrossEncoder | None):
        self.blend = LearnedBlend({}, cross_encoder)
        self.seen: list = []

    def scores(self, question, hits):
        self.seen = self.blend.with_cross_encoder_scores(question, hits)
        return [-i for i in range(len(hits))]


def collect(libs: Path, rerankers: Path | None, books: list[str], limit: int) -> dict:
    """Per book and question: candidate features, gold labels (for fitting)."""
    out = {}
    for book in books:
        lib = book_library(libs, book)
        book_id = lib.books()[0].id
        ce_dir = rerankers / f"holdout-{book}" if rerankers else None
        ce = OnnxCrossEncoder(ce_dir) if ce_dir and ce_dir.is_dir() else None
        cap = Capture(ce)
        rows = []
        for q in spread(load_questions(BENCH / book / "questions.jsonl"), limit):
            lib.find(q.text(), 10, book_id=book_id, reranker=cap)
            hits = cap.seen
            rows.append({"x": candidate_features(hits).tolist(),
                         "y": [int(is_gold(h.chunk, q)) for h in hits]})
        out[book] = rows
        print(f"{book}: {len(rows)} questions (cross-encoder: {ce_dir if ce else 'none'}; load "
              f"{os.getloadavg()[0]:.1f})", file=sys.stderr)
        lib.close()
    return out


def _libraries_state(libs: Path, books: list[str]) -> dict[str, str]:
    """What the cached features were collected from: each book's library path and chunk ids."""
    state = {}
    for book in books:
        lib = book_library(libs, book)
        count, top = lib.reader.execute("SELECT COUNT(*), MAX(id) FROM chunks").fetchone()
        state[book] = f"{(Path(libs) / book).resolve()}:{count}:{top}"
        lib.close()
    return state


def fit(data: dict, books: list[str], with_ce: bool) -> dict[str, float]:
    keep = [i for i, f in enumerate(FEATURES) if with_ce or f != "cross_encoder"]
    rows = [(np.array(r["x"])[:, keep], np.array(r["y"])) for b in books for r in data[b] if r["x"]]
    w = fit_pairwise(rows)
    return {FEATURES[i]: round(float(v), 3) for i, v in zip(keep, w)}


def stages(libs: Path, rerankers: Path | None, data: dict, books: list[str], limit: int) -> dict:
    results = {}
    for book in books:
        lib = book_library(libs, book)
        book_id = lib.books()[0].id
        others = [b for b in books if b != book]
        ce_dir = rerankers / f"holdout-{book}" if rerankers else None
        ce = OnnxCrossEncoder(ce_dir) if ce_dir and ce_dir.is_dir() else None
        learned = LearnedBlend(fit(data, others, False))
        searchers = {m.value: (lambda q, m=m: lib.search(q, 10, book_id=book_id, mode=m))
                     for m in (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID)}
        searchers["hybrid+plan"] = lambda q: lib.find(q, 10, book_id=book_id, reranker=None)
        searchers["+blend"] = lambda q: lib.find(q, 10, book_id=book_id, reranker=SignalBlend())
        searchers["+learned"] = lambda q: lib.find(q, 10, book_id=book_id, reranker=learned)
        if ce is not None:
            with_ce = LearnedBlend(fit(data, others, True), ce)
            searchers["+learned+ce"] = lambda q: lib.find(q, 10, book_id=book_id, reranker=with_ce)
        questions = spread(load_questions(BENCH / book / "questions.jsonl"), limit)
        t0 = time.perf_counter()
        results[book] = evaluate(questions, searchers)
        print(format_table(results[book], f"== {book} ({len(questions)} questions, {time.perf_counter() - t0:.0f} s, "
                                          f"load {os.getloadavg()[0]:.1f}) =="))
        lib.close()
    return results


def summary(results: dict) -> str:
    lines = ["| book | keyword | dense | hybrid (RRF) | +plan | +blend (previous) | +learned | +learned+ce | p50 ms |",
             "|---|---|---|---|---|---|---|---|---|"]
    for book, res in results.items():
        def cell(mode: str) -> str:
            a = res.get(mode, {}).get("all")
            return f"{a['hit@5']:.3f} / {a['mrr@10']:.3f}" if a else "—"
        last = "+learned+ce" if "+learned+ce" in res else "+learned"
        lines.append(f"| {book} | " + " | ".join(cell(m) for m in ("keyword", "vector", "hybrid", "hybrid+plan",
                                                                     "+blend", "+learned", "+learned+ce"))
                     + f" | {res[last]['latency_ms']['p50']:.0f} |")
    return "\n".join(lines)


REACH = (5, 10, 20, 50)


def reach(libs: Path, books: list[str], limit: int) -> str:
    """Per book: the share of questions with a gold chunk in keyword top k ∪ dense top k, for each k in ``REACH``,
    beside the default's Hit@5 on the same questions."""
    lines = ["| book | " + " | ".join(f"keyword ∪ dense top {k}" for k in REACH) + " | default Hit@5 |",
             "|---|" + "---|" * (len(REACH) + 1)]
    for book in books:
        lib = book_library(libs, book)
        book_id = lib.books()[0].id
        questions = spread(load_questions(BENCH / book / "questions.jsonl"), limit)
        found = dict.fromkeys(REACH, 0)
        default = 0
        for q in questions:
            lists = [lib.search(q.text(), max(REACH), book_id=book_id, mode=m)
                     for m in (SearchMode.KEYWORD, SearchMode.VECTOR)]
            for k in REACH:
                found[k] += any(is_gold(h.chunk, q) for hits in lists for h in hits[:k])
            default += any(is_gold(h.chunk, q) for h in lib.find(q.text(), 5, book_id=book_id))
        n = len(questions)
        lines.append(f"| {book} ({n}) | " + " | ".join(f"{found[k] / n:.3f}" for k in REACH) + f" | {default / n:.3f} |")
        lib.close()
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--rerankers", type=Path)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--limit", type=int, default=600)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/lantern-fusion-features.json"))
    ap.add_argument("--fit", action="store_true", help="also print the weights fitted on all books")
    ap.add_argument("--reach", action="store_true",
                    help="first print how often the gold is among the keyword and dense top k (a re-scorer's ceiling)")
    args = ap.parse_args()
    if args.reach:
        print("Gold among the keyword and dense candidates (question only):\n" + reach(args.libs, args.books, args.limit))
    made_from = _libraries_state(args.libs, args.books)
    data = json.loads(args.cache.read_text()) if args.cache.exists() else {}
    if data.get("made_from") != made_from:  # another library, or the same one re-imported: collect again
        data = collect(args.libs, args.rerankers, args.books, args.limit)
        data["made_from"] = made_from
        args.cache.write_text(json.dumps(data))
    if args.fit:
        print("WEIGHTS_WITHOUT_CROSS_ENCODER =", fit(data, args.books, False))
        print("WEIGHTS_WITH_CROSS_ENCODER =", fit(data, args.books, True))
    results = stages(args.libs, args.rerankers, data, args.books, args.limit)
    print("\nHit@5 / MRR@10, question only, leave one book out:\n" + summary(results))


if __name__ == "__main__":
    main()
