"""What a whole import costs against the embedding model alone, in one run.

    .venv/bin/python benchmarks/import_cost.py [psychology-2e|chemistry-2e|PATH.pdf] [--library DIR]

(1) ``Library.import_book`` on a fresh library: PDF text + structure, sentence split, late chunking,
    enrichment, SQLite + FTS5 + FAISS — wall and CPU seconds, and the process's peak RSS afterwards;
(2) the bundled embedding model alone over the same tokens: ``Embedder.encode`` of every stored chunk's
    text with its chapter/section titles (what the chunk vectors are made from), same batch size.
Prints both and the ratio (1)/(2).  CPU seconds are the steadier measure on a machine other jobs share.
"""
from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.index.rows import embed_text  # noqa: E402
from core.library import Library  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(fn):
    w, c = time.perf_counter(), cpu_seconds()
    out = fn()
    return out, time.perf_counter() - w, cpu_seconds() - c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book", nargs="?", default="psychology-2e")
    ap.add_argument("--library", help="an empty folder for the library (default: a temp folder)")
    args = ap.parse_args()
    pdf = Path(args.book) if args.book.endswith(".pdf") else BENCH / args.book / "book.pdf"
    lib = Library(Path(args.library or tempfile.mkdtemp(prefix="lantern-cost-")))
    lib.embedder.encode_query("load the model before the clock starts")
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    result, imp_wall, imp_cpu = timed(lambda: lib.import_book(pdf))
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    book = result.book
    chunks = lib.chunks(r[0] for r in lib.reader.execute("SELECT id FROM chunks WHERE book_id = ?", [book.id]))
    texts = [embed_text(c) for c in chunks.values()]
    _, emb_wall, emb_cpu = timed(lambda: lib.embedder.encode(texts))

    print(f"{pdf.name}: {book.page_count} pages, {len(texts)} chunks ({result.status.value})")
    print(f"import end to end : {imp_wall:7.1f} s wall  {imp_cpu:7.1f} s CPU   peak RSS {peak_rss:.0f} MiB "
          f"(after model load {base_rss:.0f} MiB)")
    print(f"embedding alone   : {emb_wall:7.1f} s wall  {emb_cpu:7.1f} s CPU")
    print(f"ratio import/embed: {imp_wall / emb_wall:.2f}x wall  {imp_cpu / emb_cpu:.2f}x CPU")
    lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
