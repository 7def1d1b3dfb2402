"""Does the book answer this?  Fit and check the tutor's "not in your book" decision on every dev book,
leaving one book out.

    .venv/bin/python benchmarks/coverage.py --libs /work/libs [--books psychology-2e ...] [--limit 300] [--fit]

``--libs DIR`` holds one library per dev book, named after its folder in ../shared/bench
(``lantern --library DIR/<book> import ../shared/bench/<book>/book.pdf``).  For each book, asked of its
own library exactly as ``Tutor.retrieve`` asks (``Library.find`` with the tutor's k, then
``core.retrieval.coverage`` and ``core.retrieval.mentions``):

* in-book: the book's own gold questions (``--limit``, spread over the book);
* near-domain off-book: ``benchmarks/data/offbook/<book>.jsonl`` (same field, not in the book);
* other books: 60 questions of each other dev book; generic: ``benchmarks/data/offbook_questions.jsonl``;
* paraphrased (students' own words, ``benchmarks/data/paraphrased``): the keyed questions reworded (in-book) and
  the near-domain ones reworded; the fit must keep both in-book sets under 5 % declined on every training book.

The decision declines when the coverage score is below ``threshold``, or when a short, one-sentence
question names a specific term the book never mentions (``coverage.topic_terms``; no fitted parameter).
``--fit`` chooses the logistic weights (classes balanced) and ``threshold`` on all books but one and
reports the one left out, for each book in turn, then fits the shipped default on all books.  Without ``--fit`` it reports the
shipped constants of ``core.retrieval.coverage``.  Features are cached in ``--cache`` (JSON) so refits
are instant.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library, load_jsonl  # noqa: E402

from core.answer.followup import rewrite_followup  # noqa: E402
from core.answer.preparation import AnswerSettings
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.answers import spread  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.retrieval import coverage  # noqa: E402

GENERIC = REPO / "benchmarks" / "data" / "offbook_questions.jsonl"
OFFBOOK = REPO / "benchmarks" / "data" / "offbook"
FEATURES = ("vector_max", "vector_mean", "term_coverage")
SETS = ("in_book", "in_book_paraphrased", "near_domain", "near_domain_paraphrased", "other_books", "generic")
IN_BOOK_SETS = ("in_book", "in_book_paraphrased")
PARAPHRASED = REPO / "benchmarks" / "data" / "paraphrased"
MAX_IN_BOOK_DECLINED = 0.05


class _NoModel:
    """Retrieval and the verdict need no chat model."""

    def close(self) -> None:
        pass


def features(tutor: Tutor, book_id: str, question: str) -> dict:
    """What ``Tutor.retrieve`` computes for a first question: the coverage signals, with what the book never
    mentions (``core.retrieval.mentions.absence``)."""
    query = rewrite_followup(question, None).text
    hits, verdict, _ = tutor._retrieve(query, book_id, (), None)
    missing = tutor.absence(query, book_id=book_id)
    sig = verdict.signals
    return {"q": question, "hits": len(hits), **asdict(sig), "named": list(missing.named),
            "absent_named": [[t.text, t.kind] for t in missing.terms],
            "topic": list(coverage.topic_terms(query, missing))}


def collect(libs: Path, books: list[str], limit: int, others_each: int = 60) -> dict:
    out = {}
    for book in books:
        lib = book_library(libs, book)
        tutor = Tutor(lib, model=_NoModel(), settings=AnswerSettings())
        book_id = lib.books()[0].id
        others = [q.text() for other in books if other != book
                  for q in spread(load_questions(BENCH / other / "questions.jsonl"), others_each)]
        asked = {"in_book": [q.text() for q in spread(load_questions(BENCH / book / "questions.jsonl"), limit)],
                 "in_book_paraphrased": _questions(PARAPHRASED / f"{book}.jsonl"),
                 "near_domain": [r["question"] for r in load_jsonl(OFFBOOK / f"{book}.jsonl")],
                 "near_domain_paraphrased": _questions(PARAPHRASED / f"offbook-{book}.jsonl"),
                 "other_books": others, "generic": [r["question"] for r in load_jsonl(GENERIC)]}
        out[book] = {name: [features(tutor, book_id, q) for q in qs] for name, qs in asked.items()}
        print(f"{book}: features of {sum(map(len, asked.values()))} questions  (load {os.getloadavg()[0]:.1f})",
              file=sys.stderr)
        lib.close()
    return out


def _questions(path: Path) -> list[str]:
    return [r["question"] for r in load_jsonl(path)] if path.exists() else []


INPUTS = ("vector_max", "vector_mean", "named_absent", "rare_word_absent", "word_absent", "phrase_absent_share")
EVIDENCE_INPUTS = INPUTS + ("evidence_best", "evidence_top", "evidence_terms")


def scores(rows: list[dict], weights: dict[str, float], bias: float) -> np.ndarray:
    z = bias + sum(w * np.array([r[f] for r in rows]) for f, w in weights.items())
    return 1 / (1 + np.exp(-np.clip(z, -60, 60)))


def declined(rows: list[dict], weights: dict, bias: float, threshold: float) -> np.ndarray:
    """The shipped decision: a score below ``threshold``, or a short question about a term the book never
    mentions (``coverage.topic_terms``)."""
    topic = np.array([bool(r.get("topic")) for r in rows])
    return (scores(rows, weights, bias) < threshold) | topic


def rates(data: dict, book: str, params: tuple) -> dict:
    return {name: round(float(declined(data[book][name], *params).mean()), 3) for name in SETS if data[book][name]}


def fit_logistic(rows_in: list[dict], rows_near: list[dict], rows_far: list[dict], inputs: tuple[str, ...],
                 l2: float = 0.1) -> tuple[dict, float]:
    """Weighted logistic regression: in-book (half the weight) against near-domain (a third) and other
    books' questions (a sixth) — the near-domain ones are what the decision is for."""
    x = np.array([[r[f] for f in inputs] for r in rows_in + rows_near + rows_far])
    y = np.array([1.0] * len(rows_in) + [0.0] * (len(rows_near) + len(rows_far)))
    w = np.concatenate([np.full(len(rows_in), 0.5 / len(rows_in)), np.full(len(rows_near), 1 / 3 / len(rows_near)),
                        np.full(len(rows_far), 1 / 6 / len(rows_far))]) * len(y)
    xb = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(xb.shape[1])
    reg = np.eye(xb.shape[1]) * l2
    reg[0, 0] = 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(xb @ beta, -60, 60)))
        step = np.linalg.solve((xb * (w * p * (1 - p))[:, None]).T @ xb + reg, xb.T @ (w * (p - y)) + reg @ beta)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return {f: float(b) for f, b in zip(inputs, beta[1:])}, float(beta[0])


def fit(data: dict, books: list[str], inputs: tuple[str, ...] = INPUTS) -> tuple:
    """Weights, then the threshold that declines most near-domain questions while no training book
    declines more than 5 % of its in-book questions."""
    weights, bias = fit_logistic([r for b in books for r in data[b]["in_book"]],
                                 [r for b in books for r in data[b]["near_domain"]],
                                 [r for b in books for r in data[b]["other_books"] + data[b]["generic"]], inputs)
    best = (weights, bias, 0.0)
    for threshold in np.arange(0.01, 0.99, 0.005):
        params = (weights, bias, float(threshold))
        if max(rates(data, b, params).get(name, 0.0) for b in books for name in IN_BOOK_SETS) > MAX_IN_BOOK_DECLINED:
            break
        best = params
    return best


def table(data: dict, per_book: dict) -> str:
    head = ("in-book declined", "paraphrased", "near-domain declined", "paraphrased", "other books", "generic")
    lines = [f"{'book':24} " + " ".join(f"{h:>20}" for h in head)]
    for book, params in per_book.items():
        r = rates(data, book, params)
        lines.append(f"{book:24} " + " ".join(f"{r[n]:20.3f}" if n in r else f"{'—':>20}" for n in SETS))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--limit", type=int, default=300, help="in-book questions per book")
    ap.add_argument("--others", type=int, default=60, help="questions of each other dev book")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/lantern-coverage-features.json"))
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--evidence", action="store_true", help="the shipped fit uses the evidence signals too")
    args = ap.parse_args()
    if args.cache.exists():
        data = json.loads(args.cache.read_text())
    else:
        data = collect(args.libs, args.books, args.limit, args.others)
        args.cache.write_text(json.dumps(data))
    shipped = (dict(coverage.WEIGHTS), coverage.BIAS, coverage.DEFAULT_THRESHOLD)
    print("== shipped constants ==")
    print(table(data, {b: shipped for b in args.books}))
    if not args.fit:
        return
    for label, inputs in (("retrieval signals only", FEATURES), ("with what the book never mentions", INPUTS),
                          ("with the evidence sentences too", EVIDENCE_INPUTS)):
        print(f"\n== {label}: leave one book out (fitted on the other books, reported on this one) ==")
        print(table(data, {b: fit(data, [o for o in args.books if o != b], inputs) for b in args.books}))
    weights, bias, threshold = fit(data, args.books, EVIDENCE_INPUTS if args.evidence else INPUTS)
    print(f"\nfitted on all books: WEIGHTS = {json.dumps({k: round(v, 2) for k, v in weights.items()})}, "
          f"BIAS = {bias:.2f}, DEFAULT_THRESHOLD = {threshold:.3f}")
    print(table(data, {b: (weights, bias, threshold) for b in args.books}))


if __name__ == "__main__":
    main()
