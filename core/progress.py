"""Progress and cancel callables for long work (import, embedding, quizzes): ``progress(stage, done, total)``
and ``cancel() -> bool``, with their do-nothing defaults and the check that stops work."""
from __future__ import annotations

from collections.abc import Callable

from core.errors import ImportCancelled

ProgressFn = Callable[[str, int, int], None]
"""``progress(stage, done, total)``; stage is e.g. "reading pages", "chunking", "embedding"."""

CancelFn = Callable[[], bool]
"""Returns True when the caller wants the work to stop."""


def no_progress(stage: str, done: int, total: int) -> None:
    """Default progress callable: does nothing."""


def never_cancel() -> bool:
    """Default cancel callable: never asks to stop."""
    return False


def check_cancel(cancel: CancelFn | None) -> None:
    """Raise ``ImportCancelled`` when ``cancel()`` says so."""
    if cancel is not None and cancel():
        raise ImportCancelled("Import cancelled.")
