"""Importers turn a file into a ``ParsedBook``; ``read_book`` picks one by content, then by extension.

Each format module exposes ``read(path, progress, cancel) -> ParsedBook`` and raises a
``BookImportError`` subclass with a readable message for bad input.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

from core.errors import EmptyDocumentError, UnreadablePathError, UnsupportedFormatError
from core.models import ParsedBook, SourceFormat
from core.paths import file_sha256
from core.progress import CancelFn, ProgressFn, check_cancel, no_progress

SUPPORTED_SUFFIXES = {
    ".pdf": SourceFormat.PDF,
    ".epub": SourceFormat.EPUB,
    ".md": SourceFormat.MARKDOWN,
    ".markdown": SourceFormat.MARKDOWN,
    ".txt": SourceFormat.TEXT,
    ".text": SourceFormat.TEXT,
    ".html": SourceFormat.HTML,
    ".htm": SourceFormat.HTML,
    ".xhtml": SourceFormat.HTML,
}
_MODULES = {
    SourceFormat.PDF: "core.ingest.pdf.reader",
    SourceFormat.EPUB: "core.ingest.epub",
    SourceFormat.MARKDOWN: "core.ingest.markdown",
    SourceFormat.TEXT: "core.ingest.plain_text",
    SourceFormat.HTML: "core.ingest.html.reader",
}


def detect_format(path: Path) -> SourceFormat:
    """Decide the format from the file's first bytes, falling back to its extension.

    Content wins so a PDF renamed ``.txt`` is still read as a PDF.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except IsADirectoryError:
        raise UnreadablePathError(f"{path} is a folder, not a book file.") from None
    except FileNotFoundError:
        raise UnreadablePathError(f"{path} does not exist.") from None
    except PermissionError:
        raise UnreadablePathError(f"{path} cannot be read (permission denied).") from None
    except OSError as exc:
        raise UnreadablePathError(f"{path} cannot be read: {exc.strerror or exc}.") from None
    if not head:
        raise EmptyDocumentError(f"{path.name} is empty (0 bytes).")
    if b"%PDF-" in head[:1024]:
        return SourceFormat.PDF
    if head.startswith(b"PK\x03\x04"):
        if b"application/epub+zip" in head[:200] or path.suffix.lower() == ".epub":
            return SourceFormat.EPUB
        raise UnsupportedFormatError(
            f"{path.name} is a zip archive but not an EPUB book. Lantern reads PDF, EPUB, "
            "Markdown, plain text and HTML files.")
    sniff = head.removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    # Only markup-first files count: a Markdown or text file that mentions "<html>" stays itself.
    if sniff.startswith((b"<!doctype html", b"<html")) or (sniff.startswith(b"<") and b"<html" in sniff[:512]):
        return SourceFormat.HTML
    fmt = SUPPORTED_SUFFIXES.get(path.suffix.lower())
    if fmt is SourceFormat.PDF or fmt is SourceFormat.EPUB:
        # Named like a PDF/EPUB but the bytes say otherwise.
        kind = "PDF" if fmt is SourceFormat.PDF else "EPUB"
        raise UnsupportedFormatError(
            f"{path.name} is named like a {kind} but its contents are not a {kind} file.")
    if fmt is not None:
        return fmt
    if _looks_binary(head):
        raise UnsupportedFormatError(
            f"{path.name}: unsupported file type. Lantern reads PDF, EPUB, Markdown, plain text and HTML.")
    raise UnsupportedFormatError(
        f"{path.name}: unsupported file type '{path.suffix or '(none)'}'. "
        "Lantern reads .pdf, .epub, .md, .txt and .html files.")


def _looks_binary(head: bytes) -> bool:
    return b"\x00" in head


def read_book(path: str | os.PathLike[str], progress: ProgressFn | None = None,
              cancel: CancelFn | None = None) -> ParsedBook:
    """Read any supported book file into a ``ParsedBook`` (chapters, sections, pages, blocks)."""
    p = Path(path)
    if not p.exists():
        raise UnreadablePathError(f"{p} does not exist.")
    fmt = detect_format(p)
    check_cancel(cancel)
    module = importlib.import_module(_MODULES[fmt])
    return module.read(p, progress or no_progress, cancel)


def book_digest(path: Path) -> str:
    """The book's identity: SHA-256 of the file's bytes (``UnreadablePathError`` when it cannot be read)."""
    try:
        return file_sha256(path)
    except PermissionError:
        raise UnreadablePathError(f"{path} cannot be read (permission denied).") from None
    except OSError as exc:
        raise UnreadablePathError(f"{path} cannot be read: {exc.strerror or exc}.") from None
