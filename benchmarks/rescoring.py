"""Does a re-ranking stage help?  Both dev books, the same run, baselines first.

    .venv/bin/python benchmarks/rescoring.py [--psy DIR] [--chem DIR] [--limit-chem 800] [--cross-encoder DIR]
                                             [--maxsim N]

Reuses already imported libraries (``--psy``/``--chem``, default /tmp/bench-psy, /tmp/bench-chem).
Variants of ``Library.find`` (question only, k = 10, Hit@k as ``lantern eval``):
  plan              find without re-ranking (the baseline)
  blend@N/w         ``SignalBlend`` without section signals: keyword and vector scores min-max fused over the top N
  blend+agreement   plus the share of the other top candidates from the same section (the previous default)
  blend+section signals (default)  plus the section centroid's cosine and the section's bm25 (weights .2)
  cross-encoder     ``CrossEncoderRescorer`` from ``--cross-encoder DIR`` (when given; random weights
                    give its latency only)
  maxsim            max cosine of the question with 2-sentence windows of each of the top 10 chunks
                    (bundled MiniLM), fused with the blend — on the first ``--maxsim N`` questions only
Prints one table per book, search latency p50/p95 per variant, and the load average.
"""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import dev_parser  # noqa: E402

from core.evaluation.retrieval import evaluate, format_table, load_questions  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import Hit  # noqa: E402
from core.retrieval.rescoring import CrossEncoderRescorer, SignalBlend, blend_scores
from core.retrieval.fusion import minmax  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\[(])")


class WindowMaxSim:
    """Max cosine of the question against each chunk's 2-sentence windows, averaged with the blend."""

    name = "maxsim"
    top_n = 10

    def __init__(self, embedder):
        self.embedder = embedder
        self.cache: dict[int, np.ndarray] = {}

    def scores(self, question: str, hits: Sequence[Hit]) -> Sequence[float]:
        todo = [h.chunk for h in hits if h.chunk.id not in self.cache]
        if todo:
            windows = []
            for c in todo:
                s = [x for x in _SPLIT.split(" ".join(c.text.split())) if x]
                windows.append([" ".join(s[i:i + 2]) for i in range(max(1, len(s) - 1))])
            vecs = self.embedder.encode([w for ws in windows for w in ws])
            pos = 0
            for c, ws in zip(todo, windows):
                self.cache[c.id] = vecs[pos:pos + len(ws)]
                pos += len(ws)
        q = self.embedder.encode_query(question)
        sim = [float((self.cache[h.chunk.id] @ q).max()) for h in hits]
        return 0.5 * minmax(sim) + 0.5 * blend_scores(hits)


def plain(**kw) -> SignalBlend:
    """The keyword/vector blend alone (no section signals), with ``kw`` changed."""
    return SignalBlend(**{"section_vector_weight": 0.0, "section_keyword_weight": 0.0, **kw})


def run_book(name: str, lib: Library, questions, variants: dict) -> None:
    book_id = lib.books()[0].id
    searchers = {label: (lambda q, r=r: lib.find(q, 10, book_id=book_id, reranker=r)) for label, r in variants.items()}
    res = evaluate(questions, searchers)
    print(format_table(res, f"== {name}: {len(questions)} questions, question only, k=10 =="))


def main() -> int:
    ap = dev_parser(__doc__)
    ap.add_argument("--cross-encoder", metavar="DIR")
    ap.add_argument("--top-n", type=int, default=10, help="cross-encoder candidates (default 10)")
    ap.add_argument("--max-length", type=int, default=128, help="cross-encoder tokens per pair (default 128)")
    ap.add_argument("--maxsim", type=int, default=0, metavar="N", help="also run maxsim on the first N questions")
    ap.add_argument("--no-grid", action="store_true", help="only plan vs the default blend")
    ap.add_argument("--section", action="store_true", help="also other weights of same-section agreement")
    ap.add_argument("--section-signals", action="store_true",
                    help="also other weights of the section centroid and section bm25 signals")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    books = (("psychology-2e", args.psy, args.limit_psy), ("chemistry-2e", args.chem, args.limit_chem))
    for name, folder, limit in books:
        lib = Library(Path(folder))
        questions = load_questions(BENCH / name / "questions.jsonl", limit)
        variants: dict = {"plan": None, "blend@10/.5": plain(), "blend+agreement.2": plain(section_weight=0.2),
                          "blend+section signals (default)": SignalBlend()}
        if args.section:
            variants.update({f"blend+agreement{w}": plain(section_weight=w) for w in (0.1, 0.4)})
        if args.section_signals:
            variants.update({f"blend+centroid{a}+section-bm25{b}": SignalBlend(section_vector_weight=a,
                                                                              section_keyword_weight=b)
                             for a, b in ((0.2, 0.0), (0.0, 0.2), (0.4, 0.2), (0.2, 0.4))})
        if not args.no_grid:
            variants.update({f"{label} (no section)": plain(**kw) for label, kw in (
                ("blend@20/.5", {"top_n": 20}), ("blend@10/.3", {"vector_weight": 0.3}),
                ("blend@10/.7", {"vector_weight": 0.7}), ("blend@5/.5", {"top_n": 5}))})
        if args.cross_encoder:
            variants["cross-encoder"] = CrossEncoderRescorer(args.cross_encoder, top_n=args.top_n,
                                                             max_length=args.max_length)
        run_book(name, lib, questions, variants)
        if args.maxsim:
            run_book(name + " (maxsim subset)", lib, questions[:args.maxsim],
                     {"plan": None, "blend@10/.5": plain(), "maxsim": WindowMaxSim(lib.embedder)})
        lib.close()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
