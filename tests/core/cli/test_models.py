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
    monkeypatch.setenv("LANTERN_LLM_GPU_LAYERS", "0")  # the profile's rows: nothing is measured for real
    for key, (pp, tg) in zip(QUALITY_ORDER, ((47.0, 20.7), (102.0, 38.5), (238.0, 82.4))):
        save_speed(Speed(key, pp, tg, load_s=1.0, threads=2, gpu_layers=0, measured_at="2026-11-30",
                         others_share=0.03, runs=2, runs_agree=True, fair=True), path)
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


def test_a_speed_measured_while_busy_is_shown_as_provisional_and_kept_while_busy(tmp_path, monkeypatch, capsys):
    if not installed_models() or installed_models()[0] != QUALITY_ORDER[0]:
        pytest.skip("the most correct chat model is not installed")
    path = tmp_path / "machine.json"
    monkeypatch.setenv("LANTERN_MACHINE_PROFILE", str(path))
    monkeypatch.setenv("LANTERN_LLM_THREADS", "2")
    monkeypatch.setenv("LANTERN_LLM_GPU_LAYERS", "0")  # the profile's rows: nothing is measured for real
    for key in installed_models():  # the 1.5B "too slow", measured while another program kept the CPU busy
        pp, tg = (20.0, 2.0) if key == QUALITY_ORDER[0] else (238.0, 82.4)
        save_speed(Speed(key, pp, tg, load_s=1.0, threads=2, gpu_layers=0, measured_at="2026-11-30",
                         others_share=0.9, runs=2, runs_agree=True, fair=key != QUALITY_ORDER[0]), path)
    monkeypatch.setattr("core.llm.machine.others_share_now", lambda *a, **k: 0.9)  # still busy: not measured now
    assert cli.main(["--library", str(tmp_path / "lib"), "models", "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert "keeping its provisional speed" in captured.err
    first = out["models"][0]
    assert not first["fair"] and first["measured"].startswith("provisional: the computer was busy")
    assert out["choice"]["model"] == QUALITY_ORDER[0] and out["choice"]["provisional"]
    assert "provisional" in out["choice"]["reason"]
