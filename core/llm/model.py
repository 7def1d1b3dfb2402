"""The local chat model: llama-cpp-python behind one owner thread, streaming, cancellable, prefix-cached.

``LocalModel`` loads nothing at import or construction.  The first call that needs the model
locates the GGUF (``core.llm.catalog.locate`` for catalogue keys, ``check_gguf`` for a user's
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

import json
import logging
import math
import os
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.errors import ModelUnavailableError
from core.llm.catalog import CATALOG, ModelEntry, check_gguf, locate
from core.llm.gguf import GGUFInfo, read_gguf_header
from core.llm.llama import ChatTemplate, LlamaRuntime
from core.llm.settings import (DEFAULT_ANSWER_TOKENS, Backend, CancelFn, LLMSettings, Message, ModelOutputError,
                               PromptTooLongError, Runtime, Vocabulary)
from core.llm.worker import _END, ChatStream, _StopMatcher, _Worker

log = logging.getLogger(__name__)


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
                    json_schema: Mapping[str, Any] | None = None, grammar: str | None = None) -> ChatStream:
        """Start answering ``messages``; iterate the returned stream for text pieces.

        Returns at once (tokenising aside); the work queues behind earlier calls on the worker.
        The stream ends at the model's end-of-turn token, a ``stop`` string (not included),
        ``max_tokens``, or when ``cancel()`` returns True / the stream is closed
        (``stats.finish_reason == "cancelled"``).  Raises ``PromptTooLongError`` (at once) when the
        prompt leaves no room for an answer, and ``ModelUnavailableError`` when the model cannot
        be found or loaded.  ``json_schema`` constrains the output with a llama.cpp grammar built from it;
        ``grammar`` is such a grammar in llama.cpp's GBNF (e.g. ``core.answer.prompt.citation_grammar``).
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
        grammar = json.dumps(dict(json_schema)) if json_schema is not None else grammar
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

    def option_logprobs(self, messages: Sequence[Message], options: Sequence[str], *, prefix: str = "",
                        cancel: CancelFn | None = None) -> dict[str, float]:
        """How likely the reply to ``messages``, after ``prefix``, goes on with each of ``options``: natural log
        probabilities of each option's first token, normalised over the options (one prompt evaluation, no
        sampling, so the same prompt always gives the same numbers).  The options must differ in that token."""
        prompt, add_bos, _ = self._chat_template().render(messages)
        vocab = self._vocabulary()
        seqs = [vocab.tokenize(prompt + prefix + o, add_bos=add_bos, special=True) for o in options]
        common = next((i for i, col in enumerate(zip(*seqs)) if len(set(col)) > 1), min(map(len, seqs)))
        heads = [s[common] if len(s) > common else None for s in seqs]
        if None in heads or len(set(heads)) < len(heads):
            raise ValueError(f"the options {list(options)} do not differ in their first token")
        abort = self._worker.abort

        def job() -> dict[str, float]:
            self._ensure_loaded()
            assert self._backend is not None
            logits = self._backend.next_logits(seqs[0][:common], lambda: abort.is_set() or bool(cancel and cancel()))
            top = max(logits[h] for h in heads)
            total = math.log(sum(math.exp(logits[h] - top) for h in heads))
            return {o: logits[h] - top - total for o, h in zip(options, heads)}

        return self._submit(job).result()


__all__ = ["LocalModel"]
