"""One chapter's lesson: what it teaches, computed once and cached in the library.

``chapter_lesson(lib, book_id, chapter)`` reads the chapter's chunks (``Library.study_chunks``), finds
its teachable statements and code examples (``core.study.statements``), the book's own definitions
(glossary lines, "Definition (X)." blocks) and its key terms, and stores the result as JSON through
``Library.study_cache_put`` under a versioned key; every study tool (quiz, cards, practice, guide)
starts from it.  ``progress(stage, done, total)`` and ``cancel()`` are the usual callables
(``core.progress``); a cancelled lesson is not cached.
"""
from __future__ import annotations

import functools
import json
import re
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import LanternError
from core.models import BookId, Chunk, ChunkId, ChunkRole
from core.study.cards import extract_cards
from core.study.concepts import chapter_concepts, concept_kin, term_forms
from core.study.models import SourceRef
from core.study.prose import standalone
from core.study.examples import CodeExample, WorkedExample, code_examples, worked_examples
from core.study.statements import Statement, StatementKind, statements, term_ok, term_pool

log = logging.getLogger(__name__)

LESSON_VERSION = 20
MIN_PAGES = 4  # a chapter this long is expected to give a full quiz, 8 cards and 5 practice items


@dataclass(frozen=True)
class SectionInfo:
    """A section of the chapter as the study tools show it."""

    section_id: int | None
    number: str | None
    title: str
    page: str


@dataclass(frozen=True)
class ChapterLesson:
    """What one chapter teaches (see the module docstring)."""

    book_id: str
    chapter: str
    title: str
    pages: int  # pages that hold the chapter's text
    sections: tuple[SectionInfo, ...]
    statements: tuple[Statement, ...]
    examples: tuple[CodeExample, ...]
    terms: tuple[str, ...]  # key terms worth asking about, best first
    glossary: tuple[Statement, ...] = ()  # the book's own "term: definition" lines and marked definitions
    worked: tuple[WorkedExample, ...] = ()  # worked examples with the result their solution ends with
    concepts: tuple[Statement, ...] = ()  # key concepts, most central first (``core.study.concepts``)
    kin: tuple[tuple[str, tuple[str, ...]], ...] = ()  # each defined concept's others, nearest in meaning first

    def by_kind(self, *kinds: StatementKind) -> list[Statement]:
        """Statements of these kinds, best score first."""
        return sorted((s for s in self.statements if s.kind in kinds), key=lambda s: -s.score)

    def in_section(self, section_id: int | None) -> list[Statement]:
        """The section's statements in reading order."""
        return [s for s in self.statements if s.source.section_id == section_id]

    @functools.cached_property
    def defined_forms(self) -> frozenset[str]:
        """Every form (``term_forms``) of the concepts the chapter defines, not those found by use alone."""
        return frozenset(f for c in self.concepts if c.kind is StatementKind.DEFINITION for f in term_forms(c.term))

    @property
    def size_note(self) -> str:
        """"chapter 7 has one page of text" / "chapter 7 has 3 pages of text"."""
        pages = "one page" if self.pages == 1 else f"{self.pages} pages"
        return f"chapter {self.chapter} has {pages} of text"

    def to_json(self) -> dict[str, Any]:
        return {"book_id": self.book_id, "chapter": self.chapter, "title": self.title, "pages": self.pages,
                "sections": [s.__dict__ for s in self.sections],
                "statements": [s.to_json() for s in self.statements],
                "examples": [e.to_json() for e in self.examples], "terms": list(self.terms),
                "glossary": [s.to_json() for s in self.glossary], "worked": [w.to_json() for w in self.worked],
                "concepts": [s.to_json() for s in self.concepts], "kin": [[t, list(ts)] for t, ts in self.kin]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChapterLesson:
        book = data["book_id"]

        def ref(x: dict) -> SourceRef:
            return SourceRef(ChunkId(x["chunk_id"]), BookId(book), x.get("chapter"), x.get("section"),
                             x["section_title"], x["page_start"], x["printed_page"], x.get("section_id"))

        def statement(x: dict) -> Statement:
            return Statement(StatementKind(x["kind"]), x["text"], x["term"], ref(x["source"]), x["score"],
                             x["standalone"], x.get("context", ""))
        return cls(book, data["chapter"], data["title"], data["pages"],
                   tuple(SectionInfo(**s) for s in data["sections"]),
                   tuple(statement(s) for s in data["statements"]),
                   tuple(CodeExample(e["code"], e["output"], e["intro"], ref(e["source"]), e["error"])
                         for e in data["examples"]),
                   tuple(data["terms"]), tuple(statement(s) for s in data.get("glossary", [])),
                   tuple(WorkedExample(w["problem"], w["answer"], ref(w["source"])) for w in data.get("worked", [])),
                   tuple(statement(s) for s in data.get("concepts", [])),
                   tuple((t, tuple(ts)) for t, ts in data.get("kin", [])))


def text_pages(chunks: Sequence[Chunk]) -> int:
    """How many pages hold the chapter's running text (not its glossary or exercises)."""
    pages: set[int] = set()
    for c in chunks:
        if c.role not in (ChunkRole.GLOSSARY, ChunkRole.EXERCISE) and len(c.text) > 80:
            pages.update(range(c.page_start, max(c.page_start, c.page_end) + 1))
    return len(pages)


def _sections(chunks: Sequence[Chunk]) -> tuple[SectionInfo, ...]:
    out: dict[object, SectionInfo] = {}
    for c in chunks:
        if c.section_id not in out:
            out[c.section_id] = SectionInfo(c.section_id, c.section_number, c.section_title or c.chapter_title,
                                            c.printed_page_start or str(c.page_start))
    return tuple(out.values())


_JUNK = re.compile(r"https?://|www\.|\.html\b|\[|\]|<[a-z/]")


def _title(text: str) -> bool:
    """A book title or reference ("The Story of American Indian Removal, 1813–1855"), not a definition."""
    words = [w for w in re.findall(r"[A-Za-z][\w’'-]*", text) if len(w) > 3]
    caps = sum(w[0].isupper() for w in words)
    return bool(re.search(r"\b1[5-9]\d\d\s*[–-]\s*(?:1[5-9]|20)\d\d\W*$", text)) or (len(words) >= 3 and caps / len(words) > 0.6)


def _glossary(chunks: Sequence[Chunk]) -> tuple[Statement, ...]:
    """The book's own definitions as statements (term = the card's front, text = its verbatim quote)."""
    return tuple(Statement(StatementKind.DEFINITION, " ".join(card.back.split()), card.front, card.source, 5.0,
                           True, " ".join(card.quote.split()))
                 for card in extract_cards(chunks) if len(card.back.split()) >= 3
                 # a defining sentence of the text ("This list ... is known as the load path.") must stand alone
                 and (card.back[:1].islower() or card.back.startswith("(") or standalone(card.back))
                 and not _JUNK.search(f"{card.front} {card.back}") and term_ok(card.front) and not _title(card.back)
                 and not re.search(r"(?:\b\w|[=(,:;])$", card.back.strip()))  # cut: "... orbitals with l"


def build_lesson(book_id: str, chapter: str, chunks: Sequence[Chunk], *, book_chunks: Sequence[Chunk] = (),
                 encode: Callable[[Sequence[str]], Any] | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> ChapterLesson:
    """The lesson of one chapter from its chunks (pure; see the module docstring); ``book_chunks`` (the
    whole book) lets it find the concepts the chapter owns in books that print no glossary; ``encode`` (the
    library's embedder) orders each concept's siblings by meaning (``core.study.concepts.concept_kin``)."""
    if not chunks:
        raise LanternError(f"Chapter {chapter} has no text in this book.")
    if progress:
        progress("reading the chapter", 0, 3)
    found = statements(chunks, cancel=cancel)
    if progress:
        progress("finding code examples", 1, 3)
    examples = code_examples(chunks)
    if progress:
        progress("collecting key terms", 2, 3)
    glossary = _glossary(chunks)
    defined = [s.term for s in found if s.kind is StatementKind.DEFINITION and term_ok(s.term)]
    pool = term_pool(chunks)  # up to ~1 s on a long chapter: worked out once, for the concepts and the terms
    concepts = chapter_concepts(chunks, glossary, found, book_chunks, pool)
    terms = list(dict.fromkeys([c.term for c in concepts] + [g.term for g in glossary] + defined + pool))
    title = next((c.chapter_title for c in chunks if c.chapter_title), f"Chapter {chapter}")
    if progress:
        progress("lesson ready", 3, 3)
    return ChapterLesson(book_id, chapter, title, text_pages(chunks), _sections(chunks), tuple(found),
                         tuple(examples), tuple(terms[:200]), glossary, tuple(worked_examples(chunks)),
                         concepts, concept_kin(concepts, encode) if encode else ())


def lesson_key(chapter: str) -> str:
    """The study-cache key of a chapter's lesson."""
    return f"lesson:v{LESSON_VERSION}:{chapter}"


def chapter_lesson(lib, book_id: str, chapter: str, *, refresh: bool = False,
                   progress: Callable[[str, int, int], None] | None = None,
                   cancel: Callable[[], bool] | None = None) -> ChapterLesson:
    """The chapter's lesson from the library's study cache, built and cached when missing (or ``refresh``)."""
    book = lib.book(book_id)
    key = lesson_key(str(chapter))
    cached = None if refresh else lib.study_cache_get(book.id, key)
    if cached:
        try:
            return ChapterLesson.from_json(json.loads(cached))
        except (KeyError, TypeError, ValueError) as exc:  # an older shape: rebuild
            log.info("lesson cache unreadable, rebuilding: %s", exc)
    lesson = build_lesson(book.id, str(chapter), lib.study_chunks(book.id, chapter=str(chapter)),
                          book_chunks=lib.study_chunks(book.id), encode=lib.embedder.encode, progress=progress,
                          cancel=cancel)
    if not (cancel and cancel()):
        lib.study_cache_put(book.id, key, json.dumps(lesson.to_json(), ensure_ascii=False))
    return lesson


def book_chapters(lib, book_id: str) -> list[str]:
    """The numbers of a book's chapters ("1", "2", ..., "A"), in reading order."""
    return [s.number for s in lib.sections(book_id) if s.level == 1 and s.number]


def merge_lessons(lessons: Sequence[ChapterLesson]) -> ChapterLesson:
    """Several chapters as one lesson (an exam scope "3-5"): their statements, examples and terms together."""
    if len(lessons) == 1:
        return lessons[0]
    if not lessons:
        raise LanternError("No chapters in this scope.")
    first = lessons[0]
    return ChapterLesson(first.book_id, ", ".join(x.chapter for x in lessons), "; ".join(x.title for x in lessons),
                         sum(x.pages for x in lessons), tuple(s for x in lessons for s in x.sections),
                         tuple(s for x in lessons for s in x.statements), tuple(e for x in lessons for e in x.examples),
                         tuple(dict.fromkeys(t for x in lessons for t in x.terms)),
                         tuple(g for x in lessons for g in x.glossary), tuple(w for x in lessons for w in x.worked),
                         tuple(sorted((c for x in lessons for c in x.concepts), key=lambda c: -c.score)),
                         tuple(k for x in lessons for k in x.kin))
