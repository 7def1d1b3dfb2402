"""Is the answer key in what the model reads?  Evidence sentences beside today's passages, every keyed book.

    .venv/bin/python benchmarks/evidence.py --libs /work/libs [--books ...] [--model qwen2.5-coder-1.5b]
                                            [--paraphrased] [--out evidence.json]

For each keyed question (``benchmarks/data/answer_keys``; with ``--paraphrased`` also the student-worded
versions in ``benchmarks/data/paraphrased``) the question is retrieved as ``Tutor.ask`` retrieves it, then
both readers prepare what the model would read, counted with the model's own tokenizer (no generation):

* ``passages``: today's numbered passages (``AnswerSettings(reader="passages")``);
* ``evidence``: the numbered evidence sentences (``core.answer.evidence``).

Printed per book: the share of questions whose every key term lies in what the model reads, the mean tokens
it reads, and the time to prepare it (retrieval excluded; the evidence reader embeds its candidates).  With
``--budgets 180 220`` the evidence reader is also measured at those token budgets
(``AnswerSettings.evidence_tokens``; the app's is the plain "evidence" column), on the same retrieval.
"""
from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, book_library, load, load_jsonl  # noqa: E402

from core.answer.preparation import AnswerSettings, prepare  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.keys import key_term_recall, load_keys  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402

DATA = REPO / "benchmarks" / "data"
KEYED_BOOKS = ("psychology-2e", "chemistry-2e", "american-government-4e", "rust-book")



def keyed(book: str, paraphrased: bool) -> list[tuple[str, str, tuple]]:
    """(qid, question text, key terms) of the book's keyed questions (or their paraphrases)."""
    keys = load_keys(DATA / "answer_keys" / f"{book}.jsonl")
    questions = {q.qid: q for q in load_questions(BENCH / book / "questions.jsonl")}
    if paraphrased:
        path = DATA / "paraphrased" / f"{book}.jsonl"
        rows = load_jsonl(path) if path.exists() else []
        return [(r["qid"], r["question"], keys[r["qid"]].key_terms) for r in rows if r["qid"] in keys]
    return [(qid, questions[qid].text(), k.key_terms) for qid, k in keys.items() if qid in questions]


def measure(tutor: Tutor, book_id: str, items: list, rows: list, book: str, kind: str,
            budgets: tuple[int, ...] = ()) -> dict:
    base = tutor.settings
    settings = {"passages": replace(base, reader="passages"), "evidence": replace(base, reader="evidence")}
    settings |= {f"evidence@{b}": replace(base, reader="evidence", evidence_tokens=b) for b in budgets}
    found = {r: 0 for r in settings}
    tokens = {r: [] for r in settings}
    ms = {r: [] for r in settings}
    for qid, text, key in items:
        hits = tutor.library.find(text, max(s.k for s in settings.values()) + 2, book_id=book_id)
        row = {"book": book, "kind": kind, "qid": qid, "question": text}
        for reader, s in settings.items():
            tutor.settings = s
            t0 = time.perf_counter()
            prep = prepare(tutor, text, hits, beyond_note=False, use_model=True)
            ms[reader].append((time.perf_counter() - t0) * 1000)
            body = "\n".join(src.text for src in prep.sources)
            ok = key_term_recall(body, key) == 1.0
            found[reader] += ok
            tokens[reader].append(tutor.model.count_tokens(body))
            row[reader] = {"key": ok, "tokens": tokens[reader][-1], "texts": [src.text for src in prep.sources]}
        rows.append(row)
    tutor.settings = base
    n = len(items)
    return {r: {"key_share": round(found[r] / n, 3) if n else None, "tokens_mean": round(statistics.mean(tokens[r]))
                if n else None, "prepare_p50_ms": round(statistics.median(ms[r])) if n else None}
            for r in settings} | {"questions": n}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(KEYED_BOOKS))
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", help="whose tokenizer counts (nothing is generated)")
    ap.add_argument("--paraphrased", action="store_true", help="also the paraphrased questions")
    ap.add_argument("--budgets", nargs="*", type=int, default=[], help="also these evidence token budgets")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.evidence  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    model = LocalModel(LLMSettings.from_env(model=args.model))
    report: dict = {"books": {}, "rows": []}
    kinds = ("original", "paraphrased") if args.paraphrased else ("original",)
    for book in args.books:
        lib = book_library(args.libs, book)
        tutor = Tutor(lib, model, settings=AnswerSettings())
        book_id = lib.books()[0].id
        tutor.retrieve("warm up the search indexes", book_id=book_id)
        for kind in kinds:
            items = keyed(book, kind == "paraphrased")
            if items:
                report["books"].setdefault(book, {})[kind] = measure(tutor, book_id, items, report["rows"], book, kind,
                                                                        tuple(args.budgets))
                print(f"{book:24} {kind:11} {json.dumps(report['books'][book][kind])}  [{load()}]", flush=True)
        lib.close()
    extra = [f"evidence@{b}" for b in args.budgets]
    print("\n| book | questions | key in passages (tokens) | key in evidence (tokens) | "
          + "".join(f"key in {x} (tokens) | " for x in extra) + "prepare p50 passages / evidence |")
    print("|---|---|---|---|" + "---|" * len(extra) + "---|")
    for book, per_kind in report["books"].items():
        for kind, r in per_kind.items():
            p, e = r["passages"], r["evidence"]
            print(f"| {book}{' (paraphrased)' if kind == 'paraphrased' else ''} | {r['questions']} | "
                  f"{p['key_share']:.2f} ({p['tokens_mean']}) | {e['key_share']:.2f} ({e['tokens_mean']}) | "
                  + "".join(f"{r[x]['key_share']:.2f} ({r[x]['tokens_mean']}) | " for x in extra)
                  + f"{p['prepare_p50_ms']} / {e['prepare_p50_ms']} ms |")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
