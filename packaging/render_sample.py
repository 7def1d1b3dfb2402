"""Render the Lantern sample textbook from Markdown to a paginated PDF, using PyMuPDF only.

The sample book (``resources/sample/energy-and-motion.md``) is Markdown with a YAML front
matter block.  This script turns it into ``resources/sample/energy-and-motion.pdf``, a small
but realistic textbook PDF that exercises the importer and the tutor's citations:

* a title page and a "Contents" page, followed by the Preface, all in front matter whose
  page labels are roman numerals (i, ii, iii, ...); the body then restarts at 1;
* every chapter and the appendix start on a new page;
* running headers (book title on even pages, chapter title on odd pages), printed page
  numbers in the footer that match the PDF page labels, none on the title page and no
  header on chapter-opening pages;
* a PDF outline (bookmarks) Chapter -> Section pointing at the physical pages and the
  vertical positions where the headings were laid out, and clickable Contents entries.

Markdown is converted with markdown-it-py (CommonMark plus tables).  Mathematics written as
``$...$`` (inline) or ``$$ ... $$`` (display, delimiters on their own lines) is converted
by a small LaTeX-subset translator into plain HTML text (italic variables, Unicode
symbols, superscripts), so the PDF text layer stays readable: "E_k = ½ m v²".  The layout
engine is ``pymupdf.Story``; heading positions come from ``Story.element_positions``.

Usage::

    .venv/bin/python packaging/render_sample.py [SOURCE.md] [-o OUTPUT.pdf] [--preview DIR]

The output is deterministic for a given input (no creation dates or random IDs).
"""
from __future__ import annotations

import argparse
import html
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import yaml
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "resources" / "sample" / "energy-and-motion.md"
ICON_PNG = ROOT / "resources" / "lantern.png"

# ----------------------------------------------------------------------------- page geometry
PAGE = pymupdf.paper_rect("letter")  # 612 x 792 pt
MARGIN_X = 64.0
MARGIN_TOP = 68.0
MARGIN_BOTTOM = 64.0
CONTENT = pymupdf.Rect(MARGIN_X, MARGIN_TOP, PAGE.width - MARGIN_X, PAGE.height - MARGIN_BOTTOM)
HEADER = pymupdf.Rect(MARGIN_X, 32, PAGE.width - MARGIN_X, 54)
FOOTER = pymupdf.Rect(MARGIN_X, PAGE.height - 44, PAGE.width - MARGIN_X, PAGE.height - 24)
KEEP_WITH_NEXT = 42.0  # a heading ending closer than this to the page bottom moves to the next page

RESET_CSS = "body { margin: 0; padding: 0; }\n"  # MuPDF's default style sheet gives <body> a 1em margin

# Vertical padding on a box with a background is avoided on purpose: MuPDF's Story redraws that
# padding as a thin band at the top of every later page.  Same-coloured borders stand in for it.
BODY_CSS = """
body { font-family: serif; font-size: 11pt; line-height: 1.26; text-align: justify; color: #1d1a17; }
p { margin: 0 0 5pt 0; }
h1 { font-size: 22pt; font-weight: bold; line-height: 1.15; color: #6b3300;
     margin: 24pt 0 16pt 0; padding-bottom: 6pt; border-bottom: 1pt solid #c98a3a; text-align: left; }
h2 { font-size: 14pt; font-weight: bold; color: #4a2a0c; margin: 13pt 0 5pt 0; text-align: left; }
h3 { font-size: 11.5pt; font-weight: bold; margin: 8pt 0 3pt 0; text-align: left; }
h3.example { color: #6b3300; }
ul, ol { margin: 0 0 6pt 0; padding-left: 18pt; }
li { margin: 0 0 2pt 0; }
em, i { font-style: italic; }
strong, b { font-weight: bold; }
code { font-family: monospace; font-size: 9.5pt; }
pre { font-family: monospace; font-size: 8.8pt; line-height: 1.25; text-align: left;
      background-color: #f4efe6; border-left: 2pt solid #c98a3a;
      border-top: 6pt solid #f4efe6; border-bottom: 6pt solid #f4efe6;
      padding: 0 8pt; margin: 4pt 0 8pt 0; }
pre code { font-size: 8.8pt; }
div.eq { text-align: center; margin: 4pt 0 8pt 0; font-size: 11.5pt; }
p.def { background-color: #fbf3e4; border-left: 2.5pt solid #d08a2b;
        border-top: 4pt solid #fbf3e4; border-bottom: 3pt solid #fbf3e4; padding: 0 8pt; margin: 6pt 0 8pt 0; }
p.exercise { margin: 0 0 5pt 0; }
p.step { margin: 0 0 3pt 0; }
div.box { background-color: #f7f3ec; border-top: 2pt solid #f7f3ec; border-bottom: 4pt solid #f7f3ec;
          padding: 0 10pt; margin: 8pt 0 10pt 0; }
div.box h3 { margin-top: 6pt; color: #6b3300; }
table { margin: 4pt 0 8pt 24pt; }
th { font-weight: bold; text-align: left; padding: 1pt 14pt 1pt 0; border-bottom: 0.6pt solid #6b3300; }
td { text-align: left; padding: 1pt 14pt 1pt 0; }
a { color: #1d1a17; text-decoration: none; }
"""

TOC_CSS = BODY_CSS + """
p.toc1 { font-weight: bold; margin: 9pt 0 2pt 0; padding-right: 48pt; text-align: left; }
p.toc2 { margin: 0 0 1pt 22pt; padding-right: 48pt; text-align: left; }
"""

HEADER_CSS = """
body { font-family: serif; font-size: 8.5pt; color: #5b4a3a; }
p { margin: 0; padding-bottom: 3pt; border-bottom: 0.5pt solid #b9a58c; font-style: italic; }
p.left { text-align: left; } p.right { text-align: right; }
"""
FOOTER_CSS = "body { font-family: serif; font-size: 9.5pt; color: #3b2f25; } p { margin: 0; text-align: center; }"

TITLE_CSS = """
body { font-family: serif; text-align: center; color: #1d1a17; }
h1 { font-size: 30pt; font-weight: bold; line-height: 1.15; color: #6b3300; margin: 0 0 14pt 0; }
p.subtitle { font-size: 15pt; font-style: italic; margin: 0 0 40pt 0; }
p.authors { font-size: 13pt; margin: 0 0 6pt 0; }
p.edition { font-size: 11pt; margin: 0; color: #5b4a3a; }
p.notice { font-size: 8.5pt; line-height: 1.3; margin: 0 0 4pt 0; color: #3b2f25; }
"""


# ----------------------------------------------------------------------------- LaTeX subset
_SYMBOLS = {
    "Delta": "Δ", "times": " × ", "cdot": "·", "approx": " ≈ ", "div": " ÷ ", "pm": " ± ",
    "le": " ≤ ", "ge": " ≥ ", "to": " → ", "circ": "°", "%": "%", ",": "\u202f", " ": "\u00a0",
    "quad": "\u2003", ";": "\u2005", "ldots": "…", "infty": "∞", "propto": " ∝ ",
}
_ITALIC_GREEK = {"theta": "θ", "eta": "η", "mu": "μ", "alpha": "α", "beta": "β", "omega": "ω",
                 "lambda": "λ", "rho": "ρ", "tau": "τ", "phi": "φ", "pi": "π"}
_FUNCTIONS = {"cos", "sin", "tan", "log", "ln", "exp"}
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")
_BINARY = {"=": " = ", "+": " + ", "-": " − ", "<": " &lt; ", ">": " &gt; "}


class _TexReader:
    """A tiny recursive-descent translator for the LaTeX subset used in the sample book."""

    def __init__(self, src: str):
        self.s = src
        self.i = 0

    def parse(self, stop: str | None = None) -> str:
        out: list[str] = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if stop and c == stop:
                self.i += 1
                break
            out.append(self._atom(out))
        return _tidy("".join(out))

    def _group_or_atom(self) -> str:
        self._skip_space()
        if self.i < len(self.s) and self.s[self.i] == "{":
            self.i += 1
            return self.parse("}")
        return self._atom([])

    def _raw_group(self) -> str:
        """The literal text of a ``{...}`` group (for ``\\text``)."""
        self._skip_space()
        if self.i >= len(self.s) or self.s[self.i] != "{":
            return ""
        depth, start = 0, self.i + 1
        while self.i < len(self.s):
            ch = self.s[self.i]
            depth += ch == "{"
            depth -= ch == "}"
            self.i += 1
            if depth == 0:
                break
        return self.s[start:self.i - 1]

    def _skip_space(self) -> None:
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def _atom(self, before: list[str]) -> str:
        c = self.s[self.i]
        if c == " ":
            self.i += 1
            return ""
        if c == "\\":
            return self._command()
        if c == "{":
            self.i += 1
            return self.parse("}")
        if c in "^_":
            self.i += 1
            arg = self._group_or_atom()
            return _script(arg, sup=(c == "^"))
        if c.isalpha():
            j = self.i
            while j < len(self.s) and self.s[j].isalpha():
                j += 1
            word, self.i = self.s[self.i:j], j
            return f"<i>{word}</i>"
        if c in _BINARY:
            self.i += 1
            prev = _strip_tags("".join(before)).rstrip()
            if c in "+-" and (not prev or prev[-1] in "(=+−×÷≈["):
                return "−" if c == "-" else "+"  # unary sign
            return _BINARY[c]
        self.i += 1
        return html.escape(c)

    def _command(self) -> str:
        j = self.i + 1
        if j < len(self.s) and not self.s[j].isalpha():
            self.i = j + 1
            return _SYMBOLS.get(self.s[j], html.escape(self.s[j]))
        while j < len(self.s) and self.s[j].isalpha():
            j += 1
        name, self.i = self.s[self.i + 1:j], j
        if name in ("frac", "tfrac", "dfrac"):
            num, den = self._group_or_atom(), self._group_or_atom()
            if _strip_tags(num) == "1" and _strip_tags(den) == "2":
                return "½"
            return f"{_paren(num)}/{_paren(den)}"
        if name == "sqrt":
            arg = self._group_or_atom()
            return "√" + _paren(arg)
        if name == "text" or name == "mathrm":
            return html.escape(self._raw_group())
        if name == "vec":
            return f"<b>{self._group_or_atom()}</b>"
        if name in _FUNCTIONS:
            return f"\u2009{name}\u2009"
        if name in _ITALIC_GREEK:
            return f"<i>{_ITALIC_GREEK[name]}</i>"
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        return html.escape(name)


def _strip_tags(s: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def _paren(s: str) -> str:
    """Wrap a fraction operand or root argument in parentheses when it is compound."""
    plain = _strip_tags(s).strip()
    if re.search(r"[\s=+−×÷]", plain) and not (plain.startswith("(") and plain.endswith(")")):
        return f"({s.strip()})"
    return s.strip()


def _script(arg: str, *, sup: bool) -> str:
    plain = _strip_tags(arg)
    if sup and plain == "°":
        return "°"
    if sup and re.fullmatch(r"[0-9+-]+", plain):
        return plain.translate(_SUPERSCRIPT_DIGITS)
    tag = "sup" if sup else "sub"
    return f"<{tag}>{arg}</{tag}>"


def _tidy(s: str) -> str:
    s = re.sub(r"</i><i>", "", s)            # merge adjacent italic runs: m g h -> mgh
    s = re.sub(r" {2,}", " ", s)
    s = re.sub(r"\( ", "(", s)
    s = re.sub(r" \)", ")", s)
    return s


def tex_to_html(tex: str) -> str:
    """Translate a LaTeX math fragment (the subset used in the sample book) to inline HTML."""
    return _TexReader(" ".join(tex.split())).parse().strip()


# ----------------------------------------------------------------------------- Markdown
@dataclass
class Part:
    """One top-level division of the book: the Preface, a chapter or an appendix."""
    title: str
    markdown: str
    front: bool = False  # front matter (roman page numbers)


@dataclass
class Heading:
    level: int
    text: str
    hid: str
    page: int = 0        # 0-based page index inside the part
    top: float = 0.0     # y of the heading's top edge on that page
    bottom: float = 0.0


@dataclass
class Layout:
    pages: int
    headings: list[Heading] = field(default_factory=list)
    links: list[tuple[int, str, pymupdf.Rect]] = field(default_factory=list)  # (page, href, rect)
    blocks: list[tuple[int, str, float]] = field(default_factory=list)  # (page, id, bottom) of code blocks, tables


def split_front_matter(text: str) -> tuple[dict, str]:
    m = re.match(r"\A---\s*\n(.*?)\n---\s*\n", text, re.S)
    if not m:
        return {}, text
    return yaml.safe_load(m.group(1)) or {}, text[m.end():]


def convert_math(md: str) -> str:
    """Replace ``$$``-blocks and ``$..$`` spans outside code with HTML."""
    out: list[str] = []
    lines = md.split("\n")
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            out.append(line)
            i += 1
            continue
        if not in_fence and line.strip() == "$$":
            j = i + 1
            while j < len(lines) and lines[j].strip() != "$$":
                j += 1
            tex = " ".join(lines[i + 1:j])
            out += ["", f'<div class="eq">{tex_to_html(tex)}</div>', ""]
            i = j + 1
            continue
        if not in_fence and "$" in line:
            parts = re.split(r"(`[^`]*`)", line)  # leave inline code alone
            line = "".join(p if p.startswith("`") else
                           re.sub(r"\$([^$]+)\$", lambda m: f'<span class="m">{tex_to_html(m.group(1))}</span>', p)
                           for p in parts)
        out.append(line)
        i += 1
    return "\n".join(out)


def split_parts(md: str, parser: MarkdownIt) -> list[Part]:
    """Cut the book at its level-1 headings (found with the Markdown parser, so code is safe)."""
    tokens = parser.parse(md)
    lines = md.split("\n")
    starts = [(t.map[0], tokens[k + 1].content) for k, t in enumerate(tokens)
              if t.type == "heading_open" and t.tag == "h1" and t.map]
    parts = []
    in_front = True  # parts before the first chapter are front matter (roman page numbers)
    for n, (line_no, title) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        in_front = in_front and not re.match(r"(chapter|appendix)\b", title, re.I)
        parts.append(Part(title, "\n".join(lines[line_no:end]), front=in_front))
    return parts


class HtmlBuilder:
    """Markdown -> HTML for one part, with heading ids and a few classes for styling."""

    def __init__(self) -> None:
        self.md = MarkdownIt("commonmark", {"html": True}).enable("table")
        self.counter = 0

    def build(self, part: Part) -> tuple[str, list[Heading]]:
        body = self.md.render(convert_math(part.markdown))
        headings: list[Heading] = []

        def add_id(m: re.Match) -> str:
            self.counter += 1
            level, inner = int(m.group(1)), m.group(2)
            hid = f"h{self.counter}"
            text = " ".join(_strip_tags(inner).split())
            headings.append(Heading(level, text, hid))
            cls = ' class="example"' if text.startswith("Worked Example") else ""
            return f'<h{level} id="{hid}"{cls}>{inner}</h{level}>'


        body = tie_words(body)
        body = re.sub(r"<h([1-3])>(.*?)</h\1>", add_id, body, flags=re.S)

        def block_id(m: re.Match) -> str:  # code blocks and tables are kept in one piece
            self.counter += 1
            return f'<{m.group(1)} id="blk{self.counter}">'

        body = re.sub(r"<(pre|table)>", block_id, body)
        body = re.sub(r"<p><strong>(Definition|Law) ", r'<p class="def"><strong>\1 ', body)
        body = body.replace("<p><strong>Exercise ", '<p class="exercise"><strong>Exercise ')
        body = body.replace("<p><strong>Step ", '<p class="step"><strong>Step ')
        body = re.sub(r'(<h3 id="h\d+">(?:Learning Objectives|Key Takeaways)</h3>.*?)(?=<h[1-3][ >]|\Z)',
                      r'<div class="box">\1</div>', body, flags=re.S)
        return body, headings


_TIE_BEFORE_NUMBER = re.compile(r"\b(Chapter|Section|Appendix|Exercise|Example|Step|Table|Figure) (?=[0-9A-Z]\b|\d)")
_TIE_DIGITS = re.compile(r"(?<=\d) (?=\d{3}\b)")  # "299 792 458"
_TIE_UNIT = re.compile(r"(\d) (?=(?:m/s|km/h|km|kg|kWh|kW|kJ|MJ|ms|mm|m|s|h|g|N|J|W|kcal|°C|%)(?![\w/]))")


def tie_words(body: str) -> str:
    """No line breaks inside "Chapter 3", "Section 1.1", "20 m/s" or a short inline formula.

    Besides looking better, this keeps the PDF's text lines from starting with a bare number
    ("3 turns to work and energy...") that a heading detector could mistake for "Chapter 3".
    """
    def text_node(m: re.Match) -> str:
        t = _TIE_BEFORE_NUMBER.sub("\\1\u00a0", m.group(1))
        t = _TIE_DIGITS.sub("\u202f", t)
        return ">" + _TIE_UNIT.sub("\\1\u00a0", t) + "<"

    def short_math(m: re.Match) -> str:
        inner = m.group(1)
        if len(_strip_tags(inner)) > 22:
            return m.group(0)
        return '<span class="m">' + re.sub(r" (?![^<]*>)", "\u00a0", inner) + "</span>"

    pieces = re.split(r"(<pre.*?</pre>|<h[1-6]>.*?</h[1-6]>)", body, flags=re.S)
    for i in range(0, len(pieces), 2):  # leave code blocks and headings alone
        piece = re.sub(r'<span class="m">(.*?)</span>', short_math, pieces[i], flags=re.S)
        pieces[i] = re.sub(r">([^<]+)<", text_node, piece)
    return "".join(pieces)


def with_breaks(body: str, breaks: set[str]) -> str:
    """Force a page break before the headings, code blocks and tables whose ids are in ``breaks``."""
    brk = ' style="page-break-before: always"'
    for hid in breaks:  # headings and code blocks
        boxed = f'<div class="box"><h3 id="{hid}"'
        if boxed in body:  # MuPDF loops forever on a break inside the box: break before the box
            body = body.replace(boxed, f'<div class="box"{brk}><h3 id="{hid}"')
        else:
            body = body.replace(f'id="{hid}"', f'id="{hid}"{brk}')
    return body


# ----------------------------------------------------------------------------- layout
def flow(body: str, css: str, writer: pymupdf.DocumentWriter | None = None, decorate=None) -> Layout:
    """Lay out ``body`` on as many pages as needed; draw them when a writer is given.

    ``decorate(device, page_index, layout)`` is called for every page after its content
    is drawn (running header, footer, contents page numbers).
    """
    story = pymupdf.Story(f"<body>{body}</body>", user_css=RESET_CSS + css, em=11)
    layout = Layout(pages=0)
    more = True
    while more:
        page_index = layout.pages
        more, _filled = story.place(CONTENT)

        def record(pos):
            page_index = pos.page_index
            if not (pos.open_close & 1):
                return
            if pos.id and pos.id.startswith("blk"):
                layout.blocks.append((page_index, pos.id, pos.rect[3]))
            if pos.heading and pos.id:
                layout.headings.append(Heading(pos.heading, (pos.text or "").strip(), pos.id,
                                               page_index, pos.rect[1], pos.rect[3]))
            if pos.href:  # reported once per word: merge the pieces of one link on one page
                rect = pymupdf.Rect(pos.rect)
                if layout.links and layout.links[-1][:2] == (page_index, pos.href):
                    rect |= layout.links[-1][2]
                    layout.links.pop()
                layout.links.append((page_index, pos.href, rect))

        story.element_positions(record, {"page_index": page_index})
        layout.pages += 1
        if layout.pages > 500:
            raise RuntimeError("layout does not converge (a forced page break that never fits?)")
        if writer is not None:
            dev = writer.begin_page(PAGE)
            story.draw(dev)
            if decorate:
                decorate(dev, page_index, layout)
            writer.end_page()
        else:
            story.draw(None)
    return layout


def paginate(body: str, css: str) -> tuple[str, Layout]:
    """Lay out a part, moving to the next page any heading stranded at a page bottom and any
    code block or table that would be cut by the page end (one fix per pass, earliest first)."""
    breaks: set[str] = set()
    while True:
        html_ = with_breaks(body, breaks)
        layout = flow(html_, css)
        stranded = [(h.page, h.hid) for h in layout.headings
                    if h.level >= 2 and h.bottom > CONTENT.y1 - KEEP_WITH_NEXT and h.hid not in breaks]
        # Story reports a block cut by the page end only on its first page, clipped at the bottom.
        split = [(page, bid) for page, bid, bottom in layout.blocks
                 if bottom > CONTENT.y1 - 6 and bid not in breaks]
        if not stranded and not split:
            return html_, layout
        breaks.add(min(stranded + split)[1])  # fix the earliest problem first, then lay out again


def draw_html(dev, rect: pymupdf.Rect, body: str, css: str) -> None:
    story = pymupdf.Story(f"<body>{body}</body>", user_css=RESET_CSS + css, em=11)
    story.place(rect)
    story.draw(dev)


def roman(n: int) -> str:
    vals = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
            (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for v, s in vals:
        while n >= v:
            out, n = out + s, n - v
    return out


# ----------------------------------------------------------------------------- the book
@dataclass
class PlacedPart:
    part: Part
    html: str
    layout: Layout
    first_page: int = 0       # physical 0-based index of its first page in the final PDF
    first_label: int = 1      # printed number of its first page (roman in front matter)


def render(source: Path, output: Path) -> pymupdf.Document:
    meta, md = split_front_matter(source.read_text(encoding="utf-8"))
    title = str(meta.get("title", source.stem))
    authors = meta.get("authors") or []
    authors = [authors] if isinstance(authors, str) else list(authors)

    builder = HtmlBuilder()
    parts = split_parts(md, builder.md)
    placed: list[PlacedPart] = []
    for part in parts:
        body, headings = builder.build(part)
        html_, layout = paginate(body, BODY_CSS)
        texts = {h.hid: h.text for h in headings}  # Story reports wrapped headings without their spaces
        for h in layout.headings:
            h.text = texts.get(h.hid, h.text)
        placed.append(PlacedPart(part, html_, layout))
    front = [p for p in placed if p.part.front]
    main = [p for p in placed if not p.part.front]

    # Body page numbers are known now; the Contents length decides the Preface's roman number.
    label = 1
    for p in main:
        p.first_label, label = label, label + p.layout.pages

    contents_pages = 1
    while True:
        first = 1 + contents_pages + 1  # title page (i), contents, then the preface
        for p in front:
            p.first_label, first = first, first + p.layout.pages
        toc_html = contents_html(front + main)
        toc_layout = flow(toc_html, TOC_CSS)
        if toc_layout.pages == contents_pages:
            break
        contents_pages = toc_layout.pages

    n_front = 1 + contents_pages + sum(p.layout.pages for p in front)
    physical = 1 + contents_pages
    for p in front + main:
        p.first_page, physical = physical, physical + p.layout.pages

    # ---- draw everything with one writer (one set of embedded fonts)
    buf = io.BytesIO()
    writer = pymupdf.DocumentWriter(buf, "compress")

    # title page
    dev = writer.begin_page(PAGE)
    draw_html(dev, pymupdf.Rect(MARGIN_X, 250, PAGE.width - MARGIN_X, 520), title_html(meta, title, authors), TITLE_CSS)
    draw_html(dev, pymupdf.Rect(MARGIN_X, PAGE.height - 150, PAGE.width - MARGIN_X, PAGE.height - 40),
              notice_html(meta, authors), TITLE_CSS)
    writer.end_page()

    def page_decorator(kind: str, first_label: int, chapter_title: str):
        def decorate(dev, page_index: int, layout: Layout) -> None:
            number = first_label + page_index
            printed = roman(number) if kind in ("front", "contents") else str(number)
            if page_index > 0:  # no running header on an opening page
                even = number % 2 == 0
                text = title if (even and kind != "front") else chapter_title
                cls = "left" if even else "right"
                draw_html(dev, HEADER, f'<p class="{cls}">{html.escape(text)}</p>', HEADER_CSS)
            draw_html(dev, FOOTER, f"<p>{printed}</p>", FOOTER_CSS)
            if kind == "contents":
                for page, href, rect in layout.links:
                    if page == page_index:
                        box = pymupdf.Rect(CONTENT.x1 - 60, rect.y0, CONTENT.x1, rect.y1 + 4)
                        weight = "bold" if href in toc_bold else "normal"
                        draw_html(dev, box, f'<p style="text-align:right;font-weight:{weight}">'
                                            f"{toc_labels[href]}</p>", FOOTER_CSS.replace("9.5pt", "11pt"))
        return decorate

    toc_labels, toc_bold = contents_labels(front + main)
    toc_layout = flow(toc_html, TOC_CSS, writer, page_decorator("contents", 2, "Contents"))
    for p in front + main:
        kind = "front" if p.part.front else "body"
        flow(p.html, BODY_CSS, writer, page_decorator(kind, p.first_label, p.part.title))
    writer.close()

    doc = pymupdf.open("pdf", buf.getvalue())
    assert doc.page_count == n_front + sum(p.layout.pages for p in main), "page count drifted between passes"

    # ---- title-page lantern, labels, outline, links, metadata
    if ICON_PNG.exists():  # MuPDF's SVG support has no gradients, so use the PNG rendering of the icon
        doc[0].insert_image(pymupdf.Rect(PAGE.width / 2 - 48, 124, PAGE.width / 2 + 48, 220), filename=str(ICON_PNG))

    doc.set_page_labels([
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
        {"startpage": n_front, "prefix": "", "style": "D", "firstpagenum": 1},
    ])

    heading_at: dict[str, tuple[int, float]] = {}
    toc: list[list] = [[1, "Contents", 2, 0.0]]
    for p in front + main:
        for h in p.layout.headings:
            phys = p.first_page + h.page
            heading_at[h.hid] = (phys, h.top)
            if h.level == 1:
                toc.append([1, h.text, phys + 1, max(h.top - 12, 0)])
            elif h.level == 2 and not p.part.front:
                toc.append([2, h.text, phys + 1, max(h.top - 12, 0)])
    doc.set_toc([[lvl, text, page, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(0, top)}]
                 for lvl, text, page, top in toc])

    for page, href, rect in toc_layout.links:
        target = heading_at.get(href.lstrip("#"))
        if target:
            row = pymupdf.Rect(rect.x0, rect.y0, CONTENT.x1, rect.y1)
            doc[1 + page].insert_link({"kind": pymupdf.LINK_GOTO, "from": row, "page": target[0],
                                       "to": pymupdf.Point(0, max(target[1] - 12, 0))})

    doc.set_metadata({
        "title": title,
        "author": ", ".join(authors),
        "subject": str(meta.get("subtitle", "")),
        "keywords": f"Lantern sample textbook; licence {meta.get('license', '')}",
        "creator": "Lantern packaging/render_sample.py (markdown-it-py + PyMuPDF Story)",
        "producer": f"PyMuPDF {pymupdf.__version__}",
        "creationDate": "", "modDate": "",
    })
    doc.set_language(str(meta.get("language", "en")))
    doc.subset_fonts()
    expand_ligatures(doc)
    output.parent.mkdir(parents=True, exist_ok=True)
    doc.ez_save(output, garbage=4, no_new_id=True)
    doc.close()
    return pymupdf.open(output)


_LIGATURES = {0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl"}


def expand_ligatures(doc: pymupdf.Document) -> int:
    """Make ligature glyphs extract as plain letters ("ﬁ" -> "fi").

    MuPDF's HTML engine shapes text with the fonts' ligatures and maps a ligature glyph to
    U+FB01 etc. in the ToUnicode CMap, so ``get_text()`` would return "Deﬁnition" and a
    search for "Definition" would miss it.  The glyphs stay as they are; only each font's
    ToUnicode map is rewritten so those glyphs map to several letters (as TeX does).
    Returns the number of CMaps changed.
    """
    changed = 0
    seen: set[int] = set()
    for xref in range(1, doc.xref_length()):
        kind, value = doc.xref_get_key(xref, "ToUnicode")
        if kind != "xref":
            continue
        cmap_xref = int(value.split()[0])
        if cmap_xref in seen:
            continue
        seen.add(cmap_xref)
        text = doc.xref_stream(cmap_xref).decode("latin-1")
        new = _rewrite_cmap(text)
        if new != text:
            doc.update_stream(cmap_xref, new.encode("latin-1"))
            changed += 1
    return changed


def _rewrite_cmap(text: str) -> str:
    """Split bfrange/bfchar entries so that ligature code points become letter sequences."""
    if not re.search(r"<\s*fb0[0-4]\s*>", text, re.I) and not _range_hits_ligature(text):
        return text
    head = text[:text.index("endcodespacerange") + len("endcodespacerange")]
    tail = text[text.rindex("endbf") :].split("\n", 1)[1] if "endbf" in text else ""
    chars: list[tuple[int, str]] = []     # (code, destination hex)
    ranges: list[tuple[int, int, int]] = []  # (lo, hi, first unicode)
    for block, body in re.findall(r"begin(bfchar|bfrange)(.*?)end\1", text, re.S):
        if block == "bfchar":
            for code, dst in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", body):
                chars.append((int(code, 16), dst))
            continue
        for lo, hi, dst in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", body):
            lo_i, hi_i, u = int(lo, 16), int(hi, 16), int(dst, 16)
            start = lo_i
            for code in range(lo_i, hi_i + 1):
                if u + code - lo_i in _LIGATURES:
                    if start < code:
                        ranges.append((start, code - 1, u + start - lo_i))
                    chars.append((code, f"{u + code - lo_i:04x}"))
                    start = code + 1
            if start <= hi_i:
                ranges.append((start, hi_i, u + start - lo_i))
    def dest(hex_: str) -> str:
        cp = int(hex_, 16) if len(hex_) <= 4 else None
        if cp in _LIGATURES:
            return "".join(f"{ord(c):04x}" for c in _LIGATURES[cp])
        return hex_
    out = [head]
    for i in range(0, len(ranges), 100):
        chunk = ranges[i:i + 100]
        out.append(f"{len(chunk)} beginbfrange")
        out += [f"<{lo:04x}> <{hi:04x}> <{u:04x}>" for lo, hi, u in chunk]
        out.append("endbfrange")
    for i in range(0, len(chars), 100):
        chunk = chars[i:i + 100]
        out.append(f"{len(chunk)} beginbfchar")
        out += [f"<{code:04x}> <{dest(dst)}>" for code, dst in chunk]
        out.append("endbfchar")
    return "\n".join(out) + "\n" + tail


def _range_hits_ligature(text: str) -> bool:
    for lo, hi, dst in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", text):
        u0 = int(dst, 16)
        u1 = u0 + int(hi, 16) - int(lo, 16)
        if any(u0 <= cp <= u1 for cp in _LIGATURES):
            return True
    return False


def contents_html(parts: list[PlacedPart]) -> str:
    rows = ['<h1 id="contents">Contents</h1>']
    for p in parts:
        for h in p.layout.headings:
            if h.level == 1:
                rows.append(f'<p class="toc1"><a href="#{h.hid}">{html.escape(h.text)}</a></p>')
            elif h.level == 2 and not p.part.front:
                rows.append(f'<p class="toc2"><a href="#{h.hid}">{html.escape(h.text)}</a></p>')
    return "\n".join(rows)


def contents_labels(parts: list[PlacedPart]) -> tuple[dict[str, str], set[str]]:
    """Printed page label of every heading listed in the Contents, keyed by link href."""
    labels: dict[str, str] = {}
    bold: set[str] = set()
    for p in parts:
        for h in p.layout.headings:
            if h.level <= 2:
                n = p.first_label + h.page
                labels[f"#{h.hid}"] = roman(n) if p.part.front else str(n)
                if h.level == 1:
                    bold.add(f"#{h.hid}")
    return labels, bold


def title_html(meta: dict, title: str, authors: list[str]) -> str:
    out = [f"<h1>{html.escape(title)}</h1>"]
    if meta.get("subtitle"):
        out.append(f'<p class="subtitle">{html.escape(str(meta["subtitle"]))}</p>')
    out.append(f'<p class="authors">{html.escape(", ".join(authors))}</p>')
    if meta.get("edition"):
        out.append(f'<p class="edition">{html.escape(str(meta["edition"]))}</p>')
    return "\n".join(out)


def notice_html(meta: dict, authors: list[str]) -> str:
    lic = str(meta.get("license", ""))
    url = str(meta.get("license_url", ""))
    who = ", ".join(authors)
    return (f'<p class="notice">Copyright © {html.escape(who)}. This book is licensed under the '
            f"Creative Commons Attribution 4.0 International licence ({html.escape(lic).replace(' ', '&#160;')}).</p>"
            f'<p class="notice">{html.escape(url)}</p>'
            '<p class="notice">Typeset with PyMuPDF from the Markdown source that accompanies this PDF.</p>')


def preview(pdf: pymupdf.Document, outdir: Path, dpi: int = 60) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    for page in pdf:
        page.get_pixmap(dpi=dpi).save(outdir / f"page-{page.number + 1:02d}.png")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE, help="Markdown source")
    ap.add_argument("-o", "--output", type=Path, help="PDF to write (default: next to the source)")
    ap.add_argument("--preview", type=Path, help="also write a PNG of every page into this folder")
    args = ap.parse_args(argv)
    output = args.output or args.source.with_suffix(".pdf")
    pdf = render(args.source, output)
    print(f"{output}: {pdf.page_count} pages, {output.stat().st_size // 1024} KB")
    for lvl, text, page in pdf.get_toc(simple=True):
        print(f"{'  ' * (lvl - 1)}{text}  -> page {page} (label {pdf[page - 1].get_label()})")
    if args.preview:
        preview(pdf, args.preview)
    return 0


if __name__ == "__main__":
    sys.exit(main())
