"""Answer quality and latency on the shared dev benchmark: what issue 5's "Must show" asks for.

    .venv/bin/python -m benchmarks.answers --psy /tmp/bench-psy --chem /tmp/bench-chem
    .venv/bin/python -m benchmarks.answers ... --models qwen2.5-coder-0.5b,qwen2.5-coder-1.5b --n 20 --mc 40
    .venv/bin/python -m benchmarks.answers ... --only refusal --refusal 200

Libraries must already hold the books (``lantern --library DIR import ../shared/bench/<book>/book.pdf``).

* refusal (no model): the coverage verdict ``Tutor.retrieve`` gives for in-book questions (each book's
  own questions, with its library) and off-book ones (the *other* book's questions): the share
  declined.  Targets: off-book ≥ 0.9, in-book ≤ 0.05.
* answers (per model): ``Tutor.ask`` end to end over N dev questions (half from each book, spread
  evenly): first-token latency from "enter" (p50/p95; the model is prewarmed as the app does at
  start-up, retrieval warmed by one search), sources latency, citation validity (every ``[n]`` names a
  returned citation whose chunk, pages and printed page exist in the library: must be 100%), citation in
  the gold section (answers with ≥ 1 citation in it, and per citation), sentences kept/flagged/dropped.
* multiple choice (per model): Psychology review questions with their options; the model replies with
  the option's words (matched back to a letter), once with the tutor's retrieved passages in the prompt
  and once without (same model, same prompt otherwise): accuracy of each.

The load average is printed beside every phase: on a shared 2-core machine it moves latency a lot.
"""
from __future__ import annotations

import json
import logging
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO.parent / "shared" / "bench"
sys.path.insert(0, str(REPO))

from benchmarks.common import dev_parser  # noqa: E402

from core.answer.tutor import AnswerSettings, Tutor  # noqa: E402
from core.evaluation.answers import ask_once, judge_answer, multiple_choice, refusal_metrics, spread, summarize_answers
from core.evaluation.retrieval import load_questions  # noqa: E402
from core.library import Library  # noqa: E402


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


# -- refusal -------------------------------------------------------------------------------------
def refusal(libs: dict[str, Library], n: int) -> dict:
    out = {}
    for own, lib in libs.items():
        other = next(k for k in libs if k != own)
        asked = {book: [q.question for q in spread(load_questions(BENCH / book / "questions.jsonl"), n)]
                 for book in (own, other)}
        m = refusal_metrics(Tutor(lib, model=_NoModel()), asked[own], asked[other])
        row = {kind: {"questions": m[kind], "declined": m[f"{kind}_declined"],
                      "rate": round(m[f"{kind}_declined"] / m[kind], 3) if m[kind] else 0.0}
               for kind in ("in_book", "off_book")}
        out[own] = row
        print(f"refusal  library={own:14s} in-book declined {row['in_book']['rate']:.3f} "
              f"({row['in_book']['declined']}/{row['in_book']['questions']})   off-book ({other}) declined "
              f"{row['off_book']['rate']:.3f} ({row['off_book']['declined']}/{row['off_book']['questions']})  "
              f"[{load()}]", flush=True)
    return out


class _NoModel:
    display_name = "none"

    def model_path(self):
        from core.errors import ModelUnavailableError
        raise ModelUnavailableError("refusal measurement: no model")


# -- answers -------------------------------------------------------------------------------------
def run_answers(model_key: str, libs: dict[str, Library], n: int, max_tokens: int) -> dict:
    from core.llm.settings import LLMSettings
    from core.llm.model import LocalModel

    per_book = {name: spread([q for q in load_questions(BENCH / name / "questions.jsonl")], n // 2)
                for name in libs}
    rows, outcomes = [], []
    model = LocalModel(LLMSettings.from_env(model=model_key))
    try:
        t = time.perf_counter()
        model.load()
        load_s = time.perf_counter() - t
        for name, qs in per_book.items():
            lib = libs[name]
            tutor = Tutor(lib, model, settings=AnswerSettings(answer_tokens=max_tokens))
            tutor.retrieve("warm up the search indexes")
            tutor.prewarm().result()
            labels: dict = {}
            for q in qs:
                answer, t_sources = ask_once(tutor, q.question)
                judged = judge_answer(lib, q, answer, t_sources, labels)
                rows.append({"book": name, **asdict(judged), "question": q.question, "answer": answer.text,
                             "dropped_text": list(answer.dropped), "unsupported_text": list(answer.unsupported),
                             "notice": answer.notice})
                print(f"  {model_key} {name[:4]} {q.qid[-12:]:12s} first {judged.first_token_ms or 0:7.0f} ms  "
                      f"total {judged.total_ms or 0:7.0f} ms  cit {judged.citations} gold {judged.any_gold!s:5s} "
                      f"valid {judged.valid!s:5s} refused {judged.refused!s:5s} dropped {judged.dropped}  [{load()}]",
                      flush=True)
                outcomes.append(judged)
    finally:
        model.close()
    summary = {"model": model_key, "load_s": round(load_s, 1), **summarize_answers(outcomes), "rows": rows}
    print(f"answers  {model_key}: {len(rows)} questions, first token p50 {summary['first_token_p50_ms']:.0f} ms / "
          f"p95 {summary['first_token_p95_ms']:.0f} ms, sources p50 {summary['sources_p50_ms']:.0f} ms; "
          f"citations valid {summary['citation_validity']:.3f}; answers citing the gold section "
          f"{summary['answers_with_gold_citation']:.3f}, citations in gold {summary['citations_in_gold']:.3f}; "
          f"refused {summary['refused']}; dropped {summary['sentences_dropped']} flagged "
          f"{summary['sentences_flagged']}  [{load()}]", flush=True)
    return summary


# -- multiple choice -------------------------------------------------------------------------------
def run_mc(model_key: str, lib: Library, n: int) -> dict:
    """The same model and prompt with and without the tutor's retrieved passages (same budget)."""
    from core.llm.settings import LLMSettings
    from core.llm.model import LocalModel

    keyed = [q for q in load_questions(BENCH / "psychology-2e" / "questions.jsonl") if q.choices and q.answer_letter]
    model = LocalModel(LLMSettings.from_env(model=model_key))
    try:
        out = {"model": model_key, **multiple_choice(Tutor(lib, model), spread(keyed, n))}
    finally:
        model.close()
    print(f"mc       {model_key}: {out['questions']} Psychology questions: accuracy with the book "
          f"{out['accuracy_with_book']:.3f}, without {out['accuracy_without_book']:.3f} (chance {out['chance']:.3f})"
          f"  [{load()}]", flush=True)
    return out


def main() -> int:
    ap = dev_parser(__doc__.split("\n")[0], limits=False)
    ap.add_argument("--models", default="qwen2.5-coder-0.5b")
    ap.add_argument("--n", type=int, default=20, help="dev questions for latency and citations")
    ap.add_argument("--mc", type=int, default=30, help="Psychology multiple-choice questions")
    ap.add_argument("--refusal", type=int, default=200, help="questions per refusal cell")
    ap.add_argument("--max-tokens", type=int, default=AnswerSettings().answer_tokens)
    ap.add_argument("--only", choices=["refusal", "answers", "mc"], action="append")
    ap.add_argument("--out", help="write the JSON report here")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    only = set(args.only or ["refusal", "answers", "mc"])
    libs = {"psychology-2e": Library(args.psy), "chemistry-2e": Library(args.chem)}
    print(f"benchmarks.answers  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    report: dict = {"load_start": os.getloadavg()}
    if "refusal" in only:
        report["refusal"] = refusal(libs, args.refusal)
    for key in args.models.split(","):
        if "answers" in only:
            report.setdefault("answers", {})[key] = run_answers(key, libs, args.n, args.max_tokens)
        if "mc" in only:
            report.setdefault("mc", {})[key] = run_mc(key, libs["psychology-2e"], args.mc)
    report["load_end"] = os.getloadavg()
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
