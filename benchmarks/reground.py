"""What would today's grounding change on stored answers?  Re-ground the answers a benchmark stored, same evidence.

    .venv/bin/python benchmarks/reground.py --answers answers.json [--libs /work/libs] [--out changed.json]

The chat model (``--model``) checks each Yes/No verdict against the sentence that carries it, as the app does
(``grounding.VERDICT``) and each cited sentence against the sentences that carry it (``grounding.UNSTATED``;
``core.answer.verification``; ``AnswerSettings.check_chips``); ``--words-only`` leaves the chips to the words.

``--answers``: the ``--out`` file of ``benchmarks/answers.py`` (its "answers") or of ``benchmarks/heldout.py``
(its "rows"; pass ``--libs`` that run's libraries).  Each stored answer is split into its sentences again and
grounded by today's code (``preparation.ground_answer``) against the evidence today's code gives the question,
which is what the model read when retrieval and evidence selection have not changed since the run.  A rule
that only greys or un-greys is measured this way without asking the model again: the run's own answers are the
baseline.  Printed: per book, the answers re-grounded, how many reproduce the stored greying exactly (the check
that the evidence is the same), and every sentence whose greying changed, with its chip before and after.

An answer declined after the model (nothing it wrote was carried; the run stored what it wrote) is re-grounded
too, and every answer is decided again as ``Tutor`` decides: shown when a sentence is cited or bears on the
question (``grounding.bears_on_question``) and the model did not say the book does not answer, or when the
evidence defines what was asked; else declined.  Printed per book: the
in-book and near-domain questions declined in the run and now (a decline before the model stays one).
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import load  # noqa: E402

from core.answer.attribution import Support, split_answer  # noqa: E402
from core.answer.grounding import bears_on_question  # noqa: E402
from core.answer.preparation import AnswerSettings, book_definition, ground_answer, prepare  # noqa: E402
from core.answer.replies import says_not_covered  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.library import Library  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402


def regrounded(tutor: Tutor, book_id: str, row: dict, verify: bool = False) -> tuple[list, bool]:
    """The stored answer's sentences (or, for an answer declined after the model, what the model wrote), grounded
    again (``Attributed`` records), and whether ``Tutor`` would show the answer now; with ``verify``, each cited
    sentence is also checked against its chip by the tutor's model (``core.answer.verification``)."""
    hits, verdict, gathered = tutor._retrieve(row["question"], book_id, (), None)
    prep = prepare(tutor, row["question"], hits, beyond_note=False, use_model=True, gathered=gathered)
    sentences = ([(0, t, ()) for t in row["dropped_text"]] if row.get("refused") else split_answer(row["answer"]))
    att = ground_answer(tutor.embedder, sentences, prep, prep.sources, row["question"],
                        beyond=False, unused=verdict.unused, unused_words=verdict.unused_words,
                        model=tutor.model, check_chips=verify)
    # As ``Tutor._finish`` decides: the model's own "the book does not say" declines unless the evidence defines
    # what was asked.
    if bears_on_question(att) and not says_not_covered(" ".join(t for _, t, _ in sentences)):
        return att, True
    return att, book_definition(prep, row["question"]) is not None


def redecided(row: dict) -> bool:
    """Was the answer declined after the model, with what it wrote stored (so it can be decided again)?"""
    return bool(row.get("refused") and row.get("dropped_text"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--answers", type=Path, required=True)
    ap.add_argument("--libs", type=Path, default=Path("/work/libs"))
    ap.add_argument("--model", default="qwen2.5-coder-1.5b", help="the chat model: its tokenizer counts, and it "
                    "checks the chips (nothing is generated)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--words-only", action="store_true", help="do not let the chat model check the chips "
                    "(core.answer.verification; AnswerSettings.check_chips, on in the app)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    data = json.loads(args.answers.read_text(encoding="utf-8"))
    every = data.get("answers") or data.get("rows") or []
    rows = [r for r in every if (not r.get("refused") and r.get("answer")) or redecided(r)]
    print(f"benchmarks.reground {args.answers}  [{load()}]", flush=True)
    model = LocalModel(LLMSettings.from_env(model=args.model))
    changed, counts, todo = [], Counter(), {id(r) for r in rows}
    for book in dict.fromkeys(r.get("book") or r.get("set") for r in rows):
        lib = Library(args.libs / book)
        tutor, book_id = Tutor(lib, model, settings=AnswerSettings()), lib.books()[0].id
        for row in (r for r in every if (r.get("book") or r.get("set")) == book):
            kind = "near-domain" if row.get("near_domain") else "in-book"
            counts[book, kind] += 1
            counts[book, kind, "declined before"] += bool(row.get("refused"))
            if id(row) not in todo:  # declined before the model: still declined
                counts[book, kind, "declined now"] += bool(row.get("refused"))
                continue
            att, shown = regrounded(tutor, book_id, row, not args.words_only)
            counts[book, kind, "declined now"] += not shown
            if shown == bool(row.get("refused")):
                print(f"  {book[:10]:10} {kind} answer {'SHOWN' if shown else 'DECLINED'} now: {row['question'][:90]}",
                      flush=True)
            if row.get("refused"):
                continue
            greyed = {a.text for a in att if a.support is Support.WEAK}
            counts[book, "answers"] += 1
            if "flagged_text" in row:  # (older runs stored no greying for near-domain answers)
                counts[book, "stored"] += 1
                counts[book, "reproduced"] += greyed == set(row["flagged_text"])
                for a in att:
                    if (a.text in greyed) != (a.text in row["flagged_text"]):
                        counts[book, "changed"] += 1
                        changed.append({"book": book, "question": row["question"], "sentence": a.text,
                                        "now": a.support.name, "reason": a.conflict, "chip": a.quote,
                                        "near_domain": bool(row.get("near_domain"))})
                        print(f"  {book[:10]:10} {'near-domain ' if row.get('near_domain') else ''}{a.support.name:9} "
                              f"{a.conflict or '':30} {a.text[:110]}", flush=True)
        print(f"{book}: {counts[book, 'answers']} answers re-grounded; of the {counts[book, 'stored']} with their "
              f"greying stored, {counts[book, 'reproduced']} reproduce it and {counts[book, 'changed']} sentences "
              f"changed; declined in the run → now: in-book {counts[book, 'in-book', 'declined before']} → "
              f"{counts[book, 'in-book', 'declined now']} of {counts[book, 'in-book']}, near-domain "
              f"{counts[book, 'near-domain', 'declined before']} → {counts[book, 'near-domain', 'declined now']} of "
              f"{counts[book, 'near-domain']}  [{load()}]", flush=True)
    if args.out:
        args.out.write_text(json.dumps(changed, indent=1), encoding="utf-8")
    model.close()  # a llama.cpp model left to the interpreter's exit may crash it
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
