"""Markdown importer: headings become the section tree, the body becomes typed blocks.

markdown-it-py (CommonMark + GFM tables) does the block/inline parsing, so code fences, setext
headings, nested lists and emphasis follow the spec.  The hand-written parts are small:
YAML front matter, math, and pipe tables without a ``|---|`` delimiter row.  Math is kept as LaTeX
for the chat to render: ``$$ ... $$``/``\\[ ... \\]`` display blocks and ``math`` fences become
EQUATION blocks reading ``$$ ... $$``; inline ``$...$`` and ``\\(...\\)`` stay in the text verbatim
(both are rewritten before parsing, so ``*`` and ``\\`` inside them are not read as Markdown).
"""
from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from core.ingest.flow import BlockEvent, BookBuilder, Event, HeadingEvent, decode_text, read_bytes
from core.ingest.html.math import delimit
from core.models import BlockKind, ParsedBook, SourceFormat
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_MATH_FENCE = "~~~~~~~~~~ math"
_TAG = re.compile(r"<[^>]*>|<!--.*?-->", re.S)
_MATH_FENCE_INFO = {"math", "latex", "tex", "katex"}
# Code spans (skipped) or inline math: "$$…$$", "\(…\)", or "$…$" by Pandoc's rule (a non-space after the
# opening "$" and before the closing one, no digit right after it: "$5 and $10" is not math).
_INLINE_MATH = re.compile(r"(?P<code>(`+).+?(?<!`)\2(?!`))|(?<![\\$])(?P<math>\$\$.+?\$\$|\\\(.+?\\\)"
                          r"|\$(?=\S)(?:\\.|[^$\\])+?(?<=[^\s\\])\$(?!\d))")
_CANCEL_EVERY = 500


def read(path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    """Read a Markdown file into a ``ParsedBook`` with virtual pages of about 400 words."""
    raw = read_bytes(path)
    progress("reading", 0, 3)
    text = decode_text(raw)
    front, body = split_front_matter(text)
    check_cancel(cancel)
    progress("reading", 1, 3)
    builder = BookBuilder(SourceFormat.MARKDOWN, path.name)
    builder.extend(parse_markdown(body, cancel))
    progress("reading", 2, 3)
    title, authors, metadata = front_matter_fields(front)
    book = builder.build(title=title, fallback_title=_stem_title(path), authors=authors, metadata=metadata)
    progress("reading", 3, 3)
    return book


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Split a leading YAML front-matter block (``---`` ... ``---``) from the Markdown body.

    Returns ({}, text) when there is none or it is not a YAML mapping (a document may simply
    start with a horizontal rule).
    """
    m = _FRONT_MATTER.match(text)
    if not m:
        return _pandoc_title_block(text)
    data = _load_yaml(m.group(1) or "")
    if not isinstance(data, dict):
        return {}, text
    return {str(k): v for k, v in data.items()}, text[m.end():]


def _pandoc_title_block(text: str) -> tuple[dict[str, Any], str]:
    """Pandoc's "% Title / % Authors / % Date" opening lines, as front-matter fields."""
    lines = text.split("\n")
    fields: dict[str, Any] = {}
    n = 0
    for key in ("title", "author", "date"):
        if n < len(lines) and lines[n].startswith("% "):
            value = lines[n][2:].strip()
            if value:
                fields[key] = value
            n += 1
        else:
            break
    return (fields, "\n".join(lines[n:])) if fields else ({}, text)


def _load_yaml(src: str) -> Any:
    try:
        import yaml  # PyYAML; optional, so a missing package only loses front matter
    except ImportError:  # pragma: no cover - PyYAML ships with the venv
        return {k.strip(): v.strip() for k, _, v in (ln.partition(":") for ln in src.splitlines()) if v}
    try:
        return yaml.safe_load(src)
    except yaml.YAMLError as exc:
        log.info("ignoring unreadable YAML front matter: %s", exc)
        return None


def front_matter_fields(front: dict[str, Any]) -> tuple[str | None, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(title, authors, metadata pairs) from parsed front matter."""
    title = front.get("title")
    authors: list[str] = []
    for key in ("author", "authors", "creator"):
        value = front.get(key)
        items = value if isinstance(value, list) else [value] if value else []
        for item in items:
            if isinstance(item, dict):  # "- name: Ada Lovelace"
                item = item.get("name") or ""
            authors.extend(a.strip() for a in re.split(r";|\s+&\s+|\s+and\s+", str(item)) if a.strip())
    metadata = tuple((k, _meta_value(v)) for k, v in front.items())
    return (str(title).strip() if title else None), tuple(authors), metadata


def _meta_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _stem_title(path: Path) -> str:
    return path.stem.replace("_", " ").replace("-", " ").strip() or path.name


def rewrite_display_math(text: str) -> str:
    """Turn ``$$ ... $$`` and ``\\[ ... \\]`` display blocks into ``math`` fences.

    Done on lines before markdown-it sees them: a fence keeps the TeX verbatim (no emphasis, no
    escapes) and keeps a block with blank lines inside together.  Lines inside existing code
    fences are left alone.
    """
    lines = text.split("\n")
    out: list[str] = []
    fence: str | None = None
    code = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        prev_code, code = code, False
        fm = _FENCE.match(line)
        if fence is not None:
            closes = fm and fm.group(1)[0] == fence[0] and len(fm.group(1)) >= len(fence)
            if closes and not line.strip(fence[0] + " \t"):
                fence = None
            out.append(line)
            i += 1
            continue
        if fm:
            fence = fm.group(1)
            out.append(line)
            i += 1
            continue
        opener = "$$" if stripped.startswith("$$") else "\\[" if stripped.startswith("\\[") else None
        indent = len(line) - len(line.lstrip())
        if opener is None or indent > 3:
            # An indented line after a blank one (or after such a line) is an indented code block.
            code = indent > 3 and (i == 0 or not lines[i - 1].strip() or prev_code)
            out.append(line if code else protect_inline_math(line))
            i += 1
            continue
        closer = "$$" if opener == "$$" else "\\]"
        end = _find_math_end(lines, i, opener, closer)
        if end is None:  # unterminated: leave the text as it is
            out.append(line)
            i += 1
            continue
        body = "\n".join(lines[i:end + 1]).strip()
        body = body[len(opener):-len(closer)].strip()
        out.extend(["", _MATH_FENCE, body, _MATH_FENCE[:10], ""])
        i = end + 1
    return "\n".join(out)


def protect_inline_math(line: str) -> str:
    """Wrap each inline math span of a Markdown line in a code span, so markdown-it keeps it verbatim."""
    def wrap(m: re.Match) -> str:
        if m.group("code"):
            return m.group(0)
        math = m.group("math")
        ticks = "`" * (max((len(r) for r in re.findall(r"`+", math)), default=0) + 1)
        return f"{ticks} {math} {ticks}" if "`" in math else f"{ticks}{math}{ticks}"
    return _INLINE_MATH.sub(wrap, line) if ("$" in line or "\\(" in line) else line


def _find_math_end(lines: list[str], start: int, opener: str, closer: str) -> int | None:
    first = lines[start].strip()
    if len(first) > len(opener) and first.endswith(closer):
        return start
    for j in range(start + 1, min(len(lines), start + 200)):
        if lines[j].strip().endswith(closer):
            return j
    return None


def parse_markdown(text: str, cancel: CancelFn | None = None) -> list[Event]:
    """Markdown source (no front matter) -> heading/block events in reading order."""
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    tokens = md.parse(rewrite_display_math(text))
    events: list[Event] = []
    _walk(tokens, 0, len(tokens), events, allow_headings=True, cancel=cancel)
    return events


def _walk(tokens: list[Token], start: int, end: int, events: list[Event], *, allow_headings: bool,
          cancel: CancelFn | None) -> None:
    """Turn the tokens of one nesting level into events; containers are handled as a whole."""
    i = start
    steps = 0
    while i < end:
        if steps % _CANCEL_EVERY == 0:
            check_cancel(cancel)
        steps += 1
        tok = tokens[i]
        t = tok.type
        if t == "heading_open":
            text, runs = inline_text(tokens[i + 1])
            if allow_headings:
                events.append(HeadingEvent(int(tok.tag[1]), text))
            else:  # a heading inside a quote or list is just a bold line
                events.append(BlockEvent(BlockKind.TEXT, text, (*runs, text)))
            i = _close_of(tokens, i) + 1
        elif t == "paragraph_open":
            events.append(_paragraph(tokens[i + 1]))
            i = _close_of(tokens, i) + 1
        elif t in ("fence", "code_block"):
            lang = tok.info.strip().split()[0].lower() if tok.info.strip() else ""
            if lang in _MATH_FENCE_INFO:
                events.append(BlockEvent(BlockKind.EQUATION, _display_math(tok.content)))
            else:
                events.append(BlockEvent(BlockKind.CODE, tok.content.rstrip("\n")))
            i += 1
        elif t in ("bullet_list_open", "ordered_list_open"):
            close = _close_of(tokens, i)
            events.append(_list_block(tokens, i, close))
            i = close + 1
        elif t == "table_open":
            close = _close_of(tokens, i)
            events.append(_table_block(tokens, i, close))
            i = close + 1
        elif t == "blockquote_open":
            close = _close_of(tokens, i)
            _walk(tokens, i + 1, close, events, allow_headings=False, cancel=cancel)
            i = close + 1
        elif t == "html_block":
            plain = " ".join(_TAG.sub(" ", tok.content).split())
            if plain:
                events.append(BlockEvent(BlockKind.TEXT, plain))
            i += 1
        else:  # hr, stray closers
            i += 1


def _display_math(body: str) -> str:
    """An EQUATION block's text: the TeX between ``$$`` delimiters (the GUI renders what they enclose)."""
    tex = body.strip()
    for opener, closer in (("$$", "$$"), ("\\[", "\\]")):
        if tex.startswith(opener) and tex.endswith(closer) and len(tex) > len(opener) + len(closer):
            tex = tex[len(opener):-len(closer)].strip()
    return delimit(tex, True)


def _close_of(tokens: list[Token], i: int) -> int:
    """Index of the token closing the container opened at ``i``."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def inline_text(token: Token, softbreak: str = " ") -> tuple[str, list[str]]:
    """Plain text of an inline token (markers dropped, link and image text kept) and its
    bold/italic runs."""
    parts: list[str] = []
    runs: list[str] = []
    run: list[str] = []
    depth = 0
    for child in token.children or []:
        ct = child.type
        if ct in ("strong_open", "em_open"):
            if depth == 0:
                run = []
            depth += 1
            continue
        if ct in ("strong_close", "em_close"):
            depth = max(0, depth - 1)
            if depth == 0:
                runs.append("".join(run))
            continue
        if ct in ("text", "code_inline", "image"):
            s = child.content
        elif ct == "softbreak":
            s = softbreak
        elif ct == "hardbreak":
            s = "\n"
        elif ct == "html_inline":
            s = "\n" if re.match(r"<br\b", child.content, re.I) else ""
        else:  # link_open/close, s_open/close: keep only the text between them
            s = ""
        parts.append(s)
        if depth:
            run.append(s)
    return "".join(parts).strip(), runs


def _paragraph(inline: Token) -> BlockEvent:
    lines = [ln.strip() for ln in inline.content.split("\n") if ln.strip()]
    if lines and all(ln.startswith("|") for ln in lines):
        # Pipe table without a delimiter row (markdown-it only knows GFM tables).
        text, _ = inline_text(inline, softbreak="\n")
        return BlockEvent(BlockKind.TABLE, text)
    text, runs = inline_text(inline)
    return BlockEvent(BlockKind.TEXT, text, tuple(runs))


def _list_block(tokens: list[Token], start: int, end: int) -> BlockEvent:
    """A whole (possibly nested) list as one LIST block, one line per item."""
    lines: list[str] = []
    runs: list[str] = []
    depth = 0
    marker = ""
    for tok in tokens[start:end + 1]:
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif tok.type == "list_item_open":
            marker = f"{tok.info}." if tok.info else "-"
        elif tok.type == "inline":
            text, r = inline_text(tok)
            runs.extend(r)
            indent = "  " * max(depth - 1, 0)
            if marker:
                lines.append(f"{indent}{marker} {text}")
                marker = ""
            else:  # second paragraph of the same item
                lines.append(f"{indent}  {text}")
        elif tok.type in ("fence", "code_block"):
            lines.extend("  " * depth + ln for ln in tok.content.rstrip("\n").split("\n"))
    return BlockEvent(BlockKind.LIST, "\n".join(lines), tuple(runs))


def _table_block(tokens: list[Token], start: int, end: int) -> BlockEvent:
    rows: list[list[str]] = []
    for tok in tokens[start:end + 1]:
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(inline_text(tok)[0])
    return BlockEvent(BlockKind.TABLE, "\n".join("| " + " | ".join(r) + " |" for r in rows))
