"""Embedder: lazy loading, token counting, errors; real-model inference tests are marked."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.index.embedder import DEFAULT_MODEL_NAME, Embedder, TextEmbedder, default_threads
from core.errors import ImportCancelled, ModelUnavailableError
from tests.fakes import HashingEmbedder
from tests.waiting import HANG_GUARD_S

REPO = Path(__file__).resolve().parents[3]


def test_import_loads_no_model_or_torch():
    code = ("import sys, core.index.embedder as e; emb = e.Embedder(); emb.count_tokens('hi there'); "
            "print(emb.dimension, emb.max_tokens); "
            "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules, 'heavy import'")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=HANG_GUARD_S)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["384", "256"]


def test_description_of_the_bundled_model():
    emb = Embedder()
    assert emb.model_name == DEFAULT_MODEL_NAME
    assert emb.dimension == 384
    assert emb.max_tokens == 256
    assert emb.special_tokens == 2


def test_count_tokens_uses_word_pieces():
    emb = Embedder()
    assert emb.count_tokens("hello world") == 2
    assert emb.count_tokens("") == 0
    # Word pieces, not words: a rare word splits into several pieces.
    assert emb.count_tokens("photosynthesizing") > 1
    texts = ["hello world", "Classical conditioning!", "photosynthesizing"]
    assert emb.count_tokens_batch(texts) == [emb.count_tokens(t) for t in texts]
    long = "word " * 1000
    assert emb.count_tokens(long) == 1000  # no truncation when counting


def test_missing_folder_is_readable_error(tmp_path):
    emb = Embedder(tmp_path / "nope")
    with pytest.raises(ModelUnavailableError, match="not found"):
        emb.encode(["x"])
    with pytest.raises(ModelUnavailableError):
        emb.count_tokens("x")


def test_incomplete_folder_is_readable_error(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ModelUnavailableError, match="not a complete embedding model"):
        Embedder(tmp_path).load()


def test_corrupt_weights_are_readable_error(tmp_path):
    import shutil
    from core.index.embedder import default_model_dir
    src = default_model_dir()
    for f in src.rglob("*"):
        if f.is_file() and f.suffix != ".safetensors":
            dest = tmp_path / f.relative_to(src)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, dest)
    (tmp_path / "model.safetensors").write_bytes(b"\x00garbage" * 100)
    emb = Embedder(tmp_path)
    assert emb.model_name == tmp_path.name
    with pytest.raises(ModelUnavailableError, match="could not be loaded"):
        emb.load()


def test_corrupt_config_json(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text("{broken")
    with pytest.raises(ModelUnavailableError, match="damaged"):
        _ = Embedder(tmp_path).dimension


def test_threads_setting(monkeypatch):
    monkeypatch.setenv("LANTERN_TORCH_THREADS", "3")
    assert default_threads() == 3
    assert Embedder().threads == 3
    assert Embedder(threads=1).threads == 1
    monkeypatch.delenv("LANTERN_TORCH_THREADS")
    assert default_threads() >= 1


def test_default_embedder_is_shared():
    from core.index.embedder import default_embedder
    assert default_embedder() is default_embedder()


def test_fake_satisfies_protocol():
    assert isinstance(HashingEmbedder(), TextEmbedder)
    assert isinstance(Embedder(), TextEmbedder)


@pytest.fixture(scope="module")
def real() -> Embedder:
    emb = Embedder(threads=default_threads())
    emb.load()
    return emb


@pytest.mark.realmodel
def test_encode_normalised_float32(real):
    vecs = real.encode(["Dogs salivate at the bell.", "Pavlov's dogs learned to salivate.", "Stock prices fell."])
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[2]
    q = real.encode_query("Why do dogs salivate?")
    assert q.shape == (384,) and abs(float(np.linalg.norm(q)) - 1) < 1e-5
    assert real.encode([]).shape == (0, 384)


@pytest.mark.realmodel
def test_encode_progress_and_cancel(real):
    seen = []
    real.encode(["a"] * 40, batch_size=4, progress=lambda s, d, t: seen.append((s, d, t)))
    assert seen[-1] == ("embedding", 40, 40)
    with pytest.raises(ImportCancelled):
        real.encode(["a"] * 10, cancel=lambda: True)


@pytest.mark.realmodel
def test_embed_windows_mean_pool_matches_encode(real):
    texts = ["Classical conditioning pairs a neutral stimulus with an unconditioned one.",
             "The density of lead is 11.3 grams per cubic centimetre, less than gold."]
    windows = real.token_ids(texts)
    pooled = np.array([t.mean(axis=0) for t in real.embed_windows(windows)])
    pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
    direct = real.encode(texts)
    # Only [CLS]/[SEP] are left out of the pooled mean, so the two agree closely.
    assert np.all((pooled * direct).sum(axis=1) > 0.97)
    shapes = [t.shape for t in real.embed_windows(windows)]
    assert shapes == [(len(w), 384) for w in windows]


@pytest.mark.realmodel
def test_embed_windows_truncates_to_model_window(real):
    (tokens,) = list(real.embed_windows([list(range(2000, 2600))]))
    assert tokens.shape == (real.max_tokens - 2, 384)
