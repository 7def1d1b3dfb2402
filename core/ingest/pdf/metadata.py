"""A PDF's title, authors and metadata, with the placeholders many PDFs carry ("untitled", "unknown") ignored."""
from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pymupdf

from core.ingest.pdf.layout import Line

_PLACEHOLDERS = {"", "(anonymous)", "(unspecified)", "anonymous", "unknown", "untitled", "none", "null",
                 "user", "administrator", "admin", "author", "title"}


def meaningful(value: str) -> bool:
    """Whether a metadata value says something (not a placeholder, has letters)."""
    v = " ".join(value.split())
    return v.lower() not in _PLACEHOLDERS and any(c.isalpha() for c in v)


def title(doc: pymupdf.Document, first_page: Sequence[Line], path: Path, body_size: float) -> str:
    """The document's title: its metadata title unless that is a file name, else the first page's largest
    lines, else the file name."""
    meta_title = " ".join(((doc.metadata or {}).get("title") or "").split())
    if meaningful(meta_title) and not re.search(r"\.(pdf|docx?|tex|dvi|indd|odt|rtf|qxd)$|^microsoft word -",
                                                 meta_title, re.I):
        return meta_title
    if first_page:
        biggest = max(ln.size for ln in first_page)
        if biggest >= body_size * 1.15:
            top = sorted((ln for ln in first_page if ln.size >= biggest - 0.5), key=lambda ln: ln.y0)
            text = " ".join(ln.text for ln in top[:3] if top[0].y0 <= ln.y0 <= top[0].y1 + 3 * biggest)
            text = " ".join(text.split())[:200]
            if meaningful(text):
                return text
    return path.stem


def authors(raw: str) -> tuple[str, ...]:
    """The author names in a metadata ``author`` string ("A; B", "A and B", "Smith, Jones")."""
    raw = " ".join(raw.split())
    if not meaningful(raw):
        return ()
    parts = re.split(r"\s*;\s*|\s+and\s+|\s*&\s*", raw)
    out: list[str] = []
    for part in parts:
        pieces = [p.strip() for p in part.split(",")]
        # "Venables, Smith" style lists split on commas; "Smith, John" stays one name.
        if len(pieces) > 1 and all(" " in p for p in pieces if p):
            out.extend(p for p in pieces if p)
        elif part.strip():
            out.append(part.strip())
    return tuple(a for a in out if meaningful(a))


def metadata(meta: dict, has_outline: bool) -> tuple[tuple[str, str], ...]:
    """The metadata pairs worth keeping, plus where the structure came from (outline or layout)."""
    pairs = [(k, " ".join(str(meta.get(k) or "").split())) for k in
             ("subject", "keywords", "creator", "producer", "creationDate", "modDate")]
    out = [(k, v) for k, v in pairs if v and meaningful(v)]
    out.append(("structure", "outline" if has_outline else "layout"))
    return tuple(out)
