"""Typed records that flow through Lantern: books, pages, sections, blocks.

Every record is a frozen dataclass; kinds are enums; identifiers are typed
(``BookId``, ``SectionId``).  Nothing here touches storage or models.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NewType

BookId = NewType("BookId", str)
"""First 16 hex digits of the SHA-256 of the imported file's bytes."""

SectionId = NewType("SectionId", int)
ChunkId = NewType("ChunkId", int)


class SourceFormat(str, enum.Enum):
    PDF = "pdf"
    EPUB = "epub"
    MARKDOWN = "markdown"
    TEXT = "text"
    HTML = "html"


class SectionKind(str, enum.Enum):
    """What a heading is in the book's hierarchy."""

    PART = "part"
    CHAPTER = "chapter"
    SECTION = "section"
    SUBSECTION = "subsection"
    APPENDIX = "appendix"
    FRONT_MATTER = "front_matter"  # preface, contents, foreword...
    BACK_MATTER = "back_matter"  # index, bibliography, glossary...
    OTHER = "other"


class BlockKind(str, enum.Enum):
    """A unit of body text in reading order; chunkers never split CODE, EQUATION, TABLE or FIGURE."""

    TEXT = "text"
    CODE = "code"
    EQUATION = "equation"
    TABLE = "table"
    LIST = "list"
    FIGURE = "figure"  # a figure's caption (the picture itself is not text)


Frame = tuple[float, float, float, float]
"""A rectangle on a page, in PDF points from the page's top left: (x0, y0, x1, y1)."""


@dataclass(frozen=True)
class Page:
    """One page: ``index`` is the 1-based physical page, ``label`` the printed one ("xii", "8")."""

    index: int
    label: str


@dataclass(frozen=True)
class SectionNode:
    """A heading as an importer found it; ``parent`` indexes the importer's own section list."""

    level: int  # 1 = top of the tree (part or chapter), 2 = below it, ...
    kind: SectionKind
    number: str | None  # "3", "2.3", "A", "A.1"; None for unnumbered headings
    title: str
    page_start: int  # 1-based physical page
    parent: int | None = None
    page_end: int | None = None  # filled by ``finalize_sections`` when importers leave it None


@dataclass(frozen=True)
class Block:
    """A paragraph-like piece of body text.

    ``section`` indexes ``ParsedBook.sections`` (``None`` = text before the first heading).
    ``emphasis`` holds bold/italic runs (likely key terms) found inside the block.
    """

    kind: BlockKind
    text: str
    page: int
    section: int | None
    emphasis: tuple[str, ...] = ()
    label: str = ""  # FIGURE/TABLE: what the book calls it ("Figure 3.2", "Table 1.1", "Table: SI base units")
    frame: Frame | None = None  # FIGURE/TABLE in a PDF: the caption and the picture or table on ``page``


@dataclass(frozen=True)
class ParsedBook:
    """What every importer returns: the same structure whatever the file format."""

    title: str
    source_format: SourceFormat
    pages: tuple[Page, ...]
    sections: tuple[SectionNode, ...]
    blocks: tuple[Block, ...]
    authors: tuple[str, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    paginated: bool = True  # False for Markdown/TXT/HTML: pages are virtual screens of text


@dataclass(frozen=True)
class Book:
    """A book stored in the library."""

    id: BookId
    title: str
    source_format: SourceFormat
    file_name: str
    file_hash: str
    page_count: int
    chapter_count: int
    section_count: int
    paginated: bool
    imported_at: str
    authors: tuple[str, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    pending: bool = False  # stored and keyword-searchable; its vectors are still being made (staged import)
    language: str = "en"  # what it is written in, read from its text at import (``core.ingest.language``)


@dataclass(frozen=True)
class Section:
    """A stored section: a node of the book's chapter/section tree."""

    id: SectionId
    book_id: BookId
    ordinal: int
    parent_id: SectionId | None
    level: int
    kind: SectionKind
    number: str | None
    title: str
    page_start: int
    page_end: int
    printed_page_start: str = ""

    @property
    def display(self) -> str:
        """``"2.3 Generating regular sequences"`` or just the title when unnumbered."""
        if self.number and not self.title.startswith(self.number):
            prefix = "Chapter " if self.kind is SectionKind.CHAPTER and "." not in self.number else ""
            if self.kind is SectionKind.APPENDIX and len(self.number) == 1:
                prefix = "Appendix "
            return f"{prefix}{self.number} {self.title}".strip()
        return self.title


class ImportStatus(str, enum.Enum):
    IMPORTED = "imported"
    SEARCHABLE = "searchable"  # stored and keyword-searchable; embedding stopped and resumes later
    DUPLICATE = "duplicate"
    ERROR = "error"


@dataclass(frozen=True)
class ImportResult:
    """Outcome of importing one file; ``error`` is a readable message when status is ERROR."""

    path: str
    status: ImportStatus
    book: Book | None = None
    error: str | None = None
    error_code: str | None = None
    timings: tuple[tuple[str, float], ...] = field(default=())


class ChunkRole(str, enum.Enum):
    """What a chunk is for a student: used by intent-aware retrieval and study tools."""

    CONCEPT = "concept"  # explanation or definition
    EXAMPLE = "example"  # worked example
    EXERCISE = "exercise"  # question/exercise/problem
    SUMMARY = "summary"  # summary, key takeaways
    OBJECTIVES = "objectives"  # learning objectives
    CODE = "code"
    GLOSSARY = "glossary"  # key terms / glossary entries
    OTHER = "other"


@dataclass(frozen=True)
class ChunkDraft:
    """A chunk as the chunker cut it, before it is stored (so it has no id yet).

    ``section`` indexes ``ParsedBook.sections``; ``embed_text`` is what gets embedded (the text,
    with book/chapter/section titles prepended for very short chunks).
    """

    section: int | None
    ordinal: int  # position within the book
    text: str
    embed_text: str
    role: ChunkRole
    page_start: int
    page_end: int
    token_count: int
    key_terms: tuple[str, ...] = ()
    has_equation: bool = False
    figure_refs: tuple[str, ...] = ()
    segment_key: str = ""  # the chunker segment it was cut from (``core.index.chunk_reuse``)
    unit_start: int = 0  # its units within that segment: [unit_start, unit_end)
    unit_end: int = 0
    label: str = ""  # a figure's or table's own chunk: "Figure 3.2" (see ``Block.label``)
    frame: Frame | None = None  # ...and where it is on ``page_start``


@dataclass(frozen=True)
class Chunk:
    """A stored chunk with the metadata a tutor needs to cite and filter it."""

    id: ChunkId
    book_id: BookId
    section_id: SectionId | None
    ordinal: int
    text: str
    role: ChunkRole
    page_start: int
    page_end: int
    printed_page_start: str
    printed_page_end: str
    chapter_number: str | None
    chapter_title: str
    section_number: str | None
    section_title: str
    token_count: int
    key_terms: tuple[str, ...] = ()
    has_equation: bool = False
    figure_refs: tuple[str, ...] = ()
    label: str = ""  # a figure's or table's own chunk: "Figure 3.2" (cited as "Figure 3.2, p. 57")
    frame: Frame | None = None  # ...and its rectangle on ``page_start``, framed when the reader opens it


class SearchMode(str, enum.Enum):
    HYBRID = "hybrid"
    KEYWORD = "keyword"
    VECTOR = "vector"


@dataclass(frozen=True)
class Hit:
    """One search result: a chunk, its rank and score, and the per-stage scores behind it."""

    rank: int
    chunk: Chunk
    score: float
    stage_scores: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Source:
    """A numbered source given to the answer step: a hit expanded to its neighbours (small-to-big)."""

    n: int  # 1-based number used in the prompt and in [n] citations
    chunk: Chunk  # the hit that was retrieved (its page/section are what a citation shows)
    text: str  # the expanded passage the model reads
    label: str  # "Book › Chapter 2 › 2.3 Generating regular sequences, p. 9"
    book_title: str = ""
    quote: str = ""  # the passage's sentence that best matches the question (shown before the answer)


@dataclass(frozen=True)
class Citation:
    """One cited source in an answer, resolvable to a page the reader can open."""

    n: int
    chunk_id: ChunkId
    book_id: BookId
    chapter: str | None
    section: str | None
    section_title: str
    page_start: int
    page_end: int
    printed_page: str
    quote: str  # short verbatim supporting quote from the source
    printed_page_end: str = ""
    label: str = ""  # "Book › Chapter 2 › 2.3 Title, p. 9" (the source's label)
    support: float = 0.0  # how strongly the quote supports the answer sentences citing it (0..1)
    frame: Frame | None = None  # a cited figure or table: its rectangle on ``page_start``
    figure: str = ""  # ...and what the book calls it: "Figure 3.2" (the chip reads "1 · Figure 3.2, p. 57")
    quote_translation: str = ""  # the quote in the student's language, when asked for (``Tutor.translate_quotes``)


@dataclass(frozen=True)
class Answer:
    """A finished answer: text with [n] markers, its citations, whether it was declined, and timings."""

    question: str
    text: str
    citations: tuple[Citation, ...]
    refused: bool = False
    beyond_book: bool = False  # "explain beyond the book" answers are labelled as such
    extractive: bool = False  # no model available: best supporting sentences instead
    nearest_sections: tuple[str, ...] = ()
    timings_ms: tuple[tuple[str, float], ...] = ()
    notice: str = ""  # e.g. why no model answered ("The chat model file is missing ...")
    supported: tuple[str, ...] = ()  # answer sentences a cited source supports
    unsupported: tuple[str, ...] = ()  # answer sentences no source supports (kept, uncited, flagged)
    about_code: tuple[str, ...] = ()  # those of them about a program the student pasted (the book cannot confirm)
    dropped: tuple[str, ...] = ()  # model sentences removed because nothing in the sources backs them
    search_question: str = ""  # the question as retrieved (a follow-up rewritten with the previous turn)
    model: str = ""  # display name of the model that wrote the text ("" = extractive or refusal)
    preview: Citation | None = None  # the book's own best sentence, shown ("From the book") before the answer
    conversation_id: ConversationId | None = None  # the stored conversation this turn was added to
    absent_terms: tuple[str, ...] = ()  # declined: what the question names that the book never mentions
    language: str = "en"  # the student's language, which ``text`` is written in ("es", "fr", ...)
    original: str = ""  # for a question in another language: the answer the book was checked against
    original_language: str = "en"  # what ``original`` is written in: the book's language

    @property
    def timings(self) -> dict[str, float]:
        """``timings_ms`` as a dict (``retrieval_ms``, ``first_token_ms``, ``total_ms``, ...)."""
        return dict(self.timings_ms)


class AnswerEventKind(str, enum.Enum):
    SOURCES = "sources"  # retrieval finished: ``sources`` is set
    TOKEN = "token"  # one streamed piece of text: ``text`` is set
    CHECKING = "checking"  # the answer is written; its sentences are being checked against the book
    DONE = "done"  # ``answer`` is set
    ERROR = "error"  # ``text`` carries a readable message


@dataclass(frozen=True)
class AnswerEvent:
    """What ``ask`` streams to the CLI and the desktop, in order: SOURCES, TOKEN*, CHECKING?, DONE."""

    kind: AnswerEventKind
    sources: tuple[Source, ...] = ()
    text: str = ""
    answer: Answer | None = None
    preview: Citation | None = None  # with SOURCES: the book's best sentence for the question, verbatim


ConversationId = NewType("ConversationId", int)


@dataclass(frozen=True)
class Turn:
    """One question and its answer inside a conversation (what a follow-up is rewritten with)."""

    question: str
    answer: str
    search_question: str = ""
    refused: bool = False
    beyond_book: bool = False
    extractive: bool = False
    citations: tuple[Citation, ...] = ()
    ordinal: int = 0
    created_at: str = ""


@dataclass(frozen=True)
class Conversation:
    """A stored conversation; ``turns`` is filled by ``Library.load_conversation``, empty in listings."""

    id: ConversationId
    title: str
    book_id: BookId | None
    created_at: str
    updated_at: str
    turn_count: int = 0
    turns: tuple[Turn, ...] = ()
