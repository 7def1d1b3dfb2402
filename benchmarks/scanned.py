"""A scanned copy of a dev PDF against the PDF itself (issue #18): import speed, retrieval, printed page labels.

    .venv/bin/python benchmarks/scanned.py --libs /work/libs [--book psychology-2e] [--pages 60] [--limit 400]

The scan is made here: every page rendered at 150 dpi in grey and stored as a picture only (no text
layer, no bookmarks), as a library photocopy would be, after two unnumbered cover pages (so a
physical page number never passes for the printed one).  It is imported into a fresh library with a
fresh OCR cache, timed per page, and compared with ``--libs/<book>`` (the text PDF imported as usual)
on the same questions:
* Hit@5 and MRR@10 of the default search, gold by page (the scan's sections are detected from the
  page images, so section numbers are not comparable), beside keyword-only and dense-only on each;
* printed page labels: the share of scanned pages whose label equals the text PDF's.
``--pages N`` scans only the first N pages (and keeps the questions whose gold lies in them).
``--degrade`` makes it a poor photocopy instead: each page turned 1 degree, blurred, speckled with noise
and stored as a JPEG of quality 50.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import pymupdf  # noqa: E402

from benchmarks.common import BENCH, book_library  # noqa: E402
from core.evaluation.retrieval import evaluate, load_questions  # noqa: E402
from core.ingest.pdf.ocr import page_image, picture_copy  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import SearchMode  # noqa: E402


FRONT = 2  # unnumbered cover pages put before the book: physical page numbers no longer equal printed ones


def degrade(path: Path, angle: float = 1.0, seed: int = 7) -> None:
    """Rewrite the picture-only PDF ``path`` as a poor photocopy: turned, blurred, noisy, JPEG."""
    import cv2
    import numpy as np
    rng = np.random.default_rng(seed)
    doc = pymupdf.open(path)
    out = pymupdf.open()
    for page in doc:
        img = page_image(page, 150)
        h, w = img.shape
        img = cv2.warpAffine(img, cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0), (w, h), borderValue=255)
        img = cv2.GaussianBlur(img, (3, 3), 0.8)
        img = np.clip(img.astype(np.int16) + rng.normal(0, 12, img.shape), 0, 255).astype(np.uint8)
        ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 50])
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=jpeg.tobytes())
    doc.close()
    out.save(path, garbage=3)


def searchers(lib: Library, book_id: str, pages: tuple[int, int] | None = None) -> dict:
    """Keyword-only, dense-only and the default search, restricted to ``pages`` (the scanned part)."""
    return {
        "keyword": lambda q: lib.search(q, k=10, mode=SearchMode.KEYWORD, book_id=book_id, pages=pages),
        "dense": lambda q: lib.search(q, k=10, mode=SearchMode.VECTOR, book_id=book_id, pages=pages),
        "default": lambda q: lib.find(q, k=10, book_id=book_id, pages=pages),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--book", default="psychology-2e")
    ap.add_argument("--pages", type=int, help="scan only the first N pages")
    ap.add_argument("--limit", type=int, default=400, help="questions to ask (spread over the book)")
    ap.add_argument("--degrade", action="store_true", help="a skewed, blurred, noisy JPEG photocopy")
    ap.add_argument("--work", type=Path, help="folder for the scan, its library and OCR cache (kept)")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="lantern-scan-"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["LANTERN_CACHE"] = str(work / "cache")  # a fresh OCR cache: every page is read
    scan = work / f"{args.book}-scan.pdf"
    t = time.perf_counter()
    source = BENCH / args.book / "book.pdf"
    if args.pages:  # the first N pages only
        part = work / f"{args.book}-first-{args.pages}.pdf"
        with pymupdf.open(source) as doc, pymupdf.open() as out:
            out.insert_pdf(doc, to_page=args.pages - 1)
            out.save(part)
        source = part
    picture_copy(source, scan, front_pages=FRONT)
    if args.degrade:
        degrade(scan)
    n = pymupdf.open(scan).page_count - FRONT
    print(f"scan: {n} pages, {scan.stat().st_size / 1e6:.0f} MB, made in {time.perf_counter() - t:.0f} s")

    text_lib = book_library(args.libs, args.book)
    text_book = text_lib.books()[0]
    scan_lib = Library(work / "library")
    load0 = os.getloadavg()[0]
    t = time.perf_counter()
    result = scan_lib.import_book(scan)
    took = time.perf_counter() - t
    if result.book is None:
        raise SystemExit(f"import failed: {result.error}")
    book = result.book
    print(f"import: {took:.0f} s, {took / n:.2f} s per page (load {load0:.1f} -> {os.getloadavg()[0]:.1f}); "
          f"{book.chapter_count} chapters, {book.section_count} sections detected")

    text_labels = {p.index: p.label for p in text_lib.pages(text_book.id)}
    scan_labels = {p.index: p.label for p in scan_lib.pages(book.id)}
    same = sum(1 for p in range(1, n + 1) if scan_labels.get(p + FRONT) == text_labels.get(p))
    print(f"printed page labels equal to the text PDF's: {same}/{n} = {same / n:.3f}")

    qs = [dataclasses.replace(q, section="")  # gold by page on both
          for q in load_questions(BENCH / args.book / "questions.jsonl")
          if q.gold_pages and q.gold_pages[1] <= n]
    step = max(1, len(qs) // args.limit)
    qs = qs[::step][:args.limit]
    shifted = [dataclasses.replace(q, gold_pages=(q.gold_pages[0] + FRONT, q.gold_pages[1] + FRONT)) for q in qs]
    print(f"{len(qs)} questions, gold by page\n")
    print("| copy | keyword Hit@5 / MRR | dense Hit@5 / MRR | default Hit@5 / MRR | default p50 |")
    print("|---|---|---|---|---|")
    part = (1, n) if n < text_book.page_count else None  # the same pages of the text PDF
    for name, lib, bid, questions, pages in (("text PDF", text_lib, text_book.id, qs, part),
                                             ("scan, OCR", scan_lib, book.id, shifted, None)):
        res = evaluate(questions, searchers(lib, bid, pages))
        cells = [f"{res[m]['all']['hit@5']:.3f} / {res[m]['all']['mrr@10']:.3f}" for m in ("keyword", "dense", "default")]
        print(f"| {name} | {' | '.join(cells)} | {res['default']['latency_ms']['p50']:.0f} ms |")


if __name__ == "__main__":
    main()
