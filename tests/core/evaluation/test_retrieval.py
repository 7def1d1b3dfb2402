"""Evaluation helpers and ``lantern eval``: stage contributions in one run and coverage rates."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main as cli
from core.retrieval.coverage import Coverage
from core.evaluation.retrieval import coverage_rates, format_coverage
from tests.core.test_library import BOOK_MD


def test_coverage_rates_counts_flags_per_set():
    verdicts = {"a": Coverage(0.9, True), "b": Coverage(0.1, False), "c": Coverage(0.2, False)}
    rates = coverage_rates({"in": ["a", "b"], "off": ["b", "c"], "none": []}, find=lambda q: [],
                           assess=lambda q, hits, **_: verdicts[q])
    assert rates["in"] == {"n": 2, "flagged": 0.5, "mean_score": 0.5}
    assert rates["off"] == {"n": 2, "flagged": 1.0, "mean_score": 0.15}
    assert rates["none"]["n"] == 0
    text = format_coverage(rates, 0.4)
    assert "flagged = score < 0.40" in text and "off" in text


@pytest.fixture
def library(tmp_path: Path, capsys) -> tuple[str, Path, Path]:
    book = tmp_path / "tiny.md"
    book.write_text(BOOK_MD, encoding="utf-8")
    lib = str(tmp_path / "lib")
    assert cli.main(["--library", lib, "import", str(book)]) == 0
    inbook = tmp_path / "in.jsonl"
    inbook.write_text("\n".join(json.dumps(r) for r in (
        {"question": "What is the smallest unit of life?", "qtype": "review", "section": "1.1"},
        {"question": "How do plants turn light into chemical energy?", "qtype": "review", "section": "2.1"},
    )) + "\n", encoding="utf-8")
    offbook = tmp_path / "off.jsonl"
    offbook.write_text('{"question": "Who won the 2018 World Cup?"}\n{"question": "Write a poem about cats."}\n',
                       encoding="utf-8")
    capsys.readouterr()
    return lib, inbook, offbook


def test_eval_reports_each_stage_and_coverage_in_one_run(capsys, library, monkeypatch):
    monkeypatch.delenv("LANTERN_RERANKER", raising=False)
    lib, inbook, offbook = library
    code = cli.main(["--library", lib, "eval", "--questions", str(inbook), "--offbook", str(offbook),
                     "--choices", "without", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    stages = out["question_only"]
    assert list(stages) == ["keyword", "vector", "hybrid", "hybrid+plan", "+rerank(blend)"]
    assert stages["+rerank(blend)"]["all"]["n"] == 2
    cov = out["coverage"]
    assert [row["n"] for row in cov.values()] == [2, 2]
    (in_name, in_row), (off_name, off_row) = cov.items()
    assert in_name.startswith("in-book") and off_name.startswith("off-book")
    assert off_row["flagged"] == 1.0 and in_row["mean_score"] > off_row["mean_score"]


def test_eval_and_search_without_reranker(capsys, library):
    lib, inbook, _ = library
    assert cli.main(["--library", lib, "eval", "--questions", str(inbook), "--choices", "without",
                     "--reranker", "off", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["question_only"]) == ["keyword", "vector", "hybrid", "hybrid+plan"] and "coverage" not in out
    assert cli.main(["--library", lib, "search", "what is a cell", "--reranker", "off", "--explain"]) == 0
    text = capsys.readouterr().out
    assert "blend=" not in text and "coverage: " in text
    assert cli.main(["--library", lib, "search", "what is a cell", "--explain", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert "blend" in hits[0]["stages"] and 0.0 <= hits[0]["coverage"] <= 1.0
