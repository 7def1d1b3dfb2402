"""The re-ranking stage: pure re-ordering, the default signal blend, and a real (tiny) cross-encoder."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.errors import ModelUnavailableError
from core.library import Library
from core.models import Chunk, ChunkId, ChunkRole, Hit
from core.retrieval.rescoring import (RERANKER_ENV, CrossEncoderRescorer, SignalBlend, blend_scores, rerank,
                                      reranker_from_setting, rescore)
from core.retrieval.fusion import minmax
from core.retrieval.cross_encoder import passage_text
from tests.core.test_library import BOOK_MD
from tests.fakes import HashingEmbedder


def hit(cid: int, *, keyword: float | None = None, vector: float | None = None, text: str = "text",
        section: str = "1.1", section_id: int = 1) -> Hit:
    chunk = Chunk(id=ChunkId(cid), book_id="b", section_id=section_id, ordinal=cid, text=text, role=ChunkRole.CONCEPT,
                  page_start=1, page_end=1, printed_page_start="1", printed_page_end="1", chapter_number="1",
                  chapter_title="One", section_number=section, section_title="Cells", token_count=3)
    stages = tuple((n, v) for n, v in (("keyword", keyword), ("vector", vector)) if v is not None)
    return Hit(rank=cid, chunk=chunk, score=1.0 / cid, stage_scores=stages)


# -- pure functions ------------------------------------------------------------------------------
def test_rerank_orders_the_scored_head_and_keeps_the_tail():
    hits = [hit(i) for i in range(1, 6)]
    out = rerank(hits, [0.1, 0.9, 0.5], name="x")
    assert [h.chunk.id for h in out] == [2, 3, 1, 4, 5]
    assert [h.rank for h in out] == [1, 2, 3, 4, 5]
    assert dict(out[0].stage_scores)["x"] == pytest.approx(0.9)
    assert "x" not in dict(out[3].stage_scores)  # unscored tail: untouched


def test_rerank_ties_keep_the_original_order():
    out = rerank([hit(1), hit(2), hit(3)], [0.5, 0.5, 0.7], name="x")
    assert [h.chunk.id for h in out] == [3, 1, 2]


def test_minmax_handles_missing_and_constant_values():
    assert minmax([1.0, None, 3.0]).tolist() == [0.0, 0.0, 1.0]
    assert minmax([2.0, 2.0]).tolist() == [1.0, 1.0]
    assert minmax([None, None]).tolist() == [0.0, 0.0]
    assert minmax([]).size == 0


def test_blend_prefers_a_chunk_strong_on_both_retrievers():
    # RRF ranks these three alike (each retriever puts a different one first); the scores do not.
    hits = [hit(1, keyword=30.0, vector=0.20), hit(2, keyword=10.0, vector=0.70), hit(3, keyword=28.0, vector=0.65)]
    scores = blend_scores(hits)
    assert int(np.argmax(scores)) == 2
    # a hit one retriever missed scores 0 on that retriever
    assert blend_scores([hit(1, keyword=5.0), hit(2, keyword=1.0, vector=0.5)]).tolist() == [0.5, 0.5]


def test_signal_blend_rescores_only_its_top_n():
    hits = [hit(1, keyword=1.0, vector=0.1), hit(2, keyword=9.0, vector=0.9), hit(3, keyword=99.0, vector=0.99)]
    out = rescore("q", hits, SignalBlend(top_n=2, section_weight=0.2))
    assert [h.chunk.id for h in out] == [2, 1, 3]
    assert dict(out[0].stage_scores)["blend"] == pytest.approx(1.2)  # 1.0 + the shared section's 0.2
    assert dict(rescore("q", hits, SignalBlend(top_n=2))[0].stage_scores)["blend"] == pytest.approx(1.0)


def test_section_agreement_lifts_a_candidate_whose_section_keeps_coming_back():
    hits = [hit(1, keyword=5.0, vector=0.60, section_id=7),  # alone in its section
            hit(2, keyword=4.9, vector=0.59, section_id=8),
            hit(3, keyword=1.0, vector=0.10, section_id=8),
            hit(4, keyword=1.0, vector=0.10, section_id=8)]
    assert [h.chunk.id for h in rescore("q", hits, SignalBlend())][:2] == [1, 2]
    assert [h.chunk.id for h in rescore("q", hits, SignalBlend(section_weight=0.2))][:2] == [2, 1]


def test_section_signals_lift_a_chunk_whose_whole_section_matches():
    def with_section(h, kw, vec):
        from dataclasses import replace
        return replace(h, stage_scores=h.stage_scores + (("section_keyword", kw), ("section_vector", vec)))
    hits = [with_section(hit(1, keyword=1.0, vector=0.5, section_id=1), 0.1, 0.1),
            with_section(hit(2, keyword=1.0, vector=0.5, section_id=2), 3.0, 0.9)]
    assert list(SignalBlend(section_vector_weight=0, section_keyword_weight=0).scores("q", hits)) == [1.0, 1.0]
    scores = SignalBlend().scores("q", hits)
    assert scores[1] == pytest.approx(1.4) and scores[0] == pytest.approx(1.0)
    assert [h.chunk.id for h in rescore("q", hits, SignalBlend())] == [2, 1]


def test_setting_names_the_rescorer(tmp_path: Path):
    assert reranker_from_setting("off") is None
    assert reranker_from_setting("None") is None
    assert isinstance(reranker_from_setting(None), SignalBlend)
    assert isinstance(reranker_from_setting("default"), SignalBlend)
    a = reranker_from_setting(str(tmp_path))
    assert isinstance(a, CrossEncoderRescorer)
    assert reranker_from_setting(str(tmp_path)) is a  # one model per folder per process
    assert a._model is None  # nothing loaded until the first search


# -- a real cross-encoder, built here -------------------------------------------------------------
_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", "?"] + (
    "the a of is what are how cell cells membrane energy light plant plants photosynthesis mitochondria "
    "river rivers erosion valley valleys sediment water life process").split()


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory) -> Path:
    """A 1-layer BERT sequence classifier with random weights and a 30-word vocabulary (~30 kB)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    folder = tmp_path_factory.mktemp("tiny-ce")
    (folder / "vocab.txt").write_text("\n".join(_VOCAB) + "\n", encoding="utf-8")
    torch.manual_seed(7)
    config = BertConfig(vocab_size=len(_VOCAB), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=64, num_labels=1)
    BertForSequenceClassification(config).save_pretrained(folder)
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    return folder


def test_cross_encoder_loads_lazily_and_orders_by_its_own_scores(tiny_cross_encoder: Path):
    from sentence_transformers import CrossEncoder

    texts = ["the cell membrane", "rivers carve valleys by erosion", "light energy of photosynthesis in plants",
             "mitochondria and energy", "sediment in water"]
    hits = [hit(i + 1, text=t) for i, t in enumerate(texts)]
    r = CrossEncoderRescorer(tiny_cross_encoder, top_n=4, max_length=32)
    assert r._model is None
    out = rescore("what is photosynthesis?", hits, r)
    assert r._model is not None
    expected = CrossEncoder(str(tiny_cross_encoder), device="cpu", local_files_only=True, max_length=32).predict(
        [("what is photosynthesis?", passage_text(h.chunk)) for h in hits[:4]])
    order = [hits[i].chunk.id for i in np.argsort(-np.asarray(expected), kind="stable")]
    assert [h.chunk.id for h in out] == order + [5]
    assert [dict(h.stage_scores)["cross-encoder"] for h in out[:4]] == pytest.approx(sorted(expected, reverse=True))


def test_cross_encoder_truncates_long_passages(tiny_cross_encoder: Path):
    r = CrossEncoderRescorer(tiny_cross_encoder, top_n=2, max_length=16)
    long = " ".join(["the cell membrane"] * 500)  # far past the model's 64 positions
    scores = r.scores("what is a cell?", [hit(1, text=long), hit(2, text="erosion")])
    assert len(scores) == 2 and all(np.isfinite(scores))


def test_cross_encoder_folder_problems_are_clear_errors(tmp_path: Path):
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        CrossEncoderRescorer(tmp_path / "nowhere").scores("q", [hit(1)])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match="config.json"):
        CrossEncoderRescorer(tmp_path / "empty").load()


# -- through Library.find --------------------------------------------------------------------------
@pytest.fixture
def lib(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(RERANKER_ENV, raising=False)
    src = tmp_path / "bio.md"
    src.write_text(BOOK_MD, encoding="utf-8")
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as library:
        library.import_book(src)
        yield library


class Reverse:
    """A re-scorer that ranks the candidates backwards (so its effect is visible)."""

    name = "reverse"
    top_n = 3

    def __init__(self):
        self.questions: list[str] = []

    def scores(self, question, hits):
        self.questions.append(question)
        return [float(h.rank) for h in hits]


def test_find_applies_the_reranker_before_shaping(lib: Library):
    plain = lib.find("cell membrane energy", 3, reranker=None)
    r = Reverse()
    shaped = lib.find("in chapter 2: cell membrane energy", 3, reranker=r)
    assert r.questions == ["cell membrane energy"]  # the question without its scope phrase
    assert all(h.chunk.chapter_number == "2" for h in shaped)  # re-ranking never widens the scope
    assert all(not any(n == "reverse" for n, _ in h.stage_scores) for h in plain)
    assert any(n == "reverse" for h in shaped for n, _ in h.stage_scores)


def test_library_reranker_comes_from_the_setting(lib: Library, tiny_cross_encoder: Path, monkeypatch):
    assert isinstance(lib.reranker, SignalBlend)  # unset: the default
    monkeypatch.setenv(RERANKER_ENV, str(tiny_cross_encoder))
    del lib._reranker
    assert isinstance(lib.reranker, CrossEncoderRescorer)
    hits = lib.find("what is photosynthesis?", 3)
    assert hits and all(any(n == "cross-encoder" for n, _ in h.stage_scores) for h in hits[:1])
    lib.reranker = None
    assert all(not any(n == "cross-encoder" for n, _ in h.stage_scores) for h in lib.find("cells", 3))
