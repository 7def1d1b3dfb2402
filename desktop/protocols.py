"""What the desktop needs from the answer engine, written as a ``Protocol`` so any engine fits.

The real engine (``core.answer.tutor``) and the built-in ``SearchOnlyAsker`` both satisfy ``Asker``; the
window never imports a concrete engine except through ``desktop.app.build_asker``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QCoreApplication

from core.models import AnswerEvent, Turn


@runtime_checkable
class Asker(Protocol):
    """Answers a question from the library, streaming events.

    ``ask`` yields exactly one ``SOURCES`` event, then zero or more ``TOKEN`` events, then at most one
    ``CHECKING`` (the answer is written and being checked), then ``DONE`` (or ``ERROR`` at any point).  It checks ``cancel()`` often and stops quietly when it returns True.
    ``previous`` is the conversation's last answered turn, so "why?" or "give an example" can be
    understood as a follow-up.
    The desktop runs every ``ask`` on one dedicated thread (the thread that owns the model).
    """

    def ask(self, question: str, *, book_id: str | None, chapters: tuple[str, ...],
            pages: tuple[int, int] | None, cancel: Callable[[], bool],
            previous: Turn | None = None) -> Iterator[AnswerEvent]: ...


@dataclass(frozen=True)
class Scope:
    """Where a question is answered from: the whole library, one book, some chapters, a page range."""

    book_id: str | None = None
    chapters: tuple[str, ...] = ()
    pages: tuple[int, int] | None = None  # physical, inclusive

    def describe(self, book_title: str = "", page_labels: tuple[str, str] | None = None) -> str:
        """A short human description such as ``"Physics · ch. 2, 3 · pp. 5–9"``."""
        if not self.book_id:
            return QCoreApplication.translate("Scope", "All books")
        parts = [book_title or QCoreApplication.translate("Scope", "One book")]
        if self.chapters:
            parts.append("ch. " + ", ".join(self.chapters))
        if self.pages:
            a, b = page_labels or (str(self.pages[0]), str(self.pages[1]))
            parts.append(f"pp. {a}–{b}")
        return " · ".join(parts)
