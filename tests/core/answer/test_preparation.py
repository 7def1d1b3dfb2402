"""Preparing an answer: what a long source keeps."""
from __future__ import annotations

from core.answer.preparation import question_relevance


def test_question_relevance_is_the_share_of_the_question_stems_a_sentence_holds():
    score = question_relevance("What causes REM sleep?")
    assert score("REM sleep is caused by the brainstem.") == 1.0
    assert 0.0 < score("Sleep has stages.") < 1.0
    assert score("Photosynthesis makes sugar.") == 0.0
