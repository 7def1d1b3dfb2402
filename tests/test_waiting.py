"""The suite's one hang guard: pytest-timeout's per-test limit sits above it."""
from __future__ import annotations

from tests.waiting import HANG_GUARD_MS, HANG_GUARD_S, thread_cpu_s, wait_for, wait_signal


def test_pytest_timeout_is_above_the_hang_guard(pytestconfig):
    limit = float(pytestconfig.getini("timeout"))
    assert limit > HANG_GUARD_S and HANG_GUARD_MS == HANG_GUARD_S * 1000


def test_waiting_helpers_wait_for_the_event(qtbot):
    from PySide6.QtCore import QObject, QTimer, Signal

    class Emitter(QObject):
        fired = Signal(int)

    emitter = Emitter()
    with wait_signal(qtbot, emitter.fired, "the timer's signal") as blocker:
        QTimer.singleShot(0, lambda: emitter.fired.emit(7))
    assert blocker.args == [7]
    flag = []
    QTimer.singleShot(0, lambda: flag.append(1))
    wait_for(qtbot, lambda: flag, "the timer")
    assert thread_cpu_s(lambda: sum(range(1000))) >= 0.0


def test_the_packaging_smoke_test_uses_the_same_guard():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "packaging" / "smoke_test.py"
    spec = importlib.util.spec_from_file_location("lantern_smoke_test_guard", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.HANG_GUARD_S == HANG_GUARD_S
    runner = module.Runner(Path("/nonexistent"), [])
    assert runner.env["LANTERN_SELF_TEST_TIMEOUT_S"] == str(HANG_GUARD_S)
