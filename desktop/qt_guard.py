"""A guard against a reference-count bug of PySide6 6.12.0 on Python 3.11.

With PySide6-Essentials 6.12.0 on CPython 3.11, every call of a Qt method returning ``void``
(``setText``, ``setValue``, ``update``, ``processEvents``, ``QEventLoop.exec`` ...) gives back a
reference to ``None`` it never took, and every ``Signal.emit`` does the same to ``True``.  Python 3.12
made those objects immortal, which hides the bug there; on 3.11 their counts fall with every call
and the process aborts ("Fatal Python error: none_dealloc" / "bool_dealloc") once they reach zero:
about 70,000 Qt calls in a loaded Lantern process, i.e. minutes of streaming or importing.
PySide6 6.11.3 does not have the bug (measured: no drift).

The real fix is the pin (``PySide6-Essentials!=6.12.0``).  Until then ``guard_singleton_refcounts``
detects the drift at start-up and, only when it is there, does what Python 3.12 does: it gives
``None``, ``True`` and ``False`` a reference count so large that no number of calls can exhaust it.
"""
from __future__ import annotations

import ctypes
import logging
import sys

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

_PROBES = 50
_HEADROOM = 1 << 40  # ~10^12 leaked references before trouble
_applied = False


class _Probe(QObject):
    fired = Signal()


def leaks_singleton_refs() -> bool:
    """Whether this PySide6 build loses a reference to None (void calls) or True (emit) per call."""
    probe = _Probe()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(_PROBES):
        probe.setObjectName("lantern-probe")  # a void method
        probe.fired.emit()
    lost_none = none_before - sys.getrefcount(None)
    lost_true = true_before - sys.getrefcount(True)
    return lost_none >= _PROBES // 2 or lost_true >= _PROBES // 2


def _can_patch() -> bool:
    """Only CPython release builds before 3.12: there ``ob_refcnt`` is the first field of an object."""
    return (sys.implementation.name == "cpython" and sys.version_info < (3, 12)
            and not hasattr(sys, "gettotalrefcount"))


def guard_singleton_refcounts() -> bool:
    """Apply the guard if (and only if) the drift is detected; returns whether it is in effect."""
    global _applied
    if _applied or not _can_patch() or not leaks_singleton_refs():
        return _applied
    import PySide6
    for obj in (None, True, False):
        before = sys.getrefcount(obj)
        ctypes.c_ssize_t.from_address(id(obj)).value += _HEADROOM
        if sys.getrefcount(obj) - before != _HEADROOM:  # unexpected object layout: undo, stay honest
            ctypes.c_ssize_t.from_address(id(obj)).value -= _HEADROOM
            log.error("could not guard PySide6 %s's reference leak; long sessions may crash", PySide6.__version__)
            return False
    _applied = True
    log.warning("PySide6 %s leaks references to None/True on Python %d.%d; guarded. Use PySide6 6.11.3 "
                "(or Python 3.12+).", PySide6.__version__, *sys.version_info[:2])
    return True
