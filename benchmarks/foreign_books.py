"""Books written in French, German or Spanish: found and answered in their language and in English?

    .venv/bin/python benchmarks/foreign_books.py --libs /work/libs-ml [--answers 6] [--out X.json]

The Debian Reference (Debian package ``debian-reference-{en,fr,de,es}``, GPL-2+; one PDF per language with the same
section numbers), imported into ``<libs>/dr-<lang>`` (``--import`` does it).  The 36 questions of
``benchmarks/data/foreign-books/debian-reference.jsonl`` were written in English in a student's own words, each
translated into French, German and Spanish, with key terms per language and a gold section.  One run, per book:

* retrieval, Hit@5 (a top-5 passage in the gold section): keyword-only, dense-only and the app's search
  (``Library.find``), for the question in the book's language, beside the same searches with porter stems alone
  (``RetrievalConfig(stems=False)``: the index before Snowball stems, today's baseline);
* an English question about a non-English book: as asked (untranslated, the baseline) and translated into the
  book's language by the chat model first (what ``Tutor.ask`` does), and how often the tutor takes it as English;
* the coverage decision: the share of questions in the book's language declined;
* answers end to end (``--answers N`` questions): declined, key-term recall (the book's language's keys; for an
  English question the English keys, the answer being translated back), and whether the answer is written in the
  language asked;
* near-domain questions the book does not answer (``debian-reference-offbook.jsonl``, 12, in each language):
  the share declined end to end (``--offbook``), in the book's language;
* search p50 (``Library.find``) and import time (``--import``).

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
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import fmt, load, load_jsonl, p50, share  # noqa: E402

from core.answer.language import ENGLISH, untranslated  # noqa: E402
from core.answer.multilingual import chat_with, translate_question  # noqa: E402
from core.answer.tutor import Tutor  # noqa: E402
from core.evaluation.answers import ask_once  # noqa: E402
from core.evaluation.keys import key_term_recall  # noqa: E402
from core.ingest.language import stems  # noqa: E402
from core.library import Library  # noqa: E402
from core.llm.model import LocalModel  # noqa: E402
from core.llm.settings import LLMSettings  # noqa: E402
from core.models import SearchMode  # noqa: E402
from core.retrieval.retriever import RetrievalConfig  # noqa: E402

DATA = REPO / "benchmarks" / "data" / "foreign-books" / "debian-reference.jsonl"
OFFBOOK = DATA.with_name("debian-reference-offbook.jsonl")
LANGS = ("en", "fr", "de", "es")
PDF = "usr/share/debian-reference/debian-reference.{lang}.pdf"  # inside the extracted .deb
SEARCHES = {"keyword": SearchMode.KEYWORD, "dense": SearchMode.VECTOR}


def is_gold(hit, section: str) -> bool:
    number = hit.chunk.section_number or ""
    return number == section or number.startswith(section + ".")


def hit5(hits, section: str) -> bool:
    return any(is_gold(h, section) for h in hits[:5])


def searches(lib: Library, book_id: str, text: str, section: str) -> dict:
    """Hit@5 of keyword-only, dense-only and the app's search (with its time) for one question."""
    out = {name: hit5(lib.search(text, 5, book_id=book_id, mode=mode), section) for name, mode in SEARCHES.items()}
    t = time.perf_counter()
    out["app"] = hit5(lib.find(text, 5, book_id=book_id), section)
    out["app_ms"] = (time.perf_counter() - t) * 1000
    return out


def baseline(root: Path, lang: str, questions: list[dict]) -> dict:
    """Keyword-only and app Hit@5 with porter stems alone (no Snowball column): the index as it was."""
    lib = Library(root, retrieval=RetrievalConfig(stems=False))
    try:
        book_id = lib.books()[0].id
        rows = [{"keyword": hit5(lib.search(q[lang], 5, book_id=book_id, mode=SearchMode.KEYWORD), q["section"]),
                 "app": hit5(lib.find(q[lang], 5, book_id=book_id), q["section"])} for q in questions]
    finally:
        lib.close()
    return {name: share(r[name] for r in rows) for name in ("keyword", "app")}


def retrieval(tutor: Tutor, lang: str, questions: list[dict]) -> tuple[dict, list]:
    lib = tutor.library
    book_id = lib.books()[0].id
    chat = chat_with(tutor.model)
    rows = []
    for q in questions:
        row = {"id": q["id"], "lang": lang, **searches(lib, book_id, q[lang], q["section"])}
        _, verdict = tutor.retrieve(q[lang], book_id=book_id)
        row["declined"] = not verdict.covered
        row["taken_as_book_language"] = tutor.language_of(q[lang], book_id) == lang
        if lang != ENGLISH:
            english = q[ENGLISH]
            row["english_as_asked"] = hit5(lib.find(english, 5, book_id=book_id), q["section"])
            taken = tutor.language_of(english, book_id)
            row["english_taken_as_english"] = taken == ENGLISH
            asked = english
            if taken != lang:
                t = time.perf_counter()
                asked = translate_question(chat, english, taken, lang)
                row["translate_ms"] = (time.perf_counter() - t) * 1000
                asked = english if untranslated(english, asked) else asked
            row["english_translated"] = hit5(lib.find(asked, 5, book_id=book_id), q["section"])
            row["english_asked_as"] = asked
        rows.append(row)
    summary = {name: share(r[name] for r in rows if name in r)
               for name in ("keyword", "dense", "app", "declined", "taken_as_book_language", "english_as_asked",
                            "english_translated", "english_taken_as_english")}
    summary["search_ms_p50"] = p50([r["app_ms"] for r in rows])
    summary["translate_ms_p50"] = p50([r["translate_ms"] for r in rows if "translate_ms" in r])
    return summary, rows


def answers(tutor: Tutor, lang: str, questions: list[dict], n: int) -> tuple[dict, list]:
    """``n`` questions answered end to end, in the book's language and (for a non-English book) in English."""
    book_id = tutor.library.books()[0].id
    step = max(1, len(questions) // n)
    rows = []
    for q in questions[::step][:n]:
        for asked_in in dict.fromkeys((lang, ENGLISH)):
            answer, _ = ask_once(tutor, q[asked_in], book_id=book_id)
            terms = [[k] for k in q["keys"][asked_in]]
            rows.append({"id": q["id"], "book": lang, "asked_in": asked_in, "question": q[asked_in],
                         "answer": answer.text, "original": answer.original, "language": answer.language,
                         "refused": answer.refused,
                         "recall": 0.0 if answer.refused else key_term_recall(answer.text, terms, asked_in),
                         "total_ms": answer.timings.get("total_ms"), "citations": len(answer.citations),
                         "greyed": len(answer.unsupported)})
            print(f"    {lang}<-{asked_in} {q['id']} refused {answer.refused!s:5} recall {rows[-1]['recall']:.2f} "
                  f"{answer.text[:100]!r}  [{load()}]", flush=True)
    summary = {}
    for asked_in in dict.fromkeys((lang, ENGLISH)):
        sel = [r for r in rows if r["asked_in"] == asked_in]
        summary[asked_in] = {"n": len(sel), "declined": share(r["refused"] for r in sel),
                             "key_term_recall": round(statistics.fmean(r["recall"] for r in sel), 3),
                             "in_language_asked": share(r["language"] == asked_in for r in sel if not r["refused"]),
                             "whole_answer_ms_p50": p50([r["total_ms"] for r in sel if r["total_ms"]])}
    return summary, rows


def offbook(tutor: Tutor, lang: str, questions: list[dict]) -> tuple[dict, list]:
    """Near-domain questions the book does not answer, asked end to end in the book's language: declined?"""
    book_id = tutor.library.books()[0].id
    rows = []
    for q in questions:
        answer, _ = ask_once(tutor, q[lang], book_id=book_id)
        rows.append({"id": q["id"], "book": lang, "offbook": True, "question": q[lang], "answer": answer.text,
                     "refused": answer.refused, "greyed": len(answer.unsupported),
                     "all_greyed": bool(answer.text) and not answer.refused and not answer.supported})
        print(f"    {lang} off {q['id']} refused {answer.refused!s:5} {answer.text[:100]!r}  [{load()}]", flush=True)
    return {"n": len(rows), "declined": share(r["refused"] for r in rows),
            "declined_or_all_greyed": share(r["refused"] or r["all_greyed"] for r in rows)}, rows


def import_books(debs: Path, libs: Path, langs: list[str]) -> dict:
    """Import each language's PDF into ``<libs>/dr-<lang>``: seconds per book, and the part of it the Snowball
    stems take (stemming every chunk again, as the import did)."""
    seconds = {}
    for lang in langs:
        t = time.perf_counter()
        with Library(libs / f"dr-{lang}") as lib:
            book = lib.import_book(debs / lang / PDF.format(lang=lang)).book
            total = time.perf_counter() - t
            t = time.perf_counter()
            for chunk in lib.study_chunks(book.id):
                stems(" ".join((chunk.chapter_title, chunk.section_title, chunk.text)), book.language)
        seconds[lang] = {"import_s": round(total, 1), "stems_s": round(time.perf_counter() - t, 1),
                         "language": book.language}
        print(f"imported dr-{lang}: {seconds[lang]}  [{load()}]", flush=True)
    return seconds


def table(report: dict) -> str:
    lines = ["| book | Hit@5 keyword: porter → + Snowball | dense | app search: porter → + Snowball | English "
             "question: as asked → translated | declined by coverage | search p50 |", "|---|---|---|---|---|---|---|"]
    for lang, row in report["books"].items():
        r, b = row.get("retrieval"), row.get("baseline")
        if not r:
            continue
        english = "—" if lang == ENGLISH else f"{fmt(r['english_as_asked'])} → {fmt(r['english_translated'])}"
        lines.append(f"| dr-{lang} | {fmt(b['keyword'])} → {fmt(r['keyword'])} | {fmt(r['dense'])} | {fmt(b['app'])} → "
                     f"{fmt(r['app'])} | {english} | {fmt(r['declined'])} | {r['search_ms_p50']} ms |")
    return "\n".join(lines)


def answers_table(report: dict) -> str:
    lines = ["| book | asked in | answers | declined | key-term recall | answered in the language asked | whole answer "
             "p50 | near-domain declined (or wholly greyed) |", "|---|---|---|---|---|---|---|---|"]
    for lang, row in report["books"].items():
        off = row.get("offbook")
        for asked_in, a in row.get("answers", {}).items():
            ms = a["whole_answer_ms_p50"]
            near = f"{fmt(off['declined'])} ({fmt(off['declined_or_all_greyed'])})" if off and asked_in == lang else "—"
            lines.append(f"| dr-{lang} | {asked_in} | {a['n']} | {fmt(a['declined'])} | {fmt(a['key_term_recall'])} | "
                         f"{fmt(a['in_language_asked'])} | {'—' if ms is None else f'{ms / 1000:.1f} s'} | {near} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True, help="holds dr-en, dr-fr, dr-de, dr-es")
    ap.add_argument("--langs", nargs="*", default=list(LANGS))
    ap.add_argument("--import", dest="debs", type=Path, help="first import the PDFs from the .debs extracted here "
                    "(<dir>/<lang>/usr/share/...)")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--answers", type=int, default=6, help="questions answered end to end per book (0: none)")
    ap.add_argument("--offbook", action="store_true", help="also ask the near-domain questions end to end")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"benchmarks.foreign_books  [{load()}]  {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    report: dict = {"load_start": os.getloadavg(), "books": {}, "rows": []}
    if args.debs:
        report["import"] = import_books(args.debs, args.libs, args.langs)
    questions = load_jsonl(DATA)
    model = LocalModel(LLMSettings.from_env(model=args.model))
    try:
        for lang in args.langs:
            row = report["books"].setdefault(lang, {})
            row["baseline"] = baseline(args.libs / f"dr-{lang}", lang, questions)
            lib = Library(args.libs / f"dr-{lang}")
            tutor = Tutor(lib, model)
            tutor.prewarm().result()
            row["retrieval"], rows = retrieval(tutor, lang, questions)
            report["rows"] += rows
            print(f"dr-{lang} baseline {json.dumps(row['baseline'])} retrieval {json.dumps(row['retrieval'])}  "
                  f"[{load()}]", flush=True)
            if args.answers:
                row["answers"], rows = answers(tutor, lang, questions, args.answers)
                report["rows"] += rows
                print(f"dr-{lang} answers {json.dumps(row['answers'])}  [{load()}]", flush=True)
            if args.offbook:
                row["offbook"], rows = offbook(tutor, lang, load_jsonl(OFFBOOK))
                report["rows"] += rows
                print(f"dr-{lang} offbook {json.dumps(row['offbook'])}  [{load()}]", flush=True)
            lib.close()
            if args.out:
                args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
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
