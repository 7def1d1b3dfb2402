"""Lantern's own re-ranker: a small cross-encoder run by ONNX Runtime (no torch in the installer).

``packaging/train_reranker.py`` fine-tunes it from the bundled all-MiniLM-L6-v2 weights and exports a
folder: ``tokenizer.json``, ``onnx/model_int8.onnx`` (or ``onnx/model.onnx``) and ``reranker.json``.
``OnnxCrossEncoder.scores`` reads each (question, passage) pair together — the question first, the
passage (its section title, then its text) truncated to ``max_length`` word pieces — and returns one
relevance logit per pair.  Loaded on first use, thread-safe (one lock), never downloads.
"""
from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.errors import ModelUnavailableError
from core.models import Chunk
from core.paths import bundle_dir, resources_dir

log = logging.getLogger(__name__)

MODEL_FILES = (Path("onnx") / "model_int8.onnx", Path("onnx") / "model.onnx")
BUNDLED_NAME = "reranker"


def bundled_reranker_dir() -> Path | None:
    """The re-ranker shipped with Lantern: the packaged app's ``models/reranker`` or the repo's
    ``resources/models/reranker``; None when neither holds a model."""
    for root in ([bundle_dir() / "models"] if bundle_dir() is not None else []) + [resources_dir() / "models"]:
        folder = root / BUNDLED_NAME
        if any((folder / f).is_file() for f in MODEL_FILES):
            return folder
    return None


def is_onnx_reranker(folder: Path) -> bool:
    """Whether ``folder`` holds an exported ONNX cross-encoder (rather than a torch one)."""
    return any((Path(folder) / f).is_file() for f in MODEL_FILES) and (Path(folder) / "tokenizer.json").is_file()


class OnnxCrossEncoder:
    """Scores (question, passage) pairs with an exported cross-encoder (higher = more relevant)."""

    def __init__(self, folder: str | os.PathLike[str], *, max_length: int = 160, threads: int | None = None):
        self.folder = Path(folder)
        self.max_length = max_length
        self.threads = threads or max(1, min(os.cpu_count() or 1, 4))
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()

    def _load(self):
        if self._session is None:
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise ModelUnavailableError(f"The re-ranking runtime is not installed: {exc}") from exc
            model = next((self.folder / f for f in MODEL_FILES if (self.folder / f).is_file()), None)
            if model is None or not (self.folder / "tokenizer.json").is_file():
                raise ModelUnavailableError(f"{self.folder} holds no exported re-ranking model.")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            try:
                self._session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
                tok = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
            except Exception as exc:  # onnxruntime/tokenizers raise plain exception types
                raise ModelUnavailableError(f"The re-ranking model in {self.folder} cannot be loaded: {exc}") from exc
            tok.enable_truncation(self.max_length, strategy="longest_first")
            tok.no_padding()
            self._tokenizer = tok
            self._inputs = {i.name for i in self._session.get_inputs()}
            log.info("loaded the re-ranker %s (%d threads)", model, self.threads)
        return self._session, self._tokenizer

    def info(self) -> dict:
        """``reranker.json``: how the model was trained (empty when absent)."""
        try:
            return json.loads((self.folder / "reranker.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def scores(self, question: str, passages: Sequence[str]) -> np.ndarray:
        """One logit per passage for ``question`` (float64)."""
        if not passages:
            return np.zeros(0)
        with self._lock:
            session, tok = self._load()
            encs = tok.encode_batch([(question, p) for p in passages])
            width = max(len(e.ids) for e in encs)
            ids = np.zeros((len(encs), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for r, e in enumerate(encs):
                ids[r, :len(e.ids)] = e.ids
                mask[r, :len(e.ids)] = 1
                types[r, :len(e.ids)] = e.type_ids
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = types
            out = session.run(None, feed)[0]
        return np.asarray(out, dtype=np.float64).reshape(len(passages), -1)[:, -1]


def passage_text(chunk: Chunk) -> str:
    """What a cross-encoder reads for a chunk: its section title, then its text."""
    title = chunk.section_title.strip()
    return f"{title}. {chunk.text}" if title else chunk.text


__all__ = ["BUNDLED_NAME", "MODEL_FILES", "OnnxCrossEncoder", "bundled_reranker_dir", "is_onnx_reranker",
           "passage_text"]
