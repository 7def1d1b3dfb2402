"""Choosing the chat model by correctness, then speed on this machine."""
from __future__ import annotations

import pytest

from core.errors import ModelUnavailableError
from core.llm.choice import (QUALITY_ORDER, Budget, Quality, Speed, choose, choose_for_machine, load_speeds,
                             measure_messages, predict, save_speed)

BIG, MID, TINY = QUALITY_ORDER


def speed(key: str, prompt_tps: float, generate_tps: float) -> Speed:
    return Speed(key, prompt_tps, generate_tps, load_s=1.0, threads=2, gpu_layers=0)


def test_predict_first_token_and_whole_answer():
    first, whole = predict(speed(MID, 100.0, 10.0), Budget(prompt_tokens=500, answer_tokens=150))
    assert first == pytest.approx(5.1) and whole == pytest.approx(20.1)


def test_balanced_takes_the_most_correct_model_in_time():
    speeds = {BIG: speed(BIG, 40, 5), MID: speed(MID, 120, 14), TINY: speed(TINY, 600, 60)}
    c = choose(speeds, Quality.BALANCED, Budget())
    assert c.model == MID and "most correct" in c.reason and c.first_token_s <= 10
    fast_machine = {BIG: speed(BIG, 300, 20), MID: speed(MID, 900, 50)}
    assert choose(fast_machine, Quality.BALANCED).model == BIG
    assert choose(speeds, Quality.BEST).model == BIG
    assert choose(speeds, Quality.FASTEST).model == TINY
    slow = {BIG: speed(BIG, 5, 1), MID: speed(MID, 10, 2)}
    assert choose(slow, Quality.BALANCED).model == MID  # nothing in time: the fastest
    with pytest.raises(ModelUnavailableError):
        choose({}, Quality.BALANCED)


def test_measurements_are_kept_per_threads_and_gpu_layers(tmp_path):
    path = tmp_path / "machine.json"
    save_speed(speed(MID, 120, 14), path)
    assert load_speeds(2, 0, path)[MID].prompt_tps == 120
    assert load_speeds(4, 0, path) == {}


def test_choose_for_machine_measures_most_correct_first_and_stops_in_time(tmp_path):
    opened = []

    class FakeModel:
        def __init__(self, key):
            self.key = key

        def close(self):
            pass

    def fake_measure(model, *, key, threads, gpu_layers):
        return speed(key, {BIG: 300, MID: 900, TINY: 3000}[key], 30)

    import core.llm.choice as choice
    real = choice.measure
    choice.measure = fake_measure
    try:
        c = choose_for_machine(lambda k: opened.append(k) or FakeModel(k), [MID, BIG, TINY], threads=2,
                               gpu_layers=0, path=tmp_path / "m.json")
    finally:
        choice.measure = real
    assert c.model == BIG and opened == [BIG]  # fits: the others are never loaded
    assert len(measure_messages()[1]["content"]) > 1000
