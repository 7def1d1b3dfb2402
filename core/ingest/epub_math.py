"""Math in an EPUB: LaTeX in place of the run-together token text PyMuPDF prints for each MathML formula.

PyMuPDF lays EPUB pages out and prints a formula as its token text ("Ek=12mv2").  ``spine_math`` reads the
book's documents in reading order for their ``<math>`` elements (``epub_math``), and ``insert_math`` finds
each one's token text in the laid-out blocks and writes its delimited LaTeX there instead.
"""
from __future__ import annotations

import logging
import posixpath
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree

from core.ingest.html.math import MathCapture, delimit

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MathText:
    """A math element of one EPUB document: the text a layout engine prints for it, and its LaTeX."""

    flat: str  # all its text, annotations included, without whitespace
    latex: str
    display: bool
    before: str  # the last few non-space characters of visible text before it


class _MathFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[MathText] = []
        self._math: MathCapture | None = None
        self._hidden = 0
        self._seen = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if self._math is not None:
            self._math.start(tag, a)
        elif tag.rpartition(":")[2] == "math":
            self._math = MathCapture(tag, a.get("display") == "block" or a.get("mode") == "display", a)
        elif tag in ("head", "script", "style"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if self._math is not None:
            if self._math.end(tag):
                math, self._math = self._math, None
                flat = "".join("".join(math.raw).split())
                latex = math.text()
                if flat and latex:
                    self.found.append(MathText(flat, latex, math.display, self._seen[-12:]))
                self._seen += flat
        elif tag in ("head", "script", "style"):
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data: str) -> None:
        if self._math is not None:
            self._math.data(data)
        elif not self._hidden:
            self._seen = (self._seen + "".join(data.split()))[-64:]


def epub_math(xhtml: str) -> list[MathText]:
    """The ``<math>`` elements of one (X)HTML document, in order."""
    finder = _MathFinder()
    finder.feed(xhtml)
    finder.close()
    return finder.found


def mathml_to_latex(markup: str) -> str:
    """The LaTeX of the first ``<math>`` element in ``markup`` ("" when there is none)."""
    maths = epub_math(markup)
    return maths[0].latex if maths else ""


def insert_math(texts: Sequence[str], maths: Sequence[MathText]) -> list[str]:
    """``texts`` (laid-out blocks in reading order) with each math element's token text replaced by its
    delimited LaTeX.  ``maths`` are the documents' ``epub_math`` in the same order; one that cannot be found
    (dropped by the layout, split across blocks) is skipped when a later one is found first."""
    out: list[str] = []
    k = 0
    for text in texts:
        pieces: list[str] = []
        pos = 0
        while k < len(maths):
            hit = next(((j, span) for j in range(k, min(k + 4, len(maths)))
                        if (span := _locate(text, pos, maths[j])) is not None), None)
            if hit is None:
                break
            j, (start, end) = hit
            whole = not text[:start].strip() and not text[end:].strip()
            pieces += [text[pos:start], delimit(maths[j].latex, maths[j].display and whole)]
            pos, k = end, j + 1
        out.append("".join(pieces) + text[pos:])
    return out


def _locate(text: str, pos: int, math: MathText) -> tuple[int, int] | None:
    """Where ``math.flat`` occurs in ``text`` from ``pos`` (spaces ignored): the first place its ``before``
    text leads up to (a block starting with it counts), else, for a formula of three or more characters,
    the first place at all.  A one- or two-character formula ("m") must stand as a word."""
    index = [i for i in range(pos, len(text)) if not text[i].isspace()]
    squeezed = "".join(text[i] for i in index)
    spans: list[tuple[int, int]] = []
    start = squeezed.find(math.flat)
    while start >= 0:
        a, b = index[start], index[start + len(math.flat) - 1] + 1
        if len(math.flat) > 2 or not (a and text[a - 1].isalnum() or b < len(text) and text[b].isalnum()):
            seen = "".join(text[:a].split())
            if seen.endswith(math.before) or (len(seen) < len(math.before) and math.before.endswith(seen)):
                return a, b
            spans.append((a, b))
        start = squeezed.find(math.flat, start + 1)
    return spans[0] if spans and len(math.flat) > 2 else None


def spine_math(path: Path) -> list[MathText]:
    """The MathML formulas of the book's documents in reading (spine) order; [] when it has none."""
    maths: list[MathText] = []
    try:
        with zipfile.ZipFile(path) as zf:
            container = ElementTree.fromstring(zf.read("META-INF/container.xml"))
            opf_name = next(e.get("full-path", "") for e in container.iter() if e.tag.endswith("rootfile"))
            opf = ElementTree.fromstring(zf.read(opf_name))
            hrefs = {e.get("id"): e.get("href", "") for e in opf.iter() if e.tag.endswith("}item")}
            for ref in (e.get("idref") for e in opf.iter() if e.tag.endswith("}itemref")):
                if ref not in hrefs:
                    continue
                name = posixpath.normpath(posixpath.join(posixpath.dirname(opf_name), unquote(hrefs[ref])))
                text = zf.read(name).decode("utf-8", errors="replace")
                if "<math" in text or ":math" in text:  # a MathML element, not "mathematics" in prose
                    maths.extend(epub_math(text))
    except (KeyError, StopIteration, ElementTree.ParseError, zipfile.BadZipFile, OSError) as exc:
        log.info("no MathML read from %s: %s", path.name, exc)
    return maths


__all__ = ["MathText", "epub_math", "insert_math", "mathml_to_latex", "spine_math"]
