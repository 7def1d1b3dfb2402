"""Retrieval quality and speed on the shared dev benchmark, against baselines measured in the same run.

    .venv/bin/python benchmarks/retrieval.py psychology-2e [--limit N] [--library DIR]

Methods compared (same questions, same gold, same Hit@k definition as `lantern eval`):
  keyword / vector / hybrid   Lantern's chunks: FTS5 bm25, FAISS, and their RRF fusion
  hybrid+plan                 Library.find: query planning, de-duplication, section diversity on hybrid
  bm25-seed                   the seeds' plain approach: rank_bm25 over the same chunks
  naive-512                   fixed 512-character chunks with 64 overlap, vectors only
Prints Hit@1/5/10 and MRR@10 by question type, search latency p50/p95, and ratios.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.evaluation.retrieval import evaluate, format_table, load_questions  # noqa: E402
from core.ingest.read import read_book  # noqa: E402
from core.index.rows import chapter_and_section  # noqa: E402
from core.library import Library  # noqa: E402
from core.models import Chunk, ChunkId, ChunkRole, Hit, SearchMode  # noqa: E402

BENCH = REPO.parent / "shared" / "bench"
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def stub_chunk(cid: int, section: str | None, p0: int, p1: int, text: str) -> Chunk:
    return Chunk(id=ChunkId(cid), book_id="", section_id=None, ordinal=cid, text=text, role=ChunkRole.OTHER,
                 page_start=p0, page_end=p1, printed_page_start=str(p0), printed_page_end=str(p1),
                 chapter_number=None, chapter_title="", section_number=section, section_title="", token_count=0)


def bm25_seed(lib: Library, book_id: str):
    """rank_bm25 over Lantern's own chunks (the seeds' keyword baseline)."""
    from rank_bm25 import BM25Okapi

    ids = [r[0] for r in lib.db.execute("SELECT id FROM chunks WHERE book_id = ? ORDER BY id", [book_id])]
    chunks = lib.chunks(ids)
    corpus = [tokens(chunks[i].text) for i in ids]
    bm25 = BM25Okapi(corpus)

    def search(q: str) -> list[Hit]:
        scores = bm25.get_scores(tokens(q))
        top = np.argsort(-scores)[:10]
        return [Hit(rank=r + 1, chunk=chunks[ids[j]], score=float(scores[j])) for r, j in enumerate(top)]
    return search


def naive_512(pdf: Path, embedder):
    """Fixed 512-character windows (64 overlap) over the book's text in reading order, vectors only."""
    import faiss

    parsed = read_book(pdf)
    text_parts, owners = [], []  # character offsets -> (section number, page)
    pos = 0
    for b in parsed.blocks:
        _, sec, _ = chapter_and_section(parsed, b.section)
        number = parsed.sections[sec].number if sec is not None else None
        text_parts.append(b.text + "\n")
        owners.append((pos, number, b.page))
        pos += len(b.text) + 1
    full = "".join(text_parts)
    starts = [o[0] for o in owners]
    windows = []
    for start in range(0, max(1, len(full) - 64), 512 - 64):
        piece = full[start:start + 512]
        i0 = max(0, np.searchsorted(starts, start, side="right") - 1)
        i1 = max(0, np.searchsorted(starts, start + len(piece), side="right") - 1)
        # the section owning most of the window's characters
        counts: dict[str | None, int] = {}
        for i in range(i0, i1 + 1):
            a = max(start, owners[i][0])
            b = min(start + len(piece), owners[i + 1][0] if i + 1 < len(owners) else len(full))
            counts[owners[i][1]] = counts.get(owners[i][1], 0) + max(0, b - a)
        section = max(counts, key=counts.get)
        windows.append(stub_chunk(len(windows), section, owners[i0][2], owners[i1][2], piece))
    t = time.perf_counter()
    vecs = embedder.encode([w.text for w in windows])
    embed_s = time.perf_counter() - t
    index = faiss.IndexFlatIP(vecs.shape[1])
    index.add(np.ascontiguousarray(vecs, dtype=np.float32))

    def search(q: str) -> list[Hit]:
        qv = embedder.encode_query(q).reshape(1, -1).astype(np.float32)
        scores, idx = index.search(qv, 10)
        return [Hit(rank=r + 1, chunk=windows[j], score=float(s)) for r, (j, s) in enumerate(zip(idx[0], scores[0]))]
    return search, len(windows), embed_s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book", nargs="?", default="psychology-2e")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--library", help="reuse a library folder (imports the book if missing)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    folder = BENCH / args.book
    pdf = folder / "book.pdf"
    lib_dir = Path(args.library) if args.library else Path(tempfile.mkdtemp(prefix="lantern-bench-"))
    lib = Library(lib_dir)
    t = time.perf_counter()
    result = lib.import_book(pdf)
    import_s = time.perf_counter() - t
    book_id = result.book.id
    questions = load_questions(folder / "questions.jsonl", args.limit)
    searchers = {m.value: (lambda q, m=m: lib.search(q, 10, book_id=book_id, mode=m))
                 for m in (SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID)}
    # The product's path: query planning + de-duplication + section diversity on top of hybrid.
    searchers["hybrid+plan"] = lambda q: lib.find(q, 10, book_id=book_id)
    searchers["bm25-seed"] = bm25_seed(lib, book_id)
    naive, n_naive, naive_embed_s = naive_512(pdf, lib.embedder)
    searchers["naive-512"] = naive
    report = {"book": args.book, "chunks": lib.chunk_count(book_id), "naive_chunks": n_naive,
              "import_s": round(import_s, 1), "status": result.status.value, "naive_embed_s": round(naive_embed_s, 1)}
    for with_choices in (False, True):
        if with_choices and not any(q.choices for q in questions):
            continue
        name = "with_choices" if with_choices else "question_only"
        res = evaluate(questions, searchers, with_choices=with_choices)
        report[name] = res
        print(format_table(res, f"== {args.book}: {name} ({len(questions)} questions) =="))
        hy = res["hybrid+plan"]["all"]
        for base in ("keyword", "vector", "hybrid", "bm25-seed", "naive-512"):
            b = res[base]["all"]
            print(f"   hybrid+plan / {base:10}: hit@5 x{hy['hit@5'] / max(b['hit@5'], 1e-9):.2f}  "
                  f"mrr@10 x{hy['mrr@10'] / max(b['mrr@10'], 1e-9):.2f}  "
                  f"p50 latency x{res['hybrid+plan']['latency_ms']['p50'] / max(res[base]['latency_ms']['p50'], 1e-9):.2f}")
    print(f"import {report['import_s']} s ({report['status']}), {report['chunks']} chunks; "
          f"naive: {n_naive} chunks embedded in {report['naive_embed_s']} s")
    if args.json:
        print(json.dumps(report, indent=1))
    lib.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
