"""Math in HTML and EPUB: the text of a MathML (or MathJax/KaTeX) element, its TeX annotation when it has one."""
from __future__ import annotations


def is_display_math(a: dict[str, str]) -> bool:
    """Whether an element's classes mark display (block) math."""
    classes = set(a.get("class", "").lower().split())
    return bool(classes & {"equation", "displaymath", "katex-display", "mathjax_display", "display-math"}) or (
        "math" in classes and "display" in classes)


class MathCapture:
    """Text of one math element; prefers a TeX ``<annotation>`` over the MathML token text."""

    def __init__(self, tag: str, display: bool) -> None:
        self.tag, self.display, self.depth = tag, display, 1
        self.parts: list[str] = []
        self.tex: list[str] = []
        self._annotation: str | None = None  # "tex" or "skip" inside annotation elements

    def start(self, tag: str, a: dict[str, str]) -> None:
        if tag == self.tag:
            self.depth += 1
        elif tag == "annotation":
            self._annotation = "tex" if "tex" in a.get("encoding", "").lower() else "skip"
        elif tag == "annotation-xml":
            self._annotation = "skip"

    def end(self, tag: str) -> bool:
        """Handle an end tag; True when the captured element itself closed."""
        if tag in ("annotation", "annotation-xml"):
            self._annotation = None
        elif tag == self.tag:
            self.depth -= 1
        return self.depth == 0

    def data(self, data: str) -> None:
        if self._annotation == "tex":
            self.tex.append(data)
        elif self._annotation is None:
            self.parts.append(data)

    def text(self) -> str:
        tex = " ".join("".join(self.tex).split())
        if tex:
            return tex
        text = " ".join("".join(self.parts).split())
        for opener, closer in (("\\[", "\\]"), ("\\(", "\\)"), ("$$", "$$")):
            if text.startswith(opener) and text.endswith(closer) and len(text) >= len(opener) + len(closer):
                text = text[len(opener):len(text) - len(closer)].strip()
        return text
