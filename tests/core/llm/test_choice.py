"""Choosing the chat model by correctness, then speed on this machine, measured fairly."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

import core.llm.choice as choice_module
from core.errors import ModelUnavailableError
from core.llm.choice import (QUALITY_ORDER, Budget, MachineBusy, MeasurementCancelled, Quality, Speed, choose,
                             choose_for_machine, load_speeds, measure, measure_messages, predict, runs_agree,
                             save_speed)
from core.llm.settings import GenerationStats

BIG, MID, TINY = QUALITY_ORDER


def speed(key: str, prompt_tps: float, generate_tps: float, *, fair: bool = True, share: float | None = 0.02,
          runs: int = 2) -> Speed:
    return Speed(key, prompt_tps, generate_tps, load_s=1.0, threads=2, gpu_layers=0, measured_at="2026-11-30",
                 others_share=share, runs=runs, runs_agree=fair, fair=fair)


def busy_speed(key: str, prompt_tps: float, generate_tps: float) -> Speed:
    """Measured while other programs used most of the CPU (the runs may even have agreed)."""
    return speed(key, prompt_tps, generate_tps, fair=False, share=0.9)


def test_predict_first_token_and_whole_answer():
    first, whole = predict(speed(MID, 100.0, 10.0), Budget(prompt_tokens=500, answer_tokens=150))
    assert first == pytest.approx(5.1) and whole == pytest.approx(20.1)


def test_balanced_takes_the_most_correct_model_in_time():
    speeds = {BIG: speed(BIG, 40, 5), MID: speed(MID, 120, 14), TINY: speed(TINY, 600, 60)}
    c = choose(speeds, Quality.BALANCED, Budget())
    assert c.model == MID and "most correct" in c.reason and c.first_token_s <= 10 and not c.provisional
    assert "measured with the computer idle (other programs used 2 % of the CPU)" in c.reason
    fast_machine = {BIG: speed(BIG, 300, 20), MID: speed(MID, 900, 50)}
    assert choose(fast_machine, Quality.BALANCED).model == BIG
    assert choose(speeds, Quality.BEST).model == BIG
    assert choose(speeds, Quality.FASTEST).model == TINY
    slow = {BIG: speed(BIG, 5, 1), MID: speed(MID, 10, 2)}
    assert choose(slow, Quality.BALANCED).model == MID  # nothing in time (measured fairly): the fastest
    with pytest.raises(ModelUnavailableError):
        choose({}, Quality.BALANCED)


def test_a_speed_measured_under_load_never_passes_over_a_more_correct_model():
    speeds = {BIG: busy_speed(BIG, 40, 5), MID: speed(MID, 120, 14)}
    c = choose(speeds, Quality.BALANCED)
    assert c.model == BIG and c.provisional
    assert "provisional: the computer was busy (other programs used 90 % of the CPU)" in c.reason
    # Proven too slow on an idle computer, the 1.5B gives way; the 0.5B's own busy measurement does not
    # push it further down to the tiny model.
    speeds = {BIG: speed(BIG, 40, 5), MID: busy_speed(MID, 30, 3), TINY: speed(TINY, 600, 60)}
    c = choose(speeds, Quality.BALANCED)
    assert c.model == MID and c.provisional and "Qwen2.5-Coder 1.5B" in c.reason
    # Runs that disagree are provisional too, even on an idle computer.
    disagreeing = speed(BIG, 40, 5, fair=False, share=0.05, runs=3)
    assert "two runs did not agree" in disagreeing.condition
    assert choose({BIG: disagreeing, MID: speed(MID, 120, 14)}).model == BIG


def test_a_downgrade_stored_by_an_earlier_lantern_is_not_kept(tmp_path):
    """machine.json as Lantern wrote it before measuring fairly: the 1.5B "too slow" (measured while busy)."""
    path = tmp_path / "machine.json"
    old_rows = {BIG: (40.0, 5.0), MID: (120.0, 14.0)}
    path.write_text(json.dumps({"speeds": {
        f"{k}|t2|g0": {"model": k, "prompt_tps": pp, "generate_tps": tg, "load_s": 1.0, "threads": 2,
                       "gpu_layers": 0, "measured_at": "2026-11-20T10:00:00+00:00"}
        for k, (pp, tg) in old_rows.items()}}), encoding="utf-8")
    speeds = load_speeds(2, 0, path)
    assert not speeds[BIG].fair and "earlier Lantern" in speeds[BIG].condition
    c = choose(speeds, Quality.BALANCED)
    assert c.model == BIG and c.provisional


# -- measuring -------------------------------------------------------------------------------------
class FakeModel:
    """A model whose runs report the given (prompt tok/s, generation tok/s), one per stream."""

    def __init__(self, key: str = BIG, runs=((100.0, 10.0),), cancel_after: int | None = None):
        self.key, self.runs, self.cancel_after = key, list(runs), cancel_after
        self.prompts: list[str] = []
        self.closed = False

    def prewarm(self, messages):
        return SimpleNamespace(result=lambda: 3)

    def stream_chat(self, messages, *, max_tokens, temperature, cancel=None):
        self.prompts.append(messages[0]["content"])
        prompt_tps, gen_tps = self.runs[min(len(self.prompts), len(self.runs)) - 1]
        stats = GenerationStats(prompt_tokens=400, completion_tokens=max_tokens, prompt_s=400 / prompt_tps,
                                generation_s=(max_tokens - 1) / gen_tps)
        return _Stream(stats)

    def close(self):
        self.closed = True


class _Stream:
    def __init__(self, stats):
        self.stats = stats

    def __iter__(self):
        return iter(["a", "b"])


class FixedWatch:
    """``machine.CpuWatch`` stand-in: other programs used ``share`` of the CPU."""

    def __init__(self, share):
        self._share = share

    def __call__(self):
        return self

    def start(self):
        return self

    def share(self):
        return self._share


def test_runs_agree_within_the_tolerance():
    assert runs_agree((100, 10), (90, 9.5)) and not runs_agree((100, 10), (60, 10))
    assert not runs_agree((100, 10), (100, 7))


def test_measure_repeats_until_two_runs_agree_and_records_how_busy_the_computer_was():
    model = FakeModel(runs=[(100, 10), (60, 6), (62, 6.2)])  # the first run disagrees, the next two agree
    s = measure(model, key=BIG, threads=2, gpu_layers=0, watch=FixedWatch(0.04))
    assert s.runs == 3 and s.runs_agree and s.fair and s.others_share == 0.04
    assert s.prompt_tps == pytest.approx(61, abs=0.5) and s.generate_tps == pytest.approx(6.1, abs=0.05)
    assert len(set(model.prompts)) == 3, "each run starts differently, so none reuses a cached prompt"
    busy = measure(FakeModel(runs=[(50, 5), (52, 5.1)]), key=BIG, threads=2, gpu_layers=0, watch=FixedWatch(0.7))
    assert busy.runs_agree and not busy.fair and "busy" in busy.condition
    never = measure(FakeModel(runs=[(100, 10), (50, 5), (80, 8)]), key=BIG, threads=2, gpu_layers=0,
                    watch=FixedWatch(0.0))
    assert never.runs == 3 and not never.runs_agree and not never.fair
    assert never.generate_tps == pytest.approx(10, abs=0.05)  # the fastest run: the nearest to an idle computer


def test_a_cancelled_measurement_raises_and_is_not_kept(tmp_path):
    with pytest.raises(MeasurementCancelled):
        measure(FakeModel(), key=BIG, threads=2, gpu_layers=0, watch=FixedWatch(0.0), cancel=lambda: True)
    opened = []

    def open_model(key):
        opened.append(key)
        return FakeModel(key)
    with pytest.raises(MeasurementCancelled):
        choose_for_machine(open_model, [BIG, MID], threads=2, gpu_layers=0, path=tmp_path / "m.json",
                           busy=lambda: 0.0, cancel=lambda: True)
    assert opened == [BIG] and load_speeds(2, 0, tmp_path / "m.json") == {}


@pytest.fixture
def fake_measure(monkeypatch):
    """choose_for_machine's ``measure`` replaced: each key measures as ``results[key]`` says."""
    results: dict[str, Speed] = {}
    calls: list[str] = []

    def fake(model, *, key, threads, gpu_layers, cancel=None):
        calls.append(key)
        return results[key]
    monkeypatch.setattr(choice_module, "measure", fake)
    return SimpleNamespace(results=results, calls=calls)


def test_choose_for_machine_measures_most_correct_first_and_stops_in_time(tmp_path, fake_measure):
    fake_measure.results.update({BIG: speed(BIG, 300, 30), MID: speed(MID, 900, 30), TINY: speed(TINY, 3000, 30)})
    c = choose_for_machine(lambda k: FakeModel(k), [MID, BIG, TINY], threads=2, gpu_layers=0,
                           path=tmp_path / "m.json", busy=lambda: 0.01)
    assert c.model == BIG and fake_measure.calls == [BIG] and not c.provisional  # the others are never loaded
    assert len(measure_messages()[1]["content"]) > 1000


def test_nothing_is_measured_while_the_computer_is_busy(tmp_path, fake_measure):
    path = tmp_path / "m.json"
    with pytest.raises(MachineBusy):
        choose_for_machine(lambda k: FakeModel(k), [BIG, MID], threads=2, gpu_layers=0, path=path, busy=lambda: 0.8)
    assert fake_measure.calls == []
    save_speed(busy_speed(BIG, 40, 5), path)  # an earlier provisional measurement: kept, not repeated now
    save_speed(speed(MID, 120, 14), path)
    c = choose_for_machine(lambda k: FakeModel(k), [BIG, MID], threads=2, gpu_layers=0, path=path, busy=lambda: 0.8)
    assert c.model == BIG and c.provisional and fake_measure.calls == []


def test_an_idle_computer_remeasures_a_provisional_speed_and_only_then_downgrades(tmp_path, fake_measure):
    path = tmp_path / "m.json"
    save_speed(busy_speed(BIG, 40, 5), path)
    fake_measure.results.update({BIG: speed(BIG, 40, 5), MID: speed(MID, 120, 14)})  # idle: truly too slow
    c = choose_for_machine(lambda k: FakeModel(k), [BIG, MID], threads=2, gpu_layers=0, path=path, busy=lambda: 0.05)
    assert fake_measure.calls == [BIG, MID] and c.model == MID and not c.provisional
    assert load_speeds(2, 0, path)[BIG].fair  # the fair measurement replaced the provisional one
    fake_measure.calls.clear()
    assert choose_for_machine(lambda k: FakeModel(k), [BIG, MID], threads=2, gpu_layers=0, path=path,
                              busy=lambda: 0.9).model == MID and fake_measure.calls == []  # known: nothing to do


def test_a_speed_that_turns_out_provisional_stops_the_measuring(tmp_path, fake_measure):
    fake_measure.results.update({BIG: busy_speed(BIG, 40, 5)})  # the computer got busy during the measurement
    c = choose_for_machine(lambda k: FakeModel(k), [BIG, MID], threads=2, gpu_layers=0, path=tmp_path / "m.json",
                           busy=lambda: 0.0)
    assert c.model == BIG and c.provisional and fake_measure.calls == [BIG]


def test_measurements_are_kept_per_threads_and_gpu_layers(tmp_path):
    path = tmp_path / "machine.json"
    save_speed(speed(MID, 120, 14), path)
    kept = load_speeds(2, 0, path)[MID]
    assert kept.prompt_tps == 120 and kept.fair and kept.others_share == 0.02
    assert load_speeds(4, 0, path) == {}
