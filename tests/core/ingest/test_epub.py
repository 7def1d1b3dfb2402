"""EPUB importer: TOC -> sections, laid-out pages, and refusal of broken, bomb-like or DRM files."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from core.errors import (CorruptFileError, DrmProtectedError, EmptyDocumentError, EncryptedPdfError, ImportCancelled,
                         TooLargeError)
from core.ingest import epub
from core.ingest.read import read_book
from core.progress import no_progress
from core.models import BlockKind, SectionKind, SourceFormat
from tests.core.ingest.epub_fixture import sample_chapters, write_epub


@pytest.fixture
def book_path(tmp_path: Path) -> Path:
    return write_epub(tmp_path / "tiny.epub", sample_chapters())


def test_reads_toc_pages_and_blocks(book_path: Path) -> None:
    book = read_book(book_path)
    assert book.source_format is SourceFormat.EPUB
    assert book.paginated is True
    assert book.title == "Tiny Book"
    assert book.authors == ("Ada Writer",)
    assert [p.label for p in book.pages] == [str(i) for i in range(1, len(book.pages) + 1)]
    assert len(book.pages) >= 2
    heads = [(s.kind, s.number, s.title, s.level) for s in book.sections]
    assert heads == [
        (SectionKind.CHAPTER, "1", "Basics", 1),
        (SectionKind.SECTION, "1.1", "First Things", 2),
        (SectionKind.SECTION, "1.2", "Second Things", 2),
        (SectionKind.CHAPTER, "2", "Next Steps", 1),
        (SectionKind.SECTION, "2.1", "Code", 2),
    ]
    assert book.sections[1].parent == 0 and book.sections[4].parent == 3
    for s in book.sections:
        assert 1 <= s.page_start <= s.page_end <= len(book.pages)
    texts = [b.text for b in book.blocks]
    # Heading lines are the section tree, not body text.
    assert not any(t in ("Chapter 1: Basics", "1.1 First Things") for t in texts)
    for b in book.blocks:
        assert 1 <= b.page <= len(book.pages)


def test_blocks_belong_to_the_right_section(book_path: Path) -> None:
    book = read_book(book_path)
    by_text = {b.text: b for b in book.blocks}

    def section_of(prefix: str) -> str | None:
        block = next(b for t, b in by_text.items() if t.startswith(prefix))
        return book.sections[block.section].number if block.section is not None else None

    assert section_of("An atom is") == "1"
    assert section_of("Some key idea") == "1.1"
    assert section_of("Closing words of one point one") == "1.1"
    # Same page as the 1.1 text, but below the 1.2 heading.
    assert section_of("Text of section one point two") == "1.2"
    assert section_of("After the code") == "2.1"


def test_emphasis_and_code(book_path: Path) -> None:
    book = read_book(book_path)
    atom = next(b for b in book.blocks if b.text.startswith("An atom"))
    assert "smallest unit" in atom.emphasis
    idea = next(b for b in book.blocks if b.text.startswith("Some key idea"))
    assert "key idea" in idea.emphasis
    code = [b for b in book.blocks if b.kind is BlockKind.CODE]
    assert len(code) == 1 and code[0].text == "def f():\n    return 1"


def test_ncx_only_epub_still_has_a_toc(tmp_path: Path) -> None:
    book = read_book(write_epub(tmp_path / "ncx.epub", sample_chapters(), nav=False))
    assert [s.number for s in book.sections] == ["1", "1.1", "1.2", "2", "2.1"]


def test_no_toc_falls_back_to_large_fonts(tmp_path: Path) -> None:
    book = read_book(write_epub(tmp_path / "notoc.epub", sample_chapters(), nav=False, ncx=False))
    numbers = [s.number for s in book.sections]
    assert "1" in numbers and "2.1" in numbers
    chapters = [s for s in book.sections if s.kind is SectionKind.CHAPTER]
    assert [c.title for c in chapters] == ["Basics", "Next Steps"]


def test_truncated_epub_is_corrupt(book_path: Path, tmp_path: Path) -> None:
    data = book_path.read_bytes()
    cut = tmp_path / "cut.epub"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptFileError, match="truncated or damaged"):
        read_book(cut)


def test_missing_container_is_corrupt(tmp_path: Path) -> None:
    path = write_epub(tmp_path / "nocontainer.epub", sample_chapters(), container=False)
    with pytest.raises(CorruptFileError, match="container.xml"):
        read_book(path)


def test_not_a_zip_read_directly_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "fake.epub"
    path.write_text("just some text, no zip here")
    with pytest.raises(CorruptFileError):
        epub.read(path, no_progress, None)


def test_zip_bomb_is_refused_before_opening(tmp_path: Path) -> None:
    path = tmp_path / "bomb.epub"
    write_epub(path, sample_chapters(), extra={"OEBPS/padding.xhtml": b"\0" * (24 * 1024 * 1024)})
    with pytest.raises(TooLargeError, match="zip bomb"):
        read_book(path)


def test_uncompressed_size_limit(book_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(epub, "MAX_UNCOMPRESSED", 1000)
    with pytest.raises(TooLargeError, match="uncompressed"):
        read_book(book_path)


ENCRYPTION_XML = """<?xml version="1.0"?>
<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
  xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
 <enc:EncryptedData><enc:EncryptionMethod Algorithm="{algo}"/>
  <enc:CipherData><enc:CipherReference URI="{uri}"/></enc:CipherData></enc:EncryptedData>
</encryption>"""


def test_drm_encrypted_content_is_refused(tmp_path: Path) -> None:
    xml = ENCRYPTION_XML.format(algo="http://www.w3.org/2001/04/xmlenc#aes128-cbc", uri="OEBPS/ch0.xhtml")
    path = write_epub(tmp_path / "drm.epub", sample_chapters(), extra={"META-INF/encryption.xml": xml.encode()})
    with pytest.raises(DrmProtectedError, match="DRM") as info:
        read_book(path)
    assert isinstance(info.value, EncryptedPdfError) and info.value.code == "encrypted"


def test_adobe_rights_file_means_drm(tmp_path: Path) -> None:
    path = write_epub(tmp_path / "adept.epub", sample_chapters(), extra={"META-INF/rights.xml": b"<rights/>"})
    with pytest.raises(DrmProtectedError):
        read_book(path)


def test_font_obfuscation_is_not_drm(tmp_path: Path) -> None:
    xml = ENCRYPTION_XML.format(algo="http://www.idpf.org/2008/embedding", uri="OEBPS/fonts/a.otf")
    path = write_epub(tmp_path / "fonts.epub", sample_chapters(), extra={"META-INF/encryption.xml": xml.encode()})
    assert len(read_book(path).sections) == 5


def test_epub_without_text_is_empty(tmp_path: Path) -> None:
    path = write_epub(tmp_path / "empty.epub", [("", "", [])], nav=False, ncx=False)
    with pytest.raises(EmptyDocumentError):
        read_book(path)


def test_progress_and_cancel(book_path: Path) -> None:
    calls: list[tuple[str, int, int]] = []
    read_book(book_path, progress=lambda s, d, t: calls.append((s, d, t)))
    assert calls and calls[-1][1] == calls[-1][2]
    with pytest.raises(ImportCancelled):
        read_book(book_path, cancel=lambda: True)


def test_detected_by_content_whatever_the_name(book_path: Path, tmp_path: Path) -> None:
    renamed = tmp_path / "book.bin"
    renamed.write_bytes(book_path.read_bytes())
    assert read_book(renamed).source_format is SourceFormat.EPUB


def test_zip_member_listing_is_what_check_sees(book_path: Path) -> None:
    # Guards the fixture: mimetype first and stored, as readers expect.
    with zipfile.ZipFile(book_path) as z:
        first = z.infolist()[0]
    assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
