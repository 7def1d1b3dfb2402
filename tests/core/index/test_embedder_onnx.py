"""The packaged app's embedder: the bundled MiniLM exported to ONNX gives torch's vectors, token vectors and
search results (``packaging/export_embedder.py`` + ``core.index.embedder_onnx``)."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from core.index.embedder import Embedder, default_model_dir
from core.index.embedder_onnx import BACKEND_ENV, OnnxEncoder, check_mean_pooling, special_token_ids, want_onnx
from core.errors import ModelUnavailableError
from core.library import Library

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "packaging"))
import export_embedder  # noqa: E402

TEXTS = ["What is kinetic energy?", "Cells divide by mitosis.", "word " * 400]  # the last is cut at 256 pieces


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("onnx") / "all-MiniLM-L6-v2"
    export_embedder.export(default_model_dir(), out)
    return out


@pytest.fixture(scope="module")
def torch_embedder() -> Embedder:
    embedder = Embedder(threads=1)
    embedder.load()  # now, before any test sets the backend to ONNX
    assert not isinstance(embedder._load(), OnnxEncoder)
    return embedder


def test_export_writes_a_model_folder_without_torch_weights(exported: Path):
    assert (exported / "onnx" / "model.onnx").stat().st_size > 50e6
    assert (exported / "tokenizer.json").is_file() and (exported / "modules.json").is_file()
    assert not list(exported.glob("*.safetensors")) and not list(exported.glob("*.bin"))


def test_onnx_vectors_equal_torch_vectors(exported: Path, torch_embedder, monkeypatch):
    monkeypatch.setenv(BACKEND_ENV, "onnx")
    onnx = Embedder(exported, threads=1)
    assert isinstance(onnx._load(), OnnxEncoder)
    assert (onnx.dimension, onnx.max_tokens) == (torch_embedder.dimension, torch_embedder.max_tokens) == (384, 256)
    a, b = torch_embedder.encode(TEXTS), onnx.encode(TEXTS)
    assert a.shape == b.shape == (3, 384)
    assert np.min(np.sum(a * b, axis=1)) > 0.9999
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)


def test_onnx_token_vectors_equal_torch_token_vectors(exported: Path, torch_embedder, monkeypatch):
    monkeypatch.setenv(BACKEND_ENV, "onnx")
    onnx = Embedder(exported, threads=1)
    windows = torch_embedder.token_ids(["Energy is never created or destroyed.", "A cell is the unit of life. " * 40])
    got = list(onnx.embed_windows(windows))
    want = list(torch_embedder.embed_windows(windows))
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        assert np.abs(g - w).max() < 1e-3


def test_backend_choice(exported: Path, monkeypatch):
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    assert not want_onnx(exported)  # torch is installed here: the source install keeps using it
    monkeypatch.setenv(BACKEND_ENV, "onnx")
    assert want_onnx(exported)
    monkeypatch.setenv(BACKEND_ENV, "torch")
    assert not want_onnx(exported)


def test_a_library_built_with_torch_opens_and_searches_with_onnx(exported: Path, tmp_path: Path, monkeypatch):
    book = tmp_path / "bio.md"
    book.write_text("# Chapter 1: Cells\n\n## 1.1 Division\n\nCells divide by mitosis into two daughter cells.\n\n"
                    "## 1.2 Energy\n\nMitochondria release energy from glucose during respiration.\n", encoding="utf-8")
    with Library(tmp_path / "lib", embedder=Embedder(threads=1)) as lib:
        lib.import_book(book)
        before = [h.chunk.id for h in lib.search("how do cells divide", 2)]
    monkeypatch.setenv(BACKEND_ENV, "onnx")
    # The packaged app names its bundled folder like the package's model: same manifest, no re-index.
    with Library(tmp_path / "lib", embedder=Embedder(exported, threads=1, model_name="all-MiniLM-L6-v2")) as lib:
        assert lib.doctor().ok
        assert [h.chunk.id for h in lib.search("how do cells divide", 2)] == before


def test_only_mean_pooled_encoders_run_with_onnx(exported: Path, tmp_path: Path):
    check_mean_pooling(exported)
    cls = tmp_path / "cls-model"
    shutil.copytree(exported, cls)
    (cls / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 384,
                                                               "pooling_mode_cls_token": True}))
    with pytest.raises(ModelUnavailableError, match="needs torch"):
        check_mean_pooling(cls)


def test_frozen_app_uses_the_bundled_folder(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert default_model_dir() == tmp_path / "models" / "all-MiniLM-L6-v2"
    assert Embedder().model_name == "all-MiniLM-L6-v2"


def test_special_tokens_are_named_by_the_model_folder(tmp_path: Path):
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "[PAD]": 0, "[CLS]": 101, "[SEP]": 102, "<mask>": 30526}
    assert special_token_ids(tmp_path, vocab) == (101, 102, 0)  # no files: BERT's markers
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"cls_token": "<s>", "sep_token": "</s>",
                                                                "pad_token": {"content": "<pad>"}}))
    assert special_token_ids(tmp_path, vocab) == (0, 2, 1)  # as transformers 5 saves them
    (tmp_path / "special_tokens_map.json").write_text(json.dumps({"cls_token": "[CLS]", "sep_token": "[SEP]"}))
    assert special_token_ids(tmp_path, vocab) == (101, 102, 1)  # special_tokens_map.json wins where it speaks
    assert special_token_ids(tmp_path, {"[CLS]": 5}) == (5, None, 0)


def _tiny_mpnet(folder: Path) -> Path:
    """A randomly initialised 2-layer MPNet saved by sentence-transformers (mean pooling, normalised) whose
    tokenizer marks texts as MPNet's does: ``<s> … </s>``, padding ``<pad>`` = 1 (not BERT's [CLS]/[SEP]/[PAD])."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.models import Normalize, Pooling, Transformer
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece
    from transformers import MPNetConfig, MPNetModel, PreTrainedTokenizerFast
    words = "the a cell cells divide by mitosis energy is never created or destroyed unit of life into two".split()
    vocab = {t: i for i, t in enumerate(["<s>", "<pad>", "</s>", "<unk>", "[UNK]", "<mask>", ".", ","] + words)}
    tok = Tokenizer(WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", cls_token="<s>",
                                     sep_token="</s>", pad_token="<pad>", unk_token="[UNK]", mask_token="<mask>")
    torch.manual_seed(0)
    config = MPNetConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=130, pad_token_id=1, bos_token_id=0,
                         eos_token_id=2)
    raw = folder / "raw"
    MPNetModel(config).eval().save_pretrained(raw)
    hf_tok.save_pretrained(raw)
    body = Transformer(str(raw), max_seq_length=64)
    out = folder / "tiny-mpnet"
    SentenceTransformer(modules=[body, Pooling(32, "mean"), Normalize()], device="cpu").save(str(out))
    return out


def test_an_mpnet_encoder_runs_with_onnx_and_gives_torch_vectors(tmp_path: Path, monkeypatch):
    """Another model than MiniLM (issue 33): MPNet's markers are <s>/</s>/<pad>, and its position ids are counted
    from the padding id, so the ONNX path must pad with 1, not BERT's 0."""
    folder = _tiny_mpnet(tmp_path)
    out = tmp_path / "tiny-mpnet-onnx"
    export_embedder.export(folder, out)
    monkeypatch.setenv(BACKEND_ENV, "torch")
    reference = Embedder(folder, threads=1)
    reference.load()
    monkeypatch.setenv(BACKEND_ENV, "onnx")
    onnx = Embedder(out, threads=1, model_name="tiny-mpnet")
    encoder = onnx._load()
    assert isinstance(encoder, OnnxEncoder) and (encoder.cls_id, encoder.sep_id, encoder.pad_id) == (0, 2, 1)
    texts = ["Energy is never created or destroyed.", "A cell is the unit of life. " * 6, "Cells divide."]
    windows = reference.token_ids(texts)
    assert onnx.token_ids(texts) == windows
    got, want = list(onnx.embed_windows(windows)), list(reference.embed_windows(windows))  # one padded batch
    assert [g.shape for g in got] == [w.shape for w in want] == [(len(w), 32) for w in windows]
    for g, w in zip(got, want):
        assert np.abs(g - w).max() < 1e-4
    assert np.min(np.sum(reference.encode(texts) * onnx.encode(texts), axis=1)) > 0.9999
