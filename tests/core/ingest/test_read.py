"""Format detection and the ``read_book`` dispatcher: content wins over the file name."""
from __future__ import annotations

import importlib.util
import zipfile
from pathlib import Path

import pymupdf
import pytest

from core.errors import (BookImportError, CorruptFileError, EmptyDocumentError, UnreadablePathError,
                         UnsupportedFormatError)
from core.ingest.read import detect_format, read_book
from core.models import SourceFormat
from tests.core.ingest.epub_fixture import sample_chapters, write_epub


def _tiny_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Chapter 1: Hello from a PDF")
    doc.save(path)
    doc.close()
    return path


def test_pdf_renamed_txt_is_still_a_pdf(tmp_path: Path) -> None:
    path = _tiny_pdf(tmp_path / "book.txt")
    assert detect_format(path) is SourceFormat.PDF


@pytest.mark.skipif(importlib.util.find_spec("core.ingest.pdf.reader") is None, reason="PDF importer not there yet")
def test_pdf_renamed_txt_is_read_as_pdf(tmp_path: Path) -> None:
    book = read_book(_tiny_pdf(tmp_path / "book.txt"))
    assert book.source_format is SourceFormat.PDF


def test_extensions_and_sniffing(tmp_path: Path) -> None:
    cases = {"a.md": "# T\n", "a.markdown": "x", "a.txt": "x", "a.text": "x", "a.html": "<p>x",
             "a.htm": "<p>x", "a.xhtml": "<p>x", "page.txt": "<!DOCTYPE html><html><p>x</p></html>"}
    expected = {"a.md": SourceFormat.MARKDOWN, "a.markdown": SourceFormat.MARKDOWN, "a.txt": SourceFormat.TEXT,
                "a.text": SourceFormat.TEXT, "a.html": SourceFormat.HTML, "a.htm": SourceFormat.HTML,
                "a.xhtml": SourceFormat.HTML, "page.txt": SourceFormat.HTML}
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        assert detect_format(path) is expected[name], name


def test_epub_detected_by_mimetype(tmp_path: Path) -> None:
    path = write_epub(tmp_path / "book.zip", sample_chapters())
    assert detect_format(path) is SourceFormat.EPUB


def test_zip_that_is_not_an_epub(tmp_path: Path) -> None:
    path = tmp_path / "archive.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(UnsupportedFormatError, match="zip archive but not an EPUB"):
        read_book(path)
    named_epub = tmp_path / "archive.epub"
    named_epub.write_bytes(path.read_bytes())
    with pytest.raises(CorruptFileError, match="container.xml"):
        read_book(named_epub)


def test_binary_garbage(tmp_path: Path) -> None:
    garbage = bytes((i * 37 + 11) % 256 for i in range(5000))
    for name in ("blob.bin", "blob", "blob.pdf", "blob.epub"):
        path = tmp_path / name
        path.write_bytes(garbage)
        with pytest.raises(UnsupportedFormatError):
            read_book(path)
    txt = tmp_path / "blob.txt"
    txt.write_bytes(garbage)
    with pytest.raises(UnsupportedFormatError, match="binary"):
        read_book(txt)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.md"
    path.touch()
    with pytest.raises(EmptyDocumentError, match="empty"):
        read_book(path)


def test_missing_path_and_folder(tmp_path: Path) -> None:
    with pytest.raises(UnreadablePathError, match="does not exist"):
        read_book(tmp_path / "nope.pdf")
    with pytest.raises(UnreadablePathError, match="folder"):
        read_book(tmp_path)


def test_errors_have_readable_messages_and_codes(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("   \n\n")
    with pytest.raises(BookImportError) as info:
        read_book(path)
    assert info.value.code == "empty" and "blank.txt" in info.value.message


def test_html_sniffing_needs_markup_first(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# HTML basics\n\nEvery page starts with the <html> tag.\n")
    assert detect_format(notes) is SourceFormat.MARKDOWN
    xhtml = tmp_path / "chapter.txt"
    xhtml.write_text('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><p>x</p></html>')
    assert detect_format(xhtml) is SourceFormat.HTML
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf<!DOCTYPE html><html><p>x</p></html>")
    assert detect_format(bom) is SourceFormat.HTML
