"""Conversations: questions, streamed answers and their citations, kept in memory and in a JSON file.

The file is ``<library>/conversations.json`` (written atomically).  It is a stop-gap until the
library grows a table for conversations; the format carries a ``version`` for that migration.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import logging
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from core.models import Answer, Citation, Frame, Source
from core.models import Turn as CoreTurn

log = logging.getLogger(__name__)

FILE_NAME = "conversations.json"
VERSION = 1


@dataclass
class CiteRecord:
    """Everything needed to show a source card and to open the reader at a cited passage."""

    n: int
    book_id: str
    page_start: int  # physical, 1-based
    page_end: int
    printed_page: str
    section_title: str = ""
    label: str = ""
    snippet: str = ""
    quote: str = ""
    chunk_id: int = 0
    frame: Frame | None = None  # a cited figure or table: outlined on ``page_start`` in the reader
    figure: str = ""  # ...and its label, "Figure 3.2", shown on the chip

    @classmethod
    def from_source(cls, s: Source) -> "CiteRecord":
        c = s.chunk
        snippet = " ".join(s.text.split())
        return cls(n=s.n, book_id=c.book_id, page_start=c.page_start, page_end=c.page_end,
                   printed_page=c.printed_page_start, section_title=c.section_title, label=s.label,
                   snippet=snippet[:320], quote=" ".join((s.quote or c.text).split())[:400], chunk_id=c.id,
                   frame=c.frame,
                   figure=c.label)

    def with_citation(self, c: Citation) -> "CiteRecord":
        """This record with the answer's own citation (its page and verbatim quote) applied."""
        return dataclasses.replace(self, page_start=c.page_start, page_end=c.page_end,
                                   printed_page=c.printed_page or self.printed_page,
                                   section_title=c.section_title or self.section_title,
                                   quote=c.quote or self.quote, chunk_id=c.chunk_id, book_id=c.book_id,
                                   frame=c.frame, figure=c.figure)


@dataclass
class Turn:
    """One question and its answer."""

    question: str
    scope: str = "All books"
    answer: str = ""
    sources: list[CiteRecord] = field(default_factory=list)
    refused: bool = False
    extractive: bool = False
    beyond_book: bool = False
    nearest_sections: list[str] = field(default_factory=list)
    state: str = "streaming"  # streaming | done | stopped | error
    checking: bool = False  # written, and its sentences are being checked against the book
    error: str = ""
    search_question: str = ""  # what was searched (a follow-up rewritten with the turn before)
    preview: CiteRecord | None = None  # the book's own best sentence, shown before the model writes
    unsupported: list[str] = field(default_factory=list)  # kept sentences no source backs: shown flagged
    about_code: list[str] = field(default_factory=list)  # those about the student's pasted program
    still_indexing: list[str] = field(default_factory=list)  # books in scope searched by keyword only
    notice: str = ""  # why the answer is not what the model wrote (e.g. the book's own words instead)
    language: str = "en"  # the language the answer is written in (the student's)
    original: str = ""  # a translated answer as written in the book's language, which the book was checked against
    original_language: str = "en"  # the book's language, which ``original`` is written in
    quote_translations: dict[int, str] = field(default_factory=dict)  # source number -> its quote, translated
    translating_quotes: bool = False  # the model is translating them now

    def cite(self, n: int) -> CiteRecord | None:
        """The record behind marker ``[n]`` (None if the answer cites a number it was not given)."""
        return next((s for s in self.sources if s.n == n), None)

    def cited(self) -> list[CiteRecord]:
        """The sources the answer's ``[n]`` markers cite, in source order."""
        return [s for s in self.sources if f"[{s.n}]" in self.answer]

    def cited_quotes(self) -> list[CiteRecord]:
        """The cited sources that show a quote on their chip (what "Show the quotes in …" translates)."""
        return [s for s in self.cited() if s.quote]

    def show_preview(self, c: Citation | None) -> None:
        """Keep the book's best sentence (shown as "From the book" above the streaming answer)."""
        record = self.cite(c.n) if c is not None else None
        self.preview = record.with_citation(c) if record is not None else None

    def finish(self, answer: Answer) -> None:
        """Apply the final ``Answer``: exact text, citations' quotes, refusal details."""
        self.answer = answer.text or self.answer
        self.checking = False
        self.refused = answer.refused
        self.extractive = answer.extractive
        self.beyond_book = answer.beyond_book
        self.unsupported = list(answer.unsupported)
        self.about_code = list(answer.about_code)
        self.notice = answer.notice
        self.nearest_sections = list(answer.nearest_sections)
        self.search_question = answer.search_question
        self.language = answer.language
        self.original = answer.original
        self.original_language = answer.original_language
        by_n = {c.n: c for c in answer.citations}
        self.sources = [s.with_citation(by_n[s.n]) if s.n in by_n else s for s in self.sources]
        self.state = "done"

    def as_context(self) -> CoreTurn | None:
        """This turn as the engine's ``Turn`` for the next question's follow-up rewrite (None unless answered)."""
        if self.state != "done":
            return None
        return CoreTurn(question=self.question, answer=self.answer, search_question=self.search_question,
                        refused=self.refused, beyond_book=self.beyond_book, extractive=self.extractive)


@dataclass
class Conversation:
    id: str
    title: str
    created: str
    turns: list[Turn] = field(default_factory=list)


class ConversationStore:
    """Conversations in memory, saved to ``<folder>/conversations.json`` after every change."""

    def __init__(self, folder: Path | None):
        self.path = Path(folder) / FILE_NAME if folder is not None else None
        self.conversations: list[Conversation] = []
        self._load()

    def new(self, title: str = "New conversation") -> Conversation:
        """Start a conversation (newest first)."""
        now = _dt.datetime.now().isoformat(timespec="seconds")
        conv = Conversation(id=uuid.uuid4().hex[:12], title=title, created=now)
        self.conversations.insert(0, conv)
        return conv

    def get(self, conv_id: str) -> Conversation | None:
        return next((c for c in self.conversations if c.id == conv_id), None)

    def delete(self, conv_id: str) -> None:
        self.conversations = [c for c in self.conversations if c.id != conv_id]
        self.save()

    def save(self) -> None:
        """Write the file atomically; a failure is logged, never raised (chat goes on in memory)."""
        if self.path is None:
            return
        payload = {"version": VERSION, "conversations": [dataclasses.asdict(c) for c in self.conversations]}
        tmp = self.path.with_suffix(".json.part")
        try:
            tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("could not save conversations to %s: %s", self.path, exc)

    def _load(self) -> None:
        if self.path is None or not self.path.exists():
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.conversations = [_conversation(c) for c in data.get("conversations", [])]
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.warning("ignoring unreadable %s: %s", self.path, exc)
            self.conversations = []


def _conversation(d: dict) -> Conversation:
    turns = []
    for t in d.get("turns", []):
        t = dict(t)
        t["sources"] = [CiteRecord(**s) for s in t.get("sources", [])]
        t["preview"] = CiteRecord(**t["preview"]) if t.get("preview") else None
        t["quote_translations"] = {int(n): q for n, q in t.get("quote_translations", {}).items()}  # JSON keys are text
        t["translating_quotes"] = False  # the app closed while they were being translated
        if t.get("state") == "streaming":
            t["state"] = "stopped"  # the app closed while it was answering
        known = {f.name for f in dataclasses.fields(Turn)}
        turns.append(Turn(**{k: v for k, v in t.items() if k in known}))
    return Conversation(id=d["id"], title=d["title"], created=d["created"], turns=turns)
