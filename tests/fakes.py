"""Test doubles shared by the core tests (never imported by ``core``)."""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterator, Sequence

import numpy as np

from core.progress import CancelFn, ProgressFn, check_cancel

_TOKEN = re.compile(r"\w+|[^\w\s]")


class HashingEmbedder:
    """A deterministic, model-free stand-in for ``core.index.embedder.Embedder``.

    Tokens are words and punctuation marks; each token id gets a fixed pseudo-random unit vector,
    and a text's vector is the normalised mean of its tokens' vectors (bag of words).  So texts
    sharing words are similar, unrelated texts are nearly orthogonal, and everything is fast.
    ``embed_windows`` returns the same (context-free) token vectors, so pooled and re-embedded
    chunk vectors agree exactly.
    """

    def __init__(self, dimension: int = 256, max_tokens: int = 64, model_name: str = "hashing-test"):
        self._dim = dimension
        self._max = max_tokens
        self._name = model_name
        self._cache: dict[int, np.ndarray] = {}
        self.windows_seen: list[list[int]] = []
        self.encode_calls = 0

    model_name = property(lambda self: self._name)
    dimension = property(lambda self: self._dim)
    max_tokens = property(lambda self: self._max)
    special_tokens = property(lambda self: 2)

    def _id(self, token: str) -> int:
        t = token.lower()
        # Function words and punctuation carry no topic: give them small shared ids so they do not
        # dominate similarity.
        if t in {"the", "a", "an", "of", "and", "is", "are", "to", "in", "it", "its", "this", "that"}:
            return 1
        if not t[0].isalnum():
            return 2 + ord(t[0]) % 997
        return 1000 + zlib.crc32(t.encode()) % 100_000

    def _vec(self, token_id: int) -> np.ndarray:
        if token_id not in self._cache:
            rng = np.random.default_rng(token_id)
            v = rng.standard_normal(self._dim).astype(np.float32)
            if token_id == 1 or token_id < 1000:
                v *= 0.05
            self._cache[token_id] = v / np.linalg.norm(v)
        return self._cache[token_id]

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [[self._id(t) for t in _TOKEN.findall(text)] for text in texts]

    def count_tokens(self, text: str) -> int:
        return len(_TOKEN.findall(text))

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        return [self.count_tokens(t) for t in texts]

    def _pool(self, ids: Sequence[int]) -> np.ndarray:
        if not ids:
            return np.zeros(self._dim, dtype=np.float32)
        v = np.sum([self._vec(i) for i in ids], axis=0)
        return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32)

    def encode(self, texts: Sequence[str], *, batch_size: int | None = None,
               progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> np.ndarray:
        self.encode_calls += 1
        check_cancel(cancel)
        limit = self._max - 2
        out = np.array([self._pool(ids[:limit]) for ids in self.token_ids(texts)], dtype=np.float32)
        return out.reshape(len(texts), self._dim)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]

    def embed_windows(self, windows: Sequence[Sequence[int]], *, batch_size: int | None = None,
                      progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> Iterator[np.ndarray]:
        limit = self._max - 2
        for i, w in enumerate(windows):
            check_cancel(cancel)
            assert len(w) <= limit, f"window of {len(w)} tokens exceeds the model window"
            self.windows_seen.append(list(w))
            yield np.array([self._vec(t) for t in w], dtype=np.float32).reshape(len(w), self._dim)
            if progress is not None:
                progress("embedding", i + 1, len(windows))


class FakeEmbedder(HashingEmbedder):
    """The fake the library/desktop tests use: MiniLM's 256-token window, a small fast vector."""

    def __init__(self, dimension: int = 64, max_tokens: int = 256, model_name: str = "fake-hashing"):
        super().__init__(dimension=dimension, max_tokens=max_tokens, model_name=model_name)


class FakeStream:
    """What ``FakeChatModel.stream_chat`` returns: scripted pieces, honouring ``cancel`` and ``close``."""

    def __init__(self, pieces: Sequence[str], cancel=None, delay: float = 0.0, error: Exception | None = None):
        import types
        self._pieces = list(pieces)
        self._cancel = cancel
        self._delay = delay
        self._error = error
        self.closed = False
        self.produced = 0
        self.stats = types.SimpleNamespace(prompt_tokens=10, cached_tokens=5, completion_tokens=0,
                                           first_token_s=0.0, finish_reason="")

    def __iter__(self):
        return self

    def __next__(self) -> str:
        import time
        if self._error is not None:
            raise self._error
        if self.closed or (self._cancel is not None and self._cancel()) or self.produced >= len(self._pieces):
            self.stats.finish_reason = "cancelled" if self.closed else "stop"
            raise StopIteration
        time.sleep(self._delay)
        self.produced += 1
        self.stats.completion_tokens += 1
        return self._pieces[self.produced - 1]

    def close(self) -> None:
        self.closed = True


class FakeChatModel:
    """A stand-in for ``core.llm.model.LocalModel`` in the answer tests: replies with a scripted text.

    ``reply`` is split into word pieces (a list: one reply per call, the last one repeated); ``error`` (a ``ModelUnavailableError``) is raised by
    ``model_path`` (``error_at="path"``) or while streaming (``error_at="stream"``).
    """

    display_name = "fake model"
    n_ctx = 2048

    def __init__(self, reply: str = "", *, error: Exception | None = None, error_at: str = "path",
                 delay: float = 0.0):
        self.reply = reply
        self.error = error
        self.error_at = error_at
        self.delay = delay
        self.calls: list[list[dict]] = []
        self.kwargs: list[dict] = []  # the other arguments of each stream_chat call (grammar, json_schema, ...)
        self.prewarmed: list = []
        self.streams: list[FakeStream] = []
        self.closed = False

    def model_path(self):
        if self.error is not None and self.error_at == "path":
            raise self.error
        return "fake.gguf"

    def count_tokens(self, text: str) -> int:
        return len(_TOKEN.findall(text))

    def count_chat_tokens(self, messages) -> int:
        return sum(self.count_tokens(m["content"]) + 4 for m in messages) + 4

    def prewarm(self, prefix):
        from concurrent.futures import Future
        self.prewarmed.append(list(prefix))
        fut: Future = Future()
        fut.set_result(sum(self.count_tokens(m["content"]) for m in prefix))
        return fut

    def stream_chat(self, messages, *, max_tokens: int = 300, temperature: float = 0.2, cancel=None, **kwargs: object):
        self.calls.append(list(messages))
        self.kwargs.append(dict(kwargs))
        reply = self.reply if isinstance(self.reply, str) else self.reply[min(len(self.calls), len(self.reply)) - 1]
        pieces = re.findall(r"\S+\s*|\s+", reply)
        err = self.error if self.error_at == "stream" else None
        stream = FakeStream(pieces, cancel, self.delay, err)
        self.streams.append(stream)
        return stream

    def close(self) -> None:
        self.closed = True
