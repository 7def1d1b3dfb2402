"""A scripted ``Asker`` for the desktop tests: real Sources from library search, a few tokens with [n].

It records the thread of every ``ask`` (so tests can check one thread owns the model) and can hold
between SOURCES and the first token (``gate``), or after the first token (``pause``), so tests can look
at the window (or press Stop) in between, however slowly a busy computer runs the GUI thread.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from core.models import Answer, AnswerEvent, AnswerEventKind
from desktop.search_asker import citation_for, sentences, sources_from_hits
from tests.waiting import HANG_GUARD_S


class FakeAsker:
    model_name = "fake-model"
    choice = None  # the window records the model choice here, as on the real tutor

    def __init__(self, library, *, delay: float = 0.0, gate: threading.Event | None = None, refuse: bool = False):
        self.library = library
        self.delay = delay
        self.gate = gate
        self.pause: threading.Event | None = None  # set by a test: hold after the first token until it is set
        self.refuse = refuse
        self.threads: list[int] = []
        self.questions: list[str] = []
        self.previous: list = []  # the ``previous`` turn passed with each question

    def ask(self, question: str, *, book_id: str | None, chapters: tuple[str, ...],
            pages: tuple[int, int] | None, cancel: Callable[[], bool], previous=None) -> Iterator[AnswerEvent]:
        self.threads.append(threading.get_ident())
        self.questions.append(question)
        self.previous.append(previous)
        hits = self.library.search(question, 3, book_id=book_id, chapters=chapters, pages=pages)
        titles = {b.id: b.title for b in self.library.books()}
        sources = () if self.refuse else sources_from_hits(hits, titles)
        yield AnswerEvent(AnswerEventKind.SOURCES, sources=sources)
        if self.gate is not None:
            self.gate.wait(HANG_GUARD_S)  # the test opens it; the guard only ends a forgotten gate
        if self.refuse:
            yield from self._tokens(["This is ", "not in ", "your book."], cancel)
            yield AnswerEvent(AnswerEventKind.DONE, answer=Answer(
                question, "This is not in your book.", (), refused=True,
                nearest_sections=("Chapter 2 Energy",)))
            return
        quote = " ".join(sentences(sources[0].text)[0].split()[:8]) if sources else ""
        pieces = ["According ", "to your ", "book, ", quote.lower() + " ", "[1]", "."]
        if len(sources) > 1:
            pieces += [" See ", "also ", "[2]", "."]
        text = "".join(pieces)
        for ev in self._tokens(pieces, cancel):
            yield ev
        if cancel():
            return
        cites = tuple(citation_for(s, quote if s.n == 1 else "") for s in sources[:2])
        yield AnswerEvent(AnswerEventKind.DONE, answer=Answer(question, text, cites))

    def _tokens(self, pieces: list[str], cancel: Callable[[], bool]) -> Iterator[AnswerEvent]:
        for i, p in enumerate(pieces):
            if cancel():
                return
            if self.delay:
                time.sleep(self.delay)
            if i == 1 and self.pause is not None:
                self.pause.wait(HANG_GUARD_S)
                if cancel():
                    return
            yield AnswerEvent(AnswerEventKind.TOKEN, text=p)
