"""Fixtures of the study-tool tests: the bundled sample textbook in a library with a fake embedder,
synthetic chunks, and a scripted JSON model."""
from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.library import Library
from core.models import BookId, Chunk, ChunkId, ChunkRole, SectionId
from core.paths import sample_books
from tests.fakes import FakeEmbedder


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Iterator[tuple[Library, str]]:
    """(library, book id) holding resources/sample/energy-and-motion.md (exercises, answer key, definitions)."""
    md = sample_books()[0].with_suffix(".md")  # Markdown: same text, faster than the PDF
    yield from _library_with(md, tmp_path_factory.mktemp("study") / "lib")


def _library_with(path: Path, root: Path) -> Iterator[tuple[Library, str]]:
    """A library at ``root`` holding the book at ``path``, embedded with a fake (a module fixture's body)."""
    embedder = FakeEmbedder()
    with pytest.MonkeyPatch.context() as mp:
        # the CLI's own Library asks core.index.embedder for the model: give it the same fake
        mp.setattr("core.index.embedder.default_embedder", lambda: embedder)
        with Library(root, embedder=embedder) as lib:
            book = lib.import_book(path).book
            assert book is not None
            yield lib, book.id


def make_chunk(cid: int, text: str, *, ordinal: int | None = None, role: ChunkRole = ChunkRole.CONCEPT,
               chapter: str = "1", section: str = "1.1", section_id: int = 1, section_title: str = "Basics",
               chapter_title: str = "Chapter one", key_terms: tuple[str, ...] = (), page: int = 3,
               label: str = "") -> Chunk:
    """A stored-looking chunk for pure-function tests (``label``: a figure's or table's own chunk)."""
    return Chunk(id=ChunkId(cid), book_id=BookId("b00k"), section_id=SectionId(section_id),
                 ordinal=cid if ordinal is None else ordinal, text=text, role=role, page_start=page, page_end=page,
                 printed_page_start=str(page), printed_page_end=str(page), chapter_number=chapter,
                 chapter_title=chapter_title, section_number=section, section_title=section_title,
                 token_count=len(text.split()), key_terms=key_terms, label=label)


class ScriptedJsonModel:
    """Stands in for ``LocalModel`` in quiz tests: ``complete_json`` returns the scripted replies in turn
    (an Exception instance is raised instead); ``chat`` returns ``chat_reply``."""

    display_name = "scripted"

    def __init__(self, replies=(), chat_reply: str = ""):
        self.replies = list(replies)
        self.prompts: list[list[dict]] = []
        self.schemas: list[dict] = []
        self.chat_reply = chat_reply
        self.closed = False

    def complete_json(self, messages, schema, **_):
        self.prompts.append(list(messages))
        self.schemas.append(schema)
        reply = self.replies.pop(0) if self.replies else {}
        if isinstance(reply, Exception):
            raise reply
        return json.loads(json.dumps(reply))

    def chat(self, messages, **_):
        self.prompts.append(list(messages))
        return self.chat_reply

    def option_logprobs(self, messages, options, **_):
        """The next scripted reply as a judgement: its first boolean, true or false with probability 0.9."""
        self.prompts.append(list(messages))
        reply = self.replies.pop(0) if self.replies else {}
        first = next((v for v in reply.values() if isinstance(v, bool)), False) if isinstance(reply, dict) else False
        return {o: math.log(0.9 if (o == "true") == first else 0.1) for o in options}

    def model_path(self) -> Path:
        return Path("scripted.gguf")

    def close(self) -> None:
        self.closed = True


MANUAL = Path(__file__).parent / "data" / "calc-manual.md"


@pytest.fixture(scope="module")
def manual(tmp_path_factory) -> Iterator[tuple[Library, str]]:
    """(library, book id) holding data/calc-manual.md: a small software manual with no glossary and no
    exercises, only prose, definitions and console sessions with their printed output."""
    yield from _library_with(MANUAL, tmp_path_factory.mktemp("manual") / "lib")
