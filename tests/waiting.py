"""How tests wait: for the event they need, never for a wall-clock budget sized to one computer.

A test that waits for background work waits for its signal or condition.  pytest-qt's ``waitSignal`` and
``waitUntil`` (and ``subprocess.run``, ``Thread.join``, ``Event.wait``) still take a timeout; every test
passes ``HANG_GUARD_MS`` / ``HANG_GUARD_S``: a guard against a hang, not a speed budget.  It is long
enough for a fresh, busy 2-core machine (every core kept busy by another program) to finish any real
work a test does, and short enough that a real hang still ends the run.  pytest-timeout's per-test
limit (``timeout`` in pyproject.toml) is above it (``tests/test_waiting.py`` checks that).

Speed itself is not asserted by wall-clock time: a test checks the behaviour instead (the work runs
off the GUI thread, a cancelled stream stops after a counted number of pieces, a call returns while a
slow fake is still blocked on an event).  Where a cost must stay small, it is counted in CPU time of the
test's own thread (``thread_cpu_s``), which another program's load does not change.
"""
from __future__ import annotations

import time
from collections.abc import Callable

HANG_GUARD_S = 30 * 60
"""A guard against a hang, not a speed budget (seconds)."""
HANG_GUARD_MS = HANG_GUARD_S * 1000
"""``HANG_GUARD_S`` in milliseconds, for pytest-qt and Qt."""


def wait_for(qtbot, condition: Callable[[], object], what: str) -> None:
    """Run the Qt event loop until ``condition()`` is true; fail naming ``what`` only on a hang."""
    try:
        qtbot.waitUntil(lambda: bool(condition()), timeout=HANG_GUARD_MS)
    except Exception as exc:  # pytestqt.exceptions.TimeoutError
        raise AssertionError(f"hung waiting for {what} ({HANG_GUARD_S // 60} min)") from exc


def wait_signal(qtbot, signal, what: str):
    """``qtbot.waitSignal`` with the hang guard, as a context manager (``as blocker``: its ``args``)."""
    return _named(qtbot.waitSignal(signal, timeout=HANG_GUARD_MS), what)


class _named:
    """Wraps a pytest-qt blocker so a hang names what the test waited for."""

    def __init__(self, blocker, what: str):
        self.blocker, self.what = blocker, what

    def __enter__(self):
        self.blocker.__enter__()
        return self.blocker

    def __exit__(self, kind, value, tb):
        try:
            return self.blocker.__exit__(kind, value, tb)
        except Exception as exc:
            if kind is None and type(exc).__name__ == "TimeoutError":
                raise AssertionError(f"hung waiting for {self.what} ({HANG_GUARD_S // 60} min)") from exc
            raise


def thread_cpu_s(fn: Callable[[], object]) -> float:
    """CPU seconds this thread spent in ``fn()`` (independent of how busy the computer is)."""
    start = time.thread_time()
    fn()
    return time.thread_time() - start
