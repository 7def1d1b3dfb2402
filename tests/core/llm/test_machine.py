"""How much of the CPU other programs use: from CPU times, this process's own work left out."""
from __future__ import annotations

from core.llm import machine
from core.llm.machine import CpuTimes, CpuWatch, describe_share, is_idle, others_share, others_share_now


def test_others_share_leaves_this_process_out():
    before = CpuTimes(total=1000.0, busy=100.0, own=10.0)
    # 20 s of all cores' time passed: 12 s busy, 8 s of it this process's own -> others 4 s = 20 %
    after = CpuTimes(total=1020.0, busy=112.0, own=18.0)
    assert others_share(before, after) == 0.2
    assert others_share(before, CpuTimes(1020.0, 112.0, 30.0)) == 0.0  # never negative
    assert others_share(before, before) is None  # no time passed


def test_a_watch_falls_back_to_the_load_average_without_cpu_times():
    readings = iter([CpuTimes(0.0, 0.0, 0.0), CpuTimes(10.0, 9.0, 1.0)])
    assert CpuWatch(read=lambda: next(readings)).start().share() == 0.8
    assert CpuWatch(read=lambda: None, fallback=lambda: 1.7).start().share() == 1.0
    assert CpuWatch(read=lambda: None, fallback=lambda: None).start().share() is None


def test_the_real_counters_are_readable_here():
    times = machine.read_cpu_times()
    assert times is not None and times.total >= times.busy >= 0 and times.own > 0
    share = others_share_now(0.0, sleep=lambda s: None)
    assert share is None or 0.0 <= share <= 1.0


def test_idle_and_its_description():
    assert is_idle(0.1) and not is_idle(0.5) and is_idle(None)
    assert describe_share(0.034) == "other programs used 3 % of the CPU"
