"""Held-out manuals: the answers on books of another kind, never used to choose anything.

    .venv/bin/python benchmarks/heldout.py --libs /work/libs-heldout [--pdfs /work/heldout-pdfs]
                                           [--readers evidence,passages] [--sets r-intro,gnuplot] [--out FILE]

``benchmarks/data/heldout/<set>/`` holds questions in a student's own words with key terms and gold pages,
and near-domain questions the manual does not answer (its README says where the PDFs come from and that
this data is for reporting only).  Each manual is imported into ``--libs/<set>`` once (the app's own import),
then every question is asked end to end (``Tutor.ask``, the 1.5B, as the app asks) with each reader.
Printed per manual and reader: key-term recall, the share of questions whose key lies in what the model read,
answers citing a gold page, answerable questions declined, near-domain questions declined, first-token and
whole-answer p50, with the load average.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import load, load_jsonl  # noqa: E402

from core.answer.preparation import AnswerSettings  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.answers import ask_once, judge_answer, summarize_answers  # noqa: E402
from core.evaluation.keys import load_keys  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.library import Library  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402

DATA = REPO / "benchmarks" / "data" / "heldout"
PDFS = {"r-intro": "usr/share/R/doc/manual/R-intro.pdf", "gnuplot": "usr/share/doc/gnuplot/gnuplot.pdf"}



def library(libs: Path, pdfs: Path, name: str) -> Library:
    """The manual's own library, imported on first use."""
    lib = Library(libs / name)
    if not lib.books():
        t0 = time.perf_counter()
        result = lib.import_book(pdfs / PDFS[name])
        print(f"imported {name}: {result.status.value} in {time.perf_counter() - t0:.0f} s  [{load()}]", flush=True)
    return lib


def run(tutor: Tutor, name: str, rows: list) -> dict:
    keys = load_keys(DATA / name / "keys.jsonl")
    labels: dict = {}
    judged = []
    for q in load_questions(DATA / name / "questions.jsonl"):
        read: list[str] = []
        answer, sources_ms = ask_once(tutor, q.text(), read=read)
        j = judge_answer(tutor.library, q, answer, sources_ms, labels, keys.get(q.qid), read)
        judged.append(j)
        rows.append({"set": name, "reader": tutor.settings.reader, **asdict(j), "question": q.text(),
                     "key_terms": [list(t) for t in keys[q.qid].key_terms] if q.qid in keys else None,
                     "answer": answer.text, "citations": [{"n": c.n, "section": c.section, "page": c.printed_page,
                                                           "quote": c.quote} for c in answer.citations],
                     "flagged_text": list(answer.unsupported), "dropped_text": list(answer.dropped),
                     "notice": answer.notice, "read": read})
        print(f"  {name:8} {tutor.settings.reader[:3]} {q.qid:12} recall {j.key_recall} read {j.key_read} "
              f"gold {j.gold_pages_cited} refused {j.refused} first {j.first_token_ms or 0:.0f} ms  [{load()}]",
              flush=True)
    near = [r["question"] for r in load_jsonl(DATA / name / "near_domain.jsonl")]
    declined = 0
    for question in near:
        answer, _ = ask_once(tutor, question)
        declined += answer.refused
        rows.append({"set": name, "reader": tutor.settings.reader, "near_domain": True, "question": question,
                     "refused": answer.refused, "answer": answer.text, "notice": answer.notice,
                     "flagged_text": list(answer.unsupported), "dropped_text": list(answer.dropped),
                     "citations": [{"n": c.n, "page": c.printed_page, "quote": c.quote} for c in answer.citations]})
    return {**summarize_answers(judged), "near_domain": len(near), "near_domain_declined": declined}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--pdfs", type=Path, default=Path(os.environ.get("LANTERN_HELDOUT_PDFS", "/work/heldout-pdfs")))
    ap.add_argument("--sets", default="r-intro,gnuplot")
    ap.add_argument("--readers", default="evidence,passages")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.heldout  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    model = LocalModel(LLMSettings.from_env(model=args.model))
    report: dict = {"sets": {}, "rows": []}
    try:
        for name in args.sets.split(","):
            lib = library(args.libs, args.pdfs, name)
            for reader in args.readers.split(","):
                tutor = Tutor(lib, model, settings=AnswerSettings(reader=reader))
                tutor.prewarm().result()
                report["sets"].setdefault(name, {})[reader] = run(tutor, name, report["rows"])
            lib.close()
    finally:
        model.close()
    print("\n| manual | reader | key-term recall | key in what it read | answers citing a gold page | answerable "
          "declined | near-domain declined | first token / whole answer p50 |")
    print("|---|---|---|---|---|---|---|---|")
    for name, per_reader in report["sets"].items():
        for reader, a in per_reader.items():
            print(f"| {name} | {reader} | {a['key_term_recall']:.2f} | {a['key_read_share']:.2f} | "
                  f"{a['answers_citing_gold_pages']:.2f} | {a['refused']}/{a['questions']} | "
                  f"{a['near_domain_declined']}/{a['near_domain']} | {a['first_token_p50_ms'] / 1000:.1f} s / "
                  f"{a['total_p50_ms'] / 1000:.1f} s |")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
