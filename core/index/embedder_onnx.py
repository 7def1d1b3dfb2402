"""The embedding model run by ONNX Runtime instead of torch: what the packaged app ships.

torch is ~750 MB installed; onnxruntime is ~20 MB.  The installer therefore carries the bundled
all-MiniLM-L6-v2 exported to ``<model folder>/onnx/model.onnx`` (``packaging/export_embedder.py``)
and no torch; this module then gives ``core.index.embedder.Embedder`` the transformer's token vectors.
Pooling (mean over the attention mask) and L2 normalisation are done here exactly as the model's
sentence-transformers configuration says, so the vectors equal torch's to float precision and a
library built from source opens in the packaged app (same manifest).

Only encoders whose sentence-transformers pipeline is Transformer → mean Pooling (→ Normalize) are
accepted: anything else (CLS pooling, Dense projections) needs the torch path.
"""
from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.errors import ModelUnavailableError

log = logging.getLogger(__name__)

ONNX_FILE = Path("onnx") / "model.onnx"
BACKEND_ENV = "LANTERN_EMBEDDING_BACKEND"
"""``torch`` or ``onnx`` forces a backend; unset: torch when installed, else ONNX Runtime."""


def onnx_file(model_dir: Path) -> Path:
    return model_dir / ONNX_FILE


def want_onnx(model_dir: Path) -> bool:
    """Whether ``Embedder`` should run ``model_dir`` with ONNX Runtime (see ``BACKEND_ENV``)."""
    choice = os.environ.get(BACKEND_ENV, "").strip().lower()
    if choice == "onnx":
        return True
    if choice == "torch" or not onnx_file(model_dir).is_file():
        return False
    try:
        import sentence_transformers  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return True
    return False


def check_mean_pooling(model_dir: Path) -> None:
    """Raise ``ModelUnavailableError`` unless the folder's pipeline is Transformer → mean pooling."""
    modules_path = model_dir / "modules.json"
    modules = json.loads(modules_path.read_text(encoding="utf-8")) if modules_path.is_file() else []
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    pooling_path = model_dir / "1_Pooling" / "config.json"
    pooling = json.loads(pooling_path.read_text(encoding="utf-8")) if pooling_path.is_file() else {}
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v]
    if any(k not in {"Transformer", "Pooling", "Normalize"} for k in kinds) or modes not in ([], ["pooling_mode_mean_tokens"]):
        raise ModelUnavailableError(
            f"The embedding model in {model_dir} needs torch (its pipeline is {kinds or 'unknown'}, pooling "
            f"{modes or 'mean'}); only mean-pooled encoders run with ONNX Runtime.")


BERT_SPECIAL_TOKENS = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]"}


def special_token_ids(model_dir: Path, vocab: dict[str, int]) -> tuple[int | None, int | None, int]:
    """The ids of the folder's [CLS], [SEP] and [PAD] tokens, by the names its ``special_tokens_map.json`` (or,
    as transformers 5 saves them, ``tokenizer_config.json``) gives them: MPNet and RoBERTa-style encoders call
    them ``<s>``, ``</s>``, ``<pad>``; BERT's names when neither file says.  A missing [PAD] counts as id 0 (the
    attention mask hides padding anyway)."""
    named: dict = {}
    for rel in ("tokenizer_config.json", "special_tokens_map.json"):  # the second wins
        try:
            data = json.loads((model_dir / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            named.update({k: v for k, v in data.items() if k in BERT_SPECIAL_TOKENS})
    ids = []
    for key, default in BERT_SPECIAL_TOKENS.items():
        value = named.get(key, default)
        token = value.get("content") if isinstance(value, dict) else value
        ids.append(vocab.get(token) if isinstance(token, str) else None)
    cls_id, sep_id, pad_id = ids
    return cls_id, sep_id, pad_id if pad_id is not None else 0


class OnnxEncoder:
    """A BERT-style encoder exported to ONNX (inputs ``input_ids``, ``attention_mask``; output the last
    hidden state).  Not thread-safe by itself: ``Embedder`` calls it under its lock."""

    def __init__(self, model_dir: Path, *, threads: int, max_tokens: int):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelUnavailableError(f"The embedding runtime is not installed: {exc}") from exc
        check_mean_pooling(model_dir)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3  # warnings about unused initialisers are noise here
        try:
            self.session = ort.InferenceSession(str(onnx_file(model_dir)), opts, providers=["CPUExecutionProvider"])
            self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except Exception as exc:  # onnxruntime and tokenizers raise their own plain exception types
            raise ModelUnavailableError(
                f"The embedding model in {model_dir} could not be loaded ({type(exc).__name__}: {exc}). "
                "Reinstall Lantern.") from exc
        self._inputs = {i.name for i in self.session.get_inputs()}
        self.max_tokens = max_tokens
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_tokens)
        self.cls_id, self.sep_id, self.pad_id = special_token_ids(model_dir, self.tokenizer.get_vocab())
        log.info("loaded embedding model from %s with ONNX Runtime (%d threads)", model_dir, threads)

    def hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Token vectors ``(batch, length, dimension)`` float32 for int64 ``ids`` and ``mask``."""
        feed = {"input_ids": ids.astype(np.int64), "attention_mask": mask.astype(np.int64)}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(feed["input_ids"])
        return np.asarray(self.session.run(None, feed)[0], dtype=np.float32)

    def encode(self, texts: Sequence[str], batch_size: int) -> np.ndarray:
        """Mean-pooled, L2-normalised vectors of ``texts`` (truncated to the model's window)."""
        out = []
        encodings = self.tokenizer.encode_batch(list(texts))  # with [CLS]/[SEP], truncated
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids), reverse=True)
        vectors: dict[int, np.ndarray] = {}
        for b0 in range(0, len(order), batch_size):
            batch = order[b0:b0 + batch_size]
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for r, i in enumerate(batch):
                seq = encodings[i].ids
                ids[r, :len(seq)] = seq
                mask[r, :len(seq)] = 1
            hidden = self.hidden(ids, mask)
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            for r, i in enumerate(batch):
                vectors[i] = pooled[r]
        out = np.stack([vectors[i] for i in range(len(encodings))]) if encodings else np.zeros((0, 0), np.float32)
        norms = np.linalg.norm(out, axis=-1, keepdims=True)
        return (out / np.maximum(norms, 1e-12)).astype(np.float32)
