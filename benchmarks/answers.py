"""Are the answers right?  Every dev book, the evidence reader beside today's passage reader, one run.

    .venv/bin/python benchmarks/answers.py --libs /work/libs [--models qwen2.5-coder-1.5b]
                                           [--readers evidence,passages] [--n 40] [--mc 40] [--paraphrased 40] [--offbook 40]
                                           [--books ...] [--out answers.json]

``--libs DIR`` holds one library per dev book (``benchmarks/common.py``).  Per book, model and reader
(``AnswerSettings.reader``: "evidence" — numbered evidence sentences, the default; "passages" — whole passages,
the reader before it):

* free-form answers (``Tutor.ask`` end to end, as a student asks: no options) to ``--n`` questions that have
  an answer key (``benchmarks/data/answer_keys/<book>.jsonl``; books without keys use their gold questions
  for citations only) and to ``--paraphrased`` of their student-worded versions
  (``benchmarks/data/paraphrased``): key-term recall, the share whose key lies in what the model read and
  the recall on those, a citation on the gold pages, citations valid, answers declined, first-token and
  whole-answer latency (the model prewarmed as the app does at start-up);
* multiple choice with the options shown: the keyed option chosen with what the reader gives the model and
  without the book (asked once per book and model: the same for both readers), ``--mc`` keyed questions;
* "not in your book": near-domain questions the book does not answer (``benchmarks/data/offbook/<book>.jsonl``)
  declined end to end, and in-book questions declined by the coverage decision (no model).

Every answer (question, text, citations with their quotes, flagged sentences) goes to ``--out`` for
hand-checking.  The load average is printed with every phase: on a shared 2-core machine it moves latency a lot.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library, fmt, load, load_jsonl  # noqa: E402

from core.answer.preparation import AnswerSettings  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.answers import ask_once, judge_answer, refusal_metrics, spread, summarize_answers  # noqa: E402
from core.evaluation.choices import multiple_choice  # noqa: E402
from core.evaluation.keys import load_keys  # noqa: E402
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402

DATA = REPO / "benchmarks" / "data"



def keyed_questions(book: str, n: int, paraphrased: bool = False, shift: float = 0.0) -> tuple[list, dict]:
    """``n`` keyed questions of the book spread over it (or, with ``paraphrased``, their student-worded
    versions), and the keys by qid."""
    questions = load_questions(BENCH / book / "questions.jsonl")
    keys_path = DATA / "answer_keys" / f"{book}.jsonl"
    keys = load_keys(keys_path) if keys_path.exists() else {}
    if paraphrased:
        path = DATA / "paraphrased" / f"{book}.jsonl"
        reworded = {r["qid"]: r["question"] for r in load_jsonl(path)} if path.exists() else {}
        pool = [replace(q, question=reworded[q.qid], choices=(), program="") for q in questions if q.qid in reworded]
        return spread(pool, n, shift), keys
    pool = [q for q in questions if q.qid in keys] or questions  # without keys: citations only
    return spread(pool, n, shift), keys


def answers(tutor: Tutor, book: str, n: int, book_id: str, log_rows: list, paraphrased: bool = False,
            shift: float = 0.0) -> dict:
    questions, keys = keyed_questions(book, n, paraphrased, shift)
    labels: dict = {}
    judged = []
    for q in questions:
        read: list[str] = []
        answer, sources_ms = ask_once(tutor, q.text(), book_id=book_id, read=read)
        j = judge_answer(tutor.library, q, answer, sources_ms, labels, keys.get(q.qid), read)
        judged.append(j)
        log_rows.append({"book": book, "model": tutor.model_name, "reader": tutor.settings.reader,
                         "paraphrased": paraphrased, **asdict(j), "question": q.text(),
                         "key_terms": [list(t) for t in keys[q.qid].key_terms] if q.qid in keys else None,
                         "answer": answer.text, "preview": answer.preview.quote if answer.preview else None,
                         "citations": [{"n": c.n, "section": c.section, "page": c.printed_page, "quote": c.quote}
                                       for c in answer.citations], "read": read,
                         "dropped_text": list(answer.dropped), "flagged_text": list(answer.unsupported),
                         "notice": answer.notice})
        print(f"  {book[:10]:10} {tutor.settings.reader[:3]} {q.qid[-10:]:10} recall {j.key_recall if j.key_recall is not None else '-'!s:5} "
              f"first {j.first_token_ms or 0:6.0f} ms total {j.total_ms or 0:6.0f} ms cit {j.citations} "
              f"gold-pages {j.gold_pages_cited!s:5} refused {j.refused!s:5}  [{load()}]", flush=True)
    return summarize_answers(judged)


def refusal(tutor: Tutor, book: str, book_id: str, n: int, log_rows: list, paraphrased: int = 0,
            offbook: int = 0) -> dict:
    """Near-domain questions asked end to end (declined before the model, or after it when nothing it wrote
    is grounded or it says the passages do not answer), with ``paraphrased`` of their student-worded versions,
    and the coverage decision alone on ``n`` in-book ones."""
    in_book = [q.text() for q in spread(load_questions(BENCH / book / "questions.jsonl"), n)]
    off = [r["question"] for r in load_jsonl(DATA / "offbook" / f"{book}.jsonl")]
    off = spread(off, offbook) if offbook else off
    reworded = DATA / "paraphrased" / f"offbook-{book}.jsonl"
    para = set(spread([r["question"] for r in load_jsonl(reworded)], paraphrased)) if paraphrased and \
        reworded.exists() else set()
    out = refusal_metrics(tutor, in_book, [], book_id=book_id)
    declined = declined_para = 0
    for q in off + sorted(para):
        answer, _ = ask_once(tutor, q, book_id=book_id)
        if q in para:
            declined_para += answer.refused
        else:
            declined += answer.refused
        log_rows.append({"book": book, "model": tutor.model_name, "reader": tutor.settings.reader,
                         "near_domain": True, "paraphrased": q in para, "question": q,
                         "refused": answer.refused, "answer": answer.text, "notice": answer.notice,
                         "flagged_text": list(answer.unsupported), "dropped_text": list(answer.dropped),
                         "citations": [{"n": c.n, "page": c.printed_page, "quote": c.quote} for c in answer.citations]})
    return {**out, "off_book": len(off), "off_book_declined": declined,
            "recall": round(declined / len(off), 3) if off else 0.0,
            "paraphrased_recall": round(declined_para / len(para), 3) if para else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--models", default="qwen2.5-coder-1.5b")
    ap.add_argument("--readers", default="evidence,passages", help="what the model reads: evidence, passages")
    ap.add_argument("--n", type=int, default=40, help="free-form keyed questions per book")
    ap.add_argument("--paraphrased", type=int, default=0, help="their student-worded versions per book")
    ap.add_argument("--mc", type=int, default=40, help="keyed multiple-choice questions per book")
    ap.add_argument("--refusal", type=int, default=200, help="in-book questions per book for false refusals")
    ap.add_argument("--offbook", type=int, default=0, help="near-domain questions per book (0: all)")
    ap.add_argument("--shift", type=float, default=0.0,
                    help="draw the keyed questions this share of the spacing later (0-1): a fresh sample for a hand check")
    ap.add_argument("--out", type=Path, help="write the report and every answer here (JSON), after every book")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.answers  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    report: dict = {"load_start": os.getloadavg(), "books": {}, "answers": []}
    for key in args.models.split(","):
        model = LocalModel(LLMSettings.from_env(model=key))
        try:
            for book in args.books:
                lib = book_library(args.libs, book)
                book_id = lib.books()[0].id
                keyed = [q for q in load_questions(BENCH / book / "questions.jsonl") if q.choices and q.answer_letter]
                without = None
                for reader in args.readers.split(","):
                    tutor = Tutor(lib, model, settings=AnswerSettings(reader=reader))
                    tutor.retrieve("warm up the search indexes", book_id=book_id)
                    tutor.prewarm().result()
                    row = report["books"].setdefault(book, {}).setdefault(f"{key} · {reader}", {})
                    row["answers"] = answers(tutor, book, args.n, book_id, report["answers"], shift=args.shift)
                    if args.paraphrased:
                        row["paraphrased"] = answers(tutor, book, args.paraphrased, book_id, report["answers"], True,
                                                     shift=args.shift)
                    if keyed:
                        row["multiple_choice"] = multiple_choice(tutor, spread(keyed, args.mc), book_id=book_id,
                                                                 without=without)
                        without = row["multiple_choice"]["without_book_replies"]
                    row["refusal"] = refusal(tutor, book, book_id, args.refusal, report["answers"], args.paraphrased,
                                            args.offbook)
                    print(f"{book} {key} {reader}: {json.dumps(row, default=str)[:600]}  [{load()}]", flush=True)
                    if args.out:  # after every book and reader, so a long run can be read (and checked) as it goes
                        args.out.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
                lib.close()
        finally:
            model.close()
    report["load_end"] = os.getloadavg()
    print(table(report))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0


def table(report: dict) -> str:
    lines = ["| book | model · reader | key in what it read | key-term recall (where read) | paraphrased: key read / "
             "recall | keyed option with / without the book | gold pages cited | in-book declined (keyed answers) "
             "| near-domain declined (paraphrased) / in-book declined by coverage | first token / whole answer p50 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for book, per_model in report["books"].items():
        for model, row in per_model.items():
            a, mc, r, pa = row["answers"], row.get("multiple_choice"), row.get("refusal"), row.get("paraphrased")
            read = "—" if a.get("key_read_share") is None else f"{a['key_read_share']:.2f}"
            recall = "—" if a.get("key_term_recall") is None else \
                f"{a['key_term_recall']:.2f} ({fmt(a.get('key_term_recall_where_read'))})"
            para = f"{fmt(pa.get('key_read_share'))} / {fmt(pa.get('key_term_recall'))}" if pa else "—"
            choice = f"{mc['accuracy_with_book']:.2f} / {mc['accuracy_without_book']:.2f} ({mc['questions']})" \
                if mc else "—"
            refused = (f"{r['recall']:.2f} ({fmt(r.get('paraphrased_recall'))}) / {r['in_book_declined_rate']:.2f}"
                       if r else "")
            lines.append(f"| {book} | {model} | {read} | {recall} | {para} | {choice} | "
                         f"{a['answers_citing_gold_pages']:.2f} | {a['refused']}/{a['questions']} | {refused} | "
                         f"{a['first_token_p50_ms'] / 1000:.1f} s / {a['total_p50_ms'] / 1000:.1f} s |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
