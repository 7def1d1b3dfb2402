"""Which embedding setup makes an import fastest on this machine: torch vs ONNX Runtime, threads, batch size.

    .venv/bin/python benchmarks/embed_backends.py [--book psychology-2e] [--windows 400]
        [--onnx-model build/stage/models/all-MiniLM-L6-v2]

The same transformer windows an import runs (the first ``--windows`` of the book's plan) are embedded by
each setup in its own process, so thread settings cannot leak between them: the backend the source
install uses (torch) and the one the installer ships (ONNX Runtime, from the folder ``make installer``
stages), with 1 thread and with every core, at batch sizes 4, 8 and 16.  Prints windows per second,
the pages per minute that rate means for the whole book, and the vectors' largest difference from torch
(they must agree).  The load average is printed beside the table: the numbers only compare within a run.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
BENCH = REPO.parent / "shared" / "bench"

CHILD = """
import json, sys, time
sys.path.insert(0, {repo!r})
import numpy as np
from core.index.embedder import Embedder
from core.index.chunker import pack_windows, plan, window_ids
from core.ingest.read import read_book
model_dir, threads, batch, windows, pdf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
emb = Embedder(model_dir if model_dir != "-" else None, threads=threads)
prep = plan(read_book(pdf), emb)
limit = emb.max_tokens - emb.special_tokens
ids = [window_ids(seg, w) for seg in prep.segments for w in pack_windows(seg, limit)]  # as an import packs them
total = len(ids)
ids = ids[:windows]
list(emb.embed_windows(ids[:8], batch_size=batch))  # load and warm up
t = time.perf_counter()
out = [w.sum(axis=0) for w in emb.embed_windows(ids, batch_size=batch)]
seconds = time.perf_counter() - t
np.save(sys.argv[6], np.stack(out))
print(json.dumps({{"seconds": seconds, "windows": len(ids), "book_windows": total, "pages": len(prep.parsed.pages)}}))
"""


def run(model_dir: str, threads: int, batch: int, windows: int, pdf: Path, out: Path, backend: str) -> dict:
    env = {**os.environ, "LANTERN_EMBEDDING_BACKEND": backend, "OMP_NUM_THREADS": str(threads)}
    proc = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO)), model_dir, str(threads), str(batch),
                           str(windows), str(pdf), str(out)], capture_output=True, text=True, env=env, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    import numpy as np
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", default="psychology-2e")
    ap.add_argument("--windows", type=int, default=400)
    ap.add_argument("--onnx-model", default=str(REPO / "build" / "stage" / "models" / "all-MiniLM-L6-v2"))
    args = ap.parse_args()
    pdf = BENCH / args.book / "book.pdf"
    cores = len(os.sched_getaffinity(0))
    setups = [("torch", "-")]
    if (Path(args.onnx_model) / "onnx" / "model.onnx").is_file():
        setups.append(("onnx", args.onnx_model))
    else:
        print(f"(no ONNX export at {args.onnx_model}: run `make installer` once to stage it)")
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {cores} cores; {args.windows} windows of {args.book}")
    print("| backend | threads | batch | windows/s | pages/min (whole book at that rate) | max |Δ| vs torch |")
    print("|---|---|---|---|---|---|")
    reference = None
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    for backend, model_dir in setups:
        for threads in sorted({1, cores}):
            for batch in (4, 8, 16):
                out = tmp / f"embed-{backend}-{threads}-{batch}.npy"
                r = run(model_dir, threads, batch, args.windows, pdf, out, backend)
                vecs = np.load(out)
                reference = vecs if reference is None else reference
                rate = r["windows"] / r["seconds"]
                ppm = r["pages"] / (r["book_windows"] / rate) * 60
                diff = float(np.abs(vecs - reference).max())
                print(f"| {backend} | {threads} | {batch} | {rate:.1f} | {ppm:.0f} | {diff:.1e} |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
