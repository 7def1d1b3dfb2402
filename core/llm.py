"""The local chat model: llama-cpp-python behind one owner thread, streaming, cancellable, prefix-cached.

``LocalModel`` loads nothing at import or construction.  The first call that needs the model
locates the GGUF (``core.models_catalog.locate`` for catalogue keys, ``check_gguf`` for a user's
file), checks it, and loads it *on the model's own worker thread*.  llama.cpp contexts are not
thread-safe, so every evaluation runs on that one thread: callers on any thread get a
``concurrent.futures.Future`` or a ``ChatStream`` whose pieces the worker hands over through a
queue.  Token counting and chat formatting use a separate vocabulary-only copy of the model (a few
MB, loaded once) and never wait behind a running generation.

Prompt caching: llama-cpp-python 0.3.36 keeps the tokens it has evaluated (``Llama._input_ids``)
and, at the next ``generate``, keeps the KV cache of the longest common token prefix and evaluates
only the rest.  ``prewarm(prefix_messages)`` evaluates the fixed instruction prefix up front so the
first real question pays only for its own tokens; every later question reuses the prefix because
the previous prompt starts with it.  Prompt evaluation runs in chunks with a cancel check between
them, so ``cancel()`` stops a long prompt within about half a second, and generation stops within
one token.

Errors: a missing, damaged or too-large model raises ``ModelUnavailableError``; a prompt that does
not fit the context raises ``PromptTooLongError``; unparseable JSON from ``complete_json`` raises
``ModelOutputError``.
"""
from __future__ import annotations

import atexit
import codecs
import json
import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from core.errors import LanternError, ModelUnavailableError
from core.models_catalog import (
    CATALOG,
    DEFAULT_MODEL_KEY,
    GGUFInfo,
    ModelEntry,
    check_gguf,
    locate,
    read_gguf_header,
)

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
    n_gpu_layers: int = 0  # -1 = all layers; falls back to CPU when the build or the load fails
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
        """Yield decoded text pieces, one per generated token (possibly ``""``), until EOG or max_tokens."""
        ...

    def reset(self) -> None:
        """Forget the KV cache (the next prompt is evaluated from scratch)."""
        ...

    def close(self) -> None: ...


class Runtime(Protocol):
    """Loads vocabularies and models (called on the worker thread); ``LlamaRuntime`` by default."""

    def load_vocab(self, path: Path) -> Vocabulary: ...
    def load_model(self, settings: LLMSettings, path: Path, info: GGUFInfo) -> Backend: ...


# -- the owner thread --------------------------------------------------------------------------
_live_workers: weakref.WeakSet[_Worker] = weakref.WeakSet()


class _Worker:
    """One daemon thread that runs jobs in submission order; the only thread that touches llama."""

    def __init__(self, name: str):
        self._name = name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.abort = threading.Event()  # set at shutdown: running jobs stop at their next check

    @property
    def ident(self) -> int | None:
        return self._thread.ident if self._thread is not None else None

    def in_worker(self) -> bool:
        return self._thread is not None and threading.current_thread() is self._thread

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        with self._lock:
            if self._closed:
                raise RuntimeError("the chat model has been closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
                _live_workers.add(self)
            fut: Future = Future()
            self._jobs.put((fut, fn, args))
            return fut

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            fut, fn, args = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(*args))
            except BaseException as exc:  # handed to the caller through the future
                fut.set_exception(exc)
            del item, fut, fn, args  # hold no job (and so no LocalModel) while idle

    def shutdown(self, final_job: Callable[[], Any] | None = None, timeout: float | None = 10.0) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
            if thread is None:
                return
            if final_job is not None:
                self._jobs.put((Future(), final_job, ()))
            self._jobs.put(None)
        if timeout != 0 and not self.in_worker():
            thread.join(timeout)


@atexit.register
def _abort_running_generations() -> None:
    """At exit, stop running jobs at their next check so llama is not torn down mid-decode."""
    workers = list(_live_workers)
    for w in workers:
        w.abort.set()
    for w in workers:
        w.shutdown(timeout=3.0)


# -- streaming ---------------------------------------------------------------------------------
_END = object()


class ChatStream(Iterator[str]):
    """Text pieces of one answer, produced on the model's worker thread.

    Iterate it (from any one thread) to get the pieces; ``stats`` is complete once iteration has
    ended.  ``close()`` (or leaving a ``with`` block, or dropping the stream) stops the generation.
    Exceptions raised on the worker (``ModelUnavailableError``, ...) are re-raised by ``next``.
    """

    def __init__(self) -> None:
        self._items: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._done = False
        self.stats = GenerationStats()

    def __iter__(self) -> ChatStream:
        return self

    def __next__(self) -> str:
        if self._done:
            raise StopIteration
        item = self._items.get()
        if isinstance(item, str):
            return item
        self._done = True
        if isinstance(item, BaseException):
            raise item
        raise StopIteration

    def text(self) -> str:
        """Consume the rest of the stream and return it joined."""
        return "".join(self)

    def close(self) -> None:
        """Ask the worker to stop this generation (returns at once)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self.stats.finish_reason == "cancelled"

    def __enter__(self) -> ChatStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self._stop.set()


class _StopMatcher:
    """Holds back text that may be the start of a stop string; cuts at the first stop string."""

    def __init__(self, stops: Sequence[str]):
        self.stops = [s for s in stops if s]
        self.pending = ""

    def feed(self, piece: str) -> tuple[str, bool]:
        """Return (text safe to emit, stopped)."""
        if not self.stops:
            return piece, False
        self.pending += piece
        cut = min((i for i in (self.pending.find(s) for s in self.stops) if i >= 0), default=-1)
        if cut >= 0:
            out, self.pending = self.pending[:cut], ""
            return out, True
        hold = 0
        for s in self.stops:
            for k in range(min(len(s) - 1, len(self.pending)), 0, -1):
                if self.pending.endswith(s[:k]):
                    hold = max(hold, k)
                    break
        out = self.pending[:len(self.pending) - hold]
        self.pending = self.pending[len(out):]
        return out, False

    def flush(self) -> str:
        out, self.pending = self.pending, ""
        return out


# -- chat formatting ---------------------------------------------------------------------------
_SENTINEL = "\u2063LANTERN-PREFIX-END\u2063"
_FORMAT_FUNCTIONS = {
    "chatml": "format_chatml", "llama-2": "format_llama2", "llama-3": "format_llama3",
    "mistral-instruct": "format_mistral_instruct", "gemma": "format_gemma", "qwen": "format_qwen",
    "zephyr": "format_zephyr", "alpaca": "format_alpaca", "openchat": "format_openchat",
}


class ChatTemplate:
    """Renders messages to a prompt string with the GGUF's own Jinja template (or a named format)."""

    def __init__(self, *, template: str | None, format_name: str | None, bos_token: str, eos_token: str):
        from llama_cpp import llama_chat_format as lcf

        if format_name:
            attr = _FORMAT_FUNCTIONS.get(format_name)
            if attr is None or not hasattr(lcf, attr):
                raise ModelUnavailableError(
                    f"Unknown chat format {format_name!r}; use one of {', '.join(_FORMAT_FUNCTIONS)} "
                    "or leave it empty to use the model's own template.")
            self._formatter = getattr(lcf, attr)
            self.name = format_name
        elif template:
            self._formatter = lcf.Jinja2ChatFormatter(template=template, eos_token=eos_token,
                                                      bos_token=bos_token, add_generation_prompt=True)
            self.name = "gguf"
        else:  # no template in the file: ChatML is what most small instruct models use
            self._formatter = lcf.format_chatml
            self.name = "chatml"

    def render(self, messages: Sequence[Message]) -> tuple[str, bool, list[str]]:
        """(prompt ending with the assistant's turn opener, add BOS when tokenizing, text stop strings)."""
        try:
            result = self._formatter(messages=[dict(m) for m in messages])
        except Exception as exc:  # jinja2 errors, raise_exception() in the template
            raise ModelOutputError(f"The chat template could not format these messages: {exc}") from exc
        stop = result.stop if isinstance(result.stop, list) else [result.stop] if result.stop else []
        return result.prompt, not result.added_special, [s for s in stop if s]

    def prefix(self, messages: Sequence[Message], *, continue_last: bool = False) -> tuple[str, bool]:
        """The part of every prompt that starts with ``messages`` that does not depend on what follows.

        Without ``continue_last`` the next message is a new user turn; with it, more text is appended
        to the last message's content.  Found by rendering with a sentinel and cutting there.
        """
        msgs = [dict(m) for m in messages]
        if continue_last and msgs:
            msgs[-1]["content"] = msgs[-1].get("content", "") + _SENTINEL
        else:
            msgs.append({"role": "user", "content": _SENTINEL})
        prompt, add_bos, _ = self.render(msgs)
        cut = prompt.find(_SENTINEL)
        return (prompt[:cut] if cut >= 0 else ""), add_bos


# -- the model ---------------------------------------------------------------------------------
class LocalModel:
    """A local GGUF chat model, loaded on first use and driven from one worker thread.

    Thread-safe: any thread may call any method; evaluations are serialised on the worker in call
    order.  ``cancel`` callables passed in are called on the worker thread, so they must be
    thread-safe (``threading.Event().is_set`` is the usual choice).
    """

    def __init__(self, settings: LLMSettings | None = None, *, model_path: str | os.PathLike[str] | None = None,
                 runtime: Runtime | None = None):
        settings = settings or LLMSettings()
        if model_path is not None:
            settings = replace(settings, model=str(model_path))
        self.settings = settings
        self._runtime = runtime or LlamaRuntime()
        self._worker = _Worker("lantern-llm")
        self._lock = threading.Lock()  # guards the lazily set attributes below
        self._path: Path | None = None
        self._info: GGUFInfo | None = None
        self._vocab: Vocabulary | None = None
        self._backend: Backend | None = None
        self._template: ChatTemplate | None = None
        self.load_seconds: float | None = None
        # A model dropped without close() still ends its idle worker thread.
        weakref.finalize(self, self._worker.shutdown, None, 0)

    # -- description ---------------------------------------------------------------------------
    @property
    def entry(self) -> ModelEntry | None:
        return self.settings.entry

    @property
    def display_name(self) -> str:
        entry = self.entry
        return entry.display_name if entry else Path(self.settings.model).name

    @property
    def is_loaded(self) -> bool:
        return self._backend is not None

    @property
    def worker_thread_id(self) -> int | None:
        return self._worker.ident

    @property
    def n_ctx(self) -> int:
        if self._backend is not None:
            return self._backend.n_ctx
        info = self._info
        train = info.context_length if info else (self.entry.context_length if self.entry else None)
        return min(self.settings.n_ctx, train) if train else self.settings.n_ctx

    def model_path(self) -> Path:
        """The checked GGUF file (assembles a split catalogue model on first call; no load)."""
        with self._lock:
            return self._resolve()

    def _resolve(self) -> Path:
        if self._path is None:
            s = self.settings
            if s.entry is not None:
                path = locate(s.entry, cache_dir=s.cache_dir, memory=s.check_memory)
                info = read_gguf_header(path)
            else:
                candidate = Path(s.model).expanduser()
                if not candidate.suffix and not candidate.exists():
                    raise ModelUnavailableError(
                        f"Unknown chat model {s.model!r}: give a .gguf file or one of {', '.join(CATALOG)}.")
                info = check_gguf(candidate, memory=s.check_memory)
                path = candidate
            self._path, self._info = path, info
        return self._path

    # -- loading (on the worker) ---------------------------------------------------------------
    def load(self) -> float:
        """Load the model now (else the first use does); return the seconds it took.  Blocks."""
        self._submit(self._ensure_loaded).result()
        return self.load_seconds or 0.0

    def load_async(self) -> Future:
        """Start loading on the worker thread; the future's result is the load time in seconds."""
        return self._submit(self._ensure_loaded)

    def _ensure_vocab(self) -> Vocabulary:
        if self._vocab is None:
            with self._lock:
                path = self._resolve()
            vocab = self._runtime.load_vocab(path)
            with self._lock:
                self._vocab = self._vocab or vocab
        return self._vocab

    def _ensure_loaded(self) -> float:
        if self._backend is not None:
            return self.load_seconds or 0.0
        t0 = time.perf_counter()
        self._ensure_vocab()
        with self._lock:
            path, info = self._resolve(), self._info
        assert info is not None
        backend = self._runtime.load_model(self.settings, path, info)
        with self._lock:
            self._backend = backend
        self.load_seconds = time.perf_counter() - t0
        log.info("loaded chat model %s from %s in %.1fs (n_ctx=%d, %d threads)",
                 self.display_name, path, self.load_seconds, backend.n_ctx, self.settings.threads)
        return self.load_seconds

    def _vocabulary(self) -> Vocabulary:
        """The tokenizer (vocabulary only: the weights are not loaded for it)."""
        vocab = self._vocab
        if vocab is None:
            vocab = self._ensure_vocab() if self._worker.in_worker() else self._submit(self._ensure_vocab).result()
        return vocab

    def _chat_template(self) -> ChatTemplate:
        if self._template is None:
            vocab = self._vocabulary()
            info = self._info
            tmpl = ChatTemplate(
                template=info.chat_template if info else None, format_name=self.settings.chat_format,
                bos_token=vocab.token_text(vocab.bos_id) if vocab.bos_id >= 0 else "",
                eos_token=vocab.token_text(vocab.eos_id) if vocab.eos_id >= 0 else "")
            with self._lock:
                self._template = self._template or tmpl
        return self._template

    def _submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self._worker.submit(fn, *args)

    def close(self) -> None:
        """Stop running work, free the model on its thread, and end the worker.  Idempotent."""
        self._worker.abort.set()

        def free() -> None:
            if self._backend is not None:
                self._backend.close()
                self._backend = None

        self._worker.shutdown(final_job=free)

    def __enter__(self) -> LocalModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- tokens --------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes inside a prompt (no BOS, special-token markup not parsed)."""
        if not text:
            return 0
        return len(self._vocabulary().tokenize(text, add_bos=False, special=False))

    def format_prompt(self, messages: Sequence[Message]) -> str:
        """The exact prompt text the model sees for ``messages`` (template + assistant opener)."""
        return self._chat_template().render(messages)[0]

    def prompt_tokens(self, messages: Sequence[Message]) -> list[int]:
        prompt, add_bos, _ = self._chat_template().render(messages)
        return self._vocabulary().tokenize(prompt, add_bos=add_bos, special=True)

    def count_chat_tokens(self, messages: Sequence[Message]) -> int:
        """Tokens of the whole formatted prompt for ``messages``: compare with ``n_ctx - max_tokens``."""
        return len(self.prompt_tokens(messages))

    # -- prefix cache --------------------------------------------------------------------------
    def prewarm(self, prefix_messages: Sequence[Message], *, continue_last: bool = False) -> Future:
        """Evaluate the fixed start of future prompts now, so they only pay for what follows it.

        ``prefix_messages`` are the leading messages every later prompt begins with (typically the
        system instructions).  With ``continue_last`` the last message's content is itself a prefix
        (e.g. a user message whose instructions come before the sources).  Returns a future whose
        result is the number of prefix tokens now in the cache; loads the model if needed.
        """
        text, add_bos = self._chat_template().prefix(prefix_messages, continue_last=continue_last)
        tokens = self._vocabulary().tokenize(text, add_bos=add_bos, special=True) if text else []

        def job() -> int:
            self._ensure_loaded()
            assert self._backend is not None
            if len(tokens) >= self.n_ctx:
                raise PromptTooLongError(f"The instruction prefix ({len(tokens)} tokens) does not fit "
                                         f"the context window ({self.n_ctx} tokens).")
            if tokens:
                self._backend.eval_prompt(tokens, self._worker.abort.is_set)
            return len(tokens)

        return self._submit(job)

    def clear_cache(self) -> Future:
        """Forget the evaluated prompt (benchmarks; or to free attention work after a book switch)."""
        def job() -> None:
            if self._backend is not None:
                self._backend.reset()
        return self._submit(job)

    # -- generation ----------------------------------------------------------------------------
    def stream_chat(self, messages: Sequence[Message], *, max_tokens: int = DEFAULT_ANSWER_TOKENS,
                    temperature: float = 0.2, stop: Sequence[str] | None = None,
                    cancel: CancelFn | None = None, top_p: float = 0.95, top_k: int = 40,
                    min_p: float = 0.05, repeat_penalty: float = 1.1,
                    json_schema: Mapping[str, Any] | None = None) -> ChatStream:
        """Start answering ``messages``; iterate the returned stream for text pieces.

        Returns at once (tokenising aside); the work queues behind earlier calls on the worker.
        The stream ends at the model's end-of-turn token, a ``stop`` string (not included),
        ``max_tokens``, or when ``cancel()`` returns True / the stream is closed
        (``stats.finish_reason == "cancelled"``).  Raises ``PromptTooLongError`` (at once) when the
        prompt leaves no room for an answer, and ``ModelUnavailableError`` when the model cannot
        be found or loaded.  ``json_schema`` constrains the output with a llama.cpp grammar.
        """
        if self._worker.in_worker():
            raise RuntimeError("stream_chat cannot be called from the model's own worker thread")
        t_call = time.perf_counter()
        prompt, add_bos, template_stops = self._chat_template().render(messages)
        tokens = self._vocabulary().tokenize(prompt, add_bos=add_bos, special=True)
        n_ctx = self.n_ctx
        if len(tokens) + 1 > n_ctx - min(max_tokens, 16):
            raise PromptTooLongError(
                f"The prompt is {len(tokens)} tokens but the model's context window is {n_ctx} "
                f"tokens; shorten the sources or raise n_ctx (answer budget {max_tokens}).")
        max_tokens = max(1, min(max_tokens, n_ctx - len(tokens)))
        grammar = json.dumps(dict(json_schema)) if json_schema is not None else None
        stream = ChatStream()
        stream.stats.prompt_tokens = len(tokens)
        stops = list(stop or []) + [s for s in template_stops if s not in (stop or [])]
        # The job holds the stream's parts, not the stream, so dropping the stream stops the job.
        items, stop_event, st, abort = stream._items, stream._stop, stream.stats, self._worker.abort

        def should_stop() -> bool:
            return stop_event.is_set() or abort.is_set() or bool(cancel is not None and cancel())

        def job() -> None:
            t_start = time.perf_counter()
            st.queued_s = t_start - t_call
            try:
                if should_stop():
                    st.finish_reason = "cancelled"
                    return
                self._ensure_loaded()
                backend = self._backend
                assert backend is not None
                # Evaluate all but the last prompt token here, in cancellable chunks; generate()
                # then finds them cached and evaluates only the last one before sampling.
                st.cached_tokens = backend.eval_prompt(tokens[:-1], should_stop)
                if should_stop():
                    st.finish_reason = "cancelled"
                    return
                matcher = _StopMatcher(stops)
                pieces = backend.generate(tokens, max_tokens=max_tokens, temperature=temperature, top_p=top_p,
                                          top_k=top_k, min_p=min_p, repeat_penalty=repeat_penalty,
                                          grammar=grammar)
                t_first: float | None = None
                st.finish_reason = "length"
                try:
                    for piece in pieces:
                        now = time.perf_counter()
                        if t_first is None:
                            t_first = now
                            st.prompt_s = now - t_start
                            st.first_token_s = now - t_call
                        st.completion_tokens += 1
                        st.generation_s = now - t_first
                        text, stopped = matcher.feed(piece)
                        if text:
                            items.put(text)
                        if stopped:
                            st.finish_reason = "stop"
                            break
                        if should_stop():
                            st.finish_reason = "cancelled"
                            break
                    else:
                        if st.completion_tokens < max_tokens:
                            st.finish_reason = "stop"  # end-of-turn token
                finally:
                    pieces.close()
                rest = matcher.flush()
                if rest and st.finish_reason != "cancelled":
                    items.put(rest)
            except BaseException as exc:
                st.finish_reason = "error"
                items.put(exc)
            finally:
                st.total_s = time.perf_counter() - t_call
                items.put(_END)

        self._submit(job)
        return stream

    def chat(self, messages: Sequence[Message], **kwargs: Any) -> str:
        """``stream_chat`` joined into one string (blocks)."""
        return self.stream_chat(messages, **kwargs).text()

    def complete_json(self, messages: Sequence[Message], schema: Mapping[str, Any], *,
                      max_tokens: int = 512, temperature: float = 0.0, cancel: CancelFn | None = None) -> Any:
        """Generate JSON that follows ``schema`` (a JSON Schema dict) and return it parsed.

        The output is constrained by a llama.cpp grammar built from the schema, so it is valid
        JSON of the right shape unless ``max_tokens`` cuts it short (``ModelOutputError``).
        Small models follow a schema better when the prompt also shows it.
        """
        stream = self.stream_chat(messages, max_tokens=max_tokens, temperature=temperature, cancel=cancel,
                                  json_schema=schema, repeat_penalty=1.0)
        text = stream.text()
        if stream.cancelled:
            raise ModelOutputError("JSON generation was cancelled.")
        try:
            return json.loads(text)
        except ValueError as exc:
            hint = " (the answer hit max_tokens)" if stream.stats.finish_reason == "length" else ""
            raise ModelOutputError(f"The model returned invalid JSON{hint}: {exc}") from exc


# -- llama-cpp-python backend ------------------------------------------------------------------
class _LlamaVocab:
    """A vocabulary-only llama.cpp model (no weights, no context): tokenizing from any thread."""

    def __init__(self, path: Path):
        import llama_cpp
        from llama_cpp import _internals

        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        try:
            self._model = _internals.LlamaModel(path_model=str(path), params=params, verbose=False)
        except (ValueError, OSError) as exc:
            raise ModelUnavailableError(
                f"llama.cpp cannot read the vocabulary of {path.name} ({exc}). The file may be damaged "
                "or made for a newer llama.cpp; reinstall it or choose another model.") from exc
        self._lock = threading.Lock()

    def tokenize(self, text: str, *, add_bos: bool, special: bool) -> list[int]:
        with self._lock:
            return self._model.tokenize(text.encode("utf-8"), add_bos=add_bos, special=special)

    def token_text(self, token: int) -> str:
        with self._lock:
            return self._model.token_get_text(token)

    @property
    def bos_id(self) -> int:
        return self._model.token_bos()

    @property
    def eos_id(self) -> int:
        return self._model.token_eos()


class _LlamaBackend:
    """A loaded ``llama_cpp.Llama`` plus cancellable, prefix-reusing prompt evaluation."""

    def __init__(self, llm: Any, n_gpu_layers: int):
        self.llm = llm
        self.n_ctx = llm.n_ctx()
        self.n_gpu_layers = n_gpu_layers
        self._chunk = MIN_PROMPT_CHUNK  # prompt tokens per cancel check; adapted to ~PROMPT_CHUNK_SECONDS
        self._grammars: dict[str, Any] = {}

    def eval_prompt(self, tokens: Sequence[int], should_stop: CancelFn) -> int:
        llm = self.llm
        tokens = list(tokens)
        cached = llm._input_ids.tolist()  # what the KV cache holds now (llama-cpp-python 0.3.x)
        common = 0
        for a, b in zip(cached, tokens):
            if a != b:
                break
            common += 1
        if common < len(cached):
            if common > 0 and llm._ctx.kv_cache_seq_rm(-1, common, -1):
                llm.n_tokens = common
            else:
                llm.reset()
                common = 0
        pos = common
        while pos < len(tokens):
            if should_stop():
                break
            step = tokens[pos:pos + self._chunk]
            t0 = time.perf_counter()
            llm.eval(step)
            dt = time.perf_counter() - t0
            pos += len(step)
            if dt > 0 and len(step) == self._chunk:
                per_token = dt / len(step)
                want = int(PROMPT_CHUNK_SECONDS / per_token) // 16 * 16
                self._chunk = min(llm.n_batch, max(MIN_PROMPT_CHUNK, want))
        return common

    def generate(self, tokens: Sequence[int], *, max_tokens: int, temperature: float, top_p: float,
                 top_k: int, min_p: float, repeat_penalty: float, grammar: str | None) -> Iterator[str]:
        import llama_cpp

        llm = self.llm
        grammar_obj = self._grammar(grammar) if grammar else None
        vocab = llm._model.vocab
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        n = 0
        for token in llm.generate(list(tokens), temp=temperature, top_p=top_p, top_k=top_k, min_p=min_p,
                                  repeat_penalty=repeat_penalty, grammar=grammar_obj):
            if llama_cpp.llama_vocab_is_eog(vocab, token):
                return
            yield decoder.decode(llm.detokenize([token]))
            n += 1
            if n >= max_tokens:
                return

    def reset(self) -> None:
        self.llm.reset()

    def _grammar(self, schema_json: str) -> Any:
        if schema_json not in self._grammars:
            from llama_cpp import LlamaGrammar
            try:
                self._grammars[schema_json] = LlamaGrammar.from_json_schema(schema_json, verbose=False)
            except Exception as exc:  # the converter raises plain exceptions on unsupported schemas
                raise ModelOutputError(f"This JSON schema cannot be turned into a grammar: {exc}") from exc
        return self._grammars[schema_json]

    def close(self) -> None:
        close = getattr(self.llm, "close", None)
        if close is not None:
            close()


class LlamaRuntime:
    """Loads GGUF files with llama-cpp-python (on the worker thread)."""

    def load_vocab(self, path: Path) -> Vocabulary:
        _import_llama()
        return _LlamaVocab(path)

    def load_model(self, settings: LLMSettings, path: Path, info: GGUFInfo) -> Backend:
        llama_cpp = _import_llama()
        n_ctx = min(settings.n_ctx, info.context_length) if info.context_length else settings.n_ctx
        gpu_layers = settings.n_gpu_layers
        if gpu_layers and not llama_cpp.llama_supports_gpu_offload():
            log.info("this llama-cpp-python build has no GPU support; running %s on the CPU", path.name)
            gpu_layers = 0
        threads = settings.threads

        def build(layers: int) -> Any:
            return llama_cpp.Llama(
                model_path=str(path), n_ctx=n_ctx, n_batch=min(settings.n_batch, n_ctx),
                n_ubatch=min(settings.n_batch, n_ctx), n_threads=threads, n_threads_batch=threads,
                n_gpu_layers=layers, seed=settings.seed, flash_attn=settings.flash_attn, verbose=False)

        try:
            try:
                llm = build(gpu_layers)
            except (ValueError, RuntimeError, OSError) as exc:
                if not gpu_layers:
                    raise
                log.warning("loading %s with %d GPU layers failed (%s); retrying on the CPU",
                            path.name, gpu_layers, exc)
                gpu_layers = 0
                llm = build(0)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelUnavailableError(
                f"llama.cpp could not load the chat model {path.name} ({exc}). The file may be damaged, "
                "too big for this computer's memory, or need a newer Lantern; reinstall it or choose "
                "another model.") from exc
        return _LlamaBackend(llm, gpu_layers)


def _import_llama() -> Any:
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelUnavailableError(f"The chat runtime (llama-cpp-python) is not installed: {exc}. "
                                    "Run packaging/setup-venv.sh.") from exc
    return llama_cpp
