"""PDF importer: tiny real PDFs built with PyMuPDF, plus the pure layout/structure helpers."""
from __future__ import annotations

import logging
from pathlib import Path

import pymupdf
import pytest

from core.errors import (BookImportError, CorruptFileError, EmptyDocumentError, EncryptedPdfError, ImportCancelled,
                         ScannedPdfError, TooLargeError)
from core.ingest.pdf import reader as pdf
from core.ingest.read import read_book
from core.ingest.pdf.layout import BOLD, ITALIC, MONO, Line, is_toc_page, order_boxes
from core.ingest.pdf.page_labels import (detect_running_lines, infer_printed_labels, is_page_number,
                                         labels_from_rules, normalise_running, printed_number)
from core.ingest.pdf.structure import (DetectedHeading, classify_heading, find_heading_lines, parse_outline,
                                       plausible_headings, refine_page_ends)
from core.ingest.pdf.paragraphs import (ParaBlock, build_paragraphs, emphasis_runs, join_hyphenated, join_lines,
                                        line_kind, runs_on)
from core.models import BlockKind, SectionKind, SectionNode, SourceFormat
from tests.core.ingest.pdf import fixtures as fx


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("pdfs")
    return {
        "book": fx.sample_book(d / "book.pdf", metadata={"title": "Sample Book", "author": "Ann Lee; Bo Chen"}),
        "plain": fx.sample_book(d / "plain.pdf", outline=False, labels=False,
                                metadata={"title": "", "author": "(anonymous)"}),
        "two": fx.two_column_pdf(d / "two.pdf"),
        "features": fx.text_features_pdf(d / "features.pdf"),
    }


@pytest.fixture(scope="module")
def book(files: dict[str, Path]):
    return pdf.read(files["book"])


@pytest.fixture(scope="module")
def plain(files: dict[str, Path]):
    return pdf.read(files["plain"])


def _section(b, number):
    return next(s for s in b.sections if s.number == number)


def _blocks_of(b, number):
    idx = b.sections.index(_section(b, number))
    return [bl.text for bl in b.blocks if bl.section == idx]


# --- with bookmarks ---------------------------------------------------------------------------

def test_outline_gives_chapters_sections_and_appendix(book) -> None:
    got = [(s.level, s.kind, s.number, s.title, s.page_start, s.page_end) for s in book.sections]
    assert got == [
        (1, SectionKind.CHAPTER, "1", "Getting Started", 3, 5),
        (2, SectionKind.SECTION, "1.1", "First Steps", 3, 4),
        (2, SectionKind.SECTION, "1.2", "Second Steps", 4, 5),
        (1, SectionKind.CHAPTER, "2", "Going Further", 6, 7),
        (2, SectionKind.SECTION, "2.1", "Deeper Waters", 6, 7),
        (1, SectionKind.APPENDIX, "A", "Reference Tables", 8, 8),
    ]
    assert [s.parent for s in book.sections] == [None, 0, 0, None, 3, None]
    assert book.source_format is SourceFormat.PDF and book.paginated


def test_text_above_a_heading_on_a_shared_page_belongs_to_the_previous_section(book) -> None:
    assert any(t.startswith("TEXT-OF-1.1") for t in _blocks_of(book, "1.1"))
    assert any(t.startswith("TEXT-OF-1.2") for t in _blocks_of(book, "1.2"))
    assert not any("TEXT-OF-1.1" in t for t in _blocks_of(book, "1.2"))


def test_bookmark_target_y_splits_a_page_when_no_heading_is_printed(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(2):
        page = doc.new_page(width=fx.WIDTH, height=fx.HEIGHT)
    fx.text_lines(doc[0], 90, ["ALPHA text that opens the first part of the document."])
    fx.text_lines(doc[0], 400, ["BETA text that already belongs to the second part."])
    fx.text_lines(doc[1], 90, ["GAMMA text on the second page."])
    doc.set_toc([[1, "Opening", 1], [1, "Later", 1, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(72, 380)}]])
    doc.save(tmp_path / "ydest.pdf")
    doc.close()
    b = pdf.read(tmp_path / "ydest.pdf")
    assert [(bl.text.split()[0], b.sections[bl.section].title) for bl in b.blocks] == [
        ("ALPHA", "Opening"), ("BETA", "Later"), ("GAMMA", "Later")]
    assert [(s.page_start, s.page_end) for s in b.sections] == [(1, 1), (1, 2)]


def test_heading_lines_are_not_body_text(book) -> None:
    assert not any(b.text in ("1.1 First Steps", "Chapter 2: Going Further") for b in book.blocks)


def test_roman_front_matter_labels(book) -> None:
    assert [(p.index, p.label) for p in book.pages] == [
        (1, "i"), (2, "ii"), (3, "1"), (4, "2"), (5, "3"), (6, "4"), (7, "5"), (8, "6")]


def test_title_and_authors_from_metadata(book) -> None:
    assert book.title == "Sample Book"
    assert book.authors == ("Ann Lee", "Bo Chen")
    assert ("structure", "outline") in book.metadata


def test_running_header_footer_and_page_numbers_are_stripped(book, plain) -> None:
    for b in (book, plain):
        texts = [bl.text for bl in b.blocks]
        assert not any(t.startswith("Sample Book") or "Book \u2014" in t for t in texts)
        assert not any(is_page_number(t) for t in texts)


def test_paragraph_lines_are_joined(book) -> None:
    para = next(t for t in _blocks_of(book, "1.1") if t.startswith("Researchers"))
    assert "\n" not in para and para.endswith("their information.")
    assert para.count("Researchers form hypotheses") == 1


def test_blocks_are_in_page_order(book) -> None:
    pages = [b.page for b in book.blocks]
    assert pages == sorted(pages)


# --- without bookmarks -------------------------------------------------------------------------

def test_headings_detected_from_layout_without_outline(plain) -> None:
    got = [(s.kind, s.number, s.title, s.page_start) for s in plain.sections]
    assert got == [
        (SectionKind.CHAPTER, "1", "Getting Started", 3),
        (SectionKind.SECTION, "1.1", "First Steps", 3),
        (SectionKind.SECTION, "1.2", "Second Steps", 4),
        (SectionKind.CHAPTER, "2", "Going Further", 6),
        (SectionKind.SECTION, "2.1", "Deeper Waters", 6),
        (SectionKind.APPENDIX, "A", "Reference Tables", 8),
    ]
    assert ("structure", "layout") in plain.metadata


def test_pattern_headings_without_outline(tmp_path: Path) -> None:
    b = pdf.read(fx.pattern_headings_pdf(tmp_path / "patterns.pdf"))
    got = [(s.level, s.kind, s.number, s.title, s.page_start) for s in b.sections]
    assert got == [
        (1, SectionKind.CHAPTER, "1", "CHAPTER ONE", 1),
        (1, SectionKind.CHAPTER, "2", "Beginnings", 2),
        (2, SectionKind.SECTION, "2.1", "Methods", 2),
        (1, SectionKind.APPENDIX, "A", "Tables of Data", 3),
        (1, SectionKind.APPENDIX, "B", "Answers to Exercises", 4),
    ]
    assert not any(bl.text in ("CHAPTER TWO", "Beginnings", "2.1 Methods") for bl in b.blocks)


def test_contents_page_is_not_a_heading_source(plain) -> None:
    # The contents page lists "Chapter 1: ..." with page numbers; none of that is a section.
    assert all(s.page_start != 2 for s in plain.sections)
    assert not any(s.title.lower() == "contents" for s in plain.sections)


def test_title_from_first_page_and_labels_from_printed_numbers(plain) -> None:
    assert plain.title == "A Sample Book"  # metadata title empty -> biggest text on page 1
    assert plain.authors == ()  # "(anonymous)" is no author
    assert [p.label for p in plain.pages] == ["1", "ii", "1", "2", "3", "4", "5", "6"]


def test_title_falls_back_to_file_stem(tmp_path: Path) -> None:
    b = pdf.read(fx.simple_pdf(tmp_path / "my-notes.pdf", [["Just some body text on one line here."]]))
    assert b.title == "my-notes"
    assert [(p.index, p.label) for p in b.pages] == [(1, "1")]


# --- text quality --------------------------------------------------------------------------------

def test_two_columns_read_left_then_right(files: dict[str, Path]) -> None:
    b = pdf.read(files["two"])
    text = " ".join(bl.text for bl in b.blocks)
    assert text.index("Two Column Article") < text.index("LEFT-1") < text.index("LEFT-8") < text.index("RIGHT-1")
    assert text.index("RIGHT-1") < text.index("RIGHT-8")


def test_hyphenation_code_and_emphasis(files: dict[str, Path]) -> None:
    b = pdf.read(files["features"])
    texts = [bl.text for bl in b.blocks]
    first = texts[0]
    assert "history of science shows" in first  # "sci-" + "ence" joined
    assert "that well-known ideas" in first  # real hyphen kept across the break
    code = [bl for bl in b.blocks if bl.kind is BlockKind.CODE]
    assert len(code) == 1
    assert code[0].text == "def greet(name):\n    return 'hi ' + name\n\nprint(greet('x'))"
    hyp = next(bl for bl in b.blocks if bl.text.startswith("A hypothesis"))
    assert hyp.emphasis == ("hypothesis",)
    assert all(not bl.emphasis for bl in b.blocks if bl.text.startswith("This sentence is entirely bold"))
    assert texts[-1] == "After the code the prose continues as usual."


def test_cross_page_paragraph_is_rejoined(tmp_path: Path) -> None:
    path = fx.simple_pdf(tmp_path / "flow.pdf", [["A sentence that runs over the end of the page and con-"],
                                                  ["tinues on the next page to its end."]])
    b = pdf.read(path)
    assert [(bl.text, bl.page) for bl in b.blocks] == [
        ("A sentence that runs over the end of the page and continues on the next page to its end.", 1)]


# --- progress, cancel, dispatcher -----------------------------------------------------------------

def test_progress_every_page_and_dispatcher(files: dict[str, Path]) -> None:
    calls: list[tuple[str, int, int]] = []
    b = read_book(files["book"], progress=lambda *a: calls.append(a))
    assert len(b.pages) == 8
    assert [c for c in calls if c[0] == "reading pages"][-1] == ("reading pages", 8, 8)
    assert len([c for c in calls if c[0] == "reading pages"]) >= 8


def test_cancel_mid_import(files: dict[str, Path]) -> None:
    seen: list[int] = []

    def progress(stage: str, done: int, total: int) -> None:
        seen.append(done)

    with pytest.raises(ImportCancelled):
        pdf.read(files["book"], progress, cancel=lambda: len(seen) > 3)
    assert max(seen) < 8


# --- bad input ------------------------------------------------------------------------------------

def test_encrypted_pdf(tmp_path: Path) -> None:
    path = fx.simple_pdf(tmp_path / "secret.pdf", [["Top secret text."]],
                         encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    with pytest.raises(EncryptedPdfError, match="secret.pdf.*password"):
        pdf.read(path)


def test_owner_password_only_pdf_imports(tmp_path: Path) -> None:
    path = fx.simple_pdf(tmp_path / "locked.pdf", [["Readable text without a user password."]],
                         encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner")
    assert pdf.read(path).blocks[0].text == "Readable text without a user password."


def test_scanned_pdf(tmp_path: Path) -> None:
    with pytest.raises(ScannedPdfError, match="scan.pdf.*OCR"):
        pdf.read(fx.image_only_pdf(tmp_path / "scan.pdf", pages=3))


def test_pictures_without_text_are_refused_when_most_pages_are_such_and_skipped_otherwise(tmp_path: Path,
                                                                                       caplog) -> None:
    # The pictures are plain colour: OCR reads them and finds nothing.
    with pytest.raises(ScannedPdfError, match="OCR found no text"):
        pdf.read(fx.image_only_pdf(tmp_path / "mostly.pdf", pages=12, text_pages=[0]))
    with caplog.at_level(logging.WARNING):
        b = pdf.read(fx.image_only_pdf(tmp_path / "partly.pdf", pages=4, text_pages=[0, 1, 2]))
    assert len(b.pages) == 4 and "1 of 4 pages have no text" in caplog.text


@pytest.mark.parametrize("fraction", [0.02, 0.2, 0.5, 0.8, 0.95, 0.999])
def test_truncated_pdf(tmp_path: Path, files: dict[str, Path], fraction: float, capfd) -> None:
    data = files["book"].read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * fraction)])
    try:
        b = pdf.read(path)
    except BookImportError as exc:
        assert isinstance(exc, CorruptFileError), exc
        assert "cut.pdf" in exc.message
    else:  # MuPDF repaired it and text survived: importing is fine
        assert b.pages and b.blocks
    assert capfd.readouterr().err == ""  # MuPDF's repair chatter stays off stderr


def test_zero_pages(tmp_path: Path) -> None:
    with pytest.raises(EmptyDocumentError, match="empty.pdf"):
        pdf.read(fx.zero_page_pdf(tmp_path / "empty.pdf"))


def test_garbage_with_pdf_header(tmp_path: Path) -> None:
    path = tmp_path / "junk.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20)
    with pytest.raises(CorruptFileError, match="junk.pdf"):
        pdf.read(path)


def test_too_large(tmp_path: Path, files: dict[str, Path], monkeypatch) -> None:
    monkeypatch.setattr(pdf, "MAX_PAGES", 5)
    with pytest.raises(TooLargeError, match="8 pages"):
        pdf.read(files["book"])
    monkeypatch.setattr(pdf, "MAX_PAGES", 20_000)
    monkeypatch.setattr(pdf, "MAX_BYTES", 100)
    with pytest.raises(TooLargeError, match="2 GB"):
        pdf.read(files["book"])


def test_bad_pages_are_skipped_unless_most_fail(files: dict[str, Path], monkeypatch, caplog) -> None:
    real = pdf.lines_from_dict
    calls = {"n": 0}

    def flaky(d):
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("broken content stream")
        return real(d)

    monkeypatch.setattr(pdf, "lines_from_dict", flaky)
    with caplog.at_level(logging.WARNING):
        b = pdf.read(files["book"])
    assert len(b.pages) == 8 and "page 5 could not be read" in caplog.text
    monkeypatch.setattr(pdf, "lines_from_dict", lambda d: (_ for _ in ()).throw(RuntimeError("bad")))
    with pytest.raises(CorruptFileError, match="8 of 8 pages"):
        pdf.read(files["book"])


def test_cyclic_outline_does_not_hang_or_crash(tmp_path: Path) -> None:
    b = pdf.read(fx.cyclic_outline_pdf(tmp_path / "cycle.pdf"))
    assert b.blocks[0].text.startswith("Hello world")


# --- pure helpers ---------------------------------------------------------------------------------

def L(text: str, y0: float, *, x0: float = 72, x1: float = 500, size: float = 10, bold: bool = False,
      block: int = 0, mono: float = 0.0, spans=None) -> Line:
    return Line(text, x0, y0, x1, y0 + size, size=size, bold=bold, mono=mono, block=block,
                spans=spans if spans is not None else ((text, BOLD if bold else 0),))


def test_parse_outline_is_robust() -> None:
    toc = [
        [1, "Chapter 1: Introduction to Psychology", 2],
        [3, "1.2 History of Psychology", 4],  # level jumps 1 -> 3
        [2, "  ", 5],  # blank title
        [1, "Part without target", -1],  # no destination: takes the next entry's page
        [2, "Appendix A Tables", 999],  # past the end: clamped
        [1, "Chapter 1: Introduction to Psychology", 2],  # duplicate (cyclic outlines repeat)
        ["x", "broken", "y"],
        [2, "Introduction", 3],
    ]
    got = [(e.level, e.info.kind, e.info.number, e.info.title, e.page) for e in parse_outline(toc, 10)]
    assert got == [
        (1, SectionKind.CHAPTER, "1", "Introduction to Psychology", 2),
        (3, SectionKind.SECTION, "1.2", "History of Psychology", 4),
        (1, SectionKind.CHAPTER, None, "Part without target", 10),
        (2, SectionKind.APPENDIX, "A", "Tables", 10),
        (2, SectionKind.SECTION, None, "Introduction", 3),
    ]


def test_outline_root_wrapping_everything_is_dropped() -> None:
    toc = [[1, "My Book", 1], [2, "Chapter 1 Start", 1], [3, "1.1 First", 2], [2, "Chapter 2 End", 3]]
    assert [(e.level, e.info.number) for e in parse_outline(toc, 3)] == [(1, "1"), (2, "1.1"), (1, "2")]


def test_bare_letters_are_appendices_only_in_sequence() -> None:
    toc = [[1, "A A sample session", 1], [1, "B Invoking R", 2], [2, "A specific example", 2]]
    got = [(e.info.kind, e.info.number, e.info.title) for e in parse_outline(toc, 3)]
    assert got == [(SectionKind.APPENDIX, "A", "A sample session"), (SectionKind.APPENDIX, "B", "Invoking R"),
                   (SectionKind.SECTION, None, "A specific example")]
    assert classify_heading("Preface", 1).kind is SectionKind.FRONT_MATTER
    assert classify_heading("2019 Annual Report", 1).number is None


def test_find_heading_lines_prefers_styled_line_near_target() -> None:
    lines = [L("See The R environment below.", 100), L("1.1 The R environment", 300, size=14, bold=True),
             L("The R environment", 500)]
    assert find_heading_lines("The R environment", lines, 10, set(), y_hint=290) == [1]
    wrapped = [L("2.7 Index vectors; selecting and", 100, size=14, bold=True, block=1),
               L("modifying subsets of a data set", 116, size=14, bold=True, block=1)]
    assert find_heading_lines("Index vectors; selecting and modifying subsets of a data set", wrapped, 10,
                              set()) == [0, 1]
    assert find_heading_lines("Missing", lines, 10, set()) is None


def test_detect_running_lines() -> None:
    pages = []
    for n in range(1, 7):
        lines = [L(f"Chapter 2: Methods {n + 20}", 40, size=8), L(f"Body text line {n} " * 3, 100),
                 L("Introduction", 130, size=14)]
        if n % 2:
            lines.append(L(str(n), 750, size=8))
        pages.append(lines)
    pages[3] = [L("Chapter 3: Results", 40, size=8), L("Body", 100)]  # one-off header in the band
    out = detect_running_lines(pages, [792] * 6, body_size=10)
    assert out[0] == {0, 3} and out[1] == {0} and out[3] == {0}
    assert all(2 not in s for s in out)  # a big heading is never a running header
    assert normalise_running("Chapter 10: Statements 185") == "chapter #: statements #"


def test_printed_numbers_and_labels() -> None:
    assert printed_number(["Chapter 10: Statements 185"]) == "185"
    assert printed_number(["12   GNU Octave (version 7.3.0)"]) == "12"
    assert printed_number(["Chapter 3"]) is None
    assert printed_number(["xii"]) == "xii"
    assert is_page_number("- 4 -") and is_page_number("Page 3 of 9") and not is_page_number("mix")
    # A stray number that disagrees with its neighbours is dropped; gaps between agreeing pages fill.
    assert infer_printed_labels([None, "1", None, "3", "2019", "5"]) == [None, "1", "2", "3", "4", "5"]
    assert labels_from_rules([{"startpage": 0, "prefix": "T-", "style": "D", "firstpagenum": 1},
                              {"startpage": 2, "prefix": "", "style": "r", "firstpagenum": 1},
                              {"startpage": 4, "style": "A", "firstpagenum": 1}], 6) == [
        "T-1", "T-2", "i", "ii", "A", "B"]


def test_labels_match_pymupdf(files: dict[str, Path]) -> None:
    with pymupdf.open(files["book"]) as doc:
        assert labels_from_rules(doc.get_page_labels(), doc.page_count) == [p.get_label() for p in doc]


def test_order_boxes() -> None:
    # title (full width), right column written first, then left column
    boxes = [(72, 60, 540, 80), (320, 100, 540, 300), (72, 100, 290, 300), (72, 320, 540, 340)]
    assert order_boxes(boxes, 612) == [0, 2, 1, 3]
    single = [(72, 300, 540, 320), (72, 100, 540, 120), (400, 700, 420, 710)]
    assert order_boxes(single, 612) == [1, 0, 2]


def test_is_toc_page() -> None:
    assert is_toc_page(["Table of Contents", "Preface 1"])
    entries = [f"{i}.1 Topic number {i} . . . . . . . {i * 3}" for i in range(1, 8)]
    assert is_toc_page(entries)
    assert not is_toc_page(entries, front=False)  # in the back of a book that is an index
    assert not is_toc_page(["An ordinary page of text that talks about things."] * 8)


def test_join_hyphenated() -> None:
    vocab = {"well", "known", "packages", "ages"}.__contains__
    assert join_hyphenated("sci-", "ence") == "science"
    assert join_hyphenated("well-", "known", vocab) == "well-known"
    assert join_hyphenated("pack-", "ages", {"packages", "ages", "pack"}.__contains__) == "packages"
    assert join_hyphenated("Anglo-", "Saxon") == "Anglo-Saxon"
    assert join_hyphenated("COVID-", "19") == "COVID-19"
    assert join_hyphenated("soft\u00ad", "ware") == "software"
    assert join_lines(["one  two", "three-", "four", "", "five"]) == "one two threefour five"


def test_build_paragraphs_and_kinds() -> None:
    lines = [L("First paragraph line one that fills the measure", 100, x1=500, block=0),
             L("and its last line.", 114, x1=200, block=0),
             L("Second paragraph starts with an indent here", 128, x0=90, block=0),
             L("and continues.", 142, block=0),
             L("x <- c(1, 2)", 170, mono=1.0, block=1),
             L("  y <- x", 184, mono=1.0, block=1)]
    paras = build_paragraphs(lines)
    assert [(p.kind, p.text) for p in paras] == [
        (BlockKind.TEXT, "First paragraph line one that fills the measure and its last line."),
        (BlockKind.TEXT, "Second paragraph starts with an indent here and continues."),
        (BlockKind.CODE, "x <- c(1, 2)\n  y <- x"),
    ]
    assert isinstance(paras[0], ParaBlock) and paras[0].y0 == 100
    assert line_kind(Line("x = y + z", 0, 0, 1, 1, math=0.8)) is BlockKind.EQUATION
    assert runs_on("the end of a line", "continues here") and not runs_on("A sentence.", "next one")


def test_emphasis_runs() -> None:
    ln1 = Line("", 0, 0, 1, 1, spans=(("The ", 0), ("nervous", BOLD), (" ", 0), ("system", BOLD), (" has ", 0),
                                     ("cells", ITALIC), (" and ", 0), ("code()", MONO | BOLD)))
    ln2 = Line("", 0, 0, 1, 1, spans=(("and a very long bold run of many many words", BOLD), (" end", 0)))
    assert emphasis_runs([ln1, ln2]) == ("nervous system", "cells")
    whole = Line("", 0, 0, 1, 1, spans=(("Summary", BOLD),))
    assert emphasis_runs([whole]) == ()


def test_refine_page_ends() -> None:
    secs = (SectionNode(1, SectionKind.CHAPTER, "1", "A", 1, None, 5),
            SectionNode(2, SectionKind.SECTION, "1.1", "B", 1, 0, 3),
            SectionNode(2, SectionKind.SECTION, "1.2", "C", 3, 0, 5),
            SectionNode(1, SectionKind.CHAPTER, "2", "D", 5, None, 6))
    out = refine_page_ends(secs, {1: {1, 2, 3}, 2: {3, 4}, 3: {5, 6}})
    assert [s.page_end for s in out] == [4, 3, 4, 6]


def test_plain_chapter_labels_need_a_sequence() -> None:
    found = [DetectedHeading(1, (0,), "Chapter 1 Basics", 20), DetectedHeading(9, (0,), "Chapter One", 10, False)]
    assert [h.text for h in plausible_headings(found)] == ["Chapter 1 Basics"]
    plain_only = [DetectedHeading(1, (0,), "CHAPTER ONE", 10, False),
                  DetectedHeading(5, (0,), "CHAPTER TWO", 10, False),
                  DetectedHeading(9, (0,), "CHAPTER ONE", 10, False)]
    assert [h.page for h in plausible_headings(plain_only)] == [1, 5]


def test_rotated_page_keeps_its_text(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=fx.WIDTH, height=fx.HEIGHT)
    fx.text_lines(page, 90, ["A landscape page whose text must still be read."])
    page.set_rotation(90)
    doc.save(tmp_path / "rot.pdf")
    doc.close()
    assert pdf.read(tmp_path / "rot.pdf").blocks[0].text == "A landscape page whose text must still be read."
