"""A 50-book library (~250k chunks): search latency, memory, disk, import throughput as it grows.

    .venv/bin/python benchmarks/scale.py --sources /tmp/bench-psy /tmp/bench-chem --books 50 [--out DIR]

Books are cloned from existing libraries (e.g. the ones ``benchmarks/retrieval.py --library`` made)
with distinct ids: rows are copied with SQL — chunks, vectors, sections, pages, blocks, with remapped
ids — and the FTS5 triggers index each copy, so every clone is a real, searchable book.  Embedding
250k chunks for real would take ~3 hours on 2 cores; the import pipeline's own throughput is timed
separately on the bundled sample book in the empty and in the full library (does size slow imports?).

Prints: clone time, library size on disk, FAISS (flat) build time and memory, search p50/p95 for
``Library.search`` (hybrid) and ``Library.find`` over the whole library and scoped to one book, RSS with
the embedding model (and, with ``--chat-model``, the default chat model) loaded, and flat vs IVF
FAISS timings at 50k and 250k vectors for the index-type decision.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.evaluation.retrieval import percentile  # noqa: E402
from core.index import sections as sections_index  # noqa: E402
from core.library import Library  # noqa: E402
from core.paths import sample_books  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"


def rss_mib() -> float:
    import psutil
    return psutil.Process().memory_info().rss / 2**20


def dir_mib(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def pct(values: list[float], q: float) -> float:
    return percentile(sorted(values), q)  # nearest rank, as ``lantern eval`` reports


def clone_book(db, src_path: Path, src_book: str, n: int) -> str:
    """Copy one book of the source library into ``db`` under a new id (SQL only; triggers fill FTS)."""
    new_id = f"{src_book[:10]}{n:06d}"
    db.execute("ATTACH DATABASE ? AS src", [str(src_path)])
    try:
        off_s = db.execute("SELECT COALESCE(MAX(id), 0) FROM sections").fetchone()[0]
        off_c = db.execute("SELECT COALESCE(MAX(id), 0) FROM chunks").fetchone()[0]
        smin = db.execute("SELECT MIN(id) FROM src.sections WHERE book_id = ?", [src_book]).fetchone()[0] or 0
        cmin = db.execute("SELECT MIN(id) FROM src.chunks WHERE book_id = ?", [src_book]).fetchone()[0] or 0
        s_shift, c_shift = off_s - smin + 1, off_c - cmin + 1
        db.execute("BEGIN IMMEDIATE")
        db.execute("""INSERT INTO books (id, title, authors, source_format, file_name, stored_name, file_hash,
                      file_size, page_count, paginated, metadata, imported_at)
                      SELECT ?, title || ' (copy ' || ? || ')', authors, source_format,
                      file_name, stored_name, file_hash || ?, file_size, page_count, paginated, metadata,
                      imported_at FROM src.books WHERE id = ?""", [new_id, n, f"-{n}", src_book])
        db.execute("INSERT INTO pages SELECT ?, idx, label FROM src.pages WHERE book_id = ?", [new_id, src_book])
        db.execute("""INSERT INTO sections SELECT id + ?, ?, ordinal, parent_id + ?, level, kind, number, title,
                      page_start, page_end FROM src.sections WHERE book_id = ?""",
                   [s_shift, new_id, s_shift, src_book])
        db.execute("""INSERT INTO blocks (book_id, section_id, ordinal, page, kind, text, emphasis)
                      SELECT ?, section_id + ?, ordinal, page, kind, text, emphasis FROM src.blocks
                      WHERE book_id = ?""", [new_id, s_shift, src_book])
        cols = [r[1] for r in db.execute("PRAGMA table_info(chunks)")]
        rest = [c for c in cols if c not in ("id", "book_id", "section_id")]
        db.execute(f"""INSERT INTO chunks (id, book_id, section_id, {', '.join(rest)})
                       SELECT id + ?, ?, section_id + ?, {', '.join(rest)} FROM src.chunks
                       WHERE book_id = ?""", [c_shift, new_id, s_shift, src_book])
        db.execute("""INSERT INTO vectors SELECT chunk_id + ?, vector FROM src.vectors
                      WHERE chunk_id IN (SELECT id FROM src.chunks WHERE book_id = ?)""", [c_shift, src_book])
        sections_index.index_book(db, new_id)  # as an import does
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
        db.execute("COMMIT")
    finally:
        db.execute("DETACH DATABASE src")
    return new_id


def questions() -> list[str]:
    out = []
    for book in ("psychology-2e", "chemistry-2e"):
        path = BENCH / book / "questions.jsonl"
        if path.exists():
            with open(path, encoding="utf-8") as fh:
                out += [json.loads(line)["question"] for line in fh][:60]
    return out or ["what is a hypothesis", "how does energy change form", "define velocity"]


def time_searches(fn, qs: list[str]) -> tuple[float, float]:
    times = []
    for q in qs:
        t = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - t) * 1000)
    return pct(times, 50), pct(times, 95)


def timed_sample_import(lib: Library, tag: str) -> float:
    """Import the bundled sample book (a fresh copy, so it is not a duplicate), then remove it."""
    src = sample_books()[0]
    tmp = Path(tempfile.mkdtemp()) / f"sample-{tag}{src.suffix}"
    tmp.write_bytes(src.read_bytes() + f"\n% {tag}\n".encode())
    t = time.perf_counter()
    result = lib.import_book(tmp)
    seconds = time.perf_counter() - t
    if result.book is not None:
        lib.remove(result.book.id)
    return seconds


def faiss_types(matrix: np.ndarray, sizes: tuple[int, ...], queries: np.ndarray) -> list[str]:
    """Flat vs IVF (nlist=sqrt(n), nprobe 16) build and single-query time at each size."""
    import faiss
    faiss.omp_set_num_threads(1)
    lines = []
    for n in sizes:
        base = np.ascontiguousarray(np.resize(matrix, (n, matrix.shape[1])), dtype=np.float32)
        base += np.random.default_rng(0).normal(0, 0.01, base.shape).astype(np.float32)
        for name in ("flat", "ivf"):
            t = time.perf_counter()
            if name == "flat":
                index = faiss.IndexFlatIP(base.shape[1])
            else:
                nlist = int(np.sqrt(n))
                quantizer = faiss.IndexFlatIP(base.shape[1])  # kept referenced: the IVF does not own it
                index = faiss.IndexIVFFlat(quantizer, base.shape[1], nlist, faiss.METRIC_INNER_PRODUCT)
                index.train(base[: min(n, 40 * nlist)])
                index.nprobe = 16
            index.add(base)
            build = time.perf_counter() - t
            times = []
            for q in queries:
                t = time.perf_counter()
                index.search(q.reshape(1, -1), 50)
                times.append((time.perf_counter() - t) * 1000)
            lines.append(f"  faiss {name:4} n={n:>7,}: build {build:6.1f} s, search p50 {pct(times, 50):6.1f} ms "
                         f"p95 {pct(times, 95):6.1f} ms")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sources", nargs="+", required=True, help="library folders to clone books from")
    ap.add_argument("--books", type=int, default=50)
    ap.add_argument("--out", help="folder for the big library (default: a temp folder)")
    ap.add_argument("--chat-model", action="store_true", help="also load the default chat model for RSS")
    args = ap.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="lantern-scale-"))
    lib = Library(out)
    lib.embedder.encode_query("load the model")
    sources = []
    for folder in args.sources:
        with Library(Path(folder)) as src:
            sources += [(Path(folder) / Library.DB_NAME, b.id) for b in src.books()]
    imports = {0: timed_sample_import(lib, "0")}
    t0 = time.perf_counter()
    for n in range(args.books):
        path, book = sources[n % len(sources)]
        clone_book(lib.db, path, book, n)
    clone_s = time.perf_counter() - t0
    chunks = lib.chunk_count()
    t = time.perf_counter()
    rss0 = rss_mib()
    lib.vector_index()  # rebuilt from SQLite: the generation moved
    faiss_s, faiss_mib = time.perf_counter() - t, rss_mib() - rss0
    qs = questions()
    one_book = lib.books()[len(lib.books()) // 2].id
    hybrid = time_searches(lambda q: lib.search(q, 10), qs)
    find = time_searches(lambda q: lib.find(q, 5), qs)
    scoped = time_searches(lambda q: lib.find(q, 5, book_id=one_book), qs)
    imports[args.books] = timed_sample_import(lib, "end")
    rss = rss_mib()
    chat = ""
    if args.chat_model:
        from core.llm.model import LocalModel
        from core.llm.settings import LLMSettings
        model = LocalModel(LLMSettings.from_env())
        model.count_tokens("load")
        chat = f", with the chat model loaded {rss_mib():.0f} MiB"
    print(f"{len(lib.books())} books, {chunks:,} chunks cloned in {clone_s:.0f} s; library on disk "
          f"{dir_mib(out):,.0f} MiB (lantern.db {os.path.getsize(out / Library.DB_NAME) / 2**20:,.0f} MiB)")
    print(f"FAISS flat rebuilt from SQLite in {faiss_s:.1f} s (+{faiss_mib:.0f} MiB)")
    print(f"search hybrid  (all books)   p50 {hybrid[0]:6.1f} ms  p95 {hybrid[1]:6.1f} ms")
    print(f"find           (all books)   p50 {find[0]:6.1f} ms  p95 {find[1]:6.1f} ms")
    print(f"find           (one book)    p50 {scoped[0]:6.1f} ms  p95 {scoped[1]:6.1f} ms")
    print("sample-book import: " + ", ".join(f"{k} books {v:.1f} s" for k, v in imports.items() if v))
    print(f"RSS with the embedding model and the index {rss:.0f} MiB{chat}; "
          f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB "
          f"(load average {os.getloadavg()[0]:.1f})")
    ids = [r[0] for r in lib.db.execute("SELECT chunk_id FROM vectors LIMIT 20000")]
    matrix = np.stack([np.frombuffer(r[0], dtype=np.float32) for r in lib.db.execute(
        "SELECT vector FROM vectors WHERE chunk_id IN (%s)" % ",".join(map(str, ids)))])
    qv = np.stack([lib.embedder.encode_query(q) for q in qs[:50]]).astype(np.float32)
    print("\n".join(faiss_types(matrix, tuple(sorted({50_000, chunks, 250_000})), qv)))
    lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
