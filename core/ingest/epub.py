"""EPUB importer: PyMuPDF lays the book out into pages; the navigation document gives the tree.

The archive is checked with ``zipfile`` before PyMuPDF touches it (zip bombs, missing container,
DRM), so a bad file fails fast with a readable message.  Sections come from ``doc.get_toc()``
with the same text rules as PDF outlines; each TOC entry is pinned to its heading line on the
page when that line can be found, so text above a mid-page heading stays in the previous section.
"""
from __future__ import annotations

import logging
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

import pymupdf

from core.errors import CorruptFileError, DrmProtectedError, EmptyDocumentError, TooLargeError, UnreadablePathError
from core.ingest.flow import classify_heading, clean_emphasis, section_fields
from core.ingest.captions import label_blocks
from core.ingest.epub_math import insert_math, spine_math
from core.ingest.tree import finalize_sections
from core.models import Block, BlockKind, Page, ParsedBook, SectionNode, SourceFormat
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

MAX_UNCOMPRESSED = 500 * 1024 * 1024
MAX_RATIO = 100
_RATIO_MIN_BYTES = 1024 * 1024  # compression ratios of small archives say nothing
_FONT_OBFUSCATION = {"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"}
_FONT_EXT = (".otf", ".ttf", ".woff", ".woff2")
_BOLD, _ITALIC, _MONO = 16, 2, 8
_BULLET = re.compile(r"^\s*(?:[\u2022\u25e6\u25aa\u2023\u2013*-]|\d{1,3}[.)]|[a-z][.)])\s")


@dataclass
class _RawBlock:
    page: int
    y: float
    text: str
    kind: BlockKind
    emphasis: tuple[str, ...]
    size: float
    lines: int
    bold: bool
    heading: bool = field(default=False)  # claimed as a section heading: not body text


def read(path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    """Read an EPUB into a ``ParsedBook``; pages are PyMuPDF's layout pages, labelled "1", "2", ..."""
    check_archive(path)
    try:
        doc = pymupdf.open(path, filetype="epub")
    except (RuntimeError, ValueError) as exc:  # FileDataError subclasses RuntimeError
        log.info("PyMuPDF cannot open %s: %s", path, exc)
        raise CorruptFileError(
            f"{path.name} is not a readable EPUB book: its package or content files are damaged.") from None
    try:
        return _read_open(doc, path, progress, cancel)
    except (RuntimeError, ValueError) as exc:  # damage MuPDF only notices while laying out pages
        log.info("PyMuPDF failed while reading %s: %s", path, exc)
        raise CorruptFileError(f"{path.name} is damaged: part of the book cannot be laid out.") from None
    finally:
        doc.close()


def _read_open(doc: pymupdf.Document, path: Path, progress: ProgressFn, cancel: CancelFn | None) -> ParsedBook:
    """Pages, TOC and metadata of an opened EPUB (the caller closes ``doc``)."""
    if doc.needs_pass or doc.is_encrypted:
        raise DrmProtectedError(f"{path.name} is protected (DRM or password); Lantern cannot read it.")
    n = doc.page_count
    if n == 0:
        raise EmptyDocumentError(f"{path.name} has no pages to read.")
    raw: list[_RawBlock] = []
    for pno in range(n):
        check_cancel(cancel)
        if pno % 25 == 0:
            progress("reading pages", pno, n)
        raw.extend(page_blocks(doc[pno], pno + 1))
    progress("reading pages", n, n)
    put_math(path, raw)
    if not any(b.text.strip() for b in raw):
        raise EmptyDocumentError(f"{path.name} contains no readable text.")
    toc = doc.get_toc(simple=True)
    meta = {k: v for k, v in (doc.metadata or {}).items() if v}
    anchors = toc_anchors(toc, raw, n) if toc else font_anchors(raw)
    sections, blocks = _assign(anchors, raw)
    if not blocks:
        raise EmptyDocumentError(f"{path.name} contains no readable text.")
    authors = tuple(a.strip() for a in re.split(r";|\s+&\s+|\s+and\s+", meta.get("author", "")) if a.strip())
    metadata = tuple((k, str(v)) for k, v in meta.items() if k not in ("format", "encryption"))
    return ParsedBook(
        title=" ".join(meta.get("title", "").split()) or path.stem.replace("_", " "),
        source_format=SourceFormat.EPUB,
        pages=tuple(Page(i, str(i)) for i in range(1, n + 1)),
        sections=finalize_sections(sections, n),
        blocks=tuple(label_blocks(blocks)),
        authors=authors,
        metadata=metadata,
        paginated=True,
    )


def check_archive(path: Path) -> None:
    """Refuse EPUBs that are not zips, lack a container, expand too much, or carry DRM."""
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise CorruptFileError(f"{path.name} is not a valid EPUB: it is not a complete zip archive "
                               "(it may be truncated or damaged).") from None
    except OSError as exc:
        raise UnreadablePathError(f"{path.name} cannot be read: {exc.strerror or exc}.") from None
    with zf:
        infos = zf.infolist()
        total = sum(i.file_size for i in infos)
        packed = sum(i.compress_size for i in infos)
        if total > MAX_UNCOMPRESSED:
            raise TooLargeError(f"{path.name} expands to {total // 2**20} MB; Lantern reads EPUBs up to "
                                f"{MAX_UNCOMPRESSED // 2**20} MB uncompressed.")
        for info in [*infos, None]:
            size, comp = (total, packed) if info is None else (info.file_size, info.compress_size)
            if size > _RATIO_MIN_BYTES and size > MAX_RATIO * max(comp, 1):
                raise TooLargeError(f"{path.name} expands {size // max(comp, 1)}x when unpacked, which looks like "
                                    "a zip bomb rather than a book; it was not opened.")
        names = {i.filename for i in infos}
        if "META-INF/container.xml" not in names:
            raise CorruptFileError(f"{path.name} is not a valid EPUB: META-INF/container.xml is missing.")
        if names & {"META-INF/rights.xml", "META-INF/sinf.xml"} or (
                "META-INF/encryption.xml" in names and _content_encrypted(zf)):
            raise DrmProtectedError(
                f"{path.name} is DRM-protected. Lantern can only read DRM-free EPUBs; export or buy a "
                "DRM-free copy.")


def _content_encrypted(zf: zipfile.ZipFile) -> bool:
    """True when encryption.xml encrypts more than fonts (font obfuscation is not DRM)."""
    info = zf.getinfo("META-INF/encryption.xml")
    if info.file_size > 4 * 1024 * 1024:
        return True
    try:
        root = ElementTree.fromstring(zf.read(info))
    except (ElementTree.ParseError, zipfile.BadZipFile, OSError):
        return True
    for data in root.iter():
        if not data.tag.endswith("EncryptedData"):
            continue
        algo = next((e.get("Algorithm", "") for e in data.iter() if e.tag.endswith("EncryptionMethod")), "")
        uri = next((e.get("URI", "") for e in data.iter() if e.tag.endswith("CipherReference")), "")
        if algo not in _FONT_OBFUSCATION and not uri.lower().endswith(_FONT_EXT):
            return True
    return False


def put_math(path: Path, raw: list[_RawBlock]) -> None:
    """LaTeX in place of the run-together token text PyMuPDF prints for each MathML formula ("Ek=12mv2");
    a block that is one display formula becomes an EQUATION block reading ``$$ … $$``."""
    maths = spine_math(path)
    if not maths:
        return
    body = [b for b in raw if b.kind is not BlockKind.CODE]
    for block, text in zip(body, insert_math([b.text for b in body], maths)):
        if text != block.text:
            block.text = text
            if text.startswith("$$") and text.endswith("$$") and text.count("$$") == 2:
                block.kind = BlockKind.EQUATION


def page_blocks(page: pymupdf.Page, pno: int) -> list[_RawBlock]:
    """Text blocks of one laid-out page with kind (code = monospace, list = bullets) and emphasis."""
    out: list[_RawBlock] = []
    for b in page.get_text("dict")["blocks"]:
        if b.get("type") != 0:
            continue
        lines: list[str] = []
        runs: list[str] = []
        run: list[str] = []
        sizes: Counter[float] = Counter()
        mono = bold = True
        for line in b["lines"]:
            text = ""
            for span in line["spans"]:
                t, flags = span["text"], span["flags"]
                if not t.strip():
                    text += t
                    continue
                sizes[round(span["size"], 1)] += len(t)
                mono &= bool(flags & _MONO)
                bold &= bool(flags & _BOLD)
                if flags & (_BOLD | _ITALIC):
                    run.append(t)
                elif run:
                    runs.append("".join(run))
                    run = []
                text += t
            if run:
                run.append(" ")
            lines.append(text)
        if run:
            runs.append("".join(run))
        if not any(ln.strip() for ln in lines) or not sizes:
            continue
        if mono:
            kind, text = BlockKind.CODE, "\n".join(ln.rstrip() for ln in lines)
        elif _BULLET.match(lines[0]):
            kind, text = BlockKind.LIST, _join_list(lines)
        else:
            kind, text = BlockKind.TEXT, _join_lines(lines)
        out.append(_RawBlock(pno, b["bbox"][1], text, kind, clean_emphasis(runs), sizes.most_common(1)[0][0],
                             len(lines), bold))
    return out


def _join_lines(lines: list[str]) -> str:
    out = ""
    for ln in (" ".join(x.split()) for x in lines):
        if not ln:
            continue
        out = ln if not out else out + ln if out.endswith("-") else out + " " + ln
    return out


def _join_list(lines: list[str]) -> str:
    items: list[str] = []
    for ln in lines:
        clean = " ".join(ln.split())
        if not clean:
            continue
        if _BULLET.match(ln) or not items:
            items.append(clean)
        else:
            items[-1] += " " + clean
    return "\n".join(items)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", text.lower()).split())


def toc_anchors(toc: list[list], raw: list[_RawBlock], page_count: int) -> list[tuple[SectionNode, float]]:
    """Sections from the TOC, each with the y of its heading line on its page (-1 = page top).

    Heading lines found this way are marked so they do not also become body text.
    """
    by_page: dict[int, list[_RawBlock]] = {}
    for b in raw:
        by_page.setdefault(b.page, []).append(b)
    anchors: list[tuple[SectionNode, float]] = []
    last_page = 1
    for entry in toc:
        level, title, page = int(entry[0]), " ".join(str(entry[1]).split()), int(entry[2])
        if not title:
            continue
        page = page if 1 <= page <= page_count else last_page
        last_page = page
        y = -1.0
        want = _norm(title)
        for b in by_page.get(page, []):
            got = _norm(b.text)
            if not b.heading and b.lines <= 3 and want and (got == want or (
                    (want in got or got in want) and len(got.split()) <= len(want.split()) + 3 and len(got) > 2)):
                b.heading, y = True, b.y
                break
        kind, number, stitle = section_fields(title, level, classify_heading(title))
        anchors.append((SectionNode(level=level, kind=kind, number=number, title=stitle, page_start=page), y))
    return anchors


def font_anchors(raw: list[_RawBlock]) -> list[tuple[SectionNode, float]]:
    """Fallback when the EPUB has no TOC: short lines set clearly larger than the body are headings."""
    sizes: Counter[float] = Counter()
    for b in raw:
        sizes[b.size] += len(b.text)
    if not sizes:
        return []
    body = sizes.most_common(1)[0][0]
    candidates = [b for b in raw if b.kind is BlockKind.TEXT and b.lines <= 2 and len(b.text.split()) <= 15
                  and (b.size >= body * 1.15 or (b.bold and classify_heading(b.text) is not None))]
    ranks = sorted({round(b.size) for b in candidates}, reverse=True)
    anchors: list[tuple[SectionNode, float]] = []
    for b in candidates:
        level = min(ranks.index(round(b.size)) + 1, 4)
        kind, number, stitle = section_fields(b.text, level, classify_heading(b.text))
        b.heading = True
        anchors.append((SectionNode(level=level, kind=kind, number=number, title=stitle, page_start=b.page), b.y))
    return anchors


def _assign(anchors: list[tuple[SectionNode, float]], raw: list[_RawBlock]) -> tuple[list[SectionNode], list[Block]]:
    """Give every body block the section whose heading precedes it (by page, then y)."""
    sections = [a[0] for a in anchors]
    positions = [(s.page_start, y) for s, y in anchors]
    blocks: list[Block] = []
    current: int | None = None
    nxt = 0
    for b in raw:
        while nxt < len(positions) and positions[nxt] <= (b.page, b.y + 0.5):
            current, nxt = nxt, nxt + 1
        if b.heading or not b.text.strip():
            continue
        blocks.append(Block(b.kind, b.text, b.page, current, b.emphasis))
    return sections, blocks
