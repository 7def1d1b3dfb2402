"""Re-importing a changed edition: time and model work against importing it from scratch (issue 9).

    .venv/bin/python -m benchmarks.edition_reimport [--book ../shared/bench/psychology-2e/book.md] [--changes 5]

Makes a "second edition" of a real book (Markdown) by editing ``--changes`` paragraphs spread over the
book, then in one run: imports edition 1 into an empty library, imports edition 2 beside it (segments
whose tokens did not change reuse their stored vectors, ``core.index.chunk_reuse``), and imports edition 2
alone into another empty library (the baseline).  Prints seconds and transformer windows for each,
the ratio, and checks that the reused import stored the same chunks and vectors as the baseline.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.index.embedder import Embedder  # noqa: E402
from core.library import Library  # noqa: E402

DEFAULT_BOOK = REPO.parent / "shared" / "bench" / "psychology-2e" / "book.md"


class CountingEmbedder(Embedder):
    """The real embedder, counting the windows the transformer runs over."""

    windows = 0

    def embed_windows(self, windows, **kwargs):
        CountingEmbedder.windows += len(windows)
        return super().embed_windows(windows, **kwargs)


def second_edition(text: str, changes: int) -> tuple[str, int]:
    """Append a sentence to ``changes`` body paragraphs spread evenly over the book."""
    paras = text.split("\n\n")
    body = [i for i, p in enumerate(paras) if len(p) > 300 and not p.lstrip().startswith(("#", "|", "-", "!", "<"))]
    picked = [body[int(k * (len(body) - 1) / max(changes - 1, 1))] for k in range(changes)] if body else []
    for n, i in enumerate(picked):
        paras[i] += f" (Second edition: a new remark number {n} about recent research findings.)"
    return "\n\n".join(paras), len(picked)


def timed_import(lib: Library, path: Path) -> tuple[float, int, str]:
    CountingEmbedder.windows = 0
    t0 = time.perf_counter()
    result = lib.import_book(path)
    assert result.book is not None, result.error
    return time.perf_counter() - t0, CountingEmbedder.windows, result.book.id


def stored(lib: Library, book_id: str) -> tuple[list[str], np.ndarray]:
    rows = lib.reader.execute("SELECT c.text, v.vector FROM chunks c JOIN vectors v ON v.chunk_id = c.id"
                              " WHERE c.book_id = ? ORDER BY c.ordinal", [book_id]).fetchall()
    return [r[0] for r in rows], np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", type=Path, default=DEFAULT_BOOK)
    ap.add_argument("--changes", type=int, default=5, help="paragraphs edited in the second edition")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="lantern-edition-") as tmp:
        root = Path(tmp)
        ed1, ed2 = root / "edition-1.md", root / "edition-2.md"
        text = args.book.read_text(encoding="utf-8")
        ed1.write_text(text, encoding="utf-8")
        changed, n = second_edition(text, args.changes)
        ed2.write_text(changed, encoding="utf-8")
        embedder = CountingEmbedder()
        embedder.load()
        with Library(root / "a", embedder=embedder) as lib:
            t1, w1, _ = timed_import(lib, ed1)
            t2, w2, id2 = timed_import(lib, ed2)
            texts, vectors = stored(lib, id2)
        with Library(root / "b", embedder=embedder) as fresh:
            t3, w3, id3 = timed_import(fresh, ed2)
            fresh_texts, fresh_vectors = stored(fresh, id3)
    same = texts == fresh_texts and np.allclose(vectors, fresh_vectors, atol=1e-5)
    print(f"benchmarks.edition_reimport: {args.book.parent.name}/{args.book.name}, {n} paragraphs changed "
          f"[load {os.getloadavg()[0]:.2f}]")
    print(f"  edition 1, empty library          {t1:7.1f} s  {w1:6d} windows")
    print(f"  edition 2 from scratch (baseline) {t3:7.1f} s  {w3:6d} windows")
    print(f"  edition 2 beside edition 1        {t2:7.1f} s  {w2:6d} windows   "
          f"{t2 / t3:.2f}x the time, {w2 / max(w3, 1):.3f}x the model work")
    print(f"  same chunks and vectors as the baseline: {same} ({len(texts)} chunks)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
