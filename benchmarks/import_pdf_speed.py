"""PDF import speed: Lantern's full PDF reading (text + structure) against plain PyMuPDF text.

Usage: ``python benchmarks/import_pdf_speed.py [book.pdf] [--repeat N]``

Without a path it reads Debian's octave.pdf (usr/share/doc/octave/octave.pdf) from
``$LANTERN_DEBIAN_PDFS``, ``<repo>/.cache/debian-pdfs`` or ``/tmp/debs/x``.  Both measurements run
in the same process, alternating, and the best of N runs is kept, so the ratio is fair even on a
busy machine.  Prints pages/s for each and the ratio.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pymupdf  # noqa: E402

from core.ingest.pdf import reader as pdf  # noqa: E402

OCTAVE = Path("usr/share/doc/octave/octave.pdf")


def default_pdf() -> Path | None:
    """octave.pdf under the first Debian extraction root that has it."""
    roots = [os.environ.get("LANTERN_DEBIAN_PDFS"), str(REPO / ".cache" / "debian-pdfs"), "/tmp/debs/x"]
    for root in roots:
        if root and (Path(root) / OCTAVE).is_file():
            return Path(root) / OCTAVE
    return None


def baseline(path: Path) -> tuple[int, float]:
    """Plain ``page.get_text()`` over every page: (pages, seconds)."""
    start = time.perf_counter()
    with pymupdf.open(path) as doc:
        n = doc.page_count
        for page in doc:
            page.get_text()
    return n, time.perf_counter() - start


def lantern(path: Path) -> tuple[int, float, int, int]:
    """Lantern's importer: (pages, seconds, sections, blocks)."""
    start = time.perf_counter()
    book = pdf.read(path)
    return len(book.pages), time.perf_counter() - start, len(book.sections), len(book.blocks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdf", nargs="?", type=Path, help="PDF to read (default: Debian's octave.pdf)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best is kept")
    args = ap.parse_args(argv)
    path = args.pdf or default_pdf()
    if path is None or not path.is_file():
        print("octave.pdf not found: pass a PDF path or set LANTERN_DEBIAN_PDFS", file=sys.stderr)
        return 2
    best_base = best_ours = float("inf")
    pages = sections = blocks = 0
    for _ in range(max(1, args.repeat)):
        pages, secs = baseline(path)
        best_base = min(best_base, secs)
        pages, secs, sections, blocks = lantern(path)
        best_ours = min(best_ours, secs)
    base_rate = pages / best_base
    ours_rate = pages / best_ours
    print(f"file: {path} ({pages} pages)")
    print(f"baseline page.get_text(): {base_rate:8.1f} pages/s ({best_base:.2f} s)")
    print(f"lantern pdf.read():       {ours_rate:8.1f} pages/s ({best_ours:.2f} s; "
          f"{sections} sections, {blocks} blocks)")
    print(f"ratio lantern/baseline:   {ours_rate / base_rate:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
