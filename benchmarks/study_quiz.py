"""Generated quiz questions: how many survive verification, and whether their source holds the answer.

    .venv/bin/python benchmarks/study_quiz.py psychology-2e=/tmp/bench-psy chemistry-2e=/tmp/bench-chem \
        [--attempts 12] [--model qwen2.5-coder-0.5b] [--chapters 3]

For each BOOK=LIBRARY_DIR, ``--attempts`` passages spread over ``--chapters`` chapters (evenly
spaced) go to ``core.study.quiz.model_quiz`` (JSON-schema-constrained generation, then
``verify_candidate``).  Printed: attempts, kept, rejections by reason, seconds per attempt, and for
the kept questions the share whose source chunk (the whole stored chunk, not just the prompt) contains
the keyed answer verbatim (case/punctuation/spacing ignored) and the share where one sentence holds
every content word of the answer.  The glossary quiz (no model) is measured the same way as a
baseline.  Prints the load average beside the timings: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.library import Library  # noqa: E402
from core.llm.settings import LLMSettings
from core.llm.model import LocalModel  # noqa: E402
from core.study.quiz import QuizRun, glossary_quiz, model_quiz  # noqa: E402
from core.study.text import contains_answer, support  # noqa: E402


def source_checks(lib: Library, run: QuizRun) -> tuple[float, float]:
    chunks = lib.chunks([q.source.chunk_id for q in run.questions])
    verbatim = semantic = 0
    for q in run.questions:
        text = chunks[q.source.chunk_id].text
        verbatim += contains_answer(text, q.answer)
        semantic += support(text, q.answer)[0] >= 1.0 or contains_answer(text, q.answer)
    n = max(1, len(run.questions))
    return verbatim / n, semantic / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("books", nargs="+", metavar="BOOK=LIBRARY")
    ap.add_argument("--attempts", type=int, default=12, help="passages sent to the model per book")
    ap.add_argument("--chapters", type=int, default=3, help="chapters sampled per book")
    ap.add_argument("--model", default=None, help="catalogue key or .gguf (default: $LANTERN_CHAT_MODEL / bundled)")
    args = ap.parse_args()
    model = LocalModel(LLMSettings.from_env(model=args.model))
    t0 = time.perf_counter()
    model.load()
    print(f"model {model.display_name}: loaded in {time.perf_counter() - t0:.1f} s; load average "
          f"{os.getloadavg()[0]:.2f}")
    totals = {"attempted": 0, "kept": 0, "verbatim": 0.0, "semantic": 0.0, "cloze": 0}
    for pair in args.books:
        book, library = pair.split("=", 1)
        lib = Library(Path(library))
        b = lib.books()[0]
        chapters = sorted({s.number for s in lib.sections(b.id) if s.level == 1 and s.number and s.number.isdigit()},
                          key=int)
        step = max(1, len(chapters) // args.chapters)
        picked = chapters[::step][:args.chapters]
        per = max(1, args.attempts // len(picked))
        for ch in picked:
            chunks = lib.study_chunks(b.id, chapter=ch)
            t = time.perf_counter()
            run = model_quiz(model, chunks, n=per, attempts=per)
            seconds = time.perf_counter() - t
            verbatim, semantic = source_checks(lib, run)
            gloss = glossary_quiz(chunks, 5)
            gv, _ = source_checks(lib, gloss)
            print(f"{book} ch {ch:>2}: attempted {run.attempted}, kept {len(run.questions)}, "
                  f"rejected {dict(run.rejected)}; {seconds / max(1, run.attempted):.1f} s/attempt "
                  f"(load {os.getloadavg()[0]:.2f}); source contains answer: verbatim {verbatim:.2f}, "
                  f"all words in one sentence {semantic:.2f}; glossary quiz verbatim {gv:.2f} "
                  f"({len(gloss.questions)} q)")
            for q in run.questions:
                print(f"    [{q.generator}] Q: {q.question}\n       A: {q.answer} | {q.choices}")
                totals["cloze"] += q.generator.endswith("cloze")
            totals["attempted"] += run.attempted
            totals["kept"] += len(run.questions)
            totals["verbatim"] += verbatim * len(run.questions)
            totals["semantic"] += semantic * len(run.questions)
        lib.close()
    kept = max(1, totals["kept"])
    print(f"\nTOTAL: {totals['kept']} kept of {totals['attempted']} attempted "
          f"({totals['kept'] / max(1, totals['attempted']):.2f}; {totals['cloze']} of them cloze fallbacks); "
          f"source contains the keyed answer: verbatim "
          f"{totals['verbatim'] / kept:.3f}, all content words in one sentence {totals['semantic'] / kept:.3f}")
    model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
