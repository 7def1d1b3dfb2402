"""Recognise chapter/section headings from their text: "Chapter 3", "3.2 Title", "CHAPTER THREE", "Appendix A".

Pure functions shared by the PDF (no-outline) and plain-text importers and by outline parsing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from core.models import SectionKind

_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}
_ROMAN = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I)

_CHAPTER = re.compile(
    r"^(?:chapter|chap\.|lesson|unit)\s+(?P<num>\d+|[ivxlc]+|[a-z]+)\b[\s.:\u2014\u2013-]*(?P<title>.*)$", re.I)
_PART = re.compile(r"^part\s+(?P<num>\d+|[ivxlc]+|[a-z]+)\b[\s.:\u2014\u2013-]*(?P<title>.*)$", re.I)
_APPENDIX = re.compile(r"^appendix\s+(?P<num>[A-Z]|\d+)\b[\s.:\u2014\u2013-]*(?P<title>.*)$", re.I)
_NUMBERED = re.compile(r"^(?P<num>(?:\d+|[A-Z])(?:\.\d+){0,3})\.?\s+(?P<title>\S.*)$")
_FRONT = {"preface", "contents", "table of contents", "foreword", "acknowledgements", "acknowledgments",
          "introduction to this book", "about the authors", "about this book", "list of figures",
          "list of tables"}
_BACK = {"index", "bibliography", "references", "glossary", "answer key", "answers to exercises",
         "concept index", "function index", "general index"}


@dataclass(frozen=True)
class HeadingMatch:
    kind: SectionKind
    number: str | None
    title: str
    depth: int  # 1 for part/chapter/appendix, 2 for "3.2", 3 for "3.2.1", ...


def word_to_number(token: str) -> str | None:
    """"THREE" -> "3", "iv" -> "4", "12" -> "12"; None when it is not a number word."""
    t = token.lower()
    if t.isdigit():
        return str(int(t))
    if t in _WORD_NUMBERS:
        return str(_WORD_NUMBERS[t])
    if _ROMAN.match(t):
        return str(_roman_value(t))
    return None


def _roman_value(s: str) -> int:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total = 0
    for a, b in zip(s.lower(), s.lower()[1:] + " "):
        va, vb = values[a], values.get(b, 0)
        total += -va if va < vb else va
    return total


def match_heading(text: str, *, allow_bare_numbers: bool = True) -> HeadingMatch | None:
    """Classify one heading line; ``None`` when the text does not look like a heading.

    ``allow_bare_numbers`` lets "3.2 Title" and "3 Title" count (outline entries, big fonts);
    plain-text importers switch it off for single numbers to avoid matching numbered lists.
    """
    line = " ".join(text.split())
    if not line or len(line) > 160:
        return None
    m = _PART.match(line)
    if m and word_to_number(m["num"]):
        return HeadingMatch(SectionKind.PART, word_to_number(m["num"]), m["title"].strip() or line, 1)
    m = _CHAPTER.match(line)
    if m and word_to_number(m["num"]):
        return HeadingMatch(SectionKind.CHAPTER, word_to_number(m["num"]), m["title"].strip() or line, 1)
    m = _APPENDIX.match(line)
    if m:
        return HeadingMatch(SectionKind.APPENDIX, m["num"].upper(), m["title"].strip() or line, 1)
    m = _NUMBERED.match(line)
    if m:
        num = m["num"]
        title = m["title"].strip()
        depth = num.count(".") + 1
        if depth == 1 and not allow_bare_numbers:
            return None
        if not _looks_like_title(title):
            return None
        if num[0].isalpha():
            kind = SectionKind.APPENDIX if depth == 1 else SectionKind.SECTION
        else:
            kind = SectionKind.CHAPTER if depth == 1 else (SectionKind.SECTION if depth == 2 else SectionKind.SUBSECTION)
        return HeadingMatch(kind, num, title, depth)
    low = line.lower().rstrip(":")
    if low in _FRONT:
        return HeadingMatch(SectionKind.FRONT_MATTER, None, line, 1)
    if low in _BACK:
        return HeadingMatch(SectionKind.BACK_MATTER, None, line, 1)
    return None


def _looks_like_title(title: str) -> bool:
    """A heading title starts with a letter and is not a sentence of running text."""
    if not title or not (title[0].isalpha() or title[0] in "\"'\u201c("):
        return False
    words = title.split()
    if len(words) > 14:
        return False
    return not title.rstrip().endswith((",", ";"))


def kind_for_depth(depth: int, number: str | None) -> SectionKind:
    """Kind of an outline entry from its depth when its text carries no cue."""
    if number and number[0].isalpha() and depth == 1:
        return SectionKind.APPENDIX
    return {1: SectionKind.CHAPTER, 2: SectionKind.SECTION}.get(depth, SectionKind.SUBSECTION)
