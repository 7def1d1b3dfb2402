"""PDF importer: pages, chapters/sections and paragraph blocks from a PDF, scanned pages read by OCR.

Structure comes from the outline (bookmarks) when the PDF has one, otherwise from font sizes and
heading patterns.  Layout work (reading order, running headers, paragraphs) lives in
``pdf_layout``/``pdf_text``; section logic in ``pdf_structure``.
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from core.errors import (CorruptFileError, EmptyDocumentError, EncryptedPdfError, OcrUnavailableError, ScannedPdfError,
                         TooLargeError)
from core.ingest.pdf import metadata as pdf_metadata
from core.ingest.pdf import figures, ocr
from core.ingest.pdf.layout import Line, is_toc_page, lines_from_dict, order_boxes
from core.ingest.pdf.page_labels import (detect_running_lines, infer_printed_labels, is_page_number,
                                         labels_from_rules, printed_number)
from core.ingest.pdf.ocr_text import page_lines
from core.ingest.pdf.paragraphs import (ParaBlock, Vocabulary, build_paragraphs, document_vocabulary, join_lines,
                                        runs_on)
from core.ingest.pdf.structure import (HeadingInfo, OutlineEntry, classify_heading, find_heading_lines,
                                       heading_candidates, norm_text, parse_outline, plausible_headings,
                                       refine_page_ends, repeated_texts, sections_from_headings)
from core.ingest.tree import finalize_sections
from core.models import Block, BlockKind, Frame, Page, ParsedBook, SectionNode, SourceFormat
from core.progress import CancelFn, ProgressFn, check_cancel, no_progress

log = logging.getLogger(__name__)

MAX_PAGES = 20_000
MAX_BYTES = 2 * 1024 ** 3
# Plain text extraction: no images (much faster), ligatures expanded ("ﬁ" -> "fi"), text outside
# the page box dropped.
_TEXT_FLAGS = pymupdf.TEXT_MEDIABOX_CLIP
_MIN_TEXT_CHARS = 10  # a page with fewer characters counts as having no text layer

# MuPDF prints repair notices on stderr; keep them in its warnings buffer for our log instead.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


@dataclass
class _PageData:
    lines: list[Line] = field(default_factory=list)
    width: float = 612.0
    height: float = 792.0
    chars: int = 0
    failed: bool = False
    scanned: bool = False  # no text layer but pictures: to be read by OCR
    pictures: list[Frame] = field(default_factory=list)  # what a figure caption on the page may frame
    entry_y: dict[int, float] = field(default_factory=dict)  # outline entry -> y of its target


def read(path: Path, progress: ProgressFn = no_progress, cancel: CancelFn | None = None) -> ParsedBook:
    """Read a PDF into a ``ParsedBook``.

    Raises ``EncryptedPdfError``, ``ScannedPdfError``, ``CorruptFileError``, ``EmptyDocumentError``,
    ``TooLargeError`` with a message naming the file, and ``ImportCancelled`` when ``cancel()``
    turns true (checked every page).
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CorruptFileError(f"{path.name} cannot be read: {exc.strerror or exc}.") from None
    if size > MAX_BYTES:
        raise TooLargeError(f"{path.name} is {size / 1024 ** 3:.1f} GB; Lantern imports PDFs up to 2 GB.")
    doc = _open(path)
    try:
        return _read_document(doc, path, progress or no_progress, cancel)
    finally:
        doc.close()


def _open(path: Path) -> pymupdf.Document:
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # MuPDF raises FileDataError/RuntimeError subclasses for damaged files
        _log_mupdf_warnings(path)
        raise CorruptFileError(f"{path.name} is damaged or not a valid PDF and cannot be opened ({exc}).") from None
    if doc.needs_pass:
        doc.close()
        raise EncryptedPdfError(
            f"{path.name} is password-protected. Open it in a PDF viewer, save an unprotected copy, "
            "and import that copy.")
    repaired = doc.is_repaired
    if repaired:
        log.warning("%s was damaged; MuPDF repaired it (some content may be missing).", path.name)
    _log_mupdf_warnings(path)
    if doc.page_count == 0:
        doc.close()
        if repaired:
            raise CorruptFileError(f"{path.name} is damaged (truncated or corrupt): no pages could be recovered.")
        raise EmptyDocumentError(f"{path.name} has no pages.")
    if doc.page_count > MAX_PAGES:
        n = doc.page_count
        doc.close()
        raise TooLargeError(f"{path.name} has {n:,} pages; Lantern imports PDFs of up to {MAX_PAGES:,} pages.")
    return doc


def _log_mupdf_warnings(path: Path) -> None:
    text = pymupdf.TOOLS.mupdf_warnings(reset=True)
    if text:
        log.debug("MuPDF messages for %s: %s", path.name, text.replace("\n", " | ")[:2000])


def _read_document(doc: pymupdf.Document, path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    n = doc.page_count
    entries = parse_outline(_outline(doc, path), n)
    if len(entries) < 2 and n > 10:
        entries = []  # a lone bookmark (often just the title) says nothing about chapters
    by_page: dict[int, list[int]] = {}
    for k, e in enumerate(entries):
        by_page.setdefault(e.page, []).append(k)

    pages, sizes = _extract_pages(doc, path, entries, by_page, progress, cancel)
    _recognise_scanned(doc, path, pages, sizes, progress, cancel)
    _check_text_layer(pages, path, doc.is_repaired)
    body_size = sizes.most_common(1)[0][0] if sizes else 10.0

    running = detect_running_lines([p.lines for p in pages], [p.height for p in pages], body_size)
    edge_texts = [[p.lines[i].text for i in sorted(r)] for p, r in zip(pages, running)]
    printed = infer_printed_labels([printed_number(t) for t in edge_texts],
                                   [any(is_page_number(x) for x in t) for t in edge_texts])
    labels = _page_labels(doc, n, printed)
    for p, r in zip(pages, running):
        if r:
            p.lines = [ln for i, ln in enumerate(p.lines) if i not in r]
    vocab = document_vocabulary(p.lines for p in pages)
    title = pdf_metadata.title(doc, pages[0].lines if pages else [], path, body_size)
    # Contents pages list headings without being headings; pages in the back that look like that
    # are indexes (see is_toc_page).
    front_pages = max(30, n // 4)
    toc_pages = {pno for pno, p in enumerate(pages, 1)
                 if p.lines and is_toc_page([ln.text for ln in p.lines], front=pno <= front_pages)}

    if entries:
        heading_lines, numbers = _outline_heading_lines(pages, entries, by_page, body_size)
        sections = []
        for k, e in enumerate(entries):
            info = numbers.get(k, e.info)
            sections.append(SectionNode(level=e.level, kind=info.kind, number=info.number, title=info.title,
                                        page_start=e.page))
    else:
        sections, heading_lines = _detected_sections(pages, body_size, title, toc_pages)

    blocks = _blocks(pages, heading_lines, vocab, toc_pages, cancel)
    finished = finalize_sections(sections, n)
    text_pages: dict[int, set[int]] = {}
    for b in blocks:
        if b.section is not None:
            text_pages.setdefault(b.section, set()).add(b.page)
    finished = refine_page_ends(finished, text_pages)
    meta = doc.metadata or {}
    return ParsedBook(
        title=title,
        source_format=SourceFormat.PDF,
        pages=tuple(Page(index=i + 1, label=labels[i]) for i in range(n)),
        sections=finished,
        blocks=tuple(blocks),
        authors=pdf_metadata.authors(meta.get("author") or ""),
        metadata=pdf_metadata.metadata(meta, bool(entries)),
    )


def _outline(doc: pymupdf.Document, path: Path) -> list[list[object]]:
    for simple in (False, True):
        try:
            return doc.get_toc(simple=simple)
        except Exception as exc:  # a broken outline must never stop the import
            log.warning("%s: cannot read the outline (%s)%s.", path.name, exc,
                        "; retrying without link details" if not simple else "")
    return []


def _extract_pages(doc: pymupdf.Document, path: Path, entries: list[OutlineEntry], by_page: dict[int, list[int]],
                   progress: ProgressFn, cancel: CancelFn | None) -> tuple[list[_PageData], Counter[float]]:
    n = doc.page_count
    pages: list[_PageData] = []
    sizes: Counter[float] = Counter()
    failed = 0
    for i in range(n):
        progress("reading pages", i, n)
        check_cancel(cancel)
        data = _PageData()
        try:
            page = doc.load_page(i)
            # Text coordinates ignore /Rotate, so measure the unrotated page (the crop box).
            box = page.cropbox
            data.width, data.height = box.width, box.height
            data.lines = lines_from_dict(page.get_text("dict", flags=_TEXT_FLAGS))
            data.scanned = ocr.needs_ocr(page, sum(len(ln.text) for ln in data.lines), _MIN_TEXT_CHARS)
            if not data.scanned:
                data.lines, data.pictures = figures.read_page(page, data.lines)
            for k in by_page.get(i + 1, ()):
                y = _entry_y(entries[k], page)
                if y is not None:
                    data.entry_y[k] = y
        except Exception as exc:  # one bad page must not kill the import
            failed += 1
            data.failed = True
            log.warning("%s: page %d could not be read (%s); skipping it.", path.name, i + 1, exc)
        for ln in data.lines:
            k = len(ln.text)
            data.chars += k
            sizes[ln.size] += k
        pages.append(data)
    progress("reading pages", n, n)
    _log_mupdf_warnings(path)
    if failed and failed * 2 >= n:
        raise CorruptFileError(f"{path.name} is damaged: {failed} of {n} pages could not be read.")
    return pages, sizes


def _recognise_scanned(doc: pymupdf.Document, path: Path, pages: list[_PageData], sizes: Counter[float],
                       progress: ProgressFn, cancel: CancelFn | None) -> None:
    """OCR the scanned pages, sizing their lines against the text layer's body type when the PDF is mixed."""
    scanned = [i for i, p in enumerate(pages) if p.scanned and not p.failed]
    if not scanned or (doc.is_repaired and len(scanned) > 0.9 * len(pages)):  # cut off: damage, not a scan
        return
    try:
        recognised = ocr.recognise_pages(doc, path, scanned, progress, cancel)
    except OcrUnavailableError as exc:
        if len(scanned) > 0.9 * len(pages):
            raise
        log.warning("%s; its %d scanned pages are skipped.", exc.message, len(scanned))  # a text book imports
        return
    printed = (ln.text for p in pages if not p.scanned for ln in p.lines)
    for i, lines in page_lines(recognised, printed, sizes.most_common(1)[0][0] if sizes else 10.0).items():
        pages[i].lines = lines
        for ln in lines:
            pages[i].chars += len(ln.text)
            sizes[ln.size] += len(ln.text)


def _entry_y(entry: OutlineEntry, page: pymupdf.Page) -> float | None:
    if entry.dest is None:
        return None
    point = pymupdf.Point(*entry.dest)
    if entry.dest_in_pdf_space:
        point = point * page.transformation_matrix
    y = point.y
    return y if 0 <= y <= page.cropbox.height else None


def _check_text_layer(pages: list[_PageData], path: Path, repaired: bool) -> None:
    readable = [p for p in pages if not p.failed]
    with_text = sum(1 for p in readable if p.chars >= _MIN_TEXT_CHARS)
    if not readable:
        raise CorruptFileError(f"{path.name} is damaged: none of its pages could be read.")
    if repaired and with_text < 0.1 * len(readable):
        # A cut-off file keeps its page list but loses the page contents: that is damage, not a scan.
        raise CorruptFileError(f"{path.name} is damaged (truncated or corrupt): its pages have lost their text.")
    if with_text == 0 or with_text < 0.1 * len(readable):
        raise ScannedPdfError(
            f"{path.name} has text on only {with_text} of {len(readable)} pages, and OCR found no text on its "
            "pictures either. If it is a scan, it may be too faint, too small or not in a Latin script.")
    if with_text < 0.9 * len(readable):
        log.warning("%s: %d of %d pages have no text (blank, or pictures without readable text).",
                    path.name, len(readable) - with_text, len(readable))


def _page_labels(doc: pymupdf.Document, n: int, printed: list[str | None]) -> list[str]:
    try:
        rules = doc.get_page_labels()
    except Exception as exc:
        log.warning("Cannot read page labels (%s).", exc)
        rules = []
    from_pdf = labels_from_rules(rules, n) if rules else [""] * n
    return [from_pdf[i] or printed[i] or str(i + 1) for i in range(n)]


def _outline_heading_lines(pages: list[_PageData], entries: list[OutlineEntry], by_page: dict[int, list[int]],
                           body_size: float) -> tuple[list[dict[int, int]], dict[int, HeadingInfo]]:
    """Find each bookmark's heading in its page's text.

    Returns, per page, line index -> section index (-1: further line of a wrapped heading, dropped;
    bookmarks not found get a marker keyed -(2 + k) placed by their target's y), and the numbers
    that printed headings add to unnumbered bookmarks ("The R environment" printed "1.1 The R
    environment").
    """
    out: list[dict[int, int]] = [{} for _ in pages]
    numbers: dict[int, HeadingInfo] = {}
    for pno, ks in by_page.items():
        page = pages[pno - 1]
        used: set[int] = set()
        norms = [norm_text(ln.text) for ln in page.lines]
        for k in ks:
            y = page.entry_y.get(k)
            found = find_heading_lines(entries[k].text, page.lines, body_size, used, y, norms)
            if found:
                used.update(found)
                out[pno - 1][found[0]] = k
                if entries[k].info.number is None:
                    printed = classify_heading(" ".join(page.lines[i].text for i in found), entries[k].level)
                    if printed.number and norm_text(printed.title) == norm_text(entries[k].info.title):
                        numbers[k] = printed
                for extra in found[1:]:
                    out[pno - 1][extra] = -1
            else:
                out[pno - 1][-(2 + k)] = k
    return out, numbers


def _detected_sections(pages: list[_PageData], body_size: float, title: str,
                       toc_pages: set[int]) -> tuple[list[SectionNode], list[dict[int, int]]]:
    found = []
    title_key = norm_text(title)
    for pno, p in enumerate(pages, 1):
        if not p.lines or pno in toc_pages:
            continue  # a table of contents lists headings; it never is one
        title_page = pno == 1 and len(p.lines) < 25
        for h in heading_candidates(p.lines, pno, body_size):
            if norm_text(h.text) == title_key and pno <= 2:
                continue  # the book title on the title page
            if title_page and classify_heading(h.text, 1, letters_ok=False).number is None:
                continue  # authors, publisher... on a sparse first page
            found.append(h)
    repeated = repeated_texts(found)
    found = plausible_headings([h for h in found if norm_text(h.text) not in repeated])
    sections = sections_from_headings(found)
    heading_lines: list[dict[int, int]] = [{} for _ in pages]
    for k, h in enumerate(found):
        heading_lines[h.page - 1][h.lines[0]] = k
        for extra in h.lines[1:]:
            heading_lines[h.page - 1][extra] = -1
    return sections, heading_lines


def _blocks(pages: list[_PageData], heading_lines: list[dict[int, int]], vocab: Vocabulary,
            toc_pages: set[int], cancel: CancelFn | None) -> list[Block]:
    """Blocks of the whole book in reading order, each tied to the section whose heading precedes it."""
    out: list[Block] = []
    current: int | None = None
    for pno, page in enumerate(pages, 1):
        check_cancel(cancel)
        marks = heading_lines[pno - 1]
        for item in _page_items(page, marks, vocab):
            if isinstance(item, int):
                current = item
                continue
            prev = out[-1] if out else None
            if (prev is not None and prev.section == current and prev.kind is BlockKind.TEXT
                    and item.kind is BlockKind.TEXT and runs_on(prev.text, item.text)):
                # A paragraph broken by a page or column end continues here.
                emphasis = prev.emphasis + tuple(e for e in item.emphasis if e not in prev.emphasis)
                out[-1] = Block(BlockKind.TEXT, join_lines([prev.text, item.text], vocab), prev.page, current,
                                emphasis)
                continue
            if pno in toc_pages:  # bold entries are chapter titles, not key terms; "Figure 3.2 ... 57" is no caption
                out.append(Block(item.kind, item.text, pno, current))
            else:
                out.append(Block(item.kind, item.text, pno, current, item.emphasis, item.label, item.frame))
    return out


def _page_items(page: _PageData, marks: dict[int, int], vocab: Vocabulary) -> list[ParaBlock | int]:
    """A page's paragraphs in reading order with section markers (ints) where headings are."""
    lines = page.lines
    boxes: dict[int, list[int]] = {}
    for i, ln in enumerate(lines):
        boxes.setdefault(ln.block, []).append(i)
    keys = list(boxes)
    rects = [(min(lines[i].x0 for i in boxes[b]), min(lines[i].y0 for i in boxes[b]),
              max(lines[i].x1 for i in boxes[b]), max(lines[i].y1 for i in boxes[b])) for b in keys]
    items: list[ParaBlock | int] = []
    run: list[Line] = []
    for bi in order_boxes(rects, page.width):
        for i in sorted(boxes[keys[bi]], key=lambda j: (lines[j].y0, lines[j].x0)):
            mark = marks.get(i)
            if mark is None:
                run.append(lines[i])
                continue
            items.extend(build_paragraphs(run, vocab))
            run = []
            if mark >= 0:
                items.append(mark)
    items.extend(build_paragraphs(run, vocab))
    items = figures.mark_figures(items, page.pictures)
    for key, k in sorted(((key, k) for key, k in marks.items() if key < -1), key=lambda kv: kv[1]):
        y = page.entry_y.get(k)
        pos = 0
        if y is not None:
            pos = next((j for j, it in enumerate(items) if isinstance(it, ParaBlock) and it.y0 >= y - 3),
                       len(items))
        items.insert(pos, k)
    return items


