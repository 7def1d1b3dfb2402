"""Citation markers in the model's text: ``[1]``, ``[1, 2]``, ``[1][2]``, ``[1-3]`` — parsed, stripped,
checked against the real sources (also while streaming), and echoed ``<source>`` tags removed.

Code-like brackets ("a[0]", "m[1][2]") and anything inside code (`` `let a = [5; 10];` ``, fenced
blocks) are never taken for markers.  Pure functions over strings.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

# "[1]", "[1, 2]", "[1][2]", "[1-3]": one group per bracket; code-like "a[0]" is left alone.
_GROUP = r"\[\d{1,3}(?:\s*[,;–\-]\s*\d{1,3})*\]"
_MARKER = re.compile(rf"\s?(?<![\w\]])((?:{_GROUP})+)")
_RANGE = re.compile(r"(\d{1,3})\s*[–\-]\s*(\d{1,3})")
# Inline code and fenced blocks (an unclosed fence runs to the end: the model is still writing it).
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)


def _outside_code(text: str, fn) -> str:
    """``fn`` applied to the parts of ``text`` that are not code; code is kept as written."""
    out, at = [], 0
    for m in _CODE.finditer(text):
        out += [fn(text[at:m.start()]), m.group(0)]
        at = m.end()
    out.append(fn(text[at:]))
    return "".join(out)


def in_code(text: str) -> bool:
    """Does ``text`` end inside code: an open fenced block, or an open inline `…` on its last line?"""
    if text.count("```") % 2:
        return True
    last_line = text.replace("```", "").rsplit("\n", 1)[-1]
    return last_line.count("`") % 2 == 1


def parse_citations(text: str) -> list[int]:
    """Source numbers cited by ``[n]`` markers in ``text``, in order of first appearance."""
    seen: dict[int, None] = {}
    for m in _MARKER.finditer(_CODE.sub(" ", text)):
        for n in _numbers(m.group(1)):
            seen.setdefault(n, None)
    return list(seen)


def _numbers(run: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r"\s*[,;\[\]]+\s*", run):
        r = _RANGE.fullmatch(part)
        if r:
            a, b = int(r.group(1)), int(r.group(2))
            out.extend(range(a, b + 1) if 0 < b - a < 10 else (a, b))
        elif part.strip().isdigit():
            out.append(int(part))
    return out


def strip_citations(text: str) -> str:
    """``text`` without ``[n]`` markers (and without the space before them)."""
    return _outside_code(text, lambda part: _MARKER.sub("", part)).strip()


_SOURCE_TAG = re.compile(r"\s*(?:</?source\b[^>]*>|\[/?source\b[^\]]*\])", re.I)
_TAG_STARTS = ("[/source]", "[source]")


def strip_source_tags(text: str) -> str:
    """Remove echoes of the prompt's ``<source>``/``</source>`` tags (small models copy them, also as ``[/source]``)."""
    return re.sub(r"[ \t]{2,}", " ", _SOURCE_TAG.sub(" ", text)).strip()


def keep_valid_citations(text: str, valid: Sequence[int] | set[int]) -> str:
    """Drop markers (or the numbers inside them) that do not name one of the ``valid`` sources."""
    ok = set(valid)

    def fix(m: re.Match[str]) -> str:
        nums = [n for n in _numbers(m.group(1)) if n in ok]
        lead = " " if m.group(0).startswith(" ") else ""
        return lead + "".join(f"[{n}]" for n in dict.fromkeys(nums)) if nums else ""
    return _outside_code(text, lambda part: _MARKER.sub(fix, part))


class MarkerFilter:
    """Streams text while removing ``[n]`` markers that name no real source.

    Text that might be the start of a marker ("[", "[1") is held back until it is decided.
    """

    def __init__(self, valid: Sequence[int] | set[int]):
        self.valid = set(valid)
        self.pending = ""
        self._emitted = ""  # everything released so far (answers are short): is a "[" inside code?

    def feed(self, piece: str) -> str:
        self.pending += piece
        out: list[str] = []
        while self.pending:
            i = self.pending.find("[")
            if i < 0:
                body = self.pending.rstrip()  # trailing spaces wait: a dropped marker may follow them
                out.append(body)
                self.pending = self.pending[len(body):]
                break
            k = len(self.pending[:i].rstrip())
            before = self.pending[i - 1] if i else self._last(out)
            if k == i and (before.isalnum() or before in "_") or in_code(self._emitted + "".join(out)
                                                                          + self.pending[:i]):
                # "a[0]" or "`let a = [5; 10];`" is code, not a citation
                out.append(self.pending[:i + 1])
                self.pending = self.pending[i + 1:]
                continue
            out.append(self.pending[:k])
            rest, lead = self.pending[k:], i - k
            j = rest.find("]")
            if j < 0 and any(t.startswith(rest[lead:].lower()) for t in _TAG_STARTS):
                self.pending = rest  # maybe an echoed "[/source]": wait for the rest of it
                break
            if j >= 0 and _SOURCE_TAG.fullmatch(rest[lead:j + 1]):
                self.pending = rest[j + 1:]  # an echoed tag: drop it
                continue
            if j < 0:
                if len(rest) - lead > 12 or not re.fullmatch(r"\[[\d\s,;–\-]*", rest[lead:]):
                    out.append(rest[:lead + 1])  # not a marker: release the bracket, re-scan the rest
                    self.pending = rest[lead + 1:]
                    continue
                self.pending = rest
                break
            out.append(keep_valid_citations(rest[:j + 1], self.valid))
            self.pending = rest[j + 1:]
        text = "".join(out)
        self._emitted += text
        return text

    def _last(self, out: list[str]) -> str:
        joined = self._emitted + "".join(out)
        return joined[-1] if joined else " "

    def flush(self) -> str:
        out, self.pending = self.pending, ""
        text = out if in_code(self._emitted) else keep_valid_citations(out, self.valid)
        self._emitted += text
        return text


class ParagraphGate:
    """Streams text but stops at a paragraph that starts with ``prefix`` (e.g. an unrequested "Beyond the
    book:" paragraph that attribution will drop anyway): the student never sees it appear and vanish.

    The start of every paragraph is held back until it is clear whether it begins with ``prefix``.
    """

    def __init__(self, prefix: str):
        self.prefix = prefix.lower()
        self.pending = ""
        self.at_paragraph_start = True
        self.closed = False

    def feed(self, piece: str) -> str:
        if self.closed:
            return ""
        self.pending += piece
        out: list[str] = []
        while self.pending and not self.closed:
            if self.at_paragraph_start:
                head = self.pending.lstrip()
                if not head:
                    return "".join(out)
                if head.lower().startswith(self.prefix):
                    self.closed, self.pending = True, ""
                    break
                if self.prefix.startswith(head.lower()):
                    break  # not decided yet
                self.at_paragraph_start = False
            cut = self.pending.find("\n\n")
            if cut < 0:
                out.append(self.pending)
                self.pending = ""
            else:
                out.append(self.pending[:cut + 2])
                self.pending = self.pending[cut + 2:]
                self.at_paragraph_start = True
        return "".join(out)

    def flush(self) -> str:
        out, self.pending = ("" if self.closed else self.pending), ""
        return out
