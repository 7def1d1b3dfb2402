"""The Python heap while background work runs: no full GC pass until the work is done.

A full cyclic-GC pass holds the GIL for every thread, and during a 300-page import it took 120-250 ms
(scanning Qt/NumPy/model objects and the parsed book), stalling the window.  ``HeapPolicy`` suspends only
the oldest generation while work runs (young objects are still collected; acyclic garbage is freed by
reference counting as always), then, when idle, collects everything and freezes the survivors
(``gc.freeze``) so later passes skip them.
"""
from __future__ import annotations

import gc
import logging
import time

log = logging.getLogger(__name__)

SUSPENDED_THRESHOLD = 1_000_000
"""Generation-2 threshold while work runs: never reached in practice."""


class HeapPolicy:
    """Counts running jobs (GUI thread only); full GC passes happen only when none is running."""

    _busy = 0
    _saved: tuple[int, int, int] | None = None

    @classmethod
    def hold(cls) -> None:
        """A job starts: no full (generation 2) collection until every job released."""
        cls._busy += 1
        if cls._saved is None:
            cls._saved = gc.get_threshold()
            gc.set_threshold(cls._saved[0], cls._saved[1], SUSPENDED_THRESHOLD)

    @classmethod
    def release(cls) -> None:
        """A job ended: when it was the last, restore the thresholds and settle the heap."""
        cls._busy = max(0, cls._busy - 1)
        if cls._busy == 0:
            if cls._saved is not None:
                gc.set_threshold(*cls._saved)
                cls._saved = None
            settle_heap()


def settle_heap() -> None:
    """Collect everything, then freeze the survivors (GUI thread, when no job runs).

    Frozen objects are never scanned again by the cyclic GC; they are still freed normally when their
    reference count drops.  After the first freeze this pass only scans what was created since.
    """
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    # Not gc.get_freeze_count(): it walks every frozen object (~140 ms with torch loaded, GIL held).
    log.debug("heap settled in %.1f ms", (time.perf_counter() - started) * 1000)
