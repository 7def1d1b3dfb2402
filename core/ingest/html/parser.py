"""The HTML parser behind the HTML importer, on the standard library's ``html.parser``.

h1-h4 become headings (the builder turns a lone h1 into the title so h2 becomes the top level),
``<pre>`` code, ``<math>``/display equations, ``<table>`` tables, ``<ul>/<ol>/<dl>`` lists, and
everything else paragraphs.  Navigation, headers, footers, sidebars, scripts and hidden elements
are dropped.  The parser is a small state machine because real HTML leaves tags unclosed.
"""
from __future__ import annotations

import logging
from html.parser import HTMLParser

from core.ingest.flow import BlockEvent, Event, HeadingEvent
from core.ingest.html.math import MathCapture, delimit, is_display_math
from core.models import BlockKind

log = logging.getLogger(__name__)

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
         "track", "wbr"}
_ALWAYS_SKIP = {"script", "style", "noscript", "template", "nav", "aside", "svg", "button", "select",
                "iframe", "object", "form", "canvas", "audio", "video"}
_SKIP_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "menu"}
# Elements whose end tag HTML lets authors omit: skipping one could swallow the rest of the page.
_OPTIONAL_END = {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "caption"}
_SKIP_CLASSES = {"hidden", "sr-only", "visually-hidden", "screen-reader-text", "d-none", "noprint"}
_BLOCK = {"p", "div", "section", "article", "main", "blockquote", "figure", "figcaption", "address",
          "center", "h5", "h6", "body", "details", "summary", "caption", "tr", "td", "th", "header",
          "footer", "hgroup", "dt", "dd", "li"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4}
_ENDS_OPEN_HEADING = {"p", "div", "section", "article", "blockquote", "table", "pre", "ul", "ol", "dl", "li",
                      "figure", "h1", "h2", "h3", "h4", "h5", "h6"}
_EMPHASIS = {"b", "strong", "em", "i", "dfn"}
_LISTS = {"ul", "ol", "dl"}
_SECTIONING = {"article", "section", "main"}
_META_KEEP = {"description", "keywords", "author", "og:title", "og:site_name", "og:description"}


class BookHTMLParser(HTMLParser):
    """Collects heading/block events, the ``<title>``, author and a few ``<meta>`` fields."""

    def __init__(self, scope: str | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self._scope = scope  # only text inside this element counts (see ``content_scope``)
        self._in_scope = 0 if scope else 1
        self.events: list[Event] = []
        self.title: str | None = None
        self.first_h1: str | None = None
        self.authors: list[str] = []
        self.metadata: list[tuple[str, str]] = []
        self._title_parts: list[str] | None = None
        self._skip: tuple[str, int] | None = None  # (tag, depth) of the element being dropped
        self._sectioning = 0
        self._buf: list[str] = []
        self._runs: list[str] = []
        self._run: list[str] = []
        self._emph = 0
        self._heading: tuple[str, list[str]] | None = None
        self._pre: tuple[int, list[str]] | None = None
        self._math: MathCapture | None = None
        self._table_depth = 0
        self._layout_table = False
        self._rows: list[list[str]] = []
        self._list_depth = 0
        self._counters: list[int] = []  # per open list: next number for <ol>, -1 for <ul>/<dl>
        self._items: list[str] = []

    # -- tags -------------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == self._scope:
            self._in_scope += 1
        if not self._in_scope:
            if tag == "title":
                self._title_parts = []
            elif tag == "meta":
                self._void(tag, a)
            return
        if self._skip is not None:
            if tag == self._skip[0] and tag not in _VOID:
                self._skip = (tag, self._skip[1] + 1)
            return
        if tag in _VOID:
            self._void(tag, a)
            return
        if tag == "script" and a.get("type", "").lower().startswith("math/tex"):
            self._math = MathCapture("script", "mode=display" in a.get("type", "").lower())
            return
        if self._skipped(tag, a):
            self._skip = (tag, 1)
            return
        if self._math is not None:
            self._math.start(tag, a)
            return
        if self._pre is not None:
            if tag == "pre":
                self._pre = (self._pre[0] + 1, self._pre[1])
            return
        if self._heading is not None:
            # "<h1>Title<p>…" with the </h1> missing would swallow the page into one heading; a block
            # that starts after the heading's text ends it ("<h2><div>Title</div></h2>" still works).
            if tag not in _ENDS_OPEN_HEADING or not "".join(self._heading[1]).strip():
                return
            self._heading_done()
        if tag == "title":
            self._title_parts = []
        elif tag in _SECTIONING:
            self._sectioning += 1
        if tag == "math" or is_display_math(a):
            self._math = MathCapture(tag, tag != "math" or a.get("display") == "block" or a.get("mode") == "display",
                                     a)
        elif self._list_depth:
            self._list_start(tag)
        elif self._table_depth:
            self._table_start(tag)
        elif tag in _HEADINGS:
            self._flush()
            self._heading = (tag, [])
        elif tag == "pre":
            self._flush()
            self._pre = (1, [])
        elif tag == "table":
            self._flush()
            self._table_depth, self._rows = 1, []
        elif tag in _LISTS:
            self._flush()
            self._list_depth, self._counters, self._items = 1, [1 if tag == "ol" else -1], []
        elif tag in _EMPHASIS:
            self._emphasis_open()
        elif tag in _BLOCK:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if not self._in_scope:
            if tag == "title" and self._title_parts is not None:
                self.title = " ".join("".join(self._title_parts).split()) or None
                self._title_parts = None
            return
        if tag == self._scope:
            self._in_scope -= 1
        if self._skip is not None:
            if tag == self._skip[0]:
                depth = self._skip[1] - 1
                self._skip = (tag, depth) if depth else None
            return
        if self._math is not None:
            if self._math.end(tag):
                math, self._math = self._math, None
                self._math_done(math)
            return
        if self._pre is not None:
            if tag == "pre":
                depth, parts = self._pre
                self._pre = (depth - 1, parts) if depth > 1 else None
                if self._pre is None:
                    self.events.append(BlockEvent(BlockKind.CODE, "".join(parts).strip("\n").rstrip()))
            return
        if self._heading is not None:
            if tag == self._heading[0]:
                self._heading_done()
            return
        if tag == "title" and self._title_parts is not None:
            self.title = " ".join("".join(self._title_parts).split()) or None
            self._title_parts = None
        elif tag in _SECTIONING:
            self._sectioning = max(0, self._sectioning - 1)
        if self._list_depth:
            self._list_end(tag)
        elif self._table_depth:
            self._table_end(tag)
        elif tag in _EMPHASIS:
            self._emphasis_close()
        elif tag in _BLOCK:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._in_scope:
            if self._title_parts is not None:
                self._title_parts.append(data)
            return
        if self._skip is not None:
            return
        if self._math is not None:
            self._math.data(data)
        elif self._title_parts is not None:
            self._title_parts.append(data)
        elif self._pre is not None:
            self._pre[1].append(data)
        else:
            self._route(data)

    def close(self) -> None:
        """Finish parsing and flush whatever is still open."""
        super().close()
        if self._heading is not None:
            self._heading_done()
        if self._pre is not None:
            self.events.append(BlockEvent(BlockKind.CODE, "".join(self._pre[1]).strip("\n").rstrip()))
            self._pre = None
        if self._list_depth:
            self._list_depth = 1
            self._list_end("ul")
        if self._table_depth and not self._layout_table:
            self._table_depth = 1
            self._table_end("table")
        self._flush()

    # -- helpers ----------------------------------------------------------------------------
    def _route(self, data: str) -> None:
        """Send text to whatever is being collected: heading, list item, table cell or paragraph."""
        if self._heading is not None:
            self._heading[1].append(data)
        elif self._list_depth:
            if not self._items:
                self._items.append("")
            self._items[-1] += data
            if self._emph:
                self._run.append(data)
        elif self._table_depth and not self._layout_table:
            if not self._rows:
                self._rows.append([])
            if not self._rows[-1]:
                self._rows[-1].append("")
            self._rows[-1][-1] += data
        else:
            self._buf.append(data)
            if self._emph:
                self._run.append(data)

    def _skipped(self, tag: str, a: dict[str, str]) -> bool:
        if tag in _ALWAYS_SKIP:
            return True
        if tag in ("header", "footer") and self._sectioning == 0:
            return True  # site header/footer; an article's own <header> keeps its title
        if tag in _OPTIONAL_END:
            return False
        if a.get("role", "").lower() in _SKIP_ROLES or "hidden" in a or a.get("aria-hidden") == "true":
            return True
        if _SKIP_CLASSES & set(a.get("class", "").lower().split()):
            return True
        return "display:none" in a.get("style", "").replace(" ", "").lower()

    def _void(self, tag: str, a: dict[str, str]) -> None:
        if tag == "br":
            self.handle_data("\n")
        elif tag == "hr" and not (self._list_depth or self._table_depth or self._heading):
            self._flush()
        elif tag == "meta":
            name = (a.get("name") or a.get("property") or "").strip().lower()
            content = " ".join(a.get("content", "").split())
            if not name or not content:
                return
            if name in ("author", "dc.creator", "citation_author", "dcterms.creator"):
                self.authors.append(content)
            if name in _META_KEEP or name.startswith(("dc.", "dcterms.", "citation_")):
                self.metadata.append((name, content))

    def _flush(self) -> None:
        text = " ".join("".join(self._buf).split())
        if text:
            self.events.append(BlockEvent(BlockKind.TEXT, text, tuple(self._runs)))
        self._buf, self._runs = [], []

    def _emphasis_open(self) -> None:
        if self._emph == 0:
            self._run = []
        self._emph += 1

    def _emphasis_close(self) -> None:
        if self._emph:
            self._emph -= 1
            if self._emph == 0:
                self._runs.append("".join(self._run))

    def _heading_done(self) -> None:
        assert self._heading is not None
        tag, parts = self._heading
        self._heading = None
        text = " ".join("".join(parts).split())
        if not text:
            return
        if tag == "h1" and self.first_h1 is None:
            self.first_h1 = text
        self.events.append(HeadingEvent(_HEADINGS[tag], text))

    def _math_done(self, math: MathCapture) -> None:
        """LaTeX into the text: display math is its own EQUATION block ``$$ … $$``, inline math ``\\( … \\)``
        (in a list or table cell display math is inline too); a heading gets the plain text, as it becomes
        a section title."""
        latex = math.text()
        if not latex:
            return
        if self._heading is not None:
            self._route(f" {math.plain() or latex} ")
        elif math.display and not (self._list_depth or self._table_depth and not self._layout_table):
            self._flush()
            self.events.append(BlockEvent(BlockKind.EQUATION, delimit(latex, True)))
        else:
            self._route(f" {delimit(latex, False)} ")

    def _list_start(self, tag: str) -> None:
        if tag in _LISTS:
            self._list_depth += 1
            self._counters.append(1 if tag == "ol" else -1)
        elif tag in ("li", "dt"):
            n = self._counters[-1] if self._counters else -1
            marker = f"{n}." if n > 0 else "-"
            if n > 0:
                self._counters[-1] += 1
            self._items.append("  " * (self._list_depth - 1) + marker + " ")
            if tag == "dt":
                self._emphasis_open()
        elif tag == "dd":
            if self._items:  # "- term: definition"
                self._items[-1] = self._items[-1].rstrip() + ": "
            else:
                self._items.append("- ")
        elif tag in _EMPHASIS:
            self._emphasis_open()
        elif tag in _BLOCK or tag in _HEADINGS:
            self._route(" ")

    def _list_end(self, tag: str) -> None:
        if tag in _LISTS:
            self._list_depth -= 1
            if self._counters:
                self._counters.pop()
            if self._list_depth == 0:
                lines = [" ".join(it.split()) if not it.startswith(" ") else
                         it[:len(it) - len(it.lstrip())] + " ".join(it.split()) for it in self._items]
                lines = [ln for ln in lines if ln.strip(" -.0123456789")]
                if lines:
                    self.events.append(BlockEvent(BlockKind.LIST, "\n".join(lines), tuple(self._runs)))
                self._items, self._runs = [], []
        elif tag in _EMPHASIS or tag == "dt":
            self._emphasis_close()

    def _table_start(self, tag: str) -> None:
        if tag == "table":
            self._table_depth += 1
            self._to_layout()
        elif self._layout_table:
            if tag in _HEADINGS:
                self._flush()
                self._heading = (tag, [])
            elif tag in _LISTS:
                self._flush()
                self._list_depth, self._counters, self._items = 1, [1 if tag == "ol" else -1], []
            elif tag == "pre":
                self._flush()
                self._pre = (1, [])
            elif tag in _EMPHASIS:
                self._emphasis_open()
            elif tag in _BLOCK:
                self._flush()
        elif tag in _HEADINGS or tag == "pre":
            # A table holding headings or code is page layout, not data.
            self._to_layout()
            self._table_start(tag)
        elif tag == "tr":
            self._rows.append([])
        elif tag in ("td", "th"):
            if not self._rows:
                self._rows.append([])
            self._rows[-1].append("")
        elif tag == "caption":
            self._rows.append([""])
        elif tag in _BLOCK or tag in _LISTS or tag == "li":
            self._route(" ")

    def _table_end(self, tag: str) -> None:
        if tag == "table":
            self._table_depth -= 1
            if self._table_depth == 0:
                if self._layout_table:
                    self._flush()
                    self._layout_table = False
                else:
                    rows = [[" ".join(c.split()) for c in r] for r in self._rows]
                    rows = [r for r in rows if any(r)]
                    if rows:
                        self.events.append(BlockEvent(
                            BlockKind.TABLE, "\n".join("| " + " | ".join(r) + " |" for r in rows)))
                self._rows = []
        elif self._layout_table:
            if tag in _EMPHASIS:
                self._emphasis_close()
            elif tag in _BLOCK:
                self._flush()

    def _to_layout(self) -> None:
        if self._layout_table:
            return
        self._layout_table = True
        for row in self._rows:  # what was read as cells so far is plain text
            self._buf.append(" " + " ".join(row) + " ")
            self._flush()
        self._rows = []


