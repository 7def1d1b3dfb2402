"""Questions in another language than the book's: found, answered and declined as their English originals are?

    .venv/bin/python benchmarks/multilingual.py --libs /work/libs [--books ...] [--answers 4] [--out X.json]

Per dev book, the 40 questions of ``benchmarks/data/multilingual/<book>.jsonl``, each in Spanish, French, German,
Portuguese and Chinese, beside their English originals, in one run (model: Qwen2.5-Coder-1.5B, the app's choice):

* detection: the share of foreign questions the tutor takes as foreign (``Tutor.language_of``, then the
  "translation kept every word" check), and of the English originals it takes as English;
* retrieval, no answer: Hit@5 (a top-5 passage in the gold section or on the gold pages) for the English question,
  the foreign question as asked (the pipeline without translation: the baseline), and the foreign question
  translated by the chat model first (what ``Tutor.ask`` does); the share the coverage decision declines for the
  English and the translated question;
* answers, end to end (``--answers N`` questions per language): declined, and key-term recall of the answer in the
  student's language (keys translated; the book's English term counts too);
* cost: question translation p50, whole answer p50.

The load average is printed with every book: on a shared 2-core machine it moves latency a lot.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library, fmt, load, load_jsonl, p50, share  # noqa: E402

from core.answer.language import ENGLISH, LANGUAGES, untranslated  # noqa: E402
from core.answer.multilingual import chat_with, translate_question  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.answers import ask_once, spread  # noqa: E402
from core.evaluation.keys import key_term_recall, load_keys  # noqa: E402
from core.evaluation.retrieval import is_gold, load_questions  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402

DATA = REPO / "benchmarks" / "data"
MODES = ("english", "as asked", "translated")



def book_questions(book: str) -> tuple[list, dict, dict]:
    """The book's gold questions in file order, their translations by (qid, lang), and the English keys by qid."""
    rows = load_jsonl(DATA / "multilingual" / f"{book}.jsonl")
    gold = {q.qid: q for q in load_questions(BENCH / book / "questions.jsonl")}
    qids = list(dict.fromkeys(r["qid"] for r in rows))
    keys_path = DATA / "answer_keys" / f"{book}.jsonl"
    keys = {qid: k.key_terms for qid, k in load_keys(keys_path).items()} if keys_path.exists() else {}
    return [gold[q] for q in qids], {(r["qid"], r["lang"]): r for r in rows}, keys


def retrieval(tutor: Tutor, book_id: str, questions: list, foreign: dict) -> tuple[dict, list]:
    """Hit@5 per language and mode, coverage declines (English and translated), language detection, and
    translation time.  One language after another, as a student asks: the model reuses its cached prompt."""
    rows, detect_ms, translate_ms = [], [], []
    for q in questions:
        rows.append({**_retrieve_row(tutor, book_id, q, ENGLISH, "english", q.text()),
                     "taken_as": tutor.language_of(q.text(), book_id)})
    chat = chat_with(tutor.model)
    for lang in LANGUAGES:
        for q in questions:
            asked = replace(q, question=foreign[(q.qid, lang)]["question"]).text()
            rows.append(_retrieve_row(tutor, book_id, q, lang, "as asked", asked, coverage=False))
            t = time.perf_counter()
            taken = tutor.language_of(asked, book_id)
            detect_ms.append((time.perf_counter() - t) * 1000)
            english = asked
            if taken != ENGLISH:
                t = time.perf_counter()
                english = translate_question(chat, asked, taken)
                translate_ms.append((time.perf_counter() - t) * 1000)
                if untranslated(asked, english):
                    taken, english = ENGLISH, asked
            rows.append({**_retrieve_row(tutor, book_id, q, lang, "translated", english), "taken_as": taken})
    summary: dict = {}
    for lang in (ENGLISH, *LANGUAGES):
        for mode in MODES:
            sel = [r for r in rows if r["lang"] == lang and r["mode"] == mode]
            if sel:
                summary[f"{lang} · {mode}"] = {"n": len(sel), "hit@5": share(r["hit5"] for r in sel),
                                               "declined": share(r["declined"] for r in sel
                                                                  if r["declined"] is not None)}
    english_rows = [r for r in rows if r["mode"] == "english"]
    foreign_rows = [r for r in rows if r["mode"] == "translated"]
    summary["detected"] = {"foreign_as_foreign": share(r["taken_as"] == r["lang"] for r in foreign_rows),
                           "english_as_english": share(r["taken_as"] == ENGLISH for r in english_rows),
                           "detect_ms_p50": p50(detect_ms), "translate_ms_p50": p50(translate_ms)}
    return summary, rows


def _retrieve_row(tutor: Tutor, book_id: str, q, lang: str, mode: str, text: str, coverage: bool = True) -> dict:
    """One question's Hit@5 and, with ``coverage``, whether the coverage decision declines it (the foreign question
    as asked only gets Hit@5: the baseline, and the cheap part)."""
    if coverage:
        hits, verdict = tutor.retrieve(text, book_id=book_id)
        declined = not verdict.covered
    else:
        hits, declined = tutor.library.find(text, 5, book_id=book_id), None
    return {"qid": q.qid, "lang": lang, "mode": mode, "question": text,
            "hit5": any(is_gold(h.chunk, q) for h in hits[:5]), "declined": declined}


def answers(tutor: Tutor, book_id: str, questions: list, foreign: dict, keys: dict, n: int) -> tuple[dict, list]:
    """End-to-end answers to ``n`` questions in English and in every language: declined, key-term recall."""
    rows = []
    for q in spread(questions, n):
        for lang in (ENGLISH, *LANGUAGES):
            text = q.text() if lang == ENGLISH else replace(q, question=foreign[(q.qid, lang)]["question"]).text()
            terms = keys.get(q.qid) if lang == ENGLISH else foreign[(q.qid, lang)].get("key_terms")
            answer, _ = ask_once(tutor, text, book_id=book_id)
            timings = answer.timings
            rows.append({"qid": q.qid, "lang": lang, "question": text, "answer": answer.text,
                         "english": answer.original, "language": answer.language, "refused": answer.refused,
                         "recall": key_term_recall(answer.text, terms, lang) if terms and not answer.refused else
                         (0.0 if terms else None),
                         "total_ms": timings.get("total_ms"), "citations": len(answer.citations)})
            print(f"    {lang} {q.qid[-10:]} refused {answer.refused!s:5} recall {rows[-1]['recall']}  "
                  f"{answer.text[:90]!r}  [{load()}]", flush=True)
    summary = {}
    for lang in (ENGLISH, *LANGUAGES):
        sel = [r for r in rows if r["lang"] == lang]
        scored = [r["recall"] for r in sel if r["recall"] is not None]
        summary[lang] = {"n": len(sel), "declined": share(r["refused"] for r in sel),
                         "key_term_recall": round(statistics.fmean(scored), 3) if scored else None,
                         "in_language": share(r["language"] == lang for r in sel if not r["refused"]),
                         "whole_answer_ms_p50": p50([r["total_ms"] for r in sel if r["total_ms"]])}
    return summary, rows


def table(report: dict) -> str:
    lines = ["| book | language | Hit@5 as asked → translated (English) | declined by coverage, translated "
             "(English) | answers: declined / key-term recall (English) |", "|---|---|---|---|---|"]
    for book, row in report["books"].items():
        r, a = row.get("retrieval"), row.get("answers", {})
        if r is None:
            continue
        en = r[f"{ENGLISH} · english"]
        for lang in LANGUAGES:
            asked, tr = r[f"{lang} · as asked"], r[f"{lang} · translated"]
            ans = a.get(lang)
            answered = (f"{ans['declined']:.2f} / {fmt(ans['key_term_recall'])} ({a[ENGLISH]['declined']:.2f} / "
                        f"{fmt(a[ENGLISH]['key_term_recall'])})") if ans else "—"
            lines.append(f"| {book} | {lang} | {asked['hit@5']:.2f} → {tr['hit@5']:.2f} ({en['hit@5']:.2f}) | "
                         f"{tr['declined']:.2f} ({en['declined']:.2f}) | {answered} |")
    return "\n".join(lines)


def answers_table(report: dict) -> str:
    """Per book and language: answers declined, key-term recall, answered in the student's language, p50 time."""
    lines = ["| book | language | answers | declined | key-term recall | in the student's language | whole answer p50 |",
             "|---|---|---|---|---|---|---|"]
    for book, row in report["books"].items():
        for lang, a in row.get("answers", {}).items():
            ms = a["whole_answer_ms_p50"]
            lines.append(f"| {book} | {lang} | {a['n']} | {a['declined']:.2f} | {fmt(a['key_term_recall'])} | "
                         f"{fmt(a['in_language'])} | {'—' if ms is None else f'{ms / 1000:.1f} s'} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--answers", type=int, default=4, help="questions per language answered end to end (0: none)")
    ap.add_argument("--answers-only", action="store_true", help="skip the retrieval part (answers need --answers)")
    ap.add_argument("--out", type=Path, help="write the report and every row here (JSON), after every book")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.multilingual  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    report: dict = {"load_start": os.getloadavg(), "books": {}, "rows": []}
    model = LocalModel(LLMSettings.from_env(model=args.model))
    try:
        for book in args.books:
            lib = book_library(args.libs, book)
            book_id = lib.books()[0].id
            tutor = Tutor(lib, model)
            tutor.retrieve("warm up the search indexes", book_id=book_id)
            tutor.prewarm().result()
            questions, foreign, keys = book_questions(book)
            row = report["books"].setdefault(book, {})
            if not args.answers_only:
                row["retrieval"], rows = retrieval(tutor, book_id, questions, foreign)
                report["rows"] += [{"book": book, **r} for r in rows]
                print(f"{book} retrieval: {json.dumps(row['retrieval'])}  [{load()}]", flush=True)
            if args.answers:
                row["answers"], rows = answers(tutor, book_id, questions, foreign, keys, args.answers)
                report["rows"] += [{"book": book, **r} for r in rows]
                print(f"{book} answers: {json.dumps(row['answers'])}  [{load()}]", flush=True)
            if args.out:
                args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
            lib.close()
    finally:
        model.close()
    report["load_end"] = os.getloadavg()
    print(table(report))
    print(answers_table(report))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
