"""How much of this computer other programs are using, so a model's speed is measured fairly.

A speed measured while another program keeps the cores busy says little about the student's answers
later: the first-run measurement on a busy machine once made Lantern pick a smaller, less correct model
for good.  ``core.llm.choice`` therefore measures only when other programs leave the CPU nearly idle,
and records with every measurement how much of the CPU they used while it ran (``others_share``).

The share is computed from CPU times (``psutil``: the whole system's busy time minus this process's own),
not from the load average, which lags a minute behind and counts Lantern's own threads too.  Where
``psutil`` cannot read them, the 1-minute load average per CPU stands in.
"""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

IDLE_SHARE = 0.25
"""Other programs may use at most this share of the CPU (all cores together) while a model is measured."""
SAMPLE_S = 2.0
"""How long ``others_share_now`` watches the CPU before a measurement."""


@dataclass(frozen=True)
class CpuTimes:
    """CPU seconds summed over every core since boot: all, busy (not idle), and this process's own."""

    total: float
    busy: float
    own: float


def read_cpu_times() -> CpuTimes | None:
    """This moment's ``CpuTimes`` (None when ``psutil`` cannot read them here)."""
    try:
        import psutil
        system = psutil.cpu_times()
        me = psutil.Process().cpu_times()
    except Exception as exc:  # noqa: BLE001 - no psutil, or a platform that hides the counters
        log.debug("cannot read CPU times: %s", exc)
        return None
    fields = system._asdict()
    # guest time is already counted in user time on Linux
    total = sum(v for k, v in fields.items() if k not in ("guest", "guest_nice"))
    idle = fields.get("idle", 0.0) + fields.get("iowait", 0.0)
    own = me.user + me.system + getattr(me, "children_user", 0.0) + getattr(me, "children_system", 0.0)
    return CpuTimes(total=total, busy=total - idle, own=own)


def others_share(before: CpuTimes, after: CpuTimes) -> float | None:
    """The share (0–1) of all cores' time between two readings that other processes kept busy."""
    total = after.total - before.total
    if total <= 0:
        return None
    others = (after.busy - before.busy) - (after.own - before.own)
    return round(min(1.0, max(0.0, others / total)), 3)


def load_per_cpu() -> float | None:
    """The 1-minute load average per CPU (None where the platform has none)."""
    try:
        return round(os.getloadavg()[0] / max(1, os.cpu_count() or 1), 3)
    except (AttributeError, OSError):
        return None


class CpuWatch:
    """Watches the CPU from ``start()`` to ``share()``: how much other programs used meanwhile."""

    def __init__(self, read: Callable[[], CpuTimes | None] = read_cpu_times,
                 fallback: Callable[[], float | None] = load_per_cpu):
        self._read, self._fallback = read, fallback
        self._start: CpuTimes | None = None

    def start(self) -> CpuWatch:
        self._start = self._read()
        return self

    def share(self) -> float | None:
        """Other programs' share of the CPU since ``start()`` (the load average per CPU as a fallback)."""
        end = self._read() if self._start is not None else None
        share = others_share(self._start, end) if end is not None and self._start is not None else None
        if share is None:
            load = self._fallback()
            return None if load is None else round(min(1.0, load), 3)
        return share


def others_share_now(seconds: float = SAMPLE_S, *, sleep: Callable[[float], None] = time.sleep,
                     watch: Callable[[], CpuWatch] = CpuWatch) -> float | None:
    """Other programs' share of the CPU over the next ``seconds`` (None when it cannot be known)."""
    w = watch().start()
    sleep(seconds)
    return w.share()


def is_idle(share: float | None, limit: float = IDLE_SHARE) -> bool:
    """Whether a share measured by ``CpuWatch`` leaves the CPU free enough to measure a model fairly.

    An unknown share counts as idle: a computer whose counters cannot be read is measured anyway, and
    two runs that must agree (``core.llm.choice.measure``) still guard the result."""
    return share is None or share <= limit


def describe_share(share: float | None) -> str:
    """"other programs used 3 % of the CPU" (or that it is unknown)."""
    if share is None:
        return "how busy the computer was is unknown"
    return f"other programs used {share * 100:.0f} % of the CPU"


__all__ = ["CpuTimes", "CpuWatch", "IDLE_SHARE", "describe_share", "is_idle", "load_per_cpu", "others_share",
           "others_share_now", "read_cpu_times"]
