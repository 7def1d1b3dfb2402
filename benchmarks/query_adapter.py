"""Does a learned query adapter help dense search on a book it never saw?  Leave one book out.

    .venv/bin/python benchmarks/query_adapter.py --libs /work/libs [--reg 1 20] [--epochs 20] [--books ...]

A question's vector q becomes norm(q + A q): the passages' vectors stay as imported, so a library would need no
re-embedding.  A (384 × 384, starting at zero, L2-penalised by ``--reg``) is fitted with a softmax over each
training question's gold chunks against its 64 nearest other chunks (temperature 0.05, Adam, fixed seed) on
all books but one, and dense-only Hit@5 / MRR@10 over the whole held-out book is printed before and after,
for each book in turn (exact cosine over every chunk, as FAISS's flat index ranks them).  Needs torch (the
dev environment has it).  Not shipped: see README "Retrieval on every dev book".
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library  # noqa: E402

from core.evaluation.retrieval import is_gold, load_questions  # noqa: E402
from core.index.rows import iter_vectors  # noqa: E402

NEGATIVES = 64
MAX_GOLD = 8
TEMPERATURE = 0.05


def book_arrays(libs: Path, book: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(question vectors, chunk vectors, gold mask [question, chunk]) of one dev book."""
    lib = book_library(libs, book)
    batches = list(iter_vectors(lib.reader, lib.embedder.dimension))
    ids = [int(i) for b, _ in batches for i in b]
    vectors = np.concatenate([m for _, m in batches])
    chunks = lib.chunks(ids)
    questions = load_questions(BENCH / book / "questions.jsonl")
    q = np.asarray(lib.embedder.encode([x.text() for x in questions]), dtype=np.float32)
    gold = np.array([[is_gold(chunks[i], x) for i in ids] for x in questions], dtype=bool)
    lib.close()
    return q, vectors, gold


def dense_metrics(q: np.ndarray, vectors: np.ndarray, gold: np.ndarray) -> tuple[float, float]:
    """Hit@5 and MRR@10 of exact cosine search."""
    top = np.argsort(-(q @ vectors.T), axis=1)[:, :10]
    g = np.take_along_axis(gold, top, 1)
    first = np.where(g.any(1), g.argmax(1), 99)
    return float(g[:, :5].any(1).mean()), float(np.where(first < 10, 1.0 / (first + 1), 0.0).mean())


def training_lists(data: list[tuple[np.ndarray, np.ndarray, np.ndarray]]):
    """Per training question: its vector, NEGATIVES nearest non-gold chunks plus up to MAX_GOLD gold ones."""
    qs, cands, labels = [], [], []
    for q, vectors, gold in data:
        sims = q @ vectors.T
        order = np.argsort(-sims, axis=1)
        for i in np.where(gold.any(1))[0]:
            pos = np.where(gold[i])[0]
            pos = pos[np.argsort(-sims[i, pos])][:MAX_GOLD]
            neg = [c for c in order[i, :NEGATIVES + 400] if not gold[i, c]][:NEGATIVES + MAX_GOLD - len(pos)]
            pick = np.concatenate([neg, pos]).astype(int)
            qs.append(q[i])
            cands.append(vectors[pick])
            labels.append(gold[i, pick])
    return np.stack(qs), np.stack(cands), np.stack(labels)


def fit_adapter(data, reg: float, epochs: int, seed: int = 0) -> np.ndarray:
    import torch
    torch.manual_seed(seed)
    q, c, y = (torch.tensor(a) for a in training_lists(data))
    a = torch.zeros(q.shape[1], q.shape[1], requires_grad=True)
    opt = torch.optim.Adam([a], lr=1e-3)
    for _ in range(epochs):
        for idx in torch.randperm(len(q)).split(64):
            qq = q[idx] + q[idx] @ a.T
            qq = qq / qq.norm(dim=1, keepdim=True)
            s = torch.einsum("bd,bkd->bk", qq, c[idx]) / TEMPERATURE
            loss = (torch.logsumexp(s, 1) - torch.logsumexp(s.masked_fill(~y[idx], -1e9), 1)).mean()
            loss = loss + reg * (a ** 2).sum() / q.shape[1]
            opt.zero_grad()
            loss.backward()
            opt.step()
    return a.detach().numpy()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--reg", type=float, nargs="*", default=[1.0, 20.0])
    ap.add_argument("--epochs", type=int, default=20)
    args = ap.parse_args()
    data = {b: book_arrays(args.libs, b) for b in args.books}
    print(f"| book (held out) | dense-only Hit@5 / MRR@10 | " +
          " | ".join(f"adapted, reg {r:g}" for r in args.reg) + " |")
    print("|---|---|" + "---|" * len(args.reg))
    for held in args.books:
        q, vectors, gold = data[held]
        cells = []
        for reg in args.reg:
            a = fit_adapter([data[b] for b in args.books if b != held], reg, args.epochs)
            adapted = q + q @ a.T
            adapted /= np.linalg.norm(adapted, axis=1, keepdims=True)
            cells.append("%.3f / %.3f" % dense_metrics(adapted, vectors, gold))
        print(f"| {held} ({len(q)}) | " + "%.3f / %.3f" % dense_metrics(q, vectors, gold) + " | " +
              " | ".join(cells) + f" |   (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
