"""Plain-text importer: blank lines separate paragraphs, heading lines ("Chapter 3: Title",
"CHAPTER THREE", "3.2 Title", "Appendix A") open sections, indented blocks are code.

Plain text has no markup, so heading detection is deliberately cautious: a bare "3 Title" only
counts when it stands alone between blank lines, is short, and is followed by real prose (a
numbered list with blank lines between items must not become chapters).
"""
from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path

from core.errors import UnsupportedFormatError
from core.ingest.flow import BlockEvent, BookBuilder, Event, HeadingEvent, decode_text, read_bytes
from core.ingest.headings import HeadingMatch, match_heading
from core.models import BlockKind, ParsedBook, SectionKind, SourceFormat
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

_RULE = re.compile(r"^\s*([=\-*_~#])\1{2,}\s*$")  # "=====", "-----", "***"
_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u25e6\u25aa\u2023]|\d{1,3}[.)]|[a-zA-Z][.)])\s+\S")
_KEYWORD_KINDS = (SectionKind.CHAPTER, SectionKind.PART, SectionKind.APPENDIX)
_CANCEL_EVERY = 500


def read(path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    """Read a plain-text file into a ``ParsedBook`` with virtual pages of about 400 words."""
    raw = read_bytes(path)
    progress("reading", 0, 2)
    if looks_binary(raw):
        raise UnsupportedFormatError(
            f"{path.name} looks like a binary file, not text. Lantern reads PDF, EPUB, Markdown, "
            "plain text and HTML files.")
    text = decode_text(raw)
    title, events = parse_text(text, cancel)
    progress("reading", 1, 2)
    builder = BookBuilder(SourceFormat.TEXT, path.name)
    builder.extend(events)
    book = builder.build(title=title, fallback_title=path.stem.replace("_", " ").strip() or path.name)
    progress("reading", 2, 2)
    return book


def looks_binary(raw: bytes) -> bool:
    """True when the first KBs hold NUL bytes or many control characters (and no UTF-16 BOM)."""
    head = raw[:8192]
    if not head or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > len(head) * 0.05


def split_groups(text: str) -> list[list[str]]:
    """Lines grouped into paragraphs at blank lines (form feeds count as blank lines).

    The whole text is dedented by its smallest indentation first, so a book indented throughout
    does not turn into one big code block.
    """
    lines = [ln.expandtabs(4).rstrip() for ln in text.replace("\f", "\n").split("\n")]
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(indents) if indents else 0
    groups: list[list[str]] = []
    current: list[str] = []
    for ln in lines:
        if ln.strip():
            current.append(ln[cut:])
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _is_code(group: list[str]) -> bool:
    return all(ln.startswith("    ") for ln in group)


def line_heading(line: str, *, alone: bool) -> HeadingMatch | None:
    """Classify one line of plain text as a heading, strictly.

    "Chapter/Part/Appendix ..." always counts; numbered "3.2 Title" counts when it is short and
    reads like a title; a bare "3 Title" only when ``alone`` (a one-line paragraph).
    """
    line = " ".join(line.split())
    if not line or len(line) > 100:
        return None
    m = match_heading(line, allow_bare_numbers=False)
    if m is None and alone and len(line.split()) <= 10:
        m = match_heading(line, allow_bare_numbers=True)
    if m is None:
        return None
    if m.number and m.number.isalpha() and not line.lower().startswith("appendix"):
        return None  # "A Tale of Two Cities" is not appendix A
    if m.kind in _KEYWORD_KINDS and line.lower().startswith(("chapter", "part", "appendix", "lesson", "unit", "chap")):
        return m
    if m.number is None:  # front/back matter names: only as a line of their own
        return m if alone else None
    # Numbered headings: a title, not a sentence ("2.5 million people were affected.").
    if line.endswith((".", "!", "?", ":", ",")) or not m.title[:1].isupper() or len(m.title.split()) > 12:
        return None
    return m


def _short_title_line(group: list[str]) -> str | None:
    if len(group) != 1:
        return None
    line = " ".join(group[0].split())
    if len(line) > 80 or len(line.split()) > 10 or line.endswith((".", ",", ";", ":", "!", "?")):
        return None
    return None if line_heading(line, alone=True) is not None else line


def _prose_follows(groups: list[list[str]], i: int) -> bool:
    """The group after ``i`` is body text (not another heading candidate, not a short list item)."""
    if i + 1 >= len(groups):
        return False
    nxt = groups[i + 1]
    if _is_code(nxt):
        return True
    words = sum(len(ln.split()) for ln in nxt)
    return (len(nxt) >= 2 or words >= 15) and line_heading(nxt[0], alone=len(nxt) == 1) is None


def parse_text(text: str, cancel: CancelFn | None = None) -> tuple[str | None, list[Event]]:
    """Plain text -> (title line if the file opens with one, heading/block events)."""
    groups = split_groups(text)
    events: list[Event] = []
    title: str | None = None
    i = 0
    while i < len(groups):
        if i % _CANCEL_EVERY == 0:
            check_cancel(cancel)
        group = groups[i]
        if _is_code(group):
            # Consecutive indented paragraphs are one listing with blank lines inside.
            code = list(group)
            while i + 1 < len(groups) and _is_code(groups[i + 1]):
                i += 1
                code += [""] + groups[i]
            events.append(BlockEvent(BlockKind.CODE, "\n".join(ln[4:] for ln in code)))
            i += 1
            continue
        lines = [ln for ln in group if not _RULE.match(ln)]
        underlined = len(group) == 2 and bool(_RULE.match(group[1]))
        if not lines:
            i += 1
            continue
        head = _heading_of(lines, groups, i, underlined)
        if head is None:
            if i == 0 and (t := _short_title_line(lines)) is not None and len(groups) > 1:
                title = t
            else:
                events.append(_body_block(lines))
            i += 1
            continue
        m, rest = head
        if m is not None and m.title == " ".join(lines[0].split()) and m.kind in _KEYWORD_KINDS:
            # "CHAPTER THREE" with its title on the next line or in the next paragraph.
            if rest and len(rest) == 1 and _short_title_line(rest):
                m, rest = replace(m, title=" ".join(rest[0].split())), []
            elif not rest and i + 1 < len(groups) and (t := _short_title_line(groups[i + 1])):
                m = replace(m, title=t)
                i += 1
        level = m.depth if m is not None else (1 if group[1].lstrip().startswith("=") else 2)
        events.append(HeadingEvent(level, _heading_text(lines[0], m), m))
        if rest:
            events.append(_body_block(rest))
        i += 1
    if any(isinstance(e, HeadingEvent) and e.match is not None and e.match.kind is SectionKind.PART
           for e in events):
        # Parts sit above chapters: push everything else one level down.
        events = [replace(e, level=e.level + 1) if isinstance(e, HeadingEvent) and not (
            e.match is not None and e.match.kind is SectionKind.PART) else e for e in events]
    if title is not None and not any(isinstance(e, HeadingEvent) for e in events):
        events.insert(0, BlockEvent(BlockKind.TEXT, title))  # a lone first line is just text
        title = None
    return title, events


def _heading_text(line: str, m: HeadingMatch | None) -> str:
    """The heading as written, plus a title taken from the following line ("CHAPTER THREE Forces")."""
    line = " ".join(line.split())
    return line if m is None or m.title in line else f"{line} {m.title}"


def _heading_of(lines: list[str], groups: list[list[str]], i: int,
                underlined: bool) -> tuple[HeadingMatch | None, list[str]] | None:
    """(match, remaining lines) when the paragraph starts with a heading, else None.

    ``match`` is None for an underlined line that names no chapter ("Overview\\n========").
    """
    if len(lines) == 1:
        m = line_heading(lines[0], alone=True)
        if m is not None and m.depth == 1 and m.number and m.kind is SectionKind.CHAPTER \
                and not lines[0].lower().lstrip().startswith(("chapter", "chap", "lesson", "unit")):
            if not _prose_follows(groups, i):  # bare "3 Title": only before real prose
                return None
        if m is not None:
            return m, []
        return (None, []) if underlined and len(lines[0].split()) <= 12 else None
    first = line_heading(lines[0], alone=False)
    if first is None:
        return None
    if sum(1 for ln in lines[1:] if line_heading(ln, alone=False) is not None) >= 1:
        return None  # several heading-like lines in one paragraph: a table of contents
    return first, lines[1:]


def _body_block(lines: list[str]) -> BlockEvent:
    if _BULLET.match(lines[0]) and all(_BULLET.match(ln) or ln.startswith(" ") for ln in lines):
        return BlockEvent(BlockKind.LIST, "\n".join(ln.rstrip() for ln in lines))
    return BlockEvent(BlockKind.TEXT, _unwrap(lines))


def _unwrap(lines: list[str]) -> str:
    """Join hard-wrapped lines into one paragraph; a line ending in "-" keeps its hyphen."""
    out = ""
    for ln in (ln.strip() for ln in lines):
        if not out:
            out = ln
        elif out.endswith("-") and not out.endswith(" -"):
            out += ln
        else:
            out += " " + ln
    return out
