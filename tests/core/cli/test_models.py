"""``lantern models``: installed models, their measured speed here, and the choice with its reason."""
from __future__ import annotations

import json

import pytest

from core.cli import main as cli
from core.llm.choice import QUALITY_ORDER, Speed, installed_models, save_speed


@pytest.fixture
def profile(tmp_path, monkeypatch):
    path = tmp_path / "machine.json"
    monkeypatch.setenv("LANTERN_MACHINE_PROFILE", str(path))
    monkeypatch.setenv("LANTERN_LLM_THREADS", "2")
    for key, (pp, tg) in zip(QUALITY_ORDER, ((47.0, 20.7), (102.0, 38.5), (238.0, 82.4))):
        save_speed(Speed(key, pp, tg, load_s=1.0, threads=2, gpu_layers=0), path)
    return path


def test_models_reports_speeds_and_the_choice(profile, tmp_path, capsys):
    if not installed_models():
        pytest.skip("no chat model is installed")
    assert cli.main(["--library", str(tmp_path / "lib"), "models", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["model"] for r in out["models"]] == list(QUALITY_ORDER)
    assert out["choice"]["quality"] == "balanced" and out["choice"]["model"] in installed_models()
    assert "within 10 s" in out["choice"]["reason"] or "fastest" in out["choice"]["reason"]
    assert cli.main(["--library", str(tmp_path / "lib"), "models", "--quality", "fastest", "--json"]) == 0
    fastest = json.loads(capsys.readouterr().out)["choice"]
    assert fastest["model"] == installed_models()[-1]
