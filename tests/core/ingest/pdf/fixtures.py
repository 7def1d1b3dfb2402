"""Builders of tiny real PDFs for the PDF importer tests (PyMuPDF, or raw bytes where it refuses)."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pymupdf

WIDTH, HEIGHT = 612, 792  # US letter
LEFT = 72
LINE = 14  # baseline-to-baseline distance for 10 pt body text

FILLER = [
    "Psychology is the scientific study of the mind and of behavior in people and animals.",
    "Researchers form hypotheses and test them with careful observation and experiments.",
    "A theory is a broad explanation that is supported by evidence gathered over time.",
    "Students learn to think critically and to evaluate the sources of their information.",
]


def text_lines(page: pymupdf.Page, y: float, lines: Sequence[str], *, size: float = 10, font: str = "helv",
               x: float = LEFT) -> float:
    """Write ``lines`` one under the other starting at baseline ``y``; returns the next free baseline."""
    for line in lines:
        page.insert_text((x, y), line, fontsize=size, fontname=font)
        y += size * 1.4
    return y


def paragraph(page: pymupdf.Page, y: float, n: int = 3, *, start: int = 0, x: float = LEFT) -> float:
    """A filler paragraph of ``n`` lines followed by a blank line."""
    lines = [FILLER[(start + i) % len(FILLER)] for i in range(n)]
    return text_lines(page, y, lines, x=x) + LINE * 0.8


def header_footer(page: pymupdf.Page, header: str, number: str | None) -> None:
    """A small running header at the top and the printed page number at the bottom."""
    page.insert_text((LEFT, 40), header, fontsize=8, fontname="helv")
    if number is not None:
        page.insert_text((WIDTH / 2, HEIGHT - 40), number, fontsize=8, fontname="helv")


def heading(page: pymupdf.Page, y: float, text: str, size: float = 16) -> float:
    page.insert_text((LEFT, y), text, fontsize=size, fontname="hebo")
    return y + size * 1.8


def sample_book(path: Path, *, outline: bool = True, labels: bool = True, metadata: dict | None = None) -> Path:
    """An 8-page book: title page, contents page, two chapters with sections, an appendix.

    Pages (physical): 1 title, 2 contents, 3 chapter 1 + 1.1, 4 text of 1.1 then 1.2 mid-page,
    5 text of 1.2, 6 chapter 2 + 2.1, 7 2.1 continued, 8 appendix A.  Running header
    "Sample Book" and printed numbers (arabic from page 3 = "1") at the bottom.
    """
    doc = pymupdf.open()
    for _ in range(8):
        doc.new_page(width=WIDTH, height=HEIGHT)
    p = doc[0]
    p.insert_text((LEFT, 200), "A Sample Book", fontsize=24, fontname="hebo")
    p.insert_text((LEFT, 240), "Jane Author", fontsize=14, fontname="helv")
    p = doc[1]
    header_footer(p, "Sample Book", "ii")
    y = heading(p, 100, "Contents", 16)
    text_lines(p, y, ["Chapter 1: Getting Started . . . . . . . . 1", "1.1 First Steps . . . . . . . . . 1",
                      "1.2 Second Steps . . . . . . . . . 2", "Chapter 2: Going Further . . . . . . . 4",
                      "2.1 Deeper Waters . . . . . . . . 4", "Appendix A Reference Tables . . . . . 6"])
    chapters = {3: "Chapter 1: Getting Started", 4: "Chapter 1: Getting Started", 5: "Chapter 1: Getting Started",
                6: "Chapter 2: Going Further", 7: "Chapter 2: Going Further", 8: "Appendix A"}
    for pno, head in chapters.items():
        header_footer(doc[pno - 1], f"Sample Book \u2014 {head}", str(pno - 2))
    p = doc[2]
    y = heading(p, 100, "Chapter 1: Getting Started", 20)
    y = paragraph(p, y, 2, start=0)
    y = heading(p, y + 10, "1.1 First Steps", 14)
    paragraph(p, y, 3, start=1)
    p = doc[3]
    y = text_lines(p, 90, ["TEXT-OF-1.1 This paragraph still belongs to the first steps section."]) + LINE
    y = paragraph(p, y, 2, start=2)
    y = heading(p, 400, "1.2 Second Steps", 14)
    text_lines(p, y, ["TEXT-OF-1.2 This paragraph opens the second steps section."])
    p = doc[4]
    paragraph(p, 90, 4, start=3)
    p = doc[5]
    y = heading(p, 100, "Chapter 2: Going Further", 20)
    y = heading(p, y + 10, "2.1 Deeper Waters", 14)
    paragraph(p, y, 3, start=0)
    p = doc[6]
    paragraph(p, 90, 3, start=1)
    p = doc[7]
    y = heading(p, 100, "Appendix A Reference Tables", 20)
    paragraph(p, y, 2, start=2)
    if outline:
        doc.set_toc([
            [1, "Chapter 1: Getting Started", 3, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(LEFT, 80)}],
            [2, "1.1 First Steps", 3],
            [2, "1.2 Second Steps", 4, {"kind": pymupdf.LINK_GOTO, "to": pymupdf.Point(LEFT, 385)}],
            [1, "Chapter 2: Going Further", 6],
            [2, "2.1 Deeper Waters", 6],
            [1, "Appendix A Reference Tables", 8],
        ])
    if labels:
        doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                             {"startpage": 2, "prefix": "", "style": "D", "firstpagenum": 1}])
    if metadata is not None:
        doc.set_metadata(metadata)
    doc.save(path)
    doc.close()
    return path


def simple_pdf(path: Path, pages: Sequence[Sequence[str]], **save_options: object) -> Path:
    """One paragraph of text lines per page."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        text_lines(page, 90, lines)
    doc.save(path, **save_options)
    doc.close()
    return path


def image_only_pdf(path: Path, pages: int = 3, text_pages: Sequence[int] = ()) -> Path:
    """Pages with only a picture and drawn shapes (a "scanned" book); ``text_pages`` get text too."""
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.set_rect(pix.irect, (200, 180, 160))
    for i in range(pages):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.insert_image(pymupdf.Rect(72, 72, 540, 700), pixmap=pix)
        page.draw_rect(pymupdf.Rect(100, 100, 300, 300), color=(0, 0, 0))
        if i in text_pages:
            text_lines(page, 720, ["A caption with some real text on it."])
    doc.save(path)
    doc.close()
    return path


def raw_pdf(objects: Sequence[str]) -> bytes:
    """A minimal PDF from raw object bodies (object 1 must be the catalog), with a valid xref."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def zero_page_pdf(path: Path) -> Path:
    """A well-formed PDF with an empty page tree (PyMuPDF refuses to save one)."""
    path.write_bytes(raw_pdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"]))
    return path


def cyclic_outline_pdf(path: Path) -> Path:
    """One page of text whose outline items point at each other in a loop."""
    content = "BT /F1 12 Tf 72 700 Td (Hello world, this page has text.) Tj ET"
    path.write_bytes(raw_pdf([
        "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Type /Outlines /First 7 0 R /Last 8 0 R /Count 2 >>",
        "<< /Title (One) /Parent 6 0 R /Next 8 0 R /First 7 0 R /Dest [3 0 R /XYZ 0 700 0] >>",
        "<< /Title (Two) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R /Dest [3 0 R /XYZ 0 500 0] >>",
    ]))
    return path


def two_column_pdf(path: Path) -> Path:
    """A page with a full-width title and two columns; the right column is written first so the
    content stream order differs from reading order."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    page.insert_text((LEFT, 80), "Two Column Article", fontsize=18, fontname="hebo")
    right = [f"RIGHT-{i} words in the right column go here." for i in range(1, 9)]
    left = [f"LEFT-{i} words in the left column go here." for i in range(1, 9)]
    text_lines(page, 120, right, x=320)
    text_lines(page, 120, left, x=LEFT)
    doc.save(path)
    doc.close()
    return path


def text_features_pdf(path: Path) -> Path:
    """Hyphenated line breaks, a code block, bold key terms, and a long bold run (not a term)."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    y = text_lines(page, 90, [
        "Good science needs well-known methods and careful thinking about",
        "every result; the history of sci-",
        "ence shows that well-",
        "known ideas can still be wrong.",
    ]) + LINE
    # A paragraph with a bold key term mid-line.
    page.insert_text((LEFT, y), "A", fontsize=10, fontname="helv")
    x = LEFT + pymupdf.get_text_length("A ", fontname="helv", fontsize=10)
    page.insert_text((x, y), "hypothesis", fontsize=10, fontname="hebo")
    x += pymupdf.get_text_length("hypothesis ", fontname="hebo", fontsize=10)
    page.insert_text((x, y), "is a tentative explanation that can be tested.", fontsize=10, fontname="helv")
    y += LINE
    page.insert_text((LEFT, y), "It is often written as a clear prediction about data.", fontsize=10, fontname="helv")
    y += LINE * 2
    y = text_lines(page, y, ["This sentence is entirely bold and is much too long to be one key term."],
                   font="hebo") + LINE
    y = text_lines(page, y, ["The following code prints a greeting:"]) + 4
    y = text_lines(page, y, ["def greet(name):", "    return 'hi ' + name", "", "print(greet('x'))"],
                   font="cour") + LINE
    text_lines(page, y, ["After the code the prose continues as usual."])
    doc.save(path)
    doc.close()
    return path


def pattern_headings_pdf(path: Path) -> Path:
    """No outline, headings only by pattern/weight: "CHAPTER ONE" in body type, a big title under
    a chapter label, a bold body-size "2.1 Methods", and bare-letter appendices "A", "B"."""
    doc = pymupdf.open()
    p = doc.new_page(width=WIDTH, height=HEIGHT)
    y = text_lines(p, 90, ["CHAPTER ONE"]) + LINE
    paragraph(p, y, 3)
    p = doc.new_page(width=WIDTH, height=HEIGHT)
    y = text_lines(p, 90, ["CHAPTER TWO"])
    y = text_lines(p, y + 4, ["Beginnings"], size=18, font="hebo") + LINE
    y = paragraph(p, y, 2)
    y = text_lines(p, y + 10, ["2.1 Methods"], font="hebo") + 4
    paragraph(p, y, 2, start=1)
    for letter, title in (("A", "Tables of Data"), ("B", "Answers to Exercises")):
        p = doc.new_page(width=WIDTH, height=HEIGHT)
        y = text_lines(p, 90, [f"{letter} {title}"], size=16, font="hebo") + LINE
        paragraph(p, y, 2, start=2)
    doc.save(path)
    doc.close()
    return path
