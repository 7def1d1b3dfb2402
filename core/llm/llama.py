"""llama-cpp-python behind the ``Runtime``/``Backend`` protocols, and chat templates (split from ``core.llm.model``).

Everything here imports ``llama_cpp`` lazily, inside the functions that need it, so importing
Lantern never loads the native library.  Import these names from ``core.llm.model``.
"""
from __future__ import annotations

import codecs
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from core.errors import ModelUnavailableError
from core.llm.gguf import GGUFInfo
from core.llm.settings import (MIN_PROMPT_CHUNK, PROMPT_CHUNK_SECONDS, Backend, CancelFn, LLMSettings, Message,
                               ModelOutputError, Vocabulary)

log = logging.getLogger("core.llm.model")

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

    def next_logits(self, tokens: Sequence[int], should_stop: CancelFn) -> list[float]:
        """The logits of the token after ``tokens``: all but the last are brought into the cache, the last is
        evaluated alone so that its logits are the ones llama.cpp holds."""
        import numpy as np

        llm = self.llm
        self.eval_prompt(tokens[:-1], should_stop)
        if should_stop():  # a half-read prompt has no meaningful next token
            raise ModelOutputError("The model was stopped before it had read the whole prompt.")
        llm.eval([tokens[-1]])
        return np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),)).tolist()

    def reset(self) -> None:
        self.llm.reset()

    def _grammar(self, spec: str) -> Any:
        """A JSON schema (as JSON: starts with "{") or a GBNF grammar, compiled once."""
        if spec not in self._grammars:
            from llama_cpp import LlamaGrammar
            try:
                if spec.lstrip().startswith("{"):
                    self._grammars[spec] = LlamaGrammar.from_json_schema(spec, verbose=False)
                else:
                    self._grammars[spec] = LlamaGrammar.from_string(spec, verbose=False)
            except Exception as exc:  # the converters raise plain exceptions on what they cannot compile
                raise ModelOutputError(f"This grammar cannot be compiled: {exc}") from exc
        return self._grammars[spec]

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
            log.info("no GPU is usable here (this llama.cpp build has no GPU backend, or no driver or device "
                     "was found); running %s on the CPU", path.name)
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
