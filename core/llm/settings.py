"""Chat-model settings, errors, generation statistics and the backend protocols that ``core.llm.model``
and ``core.llm.llama`` share."""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.errors import LanternError
from core.llm.catalog import CATALOG, DEFAULT_MODEL_KEY, ModelEntry
from core.llm.gguf import GGUFInfo

log = logging.getLogger(__name__)


Message = Mapping[str, str]
"""``{"role": "system" | "user" | "assistant", "content": "..."}``"""
CancelFn = Callable[[], bool]

DEFAULT_PROMPT_TOKENS = 1200
DEFAULT_ANSWER_TOKENS = 300
DEFAULT_N_CTX = 1536  # DEFAULT_PROMPT_TOKENS + DEFAULT_ANSWER_TOKENS, rounded up to a multiple of 256
PROMPT_CHUNK_SECONDS = 0.5  # prompt evaluation checks ``cancel`` about this often...
MIN_PROMPT_CHUNK = 64  # ...but never in chunks under 64 tokens: 32-token chunks cost ~20% more CPU

ENV_MODEL = "LANTERN_CHAT_MODEL"  # catalogue key or path to a .gguf
ENV_THREADS = "LANTERN_LLM_THREADS"
ENV_CTX = "LANTERN_LLM_CTX"
ENV_GPU_LAYERS = "LANTERN_LLM_GPU_LAYERS"



class PromptTooLongError(LanternError):
    """The prompt (plus room for the answer) does not fit the model's context window."""

    code = "prompt_too_long"


class ModelOutputError(LanternError):
    """The model's output could not be used (e.g. ``complete_json`` got invalid JSON)."""

    code = "model_output"


# -- settings ----------------------------------------------------------------------------------
def physical_cores() -> int:
    """Physical cores this process may use (llama.cpp gains nothing from hyper-threads)."""
    try:
        allowed = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = os.cpu_count() or 1
    try:
        import psutil
        physical = psutil.cpu_count(logical=False) or allowed
    except ImportError:
        physical = allowed
    return max(1, min(allowed, physical))


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    try:
        return int(value) if value else None
    except ValueError:
        log.warning("ignoring %s=%r (not an integer)", name, value)
        return None


@dataclass(frozen=True)
class LLMSettings:
    """How to run the chat model.  ``model`` is a catalogue key or a path to any ``.gguf`` file."""

    model: str = DEFAULT_MODEL_KEY
    n_ctx: int = DEFAULT_N_CTX
    n_threads: int | None = None  # None: physical cores
    n_batch: int = 512
    # -1: every layer on a GPU when the llama.cpp build has a GPU backend and a usable device (Metal, Vulkan,
    # CUDA); the CPU otherwise, or when loading on the GPU fails (packaging/README.md, "GPU builds").  0: CPU.
    n_gpu_layers: int = -1
    seed: int = 0
    chat_format: str | None = None  # None: the GGUF's own template; else "chatml", "llama-3", ...
    cache_dir: Path | None = None  # where split models are assembled (None: user data dir)
    flash_attn: bool = False
    check_memory: bool = True

    @classmethod
    def from_env(cls, **overrides: Any) -> LLMSettings:
        """Defaults, then ``LANTERN_CHAT_MODEL``/``_LLM_THREADS``/``_LLM_CTX``/``_LLM_GPU_LAYERS``, then overrides."""
        values: dict[str, Any] = {}
        if os.environ.get(ENV_MODEL, "").strip():
            values["model"] = os.environ[ENV_MODEL].strip()
        for env, key in ((ENV_THREADS, "n_threads"), (ENV_CTX, "n_ctx"), (ENV_GPU_LAYERS, "n_gpu_layers")):
            v = _env_int(env)
            if v is not None:
                values[key] = v
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def threads(self) -> int:
        return self.n_threads if self.n_threads and self.n_threads > 0 else physical_cores()

    @property
    def entry(self) -> ModelEntry | None:
        return CATALOG.get(self.model)


@dataclass
class GenerationStats:
    """Filled in by the worker as a generation runs; final once the stream has ended."""

    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens whose KV cache was reused from an earlier call
    completion_tokens: int = 0
    queued_s: float = 0.0  # waiting for an earlier job on the worker thread
    prompt_s: float = 0.0  # evaluating the uncached part of the prompt
    first_token_s: float = 0.0  # from the call to the first generated token
    generation_s: float = 0.0  # from the first to the last token
    total_s: float = 0.0
    finish_reason: str = ""  # "stop" | "length" | "cancelled" | "error"

    @property
    def evaluated_tokens(self) -> int:
        return self.prompt_tokens - self.cached_tokens

    @property
    def tokens_per_second(self) -> float:
        if self.completion_tokens < 2 or not self.generation_s:
            return 0.0
        return (self.completion_tokens - 1) / self.generation_s


# -- backend interface (llama-cpp here; tests plug in a fake) ----------------------------------------
class Vocabulary(Protocol):
    """Tokenizer and special tokens; safe to call from any thread."""

    def tokenize(self, text: str, *, add_bos: bool, special: bool) -> list[int]: ...
    def token_text(self, token: int) -> str: ...
    @property
    def bos_id(self) -> int: ...
    @property
    def eos_id(self) -> int: ...


class Backend(Protocol):
    """The loaded model; every method is called on the worker thread only."""

    n_ctx: int

    def eval_prompt(self, tokens: Sequence[int], should_stop: CancelFn) -> int:
        """Bring the KV cache to exactly ``tokens`` (reusing the common prefix); return tokens reused."""
        ...

    def generate(self, tokens: Sequence[int], *, max_tokens: int, temperature: float, top_p: float,
                 top_k: int, min_p: float, repeat_penalty: float, grammar: str | None) -> Iterator[str]:
        """Yield decoded text pieces, one per generated token (possibly ``""``), until EOG or max_tokens.
        ``grammar``: a JSON schema as JSON (starts with "{") or a llama.cpp GBNF grammar, or None."""
        ...

    def next_logits(self, tokens: Sequence[int], should_stop: CancelFn) -> Sequence[float]:
        """Bring the KV cache to ``tokens`` and return the logits of the token that would follow them."""
        ...

    def reset(self) -> None:
        """Forget the KV cache (the next prompt is evaluated from scratch)."""
        ...

    def close(self) -> None: ...


class Runtime(Protocol):
    """Loads vocabularies and models (called on the worker thread); ``LlamaRuntime`` by default."""

    def load_vocab(self, path: Path) -> Vocabulary: ...
    def load_model(self, settings: LLMSettings, path: Path, info: GGUFInfo) -> Backend: ...

