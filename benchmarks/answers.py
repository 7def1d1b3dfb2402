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
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO.parent / "shared" / "bench"
sys.path.insert(0, str(REPO))

from benchmarks.common import dev_parser  # noqa: E402

from core.answer import AnswerSettings, Tutor  # noqa: E402
from core.attribution import parse_citations  # noqa: E402
from core.evaluation import is_gold, load_questions  # noqa: E402
from core.followup import rewrite_followup  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import AnswerEventKind  # noqa: E402

LETTERS = "ABCDEFGH"


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


def spread(items: list, n: int) -> list:
    """``n`` items evenly spaced over the list (deterministic; covers every chapter)."""
    if n >= len(items):
        return list(items)
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def raw_questions(name: str) -> list[dict]:
    with open(BENCH / name / "questions.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# -- refusal -------------------------------------------------------------------------------------
def refusal(libs: dict[str, Library], n: int) -> dict:
    out = {}
    for own, lib in libs.items():
        tutor = Tutor(lib, model=_NoModel())
        other = next(k for k in libs if k != own)
        row = {}
        for kind, book in (("in_book", own), ("off_book", other)):
            qs = spread(load_questions(BENCH / book / "questions.jsonl"), n)
            declined = 0
            for q in qs:
                _, verdict = tutor.retrieve(rewrite_followup(q.question, None).text)
                declined += not verdict.covered
            row[kind] = {"questions": len(qs), "declined": declined, "rate": round(declined / len(qs), 3)}
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
def citation_valid(lib: Library, c, pages_cache: dict) -> bool:
    chunk = lib.chunks([c.chunk_id]).get(c.chunk_id)
    if chunk is None or chunk.book_id != c.book_id:
        return False
    labels = pages_cache.setdefault(c.book_id, {p.index: p.label for p in lib.pages(c.book_id)})
    return (c.page_start in labels and c.page_end in labels and labels[c.page_start] == c.printed_page
            and chunk.section_number == c.section)


def run_answers(model_key: str, libs: dict[str, Library], n: int, max_tokens: int) -> dict:
    from core.llm import LLMSettings, LocalModel

    per_book = {name: spread([q for q in load_questions(BENCH / name / "questions.jsonl")], n // 2)
                for name in libs}
    rows, first, sources_ms = [], [], []
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
            pages_cache: dict = {}
            for q in qs:
                answer, t_sources = None, None
                t0 = time.perf_counter()
                for ev in tutor.ask(q.question):
                    if ev.kind is AnswerEventKind.SOURCES:
                        t_sources = (time.perf_counter() - t0) * 1000
                    elif ev.kind is AnswerEventKind.DONE:
                        answer = ev.answer
                    elif ev.kind is AnswerEventKind.ERROR:
                        raise SystemExit(ev.text)
                assert answer is not None
                cited = {c.n for c in answer.citations}
                markers_ok = set(parse_citations(answer.text)) <= cited
                valid = markers_ok and all(citation_valid(lib, c, pages_cache) for c in answer.citations)
                gold = [is_gold(_chunk_of(lib, c), q) for c in answer.citations]
                row = {"book": name, "qid": q.qid, "refused": answer.refused, "extractive": answer.extractive,
                       "citations": len(answer.citations), "valid": valid, "any_gold": any(gold),
                       "gold_citations": sum(gold), "first_token_ms": answer.timings.get("first_token_ms"),
                       "sources_ms": t_sources, "total_ms": answer.timings.get("total_ms"),
                       "dropped": len(answer.dropped), "unsupported": len(answer.unsupported),
                       "sentences": len(re.findall(r"[.!?](\s|$)", answer.text)),
                       "question": q.question, "answer": answer.text, "dropped_text": list(answer.dropped),
                       "unsupported_text": list(answer.unsupported), "notice": answer.notice}
                rows.append(row)
                if not answer.refused:
                    first.append(row["first_token_ms"])
                sources_ms.append(t_sources or 0.0)
                print(f"  {model_key} {name[:4]} {q.qid[-12:]:12s} first {row['first_token_ms']:7.0f} ms  "
                      f"total {row['total_ms']:7.0f} ms  cit {row['citations']} gold {row['any_gold']!s:5s} "
                      f"valid {valid!s:5s} refused {answer.refused!s:5s} dropped {row['dropped']}  [{load()}]",
                      flush=True)
    finally:
        model.close()
    answered = [r for r in rows if not r["refused"]]
    cits = sum(r["citations"] for r in answered)
    summary = {
        "model": model_key, "questions": len(rows), "load_s": round(load_s, 1),
        "first_token_p50_ms": pct(first, 0.5), "first_token_p95_ms": pct(first, 0.95),
        "sources_p50_ms": pct(sources_ms, 0.5), "sources_p95_ms": pct(sources_ms, 0.95),
        "citation_validity": round(sum(r["valid"] for r in rows) / max(1, len(rows)), 3),
        "answers_with_gold_citation": round(sum(r["any_gold"] for r in answered) / max(1, len(answered)), 3),
        "citations_in_gold": round(sum(r["gold_citations"] for r in answered) / max(1, cits), 3),
        "answers_without_citation": sum(1 for r in answered if not r["citations"]),
        "refused": sum(r["refused"] for r in rows),
        "sentences_dropped": sum(r["dropped"] for r in rows), "sentences_flagged": sum(r["unsupported"] for r in rows),
        "rows": rows,
    }
    print(f"answers  {model_key}: {len(rows)} questions, first token p50 {summary['first_token_p50_ms']:.0f} ms / "
          f"p95 {summary['first_token_p95_ms']:.0f} ms, sources p50 {summary['sources_p50_ms']:.0f} ms; "
          f"citations valid {summary['citation_validity']:.3f}; answers citing the gold section "
          f"{summary['answers_with_gold_citation']:.3f}, citations in gold {summary['citations_in_gold']:.3f}; "
          f"refused {summary['refused']}; dropped {summary['sentences_dropped']} flagged "
          f"{summary['sentences_flagged']}  [{load()}]", flush=True)
    return summary


def _chunk_of(lib: Library, c):
    return lib.chunks([c.chunk_id])[c.chunk_id]


# -- multiple choice -------------------------------------------------------------------------------
MC_SYSTEM = "You are a helpful tutor. Answer the multiple-choice question."


def mc_question(r: dict) -> str:
    opts = "\n".join(f"- {c}" for c in r["choices"])
    return (f"Question: {r['question']}\nOptions:\n{opts}\n"
            "Which option is correct? Reply with the correct option's exact words.")


def pick_choice(reply: str, choices: list[str]) -> str:
    """The option the reply names: small models answer with the option's words far more reliably than
    with its letter (Qwen 0.5B said "C" to almost every lettered question)."""
    import difflib

    from core.attribution import stems

    first = next((ln for ln in reply.strip().splitlines() if ln.strip()), "").lower()
    words = stems(first)

    def score(c: str) -> float:
        own = stems(c)
        return ((len(own & words) / len(own) if own else 0.0) + (1.0 if c.lower() in first else 0.0)
                + 0.5 * difflib.SequenceMatcher(None, first, c.lower()).ratio())
    return LETTERS[max(range(len(choices)), key=lambda i: score(choices[i]))]


def run_mc(model_key: str, lib: Library, n: int) -> dict:
    """The same model and prompt with and without the tutor's retrieved passages (same budget)."""
    from core.context import format_sources
    from core.llm import LLMSettings, LocalModel

    items = spread([r for r in raw_questions("psychology-2e") if r.get("choices") and r.get("answer_letter")], n)
    model = LocalModel(LLMSettings.from_env(model=model_key))
    tutor = Tutor(lib, model)
    right = {"with_book": 0, "without_book": 0}
    try:
        for r in items:
            q = mc_question(r)
            hits, _ = tutor.retrieve(r["question"] + " " + " ".join(r["choices"]))
            prep = tutor._prepare(r["question"], hits, False, True)  # the tutor's sources and budget
            with_book = f"Textbook passages:\n{format_sources(prep.sources)}\n\n{q}"
            for kind, user in (("with_book", with_book), ("without_book", q)):
                reply = model.chat([{"role": "system", "content": MC_SYSTEM}, {"role": "user", "content": user}],
                                   max_tokens=20, temperature=0.0)
                right[kind] += pick_choice(reply, r["choices"]) == r["answer_letter"]
    finally:
        model.close()
    out = {"model": model_key, "questions": len(items),
           **{f"accuracy_{k}": round(v / max(1, len(items)), 3) for k, v in right.items()},
           "chance": round(sum(1 / len(r["choices"]) for r in items) / max(1, len(items)), 3)}
    print(f"mc       {model_key}: {len(items)} Psychology questions: accuracy with the book "
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
