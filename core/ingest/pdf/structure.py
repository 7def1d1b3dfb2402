"""Chapters and sections of a PDF: from its outline (bookmarks) or, without one, from the layout.

Pure functions: outline entries and ``Line`` records in, plain records out.
"""
from __future__ import annotations

import dataclasses
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.ingest.headings import HeadingMatch, kind_for_depth, match_heading
from core.ingest.pdf.layout import Line, strip_leaders
from core.ingest.pdf.page_labels import is_page_number
from core.models import SectionKind, SectionNode

log = logging.getLogger(__name__)

MAX_OUTLINE_ENTRIES = 20_000
_LINK_NAMED = 4  # PyMuPDF LINK_NAMED: its "to" point comes unconverted, in PDF user space


@dataclass(frozen=True)
class HeadingInfo:
    """What a heading's text says: "Chapter 1: Intro" -> CHAPTER, "1", "Intro"."""

    kind: SectionKind
    number: str | None
    title: str


@dataclass(frozen=True)
class OutlineEntry:
    """One usable bookmark: ``page`` is 1-based and within the document."""

    level: int
    text: str  # the bookmark text as shown ("Chapter 1: Introduction to Psychology")
    page: int
    info: HeadingInfo
    dest: tuple[float, float] | None = None  # target point when the bookmark has one
    dest_in_pdf_space: bool = False  # True: y grows upwards and needs the page's transform


def clean_title(text: object) -> str:
    """Whitespace-normalised text without control characters."""
    s = text if isinstance(text, str) else str(text or "")
    return " ".join("".join(c if c.isprintable() else " " for c in s).split())


def classify_heading(text: str, depth: int, letters_ok: bool = True) -> HeadingInfo:
    """Kind, number and title of a heading's text; ``depth`` decides the kind of unnumbered ones.

    ``letters_ok=False`` rejects a bare leading letter as an appendix number ("A specific
    example" is not Appendix A) - callers allow it when sibling headings run A, B, C...
    """
    m = match_heading(text)
    if m is not None and _bare_letter(m, text) and not letters_ok:
        m = None
    if m is not None and m.number and m.number.isdigit() and int(m.number) > 200 and m.depth == 1:
        m = None  # "2019 Annual report": a year, not chapter 2019
    if m is None or m.number is None:
        kind = m.kind if m is not None else kind_for_depth(depth, None)
        return HeadingInfo(kind, None, text)
    return HeadingInfo(m.kind, m.number, m.title)


def _bare_letter(m: HeadingMatch, text: str) -> bool:
    return (m.kind is SectionKind.APPENDIX and m.number is not None and len(m.number) == 1
            and m.number.isalpha() and not text.lower().startswith("appendix"))


def letter_sequences(items: Sequence[tuple[int, str]]) -> set[int]:
    """Indexes of (group, text) items whose bare leading letter has a neighbour letter in its group.

    "A A sample session", "B Invoking R" at one level are appendices; a lone "A specific example"
    is not.
    """
    letters: dict[int, set[str]] = defaultdict(set)
    for group, text in items:
        m = match_heading(text)
        if m is not None and _bare_letter(m, text):
            letters[group].add(m.number or "")
    ok: set[int] = set()
    for i, (group, text) in enumerate(items):
        m = match_heading(text)
        if m is not None and _bare_letter(m, text) and m.number:
            near = {chr(ord(m.number) - 1), chr(ord(m.number) + 1)}
            if near & letters[group]:
                ok.add(i)
    return ok


def parse_outline(toc: Sequence[Sequence[object]], page_count: int) -> list[OutlineEntry]:
    """Usable entries of ``doc.get_toc()`` output, robust to broken outlines.

    Pages out of range are clamped, entries without a target take the page of the next entry
    (a "Part" bookmark pointing nowhere) or the previous one, blank titles and exact duplicates
    (cyclic outlines repeat themselves) are dropped, a single root bookmark wrapping all others
    is dropped, and levels are clamped to >= 1 (jumps are evened out later by ``finalize_sections``).
    """
    raw: list[tuple[int, str, int | None, dict]] = []
    seen: set[tuple[int, str, int]] = set()
    for item in list(toc)[:MAX_OUTLINE_ENTRIES]:
        try:
            level = max(1, int(item[0]))  # type: ignore[call-overload]
            text = clean_title(item[1])
            page = int(item[2])  # type: ignore[call-overload]
            dest = item[3] if len(item) > 3 and isinstance(item[3], dict) else {}
        except (TypeError, ValueError, IndexError):
            continue
        if not text:
            continue
        if page > page_count:
            log.warning("Bookmark %r points past the last page (%d); using the last page.", text, page)
        raw.append((level, text, min(page, page_count) if page >= 1 else None, dest))
    top = min((r[0] for r in raw), default=1)
    if len(raw) >= 4 and raw[0][0] == top and all(r[0] > top for r in raw[1:]):
        # One bookmark wrapping all others is the book itself ("My Book" > chapters): drop it.
        log.debug("Outline root %r wraps every other bookmark; using its children.", raw[0][1])
        raw = [(lvl - 1, text, page, dest) for lvl, text, page, dest in raw[1:]]
    out: list[OutlineEntry] = []
    group_items = [(lvl, text) for lvl, text, _, _ in raw]
    letters = letter_sequences(group_items)
    for i, (level, text, page, dest) in enumerate(raw):
        if page is None:
            later = next((p for _, _, p, _ in raw[i + 1:] if p is not None), None)
            page = later if later is not None else (out[-1].page if out else 1)
        key = (level, text.lower(), page)
        if key in seen:
            continue
        seen.add(key)
        info = classify_heading(text, level, letters_ok=i in letters)
        point, pdf_space = _dest_point(dest)
        out.append(OutlineEntry(level, text, page, info, point, pdf_space))
    return out


def _dest_point(dest: Mapping[str, object]) -> tuple[tuple[float, float] | None, bool]:
    to = dest.get("to")
    try:
        x, y = float(to[0]), float(to[1])  # type: ignore[index]
    except (TypeError, ValueError, IndexError, KeyError):
        return None, False
    if y == 0 and x == 0:
        return None, False  # PyMuPDF's "no point given"
    return (x, y), dest.get("kind") == _LINK_NAMED


# ---------------------------------------------------------------------------------------------
# Finding a bookmark's heading on its page

_NORM = re.compile(r"[\W_]+")
_LEADING_NUMBER = re.compile(
    r"^(?:(?:chapter|appendix|part|section)\s+)?(?:\d+|[A-Z])(?:\.\d+)*\.?\s+", re.I)
_NUMBER_PREFIX = re.compile(
    r"^(?:chapter|appendix|part|section|unit|lesson)?(?:\d+|[ivxlc]+|[a-z])?\d*$")


def norm_text(text: str) -> str:
    """Lower-case letters and digits only: compares headings whatever their spacing and punctuation."""
    return _NORM.sub("", text.lower())


def _same_heading(found: str, wanted: str) -> bool:
    if not found or not wanted:
        return False
    if found == wanted:
        return True
    short, long_ = sorted((found, wanted), key=len)
    return long_.endswith(short) and len(short) >= 3 and bool(_NUMBER_PREFIX.match(long_[: -len(short)]))


def find_heading_lines(title: str, lines: Sequence[Line], body_size: float, used: set[int],
                       y_hint: float | None = None, norms: Sequence[str] | None = None) -> list[int] | None:
    """Indexes of the line(s) on a page that print the heading ``title`` (up to three lines).

    The first line must look like a heading (bigger or bold) unless it is the whole title alone
    on its line; with several candidates the one nearest the bookmark's ``y_hint`` wins.
    ``norms`` may carry ``norm_text`` of every line, when the caller searches a page repeatedly.
    """
    wanted = norm_text(title)
    if not wanted:
        return None
    order = sorted(range(len(lines)), key=lambda i: (lines[i].y0, lines[i].x0))
    if norms is None:
        norms = [norm_text(ln.text) for ln in lines]
    found: list[list[int]] = []
    for k, start in enumerate(order):
        if start in used or not norms[start]:
            continue
        first = lines[start]
        styled = first.size >= body_size + 0.5 or first.bold
        raw = ""
        group: list[int] = []
        for j in order[k:k + 3]:
            ln = lines[j]
            if group and (j in used or ln.y0 - lines[group[-1]].y1 > 2 * (ln.y1 - ln.y0)
                          or abs(ln.x0 - first.x0) > 60 and ln.block != first.block):
                break
            group.append(j)
            raw = f"{raw} {ln.text}"
            acc = norm_text(raw)
            core = norm_text(_LEADING_NUMBER.sub("", raw.strip()))  # "2.7 Index vectors" -> "indexvectors"
            if (_same_heading(acc, wanted) or core == wanted) and (styled or acc == wanted):
                found.append(list(group))
                break
            if not styled or not (acc in wanted or (core and core in wanted)):
                break  # a wrapped heading continues only while it still spells the title
    if not found:
        return None
    if y_hint is None:
        return found[0]
    return min(found, key=lambda g: abs(lines[g[0]].y0 - y_hint))


# ---------------------------------------------------------------------------------------------
# Headings from the layout (no outline)


@dataclass(frozen=True)
class DetectedHeading:
    """A heading found from the layout (no outline): where it is and how it looks."""

    page: int  # 1-based
    lines: tuple[int, ...]  # indexes into that page's lines
    text: str
    size: float
    styled: bool = True  # bigger or bold; False for plain-text labels like "CHAPTER THREE"


def heading_candidates(lines: Sequence[Line], page: int, body_size: float) -> list[DetectedHeading]:
    """Heading-looking lines of one page: bigger than body text, or bold/plain with a heading pattern.

    Consecutive big lines of one style merge into one heading (titles that wrap), and a bare
    "Chapter 3" line takes the big title line under it.
    """
    order = sorted(range(len(lines)), key=lambda i: (lines[i].y0, lines[i].x0))
    # Lines per block in body-like type: a plain "CHAPTER TWO" counts only when no body text
    # shares its block (a bigger title line under it may).
    block_sizes = Counter(ln.block for ln in lines if abs(ln.size - body_size) < 0.6 and not ln.bold)
    out: list[DetectedHeading] = []
    k = 0
    while k < len(order):
        i = order[k]
        ln = lines[i]
        k += 1
        if not _heading_like(ln, body_size, alone=block_sizes[ln.block] <= 1):
            continue
        group = [i]
        text = ln.text
        while k < len(order):
            nxt = lines[order[k]]
            gap = nxt.y0 - lines[group[-1]].y1
            same_style = abs(nxt.size - ln.size) < 0.6 and nxt.bold == ln.bold
            chapter_label = len(group) == 1 and _is_bare_label(text)
            if gap > 1.5 * max(ln.size, nxt.size) or len(group) >= 3:
                break
            if not ((same_style and ln.size >= body_size * 1.15) or
                    (chapter_label and nxt.size >= body_size * 1.15)) or nxt.mono >= 0.5:
                break
            group.append(order[k])
            text = f"{text} {nxt.text}"
            k += 1
        styled = ln.bold or ln.size >= body_size * 1.15
        out.append(DetectedHeading(page, tuple(group), " ".join(text.split()), ln.size, styled))
    return out


def _is_bare_label(text: str) -> bool:
    m = match_heading(text)
    return m is not None and m.number is not None and m.title == " ".join(text.split())


def _heading_like(ln: Line, body_size: float, alone: bool) -> bool:
    text = ln.text.strip()
    words = text.split()
    if not (2 <= len(text) <= 150) or len(words) > 15 or ln.mono >= 0.5 or ln.math >= 0.4:
        return False
    if not any(c.isalpha() for c in text) or text.endswith((",", ";")) or is_page_number(text):
        return False
    if strip_leaders(text) != text:
        return False  # "Introduction . . . . 3" is a contents or index entry
    if ln.size >= body_size * 1.15 and ln.size >= body_size + 1:
        return True
    m = match_heading(text, allow_bare_numbers=False)
    if m is None or m.number is None:
        return False
    if ln.bold:
        return True
    # Plain body text counts only for unmistakable labels alone in their block ("CHAPTER THREE").
    return alone and len(words) <= 10 and m.kind in (SectionKind.CHAPTER, SectionKind.APPENDIX, SectionKind.PART) \
        and text.split()[0].lower() in ("chapter", "appendix", "part", "lesson", "unit")


def sections_from_headings(found: Sequence[DetectedHeading]) -> list[SectionNode]:
    """SectionNodes for detected headings, in order; levels from numbering, else from type size.

    Text repeated as a heading on three or more pages (a running title MuPDF did not flag) is
    dropped by the caller beforehand.
    """
    items = [(0, h.text) for h in found]
    letters = letter_sequences(items)
    infos = [classify_heading(h.text, 1, letters_ok=i in letters) for i, h in enumerate(found)]
    depth_by_size: dict[float, Counter[int]] = defaultdict(Counter)
    for h, info in zip(found, infos):
        if info.number:
            depth_by_size[round(h.size * 2) / 2][info.number.count(".") + 1] += 1
    sizes = sorted({round(h.size * 2) / 2 for h in found}, reverse=True)
    has_parts = any(info.kind is SectionKind.PART for info in infos)
    out: list[SectionNode] = []
    for h, info in zip(found, infos):
        key = round(h.size * 2) / 2
        if info.number:
            level = 1 if info.kind is SectionKind.PART else info.number.count(".") + 1
        elif depth_by_size.get(key):
            level = depth_by_size[key].most_common(1)[0][0]
        else:
            level = min(4, sizes.index(key) + 1)
        if has_parts and info.kind is not SectionKind.PART:
            level += 1
        kind = info.kind
        if info.number is None and kind in (SectionKind.CHAPTER, SectionKind.SECTION, SectionKind.SUBSECTION):
            kind = kind_for_depth(level - (1 if has_parts else 0), None)
        out.append(SectionNode(level=level, kind=kind, number=info.number, title=info.title, page_start=h.page))
    return out


def plausible_headings(found: Sequence[DetectedHeading]) -> list[DetectedHeading]:
    """Drop plain-text chapter labels that are unlikely to be real headings.

    A "Chapter One" in body type is trusted only when the book has no styled chapter headings
    and its number continues the sequence (a poem's "Chapter One" after chapter 16 is not one).
    """
    styled_chapters = any(h.styled and (m := match_heading(h.text)) is not None and m.kind is SectionKind.CHAPTER
                          for h in found)
    out: list[DetectedHeading] = []
    last = 0
    for h in found:
        m = match_heading(h.text)
        chapter = m is not None and m.kind is SectionKind.CHAPTER and (m.number or "").isdigit()
        number = int(m.number) if chapter and m is not None and m.number else None
        if not h.styled and (styled_chapters or (number is not None and number <= last)):
            continue
        if number is not None:
            last = number
        out.append(h)
    return out


def repeated_texts(found: Sequence[DetectedHeading], min_pages: int = 3) -> set[str]:
    """Normalised heading texts that occur on ``min_pages`` or more pages (running titles)."""
    pages: dict[str, set[int]] = defaultdict(set)
    for h in found:
        pages[norm_text(h.text)].add(h.page)
    return {t for t, p in pages.items() if len(p) >= min_pages}


# ---------------------------------------------------------------------------------------------
# Section ends


def refine_page_ends(sections: Sequence[SectionNode],
                     pages_with_text: Mapping[int, set[int]]) -> tuple[SectionNode, ...]:
    """Pull a section's end back one page when the next section starts at the top of that page.

    ``finalize_sections`` ends a section on the page where the next one at its level starts.
    When none of the section's (or its subsections') text is on that page, the section really
    ended on the page before.  ``pages_with_text[i]`` holds the pages with text of section i.
    """
    subtree: list[set[int]] = [set(pages_with_text.get(i, ())) for i in range(len(sections))]
    for i in range(len(sections) - 1, -1, -1):
        parent = sections[i].parent
        if parent is not None:
            subtree[parent] |= subtree[i]
    out: list[SectionNode] = []
    for i, s in enumerate(sections):
        end = s.page_end if s.page_end is not None else s.page_start
        nxt = next((t for t in sections[i + 1:] if t.level <= s.level), None)
        if nxt is not None and end == nxt.page_start and end > s.page_start and end not in subtree[i]:
            end -= 1
        out.append(dataclasses.replace(s, page_end=end))
    return tuple(out)
