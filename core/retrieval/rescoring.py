"""The re-ranking stage: re-order the best few candidates of a search with a closer look at each.

Two re-scorers, behind one small protocol (``Rescorer``):

* ``CrossEncoderRescorer`` — a sentence-transformers ``CrossEncoder`` (e.g. ms-marco-MiniLM-L-6-v2)
  read from a local folder, loaded on first use, never downloaded.  The installer may bundle one;
  a student or developer points ``LANTERN_RERANKER`` at a folder.
* ``SignalBlend`` — the default when no cross-encoder is configured: score-level fusion of the
  keyword and vector scores the hybrid search already computed (min-max normalised over the top
  candidates, then averaged).  It costs microseconds and needs no model.  RRF only sees ranks, so
  a chunk far ahead on one retriever and close on the other loses to one that is middling on both;
  the blend keeps those margins (measured on the dev books: see ``benchmarks/rescoring.py``).

``rescore`` applies a re-scorer to the first ``top_n`` hits; ``reranker_from_setting`` turns the
``LANTERN_RERANKER`` setting into a re-scorer.  ``core.retrieval.selection.select_hits`` calls the stage between
candidate search and de-duplication.
"""
from __future__ import annotations

import logging
import os
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from core.errors import ModelUnavailableError
from core.models import Hit
from core.retrieval.cross_encoder import OnnxCrossEncoder, is_onnx_reranker, passage_text
from core.retrieval.fusion import minmax
from core.retrieval.learned_blend import LearnedBlend

log = logging.getLogger(__name__)

RERANKER_ENV = "LANTERN_RERANKER"
"""Setting: a folder holding a sentence-transformers CrossEncoder, ``default`` (the signal blend) or ``off``."""
_OFF = frozenset({"off", "none", "0", "false", "no"})
_DEFAULT = frozenset({"", "default", "blend"})


@runtime_checkable
class Rescorer(Protocol):
    """Scores the first ``top_n`` candidates of a search for a question (higher = better).

    A re-scorer that reads the ``section_keyword``/``section_vector`` stage scores says so with a true
    ``uses_section_scores`` attribute; ``Library.find`` computes them only then.
    """

    @property
    def name(self) -> str: ...
    @property
    def top_n(self) -> int: ...
    def scores(self, question: str, hits: Sequence[Hit]) -> Sequence[float]: ...


def rerank(hits: Sequence[Hit], scores: Sequence[float], *, name: str) -> list[Hit]:
    """Re-order the first ``len(scores)`` hits by ``scores`` (best first, ties keep their order).

    Hits past the scored head stay behind it in their order.  Each scored hit records its new score
    in ``stage_scores`` under ``name`` (for ``--explain``); ranks are renumbered 1..n.
    """
    head, tail = list(hits[:len(scores)]), list(hits[len(scores):])
    if len(scores) > len(hits):
        raise ValueError("more scores than hits")
    order = sorted(range(len(head)), key=lambda i: -float(scores[i]))  # sorted() is stable
    out = [replace(head[i], stage_scores=head[i].stage_scores + ((name, float(scores[i])),)) for i in order]
    return [replace(h, rank=r) for r, h in enumerate(out + tail, start=1)]


def rescore(question: str, hits: Sequence[Hit], rescorer: Rescorer) -> list[Hit]:
    """Apply ``rescorer`` to the first ``rescorer.top_n`` of ``hits`` and re-order them."""
    head = list(hits[:rescorer.top_n])
    if not head:
        return list(hits)
    scores = rescorer.scores(question, head)
    return rerank(hits, scores, name=rescorer.name)


def blend_scores(hits: Sequence[Hit], vector_weight: float = 0.5) -> np.ndarray:
    """Score-level fusion of the hits' keyword (bm25) and vector (cosine) stage scores.

    Each is min-max scaled over ``hits``; a hit one retriever did not return scores 0 on it.
    """
    stages = [dict(h.stage_scores) for h in hits]
    vec = minmax([s.get("vector") for s in stages])
    kw = minmax([s.get("keyword") for s in stages])
    return vector_weight * vec + (1.0 - vector_weight) * kw


@dataclass(frozen=True)
class SignalBlend:
    """The default re-scorer: ``blend_scores`` over the top ``top_n`` hybrid candidates.

    Top 10 with equal weights is the only measured setting that lifted both dev books in the same
    run (``benchmarks/rescoring.py``, question only: Psychology Hit@5 .951 → .959, MRR@10 .864 →
    .872; Chemistry .856 → .860, .701 → .707).  Top 20 lowered Chemistry (weak keyword-only chunks
    moved up); vector weight .7 helped Chemistry but not Psychology's MRR, .3 the reverse.

    Section signals (``core.index.sections``; ``Library.find`` adds them as stage scores): the
    question's cosine with the chunk's section centroid and its bm25 over the section's whole text, each
    min-max scaled over the candidates and weighted .2.  ``benchmarks/rescoring.py --section-signals``
    (same run, question only): Psychology Hit@5 .959 → .964, MRR@10 .875 → .877; Chemistry (800) Hit@5
    .863 → .869, MRR .713 → .721 — against the earlier same-section agreement bonus (``section_weight``
    .2, now 0: with the section signals it no longer lifted both books).
    """

    top_n: int = 10
    vector_weight: float = 0.5
    name: str = "blend"
    section_weight: float = 0.0  # bonus for the share of the other top candidates from the same section
    section_vector_weight: float = 0.2  # the chunk's section centroid vs the question (``section_vector``)
    section_keyword_weight: float = 0.2  # bm25 of the question over the chunk's whole section (``section_keyword``)

    @property
    def uses_section_scores(self) -> bool:
        """Whether ``Library.find`` should look up the section signals for this re-scorer."""
        return bool(self.section_vector_weight or self.section_keyword_weight)

    def scores(self, question: str, hits: Sequence[Hit]) -> Sequence[float]:
        """Blended keyword/vector score of each hit, plus its section's signals."""
        base = blend_scores(hits, self.vector_weight)
        if len(hits) < 2:
            return base
        stages = [dict(h.stage_scores) for h in hits]
        for weight, stage in ((self.section_vector_weight, "section_vector"),
                              (self.section_keyword_weight, "section_keyword")):
            if weight:
                base = base + weight * minmax([s.get(stage) for s in stages])
        if self.section_weight:
            counts = Counter(h.chunk.section_id for h in hits if h.chunk.section_id is not None)
            others = np.array([counts[h.chunk.section_id] - 1 if h.chunk.section_id is not None else 0
                               for h in hits], dtype=float)
            base = base + self.section_weight * others / (len(hits) - 1)
        return base


class CrossEncoderRescorer:
    """A sentence-transformers ``CrossEncoder`` from a local folder, on CPU, loaded on first use.

    ``top_n`` candidates are scored per question, each pair truncated to ``max_length`` tokens;
    both bound the latency, which grows with their product.  With 10 × 128 tokens, a whole
    ``Library.find`` took p50 546–578 ms with a 6-layer MiniLM cross-encoder and 235–257 ms with a
    2-layer one (shared 2-core machine at load 4–5; random weights of the same shapes,
    ``benchmarks/rescoring.py --cross-encoder``): only the 2-layer size fits the 300 ms budget here.
    Thread-safe: one lock serialises loading and inference.  Never downloads: a folder without ``config.json`` raises
    ``ModelUnavailableError`` before sentence-transformers is imported.
    """

    def __init__(self, model_dir: str | os.PathLike[str], *, top_n: int = 10, max_length: int = 128,
                 batch_size: int = 16):
        self.model_dir = Path(model_dir).expanduser()
        self.top_n = top_n
        self.max_length = max_length
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "cross-encoder"

    def _check_folder(self) -> None:
        if not self.model_dir.is_dir():
            raise ModelUnavailableError(f"The re-ranking model folder {self.model_dir} does not exist.")
        if not (self.model_dir / "config.json").is_file():
            raise ModelUnavailableError(
                f"{self.model_dir} is not a cross-encoder model folder (no config.json); "
                f"set {RERANKER_ENV} to a folder saved by sentence-transformers or transformers.")

    def load(self):
        """Load the model now (otherwise the first ``scores`` call does); raises ``ModelUnavailableError``."""
        with self._lock:
            if self._model is None:
                self._check_folder()
                try:
                    from sentence_transformers import CrossEncoder
                    self._model = CrossEncoder(str(self.model_dir), device="cpu", local_files_only=True,
                                               max_length=self.max_length)
                except (OSError, ValueError) as exc:  # unreadable weights/tokenizer: say so, don't fetch
                    raise ModelUnavailableError(
                        f"The re-ranking model in {self.model_dir} cannot be loaded: {exc}") from exc
                log.info("loaded cross-encoder from %s (max %d tokens, top %d)", self.model_dir,
                         self.max_length, self.top_n)
            return self._model

    def scores(self, question: str, hits: Sequence[Hit]) -> Sequence[float]:
        if not hits:
            return []
        model = self.load()
        pairs = [(question, passage_text(h.chunk)) for h in hits]
        with self._lock:
            out = model.predict(pairs, batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True)
        return np.asarray(out, dtype=np.float64).reshape(len(hits), -1)[:, -1].tolist()


_shared: dict[Path, Rescorer] = {}
_shared_lock = threading.Lock()


def reranker_from_setting(value: str | None) -> Rescorer | None:
    """The re-scorer a setting names: a model folder, ``default``/empty (``SignalBlend``) or ``off`` (None).

    One ``CrossEncoderRescorer`` per folder per process (the weights are loaded once, lazily).
    """
    text = (value or "").strip()
    if text.lower() in _OFF:
        return None
    if text.lower() in _DEFAULT:
        return SignalBlend()
    path = Path(text).expanduser().resolve()
    with _shared_lock:
        if path not in _shared:  # Lantern's own ONNX re-ranker (packaging/train_reranker.py), or a torch folder
            _shared[path] = LearnedBlend({"cross_encoder": 1.0}, OnnxCrossEncoder(path), top_n=10) \
                if is_onnx_reranker(path) else CrossEncoderRescorer(path)
        return _shared[path]


def configured_reranker() -> Rescorer | None:
    """The re-scorer the environment asks for (``LANTERN_RERANKER``); the default when unset."""
    return reranker_from_setting(os.environ.get(RERANKER_ENV))


__all__ = ["CrossEncoderRescorer", "RERANKER_ENV", "Rescorer", "SignalBlend", "blend_scores", "configured_reranker",
           "rerank", "rescore", "reranker_from_setting"]
