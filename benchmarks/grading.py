"""Fair grading (issue 34): are students' own correct words accepted and wrong answers rejected?

    .venv/bin/python benchmarks/grading.py [--libs /work/libs] [--data benchmarks/data/grading/answers.jsonl]
        [--json out.json]

``benchmarks/data/grading/answers.jsonl``: for 8 terms of each dev book, the book's own definition (the key), a
correct answer in a student's words and a wrong one (a negation, a sibling concept's definition or a common
misconception).  Each answer is graded the way the Practice tab grades an item made from the book's
definition, by:

* ``words``: today's check (``drills.check_drill``: the share of the key's word stems the answer uses);
* ``meaning``: ``core.study.grading.grade_meaning`` with the chapter's other definitions from Lantern's own
  lesson of that chapter (``chapter_lesson`` in ``<libs>/<book>``) as the siblings, its floor chosen leave one
  book out (for each book, the floor that grades the other four books best; reported on the book left out);
* ``meaning, no siblings`` and ``meaning, no floor`` (nearest concept and polarity only): what each part adds;
* with ``--model``: the chat model's judgement (``judge_meaning``, its probability that the answer is true by the
  book: what ``grading.grade`` accepts at ``JUDGE_FLOOR`` when there is a model), that floor chosen leave one book
  out, the alternative of rejecting first what the nearest-concept or direction check rejects, and the baseline:
  session 12's judge (a sampled JSON reply to "does it mean the same as the textbook?").

Accepted = graded correct.  Prints per book: correct answers accepted and wrong answers rejected.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import load_jsonl  # noqa: E402
from core.library import Library  # noqa: E402
from core.study.drills import _question, check_drill  # noqa: E402
from core.study.grading import JUDGE_FLOOR, grade_meaning, judge_meaning  # noqa: E402
from core.study.practice import chapter_definitions  # noqa: E402
from core.study.models import Exercise, ExerciseKind, SourceRef, Verdict  # noqa: E402
from core.study.statements import Statement, StatementKind  # noqa: E402

FLOORS = [round(0.20 + 0.025 * i, 3) for i in range(29)]
JUDGE_FLOORS = [i / 100 for i in range(5, 95)]
# Session 12's judge, the baseline: the model's sampled reply to "does it mean the same?" under a JSON grammar.
OLD_SYSTEM = ("You are a fair teacher. Decide if the student's answer means the same as the textbook's "
              "definition. Different words are fine. Reply with JSON {\"same_meaning\": true} or "
              "{\"same_meaning\": false}.")


def old_judge(model, key: str, answer: str) -> bool:
    user = f"Textbook: {key}\nStudent: {answer}\nDoes the student's answer mean the same as the textbook?"
    reply = model.complete_json([{"role": "system", "content": OLD_SYSTEM}, {"role": "user", "content": user}],
                                {"type": "object", "properties": {"same_meaning": {"type": "boolean"}},
                                 "required": ["same_meaning"]}, max_tokens=12)
    return bool(reply.get("same_meaning")) if isinstance(reply, dict) else False


def judge_floor(its: list[dict]) -> float:
    """The floor on the judge's probability that grades ``its`` best: the most of the fewer of right answers
    accepted and wrong ones rejected, then the most of both."""
    def counts(f: float) -> tuple[int, int]:
        return (sum(it["judge_p"] >= f for it in its if it["label"] == "correct"),
                sum(it["judge_p"] < f for it in its if it["label"] == "wrong"))
    return max(JUDGE_FLOORS, key=lambda f: (min(counts(f)), sum(counts(f))))


def siblings_of(lib: Library, book_id: str, chapter: str) -> list[tuple[str, str]]:
    """The chapter's definitions as the Practice tab gives them to the grader."""
    return chapter_definitions(lib, SourceRef(0, book_id, chapter, None, "", 0, ""))


def words_verdict(item: dict) -> Verdict:
    ref = SourceRef(0, "", None, None, "", 0, "")
    statement = Statement(StatementKind.DEFINITION, item["key"], item["term"], ref, 1.0)
    ex = Exercise("0:0", None, "Q1", _question(statement), ExerciseKind.SHORT_ANSWER, ref, item["key"])
    return check_drill(ex, item["answer"])[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, default=Path("/work/libs"))
    ap.add_argument("--data", type=Path, default=REPO / "benchmarks/data/grading/answers.jsonl")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--model", action="store_true", help="also grade with the chat model (judge_meaning)")
    args = ap.parse_args()
    model = None
    if args.model:
        from core.llm.model import LocalModel
        from core.llm.settings import LLMSettings
        model = LocalModel(LLMSettings.from_env())
    items = load_jsonl(args.data)
    by_book: dict[str, list[dict]] = defaultdict(list)
    for it in items:
        by_book[it["book"]].append(it)
    scored: dict[str, list[dict]] = {}
    for book, its in by_book.items():
        with Library(args.libs / book) as lib:
            book_id = lib.books()[0].id
            encode = lib.embedder.encode
            for it in its:
                sibs = siblings_of(lib, book_id, str(it["chapter"]))
                full = grade_meaning(it["key"], it["answer"], term=it["term"], siblings=sibs, encode=encode, floor=-1)
                alone = grade_meaning(it["key"], it["answer"], term=it["term"], encode=encode, floor=-1)
                if model is not None:
                    t0 = time.perf_counter()
                    it["judge_p"] = judge_meaning(model, it["key"], it["answer"], it["term"])
                    it["judge_s"] = time.perf_counter() - t0
                    it["old_judge"] = old_judge(model, it["key"], it["answer"])
                it.update(words=words_verdict(it).value, cos=full.score, nn_ok=full.verdict is not Verdict.INCORRECT,
                          polarity_ok="opposite" not in full.reason, alone_ok=alone.verdict is not Verdict.INCORRECT,
                          confused_with=full.confused_with, siblings=len(sibs))
        scored[book] = its

    def accepted(it: dict, floor: float, siblings: bool = True) -> bool:
        return (it["nn_ok"] if siblings else it["alone_ok"]) and it["cos"] >= floor

    def right(its, floor, siblings=True) -> int:
        return sum(accepted(it, floor, siblings) == (it["label"] == "correct") for it in its)

    rows, chosen = [], {}
    for book, its in scored.items():
        others = [it for b, xs in scored.items() if b != book for it in xs]
        chosen[book] = max(FLOORS, key=lambda f: (right(others, f), -abs(f - 0.5)))
        chosen_alone = max(FLOORS, key=lambda f: (right(others, f, False), -abs(f - 0.5)))
        good = [it for it in its if it["label"] == "correct"]
        bad = [it for it in its if it["label"] == "wrong"]
        rows.append((book, len(good), len(bad),
                     sum(it["words"] == "correct" for it in good), sum(it["words"] != "correct" for it in bad),
                     sum(accepted(it, chosen[book]) for it in good), sum(not accepted(it, chosen[book]) for it in bad),
                     sum(accepted(it, chosen_alone, False) for it in good),
                     sum(not accepted(it, chosen_alone, False) for it in bad),
                     sum(it["nn_ok"] and it["polarity_ok"] for it in good),
                     sum(not (it["nn_ok"] and it["polarity_ok"]) for it in bad), chosen[book], chosen_alone))
    print("| book | correct / wrong answers | words: accepted / rejected | meaning (floor left out): accepted / "
          "rejected | meaning, no siblings | meaning, no floor | floor chosen on the other books |")
    print("|---|---|---|---|---|---|---|")
    tot = [0] * 10
    for r in rows:
        print(f"| {r[0]} | {r[1]} / {r[2]} | {r[3]} / {r[4]} | {r[5]} / {r[6]} | {r[7]} / {r[8]} | {r[9]} / {r[10]} | "
              f"{r[11]} (no siblings {r[12]}) |")
        tot = [a + b for a, b in zip(tot, r[1:11])]
    print(f"| **all** | {tot[0]} / {tot[1]} | {tot[2]} / {tot[3]} | {tot[4]} / {tot[5]} | {tot[6]} / {tot[7]} | "
          f"{tot[8]} / {tot[9]} | |")
    if model is not None:  # grade() with a model accepts what the model accepts; the check first was worse
        print(f"\n| book | session 12's judge (baseline): correct accepted / wrong rejected | the judge at "
              f"{JUDGE_FLOOR} (shipped) | the judge, floor left out | nearest-concept check, then the judge | "
              "seconds per answer p50 |")
        print("|---|---|---|---|---|---|")
        tot = [0] * 8
        for book, its in scored.items():
            good = [it for it in its if it["label"] == "correct"]
            bad = [it for it in its if it["label"] == "wrong"]
            left_out = judge_floor([it for b, xs in scored.items() if b != book for it in xs])
            checked = lambda it: it["judge_p"] >= JUDGE_FLOOR and it["nn_ok"] and it["polarity_ok"]  # noqa: E731
            secs = sorted(it["judge_s"] for it in its)[len(its) // 2]
            row = [sum(it["old_judge"] for it in good), sum(not it["old_judge"] for it in bad),
                   sum(it["judge_p"] >= JUDGE_FLOOR for it in good), sum(it["judge_p"] < JUDGE_FLOOR for it in bad),
                   sum(it["judge_p"] >= left_out for it in good), sum(it["judge_p"] < left_out for it in bad),
                   sum(checked(it) for it in good), sum(not checked(it) for it in bad)]
            tot = [a + b for a, b in zip(tot, row)]
            print(f"| {book} | {row[0]} / {row[1]} | {row[2]} / {row[3]} | {row[4]} / {row[5]} ({left_out:.2f}) | "
                  f"{row[6]} / {row[7]} | {secs:.1f} |")
        print(f"| **all** | {tot[0]} / {tot[1]} | {tot[2]} / {tot[3]} | {tot[4]} / {tot[5]} | {tot[6]} / {tot[7]} | |")
        print(f"floor chosen on all five books: {judge_floor([it for xs in scored.values() for it in xs]):.2f}")
    misses = [it for its in scored.values() for it in its
              if accepted(it, chosen[it["book"]]) != (it["label"] == "correct")]
    print(f"\n{len(misses)} graded wrong by meaning:")
    for it in misses:
        print(f"- {it['book']} | {it['label']} ({it['kind']}) | {it['term']}: “{it['answer']}” cos {it['cos']:.2f}"
              f"{' · nearer to ' + it['confused_with'] if it['confused_with'] else ''}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "items": scored}, indent=1, default=str))


if __name__ == "__main__":
    main()
