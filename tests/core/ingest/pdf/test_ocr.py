"""OCR of scanned pages: the page cache, cancel and resume, the invisible text layer, and the real recogniser."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from core.errors import ImportCancelled, OcrUnavailableError
from core.ingest.pdf import ocr
from core.ingest.pdf import reader as pdf
from core.ingest.pdf.ocr_text import OcrLine
from core.paths import file_sha256
from tests.core.ingest.pdf import fixtures as fx


class FakeRecogniser:
    """Reads a different filler sentence on each page it is called for, and a printed page number
    at the bottom (no character columns); counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, image: np.ndarray):
        self.calls += 1
        line = [[100, 300], [900, 300], [900, 325], [100, 325]]
        number = [[600, 1580], [640, 1580], [640, 1600], [600, 1600]]
        return [(line, fx.FILLER[(self.calls - 1) % len(fx.FILLER)], 0.99, []),
                (number, str(40 + self.calls), 0.99, [])]


@pytest.fixture
def fake_engine(monkeypatch) -> FakeRecogniser:
    fake = FakeRecogniser()
    monkeypatch.setattr(ocr, "engine", lambda: fake)
    return fake


def test_page_cache_round_trip_skips_a_torn_line_and_other_engines(tmp_path: Path) -> None:
    cache = ocr.PageCache("abc", root=tmp_path)
    line = OcrLine("Some text", 72.0, 100.0, 300.0, 112.0, 3.3, 0.35, 0.98)
    cache.append(0, [line])
    cache.append(2, [])
    with open(cache.path, "a", encoding="utf-8") as fh:
        fh.write('{"engine": "something-else", "page": 1, "lines": []}\n{"engine": "' + ocr.ENGINE + '", "pa')
    assert cache.load() == {0: [line], 2: []}


def test_recognised_pages_are_cached_so_a_second_read_recognises_nothing(tmp_path: Path, fake_engine) -> None:
    path = fx.image_only_pdf(tmp_path / "scan.pdf", pages=3)
    book = pdf.read(path)
    assert fake_engine.calls == 3
    assert [(b.page, b.text) for b in book.blocks] == [(i + 1, fx.FILLER[i]) for i in range(3)]
    assert [p.label for p in book.pages] == ["41", "42", "43"]  # printed numbers read from the scan
    again = pdf.read(path)
    assert fake_engine.calls == 3 and again.blocks == book.blocks


def test_text_pages_and_pages_with_only_a_small_picture_are_not_recognised(tmp_path: Path, fake_engine) -> None:
    doc = pymupdf.open()
    logo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
    for i in range(3):
        page = doc.new_page(width=fx.WIDTH, height=fx.HEIGHT)
        page.insert_image(pymupdf.Rect(280, 700, 330, 750), pixmap=logo)  # an ornament, 0.5 % of the page
        if i < 2:
            fx.text_lines(page, 100, fx.FILLER)
    doc.save(tmp_path / "mixed.pdf")
    book = pdf.read(tmp_path / "mixed.pdf")
    assert fake_engine.calls == 0 and {b.page for b in book.blocks} == {1, 2}


def test_a_cancelled_ocr_keeps_the_pages_it_read_and_resumes_after_them(tmp_path: Path, fake_engine) -> None:
    path = fx.image_only_pdf(tmp_path / "scan.pdf", pages=5)
    seen: list[tuple[str, int, int]] = []

    def progress(stage: str, done: int, total: int) -> None:
        seen.append((stage, done, total))

    with pytest.raises(ImportCancelled):
        pdf.read(path, progress, cancel=lambda: fake_engine.calls >= 2)
    assert ("reading scanned pages", 2, 5) in seen
    assert sorted(ocr.PageCache(file_sha256(path)).load()) == [0, 1]
    pdf.read(path)
    assert fake_engine.calls == 5  # only pages 3-5 were recognised after the restart


def test_removing_a_scanned_book_removes_its_recognised_text(tmp_path: Path, fake_engine) -> None:
    from core.library import Library
    from tests.fakes import HashingEmbedder
    path = fx.image_only_pdf(tmp_path / "scan.pdf", pages=3)
    cache = ocr.PageCache(file_sha256(path))
    with Library(tmp_path / "lib", embedder=HashingEmbedder()) as lib:
        book = lib.import_book(path).book
        assert book is not None and cache.path.exists()
        lib.remove(book.id)
    assert not cache.path.exists()


def test_missing_ocr_component_gives_a_clear_error(tmp_path: Path, monkeypatch, caplog) -> None:
    monkeypatch.setattr(ocr, "_engine", None)
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    with pytest.raises(OcrUnavailableError, match="scan.pdf has scanned pages.*rapidocr-onnxruntime.*not installed"):
        pdf.read(fx.image_only_pdf(tmp_path / "scan.pdf", pages=2))
    # A text book with one picture page still imports, without that page.
    with caplog.at_level(logging.WARNING):
        book = pdf.read(fx.image_only_pdf(tmp_path / "mixed.pdf", pages=4, text_pages=(0, 1, 2)))
    assert len(book.pages) == 4 and "its 1 scanned pages are skipped" in caplog.text


def test_a_page_without_a_number_has_its_margins_read_again_at_twice_the_resolution(tmp_path: Path) -> None:
    sizes: list[tuple[int, int]] = []

    def recognise(image: np.ndarray):
        sizes.append(image.shape)
        if len(sizes) == 3:  # the bottom margin, read at 300 dpi
            return [([[1200, 100], [1260, 100], [1260, 140], [1200, 140]], "7", 0.9, [])]
        return [([[100, 300], [900, 300], [900, 325], [100, 325]], "Body text on the page", 0.99, [])]

    doc = pymupdf.open(fx.image_only_pdf(tmp_path / "scan.pdf", pages=1))
    lines = ocr.recognise_page(doc[0], recognise)
    assert sizes[0] == (1650, 1275) and sizes[1][1] == sizes[2][1] == 2550  # page, then both margins
    assert [ln.text for ln in lines] == ["Body text on the page", "7"]
    number = lines[1]
    assert 280 < number.x0 < 310 and fx.HEIGHT - 0.12 * fx.HEIGHT < number.y0 < fx.HEIGHT


def test_measure_ink_finds_the_x_height_band_and_its_darkness() -> None:
    crop = np.full((20, 30), 255, np.uint8)
    crop[8:14, 2:28:2] = 0  # a band of letters 6 px high
    crop[3:8, 4] = 0  # an ascender
    xheight, ink, core = ocr.measure_ink(crop)
    assert xheight == 6 and 0.4 < ink < 0.5 and core is not None and core[8:14].all()
    assert ocr.measure_ink(np.full((5, 5), 255, np.uint8))[0] == 0


def test_x_height_is_the_distance_from_the_x_line_to_the_baseline_whatever_the_letters() -> None:
    crop = np.full((30, 60), 255, np.uint8)
    crop[10:21, 2:58:3] = 0  # lower-case bodies: x-line at row 10, baseline after row 20
    crop[4:10, 5] = 0  # an ascender
    crop[21:26, 20] = 0  # a descender
    assert ocr.x_height(crop, band=11) == pytest.approx(11, abs=0.6)
    bolder = crop.copy()
    bolder[10:21, 3:58:3] = 0  # the same letters, twice as heavy: the same x-height
    assert ocr.x_height(bolder, band=11) == pytest.approx(ocr.x_height(crop, band=11), abs=0.01)
    assert ocr.x_height(crop, band=40) == 0.0  # far from the core band: not trusted


@pytest.mark.parametrize("angle", [1.0, -2.2])
def test_a_page_scanned_askew_is_turned_level_and_mapped_back(tmp_path: Path, angle: float) -> None:
    import cv2
    page = pymupdf.open(fx.sample_book(tmp_path / "b.pdf"))[2]
    image = ocr.page_image(page)
    h, w = image.shape
    skewed = cv2.warpAffine(image, cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0), (w, h), borderValue=255)
    level, back = ocr.deskew(skewed)
    assert back is not None and ocr.deskew(level)[1] is None  # level now
    # back maps the level image onto the skewed one: turning by -angle undoes the correction
    assert np.degrees(np.arctan2(back[1, 0], back[0, 0])) == pytest.approx(-angle, abs=0.1)
    assert ocr.deskew(image)[1] is None  # a straight page is left alone


def test_invisible_text_makes_a_scanned_page_searchable(tmp_path: Path) -> None:
    doc = pymupdf.open(fx.image_only_pdf(tmp_path / "scan.pdf", pages=1))
    page = doc[0]
    assert page.search_for("cognitive dissonance") == []
    ocr.add_invisible_text(page, [OcrLine("Festinger named cognitive dissonance", 72, 300, 320, 314, 3.3, 0.35)])
    hits = doc[0].search_for("cognitive dissonance")
    assert len(hits) == 1 and 150 < hits[0].x0 < 250 and 295 < hits[0].y1 < 320
    assert "cognitive dissonance" in doc[0].get_text()


@pytest.mark.realmodel
def test_a_scanned_book_reads_with_structure_and_printed_page_numbers(tmp_path: Path) -> None:
    """The real recogniser on a scan of the sample book: text, headings by size, printed page labels."""
    text_pdf = fx.sample_book(tmp_path / "book.pdf", outline=False, labels=False)
    scan = ocr.picture_copy(text_pdf, tmp_path / "scan.pdf", front_pages=1)
    book = pdf.read(scan)
    text = " ".join(b.text for b in book.blocks)
    assert "TEXT-OF-1.1 This paragraph still belongs to the first steps section." in text
    assert "Researchers form hypotheses and test them with careful observation" in text
    titles = [(s.number, s.title) for s in book.sections]
    for wanted in (("1.1", "First Steps"), ("1.2", "Second Steps"), ("2.1", "Deeper Waters")):
        assert wanted in titles, titles
    labels = [p.label for p in book.pages]
    # physical page 4 (cover + title + contents) is printed "1"; its number is small, 8 pt
    assert sum(labels[i] == str(i - 2) for i in range(3, 9)) >= 5, labels
    layer = ocr.TextLayer.of(file_sha256(scan))  # what the reader lays over the scan
    page5 = " ".join(ln.text for ln in layer.take(4))
    assert "TEXT-OF-1.1 This paragraph still belongs" in page5 and layer.take(4) == []
