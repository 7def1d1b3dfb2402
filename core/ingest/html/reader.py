"""HTML importer for saved web pages and HTML books: decode the bytes, parse (``parser``), build the book."""
from __future__ import annotations

import codecs
import logging
import re
from pathlib import Path

from core.ingest.flow import BookBuilder, read_bytes
from core.ingest.html.parser import BookHTMLParser
from core.models import ParsedBook, SourceFormat
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)
_XML_ENCODING = re.compile(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""", re.I)
_FEED_CHUNK = 1 << 16


def read(path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    """Read an HTML file into a ``ParsedBook`` with virtual pages of about 400 words."""
    raw = read_bytes(path)
    text = decode_html(raw)
    parser = BookHTMLParser(content_scope(text))
    total = max(1, len(text) // _FEED_CHUNK + 1)
    for n, start in enumerate(range(0, len(text), _FEED_CHUNK)):
        check_cancel(cancel)
        parser.feed(text[start:start + _FEED_CHUNK])
        progress("reading", n + 1, total)
    parser.close()
    builder = BookBuilder(SourceFormat.HTML, path.name)
    builder.extend(parser.events)
    fallback = parser.first_h1 or path.stem.replace("_", " ").strip() or path.name
    return builder.build(title=parser.title, fallback_title=fallback, authors=parser.authors,
                         metadata=parser.metadata)


def content_scope(text: str) -> str | None:
    """"main" when the page marks its dominant content with ``<main>``; everything outside is chrome.

    Saved web pages carry menus, help pop-ups and banners outside ``<main>``.  (``<article>`` is
    not used the same way: a page may hold one article among other real content.)  None = read
    the whole body.
    """
    return "main" if re.search(r"<main[\s>]", text, re.I) else None


def decode_html(raw: bytes) -> str:
    """Bytes -> text using the BOM, else ``<meta charset>``/XML declaration, else UTF-8 (with replacement)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")
    head = raw[:4096]
    m = _CHARSET.search(head) or _XML_ENCODING.search(head)
    encoding = "utf-8"
    if m:
        name = m.group(1).decode("ascii", "replace").lower()
        try:
            encoding = codecs.lookup(name).name
        except LookupError:
            log.info("unknown charset %r, reading as UTF-8", name)
        if encoding in ("latin-1", "iso8859-1", "ascii"):
            encoding = "cp1252"  # what browsers do for these labels
    return raw.decode(encoding, errors="replace")
