"""Calibrate and check the coverage signal ("is this answered in the book?") on both dev books.

    .venv/bin/python benchmarks/coverage.py [--psy DIR] [--chem DIR] [--limit-chem 800] [--fit]

In-book questions: each book's own questions asked of its own library.  Off-book: the other book's
questions asked of this library, and the generic questions of ``benchmarks/data/offbook_questions.jsonl``
("Who won the 2018 World Cup?") asked of both.  Hits come from ``Library.find`` (default re-ranker;
k = 10 unless ``-k`` says otherwise), as the answer step gets them.

Prints, per book and question set, how many questions are flagged (score < threshold) at
``core.retrieval.coverage.DEFAULT_THRESHOLD`` and nearby thresholds, and precision/recall of "flagged" as a
detector of off-book questions at the chosen threshold.  With ``--fit`` it first re-fits the
logistic weights on this run (classes balanced, generic questions weighted ×10, L2 1/C = 0.1) and
prints them beside the ones in ``core/retrieval/coverage.py``; the rates are then shown for both.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import dev_parser  # noqa: E402

from core.retrieval import coverage  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.library import Library  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"
GENERIC = REPO / "benchmarks" / "data" / "offbook_questions.jsonl"
FEATURES = tuple(coverage.WEIGHTS)


def generic_questions() -> list[str]:
    with open(GENERIC, encoding="utf-8") as fh:
        return [json.loads(line)["question"] for line in fh if line.strip()]


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 0.1, steps: int = 50) -> np.ndarray:
    """Weighted L2-regularised logistic regression by Newton's method; returns [bias, *weights]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(xb.shape[1])
    reg = np.eye(xb.shape[1]) * l2
    reg[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ beta, -60, 60)))
        grad = xb.T @ (w * (p - y)) + reg @ beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + reg
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def main() -> int:
    ap = dev_parser(__doc__)
    ap.add_argument("--fit", action="store_true", help="re-fit the weights on this run and show both")
    ap.add_argument("-k", type=int, default=10, help="passages retrieved per question (the answer step asks for 4)")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; k = {args.k}")
    books = {"psychology-2e": (args.psy, args.limit_psy), "chemistry-2e": (args.chem, args.limit_chem)}
    asked = {name: [q.question for q in load_questions(BENCH / name / "questions.jsonl", limit)]
             for name, (_, limit) in books.items()}
    generic = generic_questions()
    # (library book, question set) -> (signals per question, label 1 = in-book)
    rows: dict[tuple[str, str], list[coverage.CoverageSignals]] = {}
    for name, (folder, _) in books.items():
        other = next(n for n in books if n != name)
        with Library(Path(folder)) as lib:
            for label, qs in (("in-book", asked[name]), (f"off-book: {other}", asked[other]),
                              ("off-book: generic", generic)):
                rows[(name, label)] = [coverage.signals(q, lib.find(q, args.k)) for q in qs]
                print(f"  {name} / {label}: {len(qs)} questions", file=sys.stderr)

    weights = {"core/retrieval/coverage.py": (coverage.BIAS, dict(coverage.WEIGHTS))}
    if args.fit:
        x, y, w = [], [], []
        for (name, label), sigs in rows.items():
            for s in sigs:
                x.append([getattr(s, f) for f in FEATURES])
                y.append(1.0 if label == "in-book" else 0.0)
                w.append(10.0 if label.endswith("generic") else 1.0)
        x, y, w = np.array(x), np.array(y), np.array(w)
        w[y == 1] *= w[y == 0].sum() / w[y == 1].sum()  # balance the classes
        beta = fit_logistic(x, y, w)
        weights["refit (this run)"] = (float(beta[0]), dict(zip(FEATURES, map(float, beta[1:]))))
    for tag, (bias, wts) in weights.items():
        print(f"\n== weights: {tag}: bias {bias:.2f}, " + ", ".join(f"{k} {v:.2f}" for k, v in wts.items()) + " ==")

        def score(sig: coverage.CoverageSignals) -> float:
            z = bias + sum(v * getattr(sig, k) for k, v in wts.items())
            return 1.0 / (1.0 + np.exp(-np.clip(z, -60, 60)))

        thresholds = sorted({0.3, 0.4, 0.5, 0.6, coverage.DEFAULT_THRESHOLD})
        header = " ".join(f"{'<' + format(t, '.2f'):>7}" for t in thresholds)
        print(f"{'library':15} {'questions':28} {'n':>5} {header}")
        for (name, label), sigs in rows.items():
            s = np.array([score(x) for x in sigs])
            print(f"{name:15} {label:28} {len(s):5d} " + " ".join(f"{np.mean(s < t):7.3f}" for t in thresholds))
        t = coverage.DEFAULT_THRESHOLD
        print(f"flagged = score < {t:.2f} (core.retrieval.coverage.DEFAULT_THRESHOLD) as a detector of off-book questions:")
        for name in books:
            flagged_in = int(np.sum(np.array([score(x) for x in rows[(name, "in-book")]]) < t))
            off = [score(x) for (b, label), sigs in rows.items() if b == name and label != "in-book" for x in sigs]
            flagged_off = int(np.sum(np.array(off) < t))
            n_in = len(rows[(name, "in-book")])
            precision = flagged_off / max(1, flagged_off + flagged_in)
            recall = flagged_off / max(1, len(off))
            print(f"  {name}: precision {precision:.3f}, recall {recall:.3f} (off-book flagged {flagged_off}/"
                  f"{len(off)}; in-book flagged {flagged_in}/{n_in} = {flagged_in / max(1, n_in):.3f})")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
