"""Assemble a ``ParsedBook`` from a stream of heading/block events: the shared back half of the
Markdown, plain-text and HTML importers.

Those formats have no pages, so the builder cuts the text into virtual pages ("screens") of about
``WORDS_PER_PAGE`` words, always at block boundaries, and records on which screen every heading
and block falls.  It also decides whether a lone leading top-level heading is the book's title
(``# Psychology 2e`` followed by ``# Chapter 1: ...``) and turns heading text into section kinds
and numbers with :func:`core.ingest.headings.match_heading`.

Everything here is pure: importers parse their format into events, the builder does the rest.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from core.errors import EmptyDocumentError, UnreadablePathError
from core.ingest.captions import label_blocks
from core.ingest.headings import HeadingMatch, kind_for_depth, match_heading
from core.ingest.tree import finalize_sections
from core.models import Block, BlockKind, Page, ParsedBook, SectionKind, SectionNode, SourceFormat

log = logging.getLogger(__name__)

WORDS_PER_PAGE = 400
"""Target size of one virtual page (screen) of a non-paginated book."""

# Front/back matter names that books use as headings but match_heading does not know; kept here
# (not in headings.py) so the PDF importer's behaviour does not change under it.
_EXTRA_FRONT = {"cover", "title page", "half title", "copyright", "copyright page", "dedication",
                "epigraph", "about the author", "about the publisher", "prologue"}
_EXTRA_BACK = {"notes", "endnotes", "colophon", "also by", "about the author(s)", "afterword",
               "further reading", "works cited", "epilogue"}
_ENCODINGS = ("utf-8-sig", "cp1252", "latin-1")
_EMPHASIS_STRIP = " \t\n.,;:!?\u2014\u2013-\"'()[]\u201c\u201d\u2018\u2019"


@dataclass(frozen=True)
class HeadingEvent:
    """A heading in reading order.

    ``level`` is the heading's structural level in its source (1 = ``#``/``<h1>``); the builder
    normalises levels, so only their order matters.  ``match`` may carry a classification the
    importer already made (the text importer does, with stricter rules); otherwise the builder
    classifies ``text`` itself.
    """

    level: int
    text: str
    match: HeadingMatch | None = None


@dataclass(frozen=True)
class BlockEvent:
    """A block of body text in reading order."""

    kind: BlockKind
    text: str
    emphasis: tuple[str, ...] = ()


Event = HeadingEvent | BlockEvent


def decode_text(raw: bytes) -> str:
    """Decode bytes of a text-like file: UTF-8 (with or without BOM), UTF-16 with BOM, cp1252, latin-1.

    Never raises: latin-1 maps every byte.  Line endings are normalised to ``\\n``.
    """
    text: str | None = None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16", errors="replace")
    else:
        for enc in _ENCODINGS:
            try:
                text = raw.decode(enc)
                break
            except UnicodeDecodeError:
                continue
    assert text is not None  # latin-1 cannot fail
    return text.replace("\r\n", "\n").replace("\r", "\n")


def count_words(text: str) -> int:
    """Words in ``text``; long unspaced runs (CJK) count one word per ~7 characters."""
    return max(len(text.split()), len(text) // 7)


def clean_emphasis(runs: Iterable[str], max_words: int = 6) -> tuple[str, ...]:
    """Keep bold/italic runs that look like key terms: 1..``max_words`` words, trimmed, unique."""
    out: list[str] = []
    seen: set[str] = set()
    for run in runs:
        term = " ".join(run.split()).strip(_EMPHASIS_STRIP)
        if not term or not any(ch.isalnum() for ch in term) or len(term) > 80:
            continue
        if len(term.split()) > max_words:
            continue
        key = term.lower()
        if key not in seen:
            seen.add(key)
            out.append(term)
    return tuple(out)


def classify_heading(text: str) -> HeadingMatch | None:
    """``match_heading`` for real headings (Markdown ``#``, ``<h2>``, EPUB TOC), minus false letters.

    ``match_heading`` reads "A Brief History" as appendix "A"; a heading only counts as a lettered
    appendix when the letter is followed by a dot ("A.1") or the word "Appendix" is there.
    """
    line = " ".join(text.split())
    m = match_heading(line)
    if m is not None and m.number and m.number.isalpha() and m.kind is SectionKind.APPENDIX:
        if not line.lower().startswith("appendix") and not re.match(r"^[A-Z][.:]", line):
            m = None
    if m is None:
        low = line.lower().rstrip(":")
        if low in _EXTRA_FRONT:
            return HeadingMatch(SectionKind.FRONT_MATTER, None, line, 1)
        if low in _EXTRA_BACK:
            return HeadingMatch(SectionKind.BACK_MATTER, None, line, 1)
    return m


def find_title_heading(headings: Sequence[tuple[int, str]]) -> int | None:
    """Index of the heading that is the book's title rather than a chapter, or None.

    ``headings`` are (level, text) in reading order.  The first heading is the title when it sits
    at the top level, is not itself a chapter/section/front-matter heading, and either it is the
    only top-level heading (so the next level down holds the chapters) or most of the other
    top-level headings are numbered chapters, parts or appendices.
    """
    if not headings:
        return None
    top = min(level for level, _ in headings)
    level0, text0 = headings[0]
    if level0 != top or classify_heading(text0) is not None:
        return None
    others = [text for level, text in headings[1:] if level == top]
    if not others:
        return 0
    chapterish = (SectionKind.CHAPTER, SectionKind.PART, SectionKind.APPENDIX)
    numbered = sum(1 for t in others if (m := classify_heading(t)) is not None and m.kind in chapterish)
    return 0 if numbered * 2 > len(others) else None


def section_fields(text: str, level: int, match: HeadingMatch | None) -> tuple[SectionKind, str | None, str]:
    """(kind, number, title) of a heading at normalised ``level`` (1 = top of the tree)."""
    title = " ".join(text.split())
    if match is None:
        return kind_for_depth(level, None), None, title
    kind = match.kind
    if kind in (SectionKind.FRONT_MATTER, SectionKind.BACK_MATTER) and level > 1:
        # "References" or "Summary" inside a chapter is part of that chapter, not back matter.
        kind = kind_for_depth(level, None)
    return kind, match.number, match.title or title


def _demote_toc_entries(events: list[Event]) -> list[Event]:
    """Turn headings that are really table-of-contents lines into text.

    A numbered heading whose (kind, number) comes back later in the book and that has no body
    text before the next heading is a contents entry ("Chapter 3 ....... 41"), not the chapter.
    """
    keys: list[tuple[SectionKind, str] | None] = []
    for ev in events:
        m = ev.match if isinstance(ev, HeadingEvent) else None
        if isinstance(ev, HeadingEvent) and m is None:
            m = classify_heading(ev.text)
        keys.append((m.kind, m.number) if m is not None and m.number else None)
    last_seen: dict[tuple[SectionKind, str], int] = {}
    for i, key in enumerate(keys):
        if key is not None:
            last_seen[key] = i
    out: list[Event] = []
    for i, ev in enumerate(events):
        key = keys[i]
        if key is not None and last_seen[key] > i and _body_words_after(events, i) < 20:
            out.append(BlockEvent(BlockKind.TEXT, " ".join(ev.text.split())))
        else:
            out.append(ev)
    return out


def _body_words_after(events: Sequence[Event], i: int) -> int:
    words = 0
    for ev in events[i + 1:]:
        if isinstance(ev, HeadingEvent):
            break
        words += count_words(ev.text)
    return words


def _exact_ends(sections: Sequence[SectionNode], own_ends: Sequence[int]) -> tuple[SectionNode, ...]:
    """Replace the "shared page" ends of ``finalize_sections`` with the exact last screen.

    ``own_ends[i]`` is the screen holding section i's last own content (before the next heading);
    a section ends where its last descendant ends.  Screens are ours, so we know this exactly.
    """
    out = list(sections)
    for i in range(len(out) - 1, -1, -1):
        end = own_ends[i]
        j = i + 1
        while j < len(out) and out[j].level > out[i].level:
            end = max(end, own_ends[j])
            j += 1
        out[i] = replace(out[i], page_end=max(out[i].page_start, end))
    return tuple(out)


class BookBuilder:
    """Collects heading/block events from a flow-format importer and builds the ``ParsedBook``.

    Usage: ``b = BookBuilder(SourceFormat.MARKDOWN, path.name)``, then ``b.heading(...)`` /
    ``b.block(...)`` in reading order, then ``b.build(title=..., fallback_title=...)``.
    """

    def __init__(self, source_format: SourceFormat, name: str, *, words_per_page: int = WORDS_PER_PAGE,
                 detect_title: bool = True) -> None:
        self.source_format = source_format
        self.name = name
        self.words_per_page = words_per_page
        self.detect_title = detect_title
        self.events: list[Event] = []

    def heading(self, level: int, text: str, match: HeadingMatch | None = None) -> None:
        """Record a heading; empty headings are ignored."""
        text = " ".join(text.split())
        if text:
            self.events.append(HeadingEvent(level, text, match))

    def block(self, kind: BlockKind, text: str, emphasis: Iterable[str] = ()) -> None:
        """Record a block of body text; blank blocks are ignored."""
        if text.strip():
            self.events.append(BlockEvent(kind, text.strip("\n"), clean_emphasis(emphasis)))

    def extend(self, events: Iterable[Event]) -> None:
        """Record events a parser produced (headings and blocks, in reading order)."""
        for ev in events:
            if isinstance(ev, HeadingEvent):
                self.heading(ev.level, ev.text, ev.match)
            else:
                self.block(ev.kind, ev.text, ev.emphasis)

    def build(self, *, title: str | None = None, fallback_title: str = "", authors: Sequence[str] = (),
              metadata: Sequence[tuple[str, str]] = ()) -> ParsedBook:
        """Cut the events into screens, build the section tree and return the book.

        Raises ``EmptyDocumentError`` when there is no body text at all.
        """
        events = list(self.events)
        if not any(isinstance(ev, BlockEvent) for ev in events):
            raise EmptyDocumentError(f"{self.name} contains no readable text.")
        heading_idx = [i for i, ev in enumerate(events) if isinstance(ev, HeadingEvent)]
        if self.detect_title:
            t = find_title_heading([(events[i].level, events[i].text) for i in heading_idx])
            if t is not None:
                title_event = events.pop(heading_idx[t])
                title = title or title_event.text
        events = _demote_toc_entries(events)
        pages, sections, blocks, ends = self._paginate(events)
        final_title = " ".join((title or "").split()) or fallback_title or self.name
        log.debug("%s: %d screens, %d sections, %d blocks", self.name, pages, len(sections), len(blocks))
        return ParsedBook(
            title=final_title,
            source_format=self.source_format,
            pages=tuple(Page(i, str(i)) for i in range(1, pages + 1)),
            sections=_exact_ends(finalize_sections(sections, pages), ends),
            blocks=tuple(blocks),
            authors=tuple(a for a in (" ".join(x.split()) for x in authors) if a),
            metadata=tuple(metadata),
            paginated=False,
        )

    def _paginate(self, events: Sequence[Event]) -> tuple[int, list[SectionNode], list[Block], list[int]]:
        """Assign every event a screen: a new screen starts before a block once the current one
        holds ``words_per_page`` words (or the block would overfill it by half), before every
        top-level heading, and before any heading when the current screen is already 3/4 full
        (so a heading never sits alone at the bottom of a screen).  Headings with no text between
        them share a screen, so no screen is empty."""
        levels = [ev.level for ev in events if isinstance(ev, HeadingEvent)]
        top = min(levels) if levels else 1
        wpp = self.words_per_page
        page, words, last_page_used = 1, 0, 1
        sections: list[SectionNode] = []
        blocks: list[Block] = []
        open_levels: list[int] = []  # source levels of the open ancestors, for the relative level
        current: int | None = None
        ends: list[int] = []  # per section: the page of the content just before the next heading
        for ev in events:
            if isinstance(ev, HeadingEvent):
                if ends:
                    ends[-1] = last_page_used
                while open_levels and open_levels[-1] >= ev.level:
                    open_levels.pop()
                rel_level = len(open_levels) + 1
                open_levels.append(ev.level)
                if words > 0 and (ev.level == top or words >= wpp * 3 // 4):
                    page, words = page + 1, 0
                match = ev.match if ev.match is not None else classify_heading(ev.text)
                kind, number, stitle = section_fields(ev.text, rel_level, match)
                sections.append(SectionNode(level=ev.level, kind=kind, number=number, title=stitle,
                                            page_start=page))
                current = len(sections) - 1
                ends.append(page)
                last_page_used = page
            else:
                n = count_words(ev.text)
                if words > 0 and (words >= wpp or words + n > wpp * 3 // 2):
                    page, words = page + 1, 0
                blocks.append(Block(ev.kind, ev.text, page, current, ev.emphasis))
                words += n
                last_page_used = page
        if ends:
            ends[-1] = page
        return page, sections, label_blocks(blocks), ends


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or an ``UnreadablePathError`` naming the file."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UnreadablePathError(f"{path.name} cannot be read: {exc.strerror or exc}.") from None
