"""Scope a student writes into a question: "in chapter 5", "pages 40–60", "section 2.3".

``parse_scope`` finds those phrases, returns them as a ``Scope`` and the question with the phrases
removed, so words like "chapter" and "page" never reach keyword or vector search.  Pages are kept
as the *printed* labels the student sees; ``printed_to_physical`` maps them to the physical page
indexes the search filter uses.  Pure functions, no storage, no models.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.models import Chunk

# Largest chapter range expanded into a list ("chapters 1-400" is a typo, not a request).
MAX_CHAPTER_RANGE = 60

_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMWORD = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))

_DASH = r"\s*(?:-|–|—|‒|−|to|through|thru|until)\s*"
_LIST_SEP = r"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|and\s+|or\s+|&\s*)"
# Prepositions that only introduce the scope ("in chapter 5"); removed together with it.
_LEAD = r"(?:\b(?:only\s+)?(?:in|from|of|for|within|on|at|about|covering|inside)\s+(?:the\s+)?)?"
_TAIL = r"(?:\s+only\b|\s+alone\b)?"

_CH_NUM = rf"(?:\d{{1,3}}|{_NUMWORD}\b)"
# Digits continue a list of digits, words a list of words: "chapter 3 and one more thing" is chapter 3.
_CH_ITEMS = (rf"(?:\d{{1,3}}(?:(?:{_DASH}|{_LIST_SEP})\d{{1,3}})*(?![.\d])"
             rf"|(?:{_NUMWORD})\b(?:(?:{_DASH}|{_LIST_SEP})(?:{_NUMWORD})\b)*)")
_CHAPTERS = re.compile(
    rf"{_LEAD}\b(?:chapters?|chaps?\.?|chs?\.)\s*(?P<items>{_CH_ITEMS}){_TAIL}", re.IGNORECASE)
# Case-sensitive: "CH 4" in a chemistry question is methane, not chapter 4.
_CHAPTER_NO_DOT = re.compile(rf"(?i:{_LEAD})\b[Cc]h\s+(?P<items>{_CH_ITEMS}){_TAIL}")
_APPENDIX = re.compile(rf"{_LEAD}\b(?i:appendix)\s+(?P<items>[A-Z])\b{_TAIL}")

_SEC_NUM = r"(?:\d{1,3}(?:\.\d{1,3}){0,3}|[A-Z](?:\.\d{1,3}){1,3})"
_SECTIONS = re.compile(
    rf"{_LEAD}(?:\b(?:sections?|secs?\.?)\s*|§\s*|\bchapter\s+(?=\d+\.\d))"
    rf"(?P<items>{_SEC_NUM}(?:{_LIST_SEP}{_SEC_NUM})*)(?![\d]){_TAIL}",
    re.IGNORECASE)
# A bare "in 2.3" is a section only when nothing measurable follows ("in 2.3 M HCl" is not).
_BARE_SECTION = re.compile(
    r"(?:\b(?:only\s+)?in\s+(?P<a>\d{1,3}\.\d{1,3})(?=\s*(?:[,:;?!)]|$|\s+(?:only|what|how|why|which|who|when|"
    r"where|is|are|does|do|can|explain|define|describe|give|show|list)\b))|^\s*(?P<b>\d{1,3}\.\d{1,3})\s+only\b)"
    r"(?:\s+only\b)?", re.IGNORECASE)

# Roman labels are front matter ("xii"); only well-formed numerals up to 89 count, so that words
# like "did" or "mix" after "page" are never read as labels.
_LABEL = r"(?:\d{1,5}|[ivxl]{1,7}\b)"
_VALID_ROMAN = re.compile(r"(?=.)(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})", re.IGNORECASE)
_PAGES = re.compile(
    rf"{_LEAD}\b(?:pages?|pgs?\.?|pp\.?|p\.)\s*(?P<a>{_LABEL})(?:{_DASH}(?P<b>{_LABEL}))?(?![.\d]){_TAIL}",
    re.IGNORECASE)

# "Using the data in Appendix G", "(see chapter 4)", "refer to p. 12": the phrase points at a
# resource the question needs, it does not restrict where the answer is; it stays in the text.
# Any of these words earlier in the same clause marks a reference ("From the molar heats of
# formation in Appendix G, ...").
_REFERENCE_BEFORE = re.compile(
    r"\b(?:data|values?|constants?|tables?|figures?|listed|given|shown|provided|found|see|refer(?:\s+back)?\s+to|"
    r"using|use|consult|check|tabulated|from\s+the)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[.?!;:,(\[]\s*")
# Every scope phrase contains one of these (checked before running the regexes above).
_TRIGGERS = ("ch", "sec", "§", "page", "pp", "pg", "p.", "ppendix")
_DOTTED = re.compile(r"\d\.\d")  # "in 2.3", "2.3 only"
# Every scope phrase contains one of these (checked before running the regexes above).
_TRIGGERS = ("ch", "sec", "§", "page", "pp", "pg", "p.", "ppendix")
_DOTTED = re.compile(r"\d\.\d")  # "in 2.3", "2.3 only"
_ROMAN = re.compile(r"^[ivxlcdm]+$", re.IGNORECASE)
_SPACES = re.compile(r"\s{2,}")
_ORPHAN_PUNCT = re.compile(r"^[\s,:;.\-–—]+|(?<=\s)[,:;](?=\s|$)|\s+(?=[?!.,:;])")
_EMPTY_PARENS = re.compile(r"\(\s*\)|\[\s*\]")


@dataclass(frozen=True)
class Scope:
    """Where the student asked to look.  Empty tuples / None mean "anywhere".

    ``pages`` holds printed page labels (first, last) exactly as written ("40", "xii"): map them
    with ``printed_to_physical`` using the book's page labels before filtering.
    """

    chapters: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    pages: tuple[str, str] | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.chapters or self.sections or self.pages)

    def chapter_filter(self) -> tuple[str, ...]:
        """Chapter numbers for ``SearchFilter.chapters``: the chapters named plus those of named sections.

        "section 2.3" implies chapter "2", which lets the SQL filter do most of the work; ``matches``
        then keeps only the section itself.
        """
        out = dict.fromkeys(self.chapters)
        for s in self.sections:
            out.setdefault(s.split(".")[0], None)
        return tuple(out)

    def matches(self, chunk: Chunk) -> bool:
        """Does ``chunk`` satisfy the chapter and section parts of the scope (pages are the caller's)?

        A section matches itself and its subsections ("2.3" matches "2.3" and "2.3.1").  With both
        chapters and sections named, either is enough ("chapter 4 and section 2.3").
        """
        if not (self.chapters or self.sections):
            return True
        if self.chapters and chunk.chapter_number in self.chapters:
            return True
        number = chunk.section_number or ""
        return any(number == s or number.startswith(s + ".") for s in self.sections)


def _num(token: str) -> str:
    t = token.strip().lower()
    return _NUMBER_WORDS.get(t, t.upper() if t.isalpha() else str(int(t)))


def _expand_items(items: str) -> list[str]:
    """"3–5" -> 3,4,5; "2 and 4" -> 2,4; "2, 3, and 5" -> 2,3,5 (as strings, in the order written)."""
    out: list[str] = []
    parts = re.split(rf"({_DASH})", items, flags=re.IGNORECASE)  # keeps the dashes as separators
    pending_range = False
    for part in parts:
        if re.fullmatch(_DASH, part, re.IGNORECASE):
            pending_range = True
            continue
        nums = [_num(n) for n in re.findall(rf"\d{{1,3}}|{_NUMWORD}\b|\b[A-Z]\b", part, re.IGNORECASE)]
        if not nums:
            continue
        if pending_range and out and out[-1].isdigit() and nums[0].isdigit():
            a, b = int(out[-1]), int(nums[0])
            lo, hi = min(a, b), max(a, b)
            if hi - lo <= MAX_CHAPTER_RANGE:
                out.extend(str(i) for i in range(lo + 1, hi + 1) if str(i) not in out)
            nums = nums[1:]
        pending_range = False
        out.extend(n for n in nums if n not in out)
    return out


def _lead_words(m: re.Match[str]) -> str:
    """The preposition part of a scope match ("in the "), which belongs to the context before it."""
    lead = re.match(r"(?:(?:only|in|from|of|for|within|on|at|about|covering|inside|the)\s+)*", m.group(0), re.I)
    return lead.group(0) if lead else ""


def _remove(text: str, spans: Iterable[tuple[int, int]]) -> str:
    for a, b in sorted(spans, reverse=True):
        text = text[:a] + " " + text[b:]
    return text


def _tidy(text: str) -> str:
    text = _EMPTY_PARENS.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    for _ in range(2):  # removing one orphan can expose another (", :")
        text = _ORPHAN_PUNCT.sub("", text).strip()
    return _SPACES.sub(" ", text)


def parse_scope(question: str) -> tuple[str, Scope]:
    """Split a question into (question without scope phrases, scope).

    >>> parse_scope("chapter 3 only: what is work?")
    ('what is work?', Scope(chapters=('3',), sections=(), pages=None))
    """
    text = question
    chapters: list[str] = []
    sections: list[str] = []
    pages: tuple[str, str] | None = None
    spans: list[tuple[int, int]] = []

    def taken(m: re.Match[str]) -> bool:
        before = text[max(0, m.start() - 60):m.start()] + _lead_words(m)
        clause = _CLAUSE_BREAK.split(before)[-1]
        if _REFERENCE_BEFORE.search(clause):
            return True
        return any(a < m.end() and m.start() < b for a, b in spans)

    low = text.lower()
    if not any(t in low for t in _TRIGGERS) and not _DOTTED.search(text):  # most questions name no scope
        return text.strip(), Scope()
    for m in _SECTIONS.finditer(text):  # sections first: "section 2.3" must not read as a page or chapter
        if taken(m):
            continue
        sections.extend(s for s in re.findall(_SEC_NUM, m.group("items")) if s not in sections)
        spans.append(m.span())
    for m in _BARE_SECTION.finditer(text):
        if not taken(m):
            s = m.group("a") or m.group("b")
            if s not in sections:
                sections.append(s)
            spans.append(m.span())
    for rx in (_CHAPTERS, _CHAPTER_NO_DOT, _APPENDIX):
        for m in rx.finditer(text):
            if not taken(m):
                chapters.extend(c for c in _expand_items(m.group("items")) if c not in chapters)
                spans.append(m.span())
    for m in _PAGES.finditer(text):
        if taken(m) or pages is not None:
            continue
        a, b = m.group("a"), m.group("b") or m.group("a")
        if any(not x.isdigit() and not _VALID_ROMAN.fullmatch(x) for x in (a, b)):
            continue
        if a.isdigit() and b.isdigit() and int(b) < int(a):
            a, b = b, a
        pages = (a.lower() if _ROMAN.match(a) else str(int(a)), b.lower() if _ROMAN.match(b) else str(int(b)))
        spans.append(m.span())
    cleaned = _tidy(_remove(text, spans)) if spans else text.strip()
    return cleaned, Scope(tuple(chapters), tuple(sections), pages)


def roman_to_int(label: str) -> int | None:
    """Value of a roman numeral label ("xii" -> 12), None when it is not one."""
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    s = label.strip().lower()
    if not s or any(ch not in values for ch in s):
        return None
    total = 0
    for i, ch in enumerate(s):
        v = values[ch]
        total += -v if i + 1 < len(s) and values[s[i + 1]] > v else v
    return total


def printed_to_physical(labels: Mapping[int, str], first: str | int, last: str | int | None = None
                        ) -> tuple[int, int] | None:
    """Map printed page labels (first, last) to an inclusive physical page range, or None.

    ``labels`` maps physical page index -> printed label (``Library.pages``).  An exact label
    match wins (first occurrence for the start, last occurrence for the end).  Otherwise numeric
    labels are compared as numbers, so "pages 40–60" still works when page 40 is an unlabelled
    figure page: the range becomes the first page labelled >= 40 to the last labelled <= 60.
    Roman labels are compared among roman-labelled pages the same way.  Books without page labels
    (``labels`` empty or labels equal to indexes) fall back to physical numbers.
    """
    last = first if last is None else last
    a, b = str(first).strip().lower(), str(last).strip().lower()
    if not labels:
        if a.isdigit() and b.isdigit():
            lo, hi = sorted((int(a), int(b)))
            return (lo, hi)
        return None
    ordered = sorted(labels.items())
    norm = [(idx, str(lab).strip().lower()) for idx, lab in ordered]
    starts = [idx for idx, lab in norm if lab == a]
    ends = [idx for idx, lab in norm if lab == b]
    if starts and ends and starts[0] <= ends[-1]:
        return (starts[0], ends[-1])

    def value(lab: str, roman: bool) -> int | None:
        if roman:
            return roman_to_int(lab)
        return int(lab) if lab.isdigit() else None

    roman = bool(_ROMAN.match(a)) and not a.isdigit()
    va, vb = value(a, roman), value(b, roman)
    if va is None or vb is None:
        return None
    va, vb = min(va, vb), max(va, vb)
    numbered = [(idx, v) for idx, lab in norm if (v := value(lab, roman)) is not None]
    # Exact first/last may exist on one side only: combine with the numeric bound on the other.
    lo = starts[0] if starts else next((idx for idx, v in numbered if v >= va), None)
    hi = ends[-1] if ends else next((idx for idx, v in reversed(numbered) if v <= vb), None)
    if lo is None or hi is None or hi < lo:
        return None
    return (lo, hi)
