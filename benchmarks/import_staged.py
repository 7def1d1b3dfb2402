"""How soon a dropped book can be asked about, how fast it finishes, and what a SIGKILL costs (issue #19).

    .venv/bin/python benchmarks/import_staged.py [--books psychology-2e,...] [--big] [--kill]

For each PDF, on a fresh library whose embedding model is already loaded (the app loads it at start):
* seconds from the drop to keyword-searchable (``on_searchable``) and to the first answer: the tutor
  asked the book's first benchmark question at that moment, with no chat model, so what it shows is the
  cited "From the book" sentence and the quoted answer (a chat model's first token comes after that);
* seconds to complete, pages per minute end to end, and beside it the embedding floor: pages per
  minute if the import did nothing but the model pass it ran (time inside ``embed_windows``).
``--big`` adds one PDF of about 2,000 pages made by joining three dev books (with their bookmarks).
``--kill`` starts an import of the first book in a child process, SIGKILLs it after its first chapters
are committed, then finishes it here and counts: segments committed before the kill, segments embedded
after it, and any embedded twice.  Prints a Markdown table with the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import fitz  # noqa: E402

from core.answer.tutor import Tutor  # noqa: E402
from core.errors import ModelUnavailableError  # noqa: E402
from core.index import chunker, rows  # noqa: E402
from core.index.embedder import Embedder  # noqa: E402
from core.ingest.read import read_book  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import AnswerEventKind  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"


class NoChatModel:
    """The tutor without a chat model: it answers with the book's own sentences, cited."""

    def model_path(self):
        raise ModelUnavailableError("benchmark: no chat model, quotes only")


def first_question(name: str) -> str:
    with open(BENCH / name / "questions.jsonl", encoding="utf-8") as fh:
        return json.loads(fh.readline())["question"]


def joined_pdf(names: list[str], out: Path) -> Path:
    """One PDF of several dev books, their bookmarks kept (each book's outline one level down)."""
    doc, toc = fitz.open(), []
    for name in names:
        part = fitz.open(BENCH / name / "book.pdf")
        offset = doc.page_count
        toc.append([1, part.metadata.get("title") or name, offset + 1])
        toc.extend([level + 1, title, page + offset] for level, title, page, *_ in part.get_toc())
        doc.insert_pdf(part)
    doc.set_toc(toc)
    doc.save(out)
    return out


class Timed:
    """Wraps the embedder's ``embed_windows`` to add up the time spent inside the model."""

    def __init__(self, embedder):
        self.inner, self.seconds = embedder.embed_windows, 0.0
        embedder.embed_windows = self

    def __call__(self, *args, **kwargs):
        gen = self.inner(*args, **kwargs)
        while True:
            t = time.perf_counter()
            try:
                item = next(gen)
            except StopIteration:
                self.seconds += time.perf_counter() - t
                return
            self.seconds += time.perf_counter() - t
            yield item


def measure(pdf: Path, question: str, embedder_dir: str | None = None) -> dict:
    embedder = Embedder(embedder_dir) if embedder_dir else None
    lib = Library(tempfile.mkdtemp(prefix="lantern-staged-"), embedder=embedder)
    lib.embedder.encode_query("warm up")  # loaded at app start, as the desktop's warm-up does
    timer = Timed(lib.embedder)
    marks: dict = {}
    t0 = time.perf_counter()

    def on_searchable(book):
        marks["searchable"] = time.perf_counter() - t0
        tutor = Tutor(lib, model=NoChatModel())
        for event in tutor.ask(question, book_id=book.id):
            if event.kind is AnswerEventKind.SOURCES:
                marks["from_the_book"] = time.perf_counter() - t0
            elif event.kind is AnswerEventKind.DONE:
                marks["first_answer"] = time.perf_counter() - t0
                marks["answer"] = event.answer
    result = lib.import_book(pdf, on_searchable=on_searchable)
    total = time.perf_counter() - t0
    pages = result.book.page_count
    lib.close()
    return {"pages": pages, "total": total, "ppm": pages / total * 60,
            "floor_ppm": pages / max(timer.seconds, 1e-9) * 60, **marks}


CHILD = """
import sys
sys.path.insert(0, {repo!r})
from core.library import Library
Library(sys.argv[1]).import_book(sys.argv[2])
"""


def kill_and_resume(pdf: Path) -> dict:
    root = Path(tempfile.mkdtemp(prefix="lantern-kill-"))
    proc = subprocess.Popen([sys.executable, "-c", CHILD.format(repo=str(REPO)), str(root), str(pdf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = root / "lantern.db"
    committed = 0
    while proc.poll() is None and committed < 3:  # some segments' vectors committed, the rest to come
        time.sleep(0.5)
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    committed = conn.execute("SELECT COUNT(DISTINCT ordinal / ?) FROM chunks WHERE pending = 0",
                                             [chunker.ORDINAL_STRIDE]).fetchone()[0]
            except sqlite3.DatabaseError:
                pass
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lib = Library(root)
    (book,) = lib.books()
    before = {s for s, (_, pending) in rows.segment_states(
        lib.reader, book.id, chunker.ORDINAL_STRIDE).items() if not pending}
    embedded: list[int] = []
    real = chunker.embedded_drafts

    def counting(prep, segments, *a, **k):
        embedded.extend(segments)
        return real(prep, segments, *a, **k)
    chunker.embedded_drafts = counting
    healthy_while_pending = lib.doctor().ok
    t = time.perf_counter()
    result = lib.import_book(pdf)
    chunker.embedded_drafts = real
    segments = len(chunker.plan(read_book(pdf), lib.embedder).segments)
    out = {"status": result.status.value, "segments": segments, "before_kill": len(before),
           "after_restart": len(embedded), "twice": len(before & set(embedded)),
           "missing": segments - len(before | set(embedded)), "resume_s": time.perf_counter() - t,
           "doctor_while_pending": healthy_while_pending, "doctor_after": lib.doctor().ok,
           "vectors_equal_chunks": lib.vector_index().ntotal == lib.chunk_count()}
    lib.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--books", default="psychology-2e")
    ap.add_argument("--big", action="store_true", help="also a ~2,000-page PDF joined from three dev books")
    ap.add_argument("--kill", action="store_true", help="SIGKILL mid-embedding, then resume and count")
    ap.add_argument("--onnx", metavar="MODEL_DIR", help="embed with ONNX Runtime from this exported folder, as the "
                    "installed app does (e.g. build/stage/models/all-MiniLM-L6-v2, staged by packaging/build-linux)")
    args = ap.parse_args()
    if args.onnx:
        os.environ["LANTERN_EMBEDDING_BACKEND"] = "onnx"
        print(f"embedding with ONNX Runtime from {args.onnx} (the installed app's backend)")
    names = [name for name in args.books.split(",") if name]
    pdfs = [(name, BENCH / name / "book.pdf", first_question(name)) for name in names]
    if args.big:
        joined = ["psychology-2e", "chemistry-2e", "astronomy-2e"]
        pdfs.append(("joined " + "+".join(n.split("-")[0] for n in joined),
                     joined_pdf(joined, Path(tempfile.mkdtemp()) / "joined.pdf"), first_question(joined[0])))
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print("| PDF | pages | drop → keyword-searchable | drop → “From the book” | drop → quoted answer | complete "
          "| pages/min end to end | embedding floor pages/min |")
    print("|---|---|---|---|---|---|---|---|")
    answers = []
    for name, pdf, question in pdfs:
        r = measure(pdf, question, args.onnx)
        answers.append((name, question, r["answer"]))
        print(f"| {name} | {r['pages']} | {r['searchable']:.1f} s | {r['from_the_book']:.1f} s | "
              f"{r['first_answer']:.1f} s | {r['total']:.0f} s | {r['ppm']:.0f} | {r['floor_ppm']:.0f} |", flush=True)
    for name, question, answer in answers:
        cited = ", ".join(f"{c.section or ''} p. {c.printed_page}" for c in answer.citations[:3])
        print(f"\n{name}: {question}\n  {'declined' if answer.refused else 'answered'}: "
              f"{answer.text[:200]!r} [{cited}]")
    if args.kill:
        k = kill_and_resume(pdfs[0][1])
        print(f"\nSIGKILL after {k['before_kill']} of {k['segments']} segments were committed: doctor healthy while "
              f"pending {k['doctor_while_pending']}; the restart embedded {k['after_restart']} segments in "
              f"{k['resume_s']:.0f} s ({k['status']}); embedded twice {k['twice']}, missing {k['missing']}; "
              f"doctor after {k['doctor_after']}; FAISS holds every chunk {k['vectors_equal_chunks']}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
