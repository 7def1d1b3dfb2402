"""OCR for pages without a text layer: render, recognise with RapidOCR (ONNX Runtime), cache per page.

The recogniser is ``rapidocr-onnxruntime``: its wheel carries the PP-OCRv4 detection and recognition
models (~16 MB), so nothing is downloaded.  It loads lazily, on the first scanned page.  Each page's
result is appended to a cache file named by the PDF's SHA-256 as soon as it is read, so a cancelled
or killed import (and the re-read that finishes a pending book) picks up where it stopped, and the
reader can lay an invisible text layer over a scanned page to find and highlight quotes.
"""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pymupdf

from core.errors import OcrUnavailableError
from core.ingest.pdf.ocr_text import GlueSplitter, OcrLine, gap_spaces
from core.ingest.pdf.page_labels import is_page_number
from core.paths import cache_dir, file_sha256
from core.progress import CancelFn, ProgressFn, check_cancel

log = logging.getLogger(__name__)

DPI = 150  # measured: ~2 s a page on 2 cores, 0.99 character agreement with the text layer
ENGINE = "rapidocr-onnxruntime-1.4.4/ppocrv4/150dpi/5"  # part of the cache key: change it to re-read pages
_DARK = 128  # grey level below which a pixel is ink
MARGIN = 0.12  # top and bottom share of the page where printed page numbers are looked for

Recognise = Callable[[np.ndarray], list[tuple[list[list[float]], str, float, list[float]]]]
"""image (grey, HxW uint8) -> [(line box corners in pixels, text, score, x centre of each character of text)]"""


_engine_lock = threading.Lock()
_engine: Recognise | None = None


def engine() -> Recognise:
    """The shared recogniser (see ``Recognise``)."""
    global _engine
    with _engine_lock:
        if _engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:
                raise OcrUnavailableError(
                    "has scanned pages (pictures of text) and the OCR component (rapidocr-onnxruntime) "
                    f"is not installed ({exc}). Reinstall Lantern to read scanned books.") from None
            # Book pages are upright: no angle classifier.  One line per batch: padding lines to the
            # widest in a batch made recognition 1.2-7x slower here.
            rapid = RapidOCR(use_cls=False, rec_batch_num=1, print_verbose=False)

            def run(image: np.ndarray) -> list[tuple[list[list[float]], str, float, list[float]]]:
                result, _ = rapid(image, return_word_box=True)
                out = []
                for row in result or []:
                    chars = row[3] if len(row) > 3 and row[3] else []  # one box per character
                    out.append((row[0], row[1], float(row[2]), [(c[0][0] + c[1][0]) / 2 for c in chars]))
                return out
            _engine = run
        return _engine


def needs_ocr(page: pymupdf.Page, text_chars: int, min_chars: int) -> bool:
    """A page to recognise: (almost) no text layer, and pictures covering at least a third of it (a
    scan; a blank page with a small ornament or logo is not worth two seconds)."""
    if text_chars >= min_chars:
        return False
    try:
        if not page.get_images(full=False):
            return False
        area = abs(page.rect) or 1.0
        covered = sum(abs(pymupdf.Rect(info["bbox"]) & page.rect) for info in page.get_image_info())
    except Exception:  # a damaged resource dictionary: treat as a blank page
        return False
    return covered >= area / 3


def page_image(page: pymupdf.Page, dpi: int = DPI, clip: pymupdf.Rect | None = None) -> np.ndarray:
    """The page (or its ``clip``) rendered in grey at ``dpi`` as an HxW uint8 array."""
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False, clip=clip)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]


def recognise_page(page: pymupdf.Page, recognise: Recognise, dpi: int = DPI) -> list[OcrLine]:
    """OCR one page: its lines in page points, with the x-height and ink measured on the image.

    When the page has text but nothing in its top or bottom margin looks like a page number, the
    margins are read again at twice the resolution: the detector misses a lone small "7" at 150 dpi,
    and printed page numbers are what citations show.  A page scanned askew is turned straight first.
    """
    box = page.cropbox
    image, back = deskew(page_image(page, dpi))
    lines = _read_image(image, recognise, 72.0 / dpi, box.x0, box.y0, back)
    margin = MARGIN * box.height
    if lines and not any(is_page_number(ln.text) for ln in lines if ln.y0 < box.y0 + margin or ln.y1 > box.y1 - margin):
        for clip in (pymupdf.Rect(box.x0, box.y0, box.x1, box.y0 + margin),
                     pymupdf.Rect(box.x0, box.y1 - margin, box.x1, box.y1)):
            strip = page_image(page, 2 * dpi, clip)
            lines.extend(ln for ln in _read_image(strip, recognise, 72.0 / (2 * dpi), clip.x0, clip.y0)
                         if is_page_number(ln.text) and not any(_overlap(ln, other) for other in lines))
    return lines


def _overlap(a: OcrLine, b: OcrLine) -> bool:
    return min(a.x1, b.x1) > max(a.x0, b.x0) and min(a.y1, b.y1) > max(a.y0, b.y0)


def deskew(image: np.ndarray, limit: float = 3.0) -> tuple[np.ndarray, np.ndarray | None]:
    """``image`` turned so its lines of text run level, and the 2x3 map from its pixels back to the
    original's (None when it was level already).

    The angle is the one whose rows of ink are the most uneven (text lines and the gaps between them
    line up), searched in quarter degrees up to ``limit`` and then in twentieths, on a quarter-size copy.
    Measuring type size, boldness and word gaps needs level lines: at 1 degree a 900-pixel line drifts
    16 pixels, more than its x-height.
    """
    import cv2
    small = cv2.resize(image, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA)
    ink = (small < _DARK).astype(np.float32)
    if ink.sum() < 50:
        return image, None
    centre = (ink.shape[1] / 2, ink.shape[0] / 2)

    def evenness(angle: float) -> float:
        turned = cv2.warpAffine(ink, cv2.getRotationMatrix2D(centre, angle, 1.0), ink.shape[::-1])
        return float(np.var(turned.sum(axis=1)))
    coarse = max(np.arange(-limit, limit + 0.01, 0.25), key=evenness)
    angle = float(max(np.arange(coarse - 0.25, coarse + 0.26, 0.05), key=evenness))
    if abs(angle) < 0.1:
        return image, None
    h, w = image.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    level = cv2.warpAffine(image, turn, (w, h), flags=cv2.INTER_LINEAR, borderValue=255)
    return level, cv2.invertAffineTransform(turn)


def _read_image(image: np.ndarray, recognise: Recognise, scale: float, x_off: float, y_off: float,
                back: np.ndarray | None = None) -> list[OcrLine]:
    """Lines recognised on ``image``, measured there; placed in page points (through ``back`` onto the
    page as it was scanned, when the image was turned level)."""
    found = []
    for corners, text, score, centres in recognise(image):
        if not text.strip():
            continue
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        x0, x1 = max(0, int(min(xs))), int(max(xs)) + 1
        y0, y1 = max(0, int(min(ys))), int(max(ys)) + 1
        crop = image[y0:y1, x0:x1]
        xheight, ink, core = measure_ink(crop)
        found.append((text, centres, (x0, y0, x1, y1), xheight, ink, core, score, x_height(crop, xheight)))
    heights = sorted(f[3] for f in found if f[3] > 0)
    page_xheight = heights[len(heights) // 2] if heights else 0.0
    out = []
    for text, centres, (x0, y0, x1, y1), xheight, ink, core, score, size_xheight in found:
        # Gaps are looked for from cap height down to the baseline: the box also catches the
        # descenders of the line above, which would fill the spaces between words; without the rows
        # above the x-height a capital T is a bare stem with a "space" on each side.
        if core is not None:
            # A small caption's x-height is measured short; letter gaps must not pass for spaces.
            gap_xheight = max(xheight, 0.8 * page_xheight)
            rows = np.flatnonzero(core)
            top = max(0, y0 + rows[0] - int(round(0.5 * gap_xheight)))
            inked = (image[top:y0 + rows[-1] + 1] < _DARK).any(axis=0).tolist()
            text = gap_spaces(text, centres, inked, gap_xheight)
        if back is not None:  # the box as it lies on the scanned page
            pts = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], float) @ back.T
            x0, y0 = pts.min(axis=0)
            x1, y1 = pts.max(axis=0)
        out.append(OcrLine(text=text, x0=x_off + x0 * scale, y0=y_off + y0 * scale, x1=x_off + x1 * scale,
                           y1=y_off + y1 * scale, xheight=size_xheight * scale, ink=ink, score=score))
    return out


def measure_ink(crop: np.ndarray) -> tuple[float, float, np.ndarray | None]:
    """(x-height in pixels, share of ink in it, its rows as a mask) of a line image: the rows at least
    half as inked as the densest row are the core band of lower-case letters; ascenders and
    descenders fall outside it."""
    if crop.size == 0:
        return 0.0, 0.0, None
    dark = crop < _DARK
    rows = dark.sum(axis=1)
    if rows.max() == 0:
        return 0.0, 0.0, None
    core = rows >= 0.5 * rows.max()
    return float(core.sum()), float(dark[core].mean()), core


def x_height(crop: np.ndarray, band: float) -> float:
    """The x-height of a line image in pixels, to a fraction of a pixel, for telling type sizes apart;
    0 when the line gives no clear answer.

    Rows of ink jump up at the x-line (the tops of most lower-case letters) and drop at the baseline,
    so the distance between the largest rise and the largest fall of the row profile is the x-height
    whatever the letters; each edge is placed between rows by a parabola through its neighbours.
    (The core band of ``measure_ink`` is steadier for gaps but follows how heavy the letters are.)
    The answer is only trusted near the core band's (0.8-3.5 times it on body text of five books).
    """
    if crop.shape[0] < 4 or band <= 0:
        return 0.0
    rows = (crop < _DARK).sum(axis=1).astype(float)
    step = np.diff(rows)
    top, bottom = int(np.argmax(step)), int(np.argmin(step))
    height = _peak(step, bottom) - _peak(step, top)
    return height if 0.8 * band <= height <= 3.5 * band else 0.0


def _peak(values: np.ndarray, i: int) -> float:
    if 0 < i < len(values) - 1:
        a, b, c = values[i - 1], values[i], values[i + 1]
        curve = a - 2 * b + c
        if curve:
            return i + 0.5 * (a - c) / curve
    return float(i)


class PageCache:
    """Recognised pages of one PDF, appended one JSON line per page (a torn last line is ignored)."""

    def __init__(self, digest: str, root: Path | None = None):
        self.path = (root or cache_dir() / "ocr") / f"{digest}.jsonl"

    def load(self) -> dict[int, list[OcrLine]]:
        """Page index (0-based) -> lines, for pages read by this engine version."""
        out: dict[int, list[OcrLine]] = {}
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return out
        except OSError as exc:
            log.warning("cannot read the OCR cache %s (%s); pages will be read again", self.path, exc)
            return out
        for row in raw.splitlines():
            try:
                rec = json.loads(row)
                if rec.get("engine") == ENGINE:
                    out[int(rec["page"])] = [OcrLine(*fields) for fields in rec["lines"]]
            except (ValueError, TypeError, KeyError):
                continue  # the line a kill cut short
        return out

    def remove(self) -> None:
        """Forget this PDF's pages (its book left the library: its text should not stay behind)."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("cannot remove the OCR cache %s (%s)", self.path, exc)

    def append(self, page: int, lines: Sequence[OcrLine]) -> None:
        rec = {"engine": ENGINE, "page": page,
               "lines": [[ln.text, round(ln.x0, 2), round(ln.y0, 2), round(ln.x1, 2), round(ln.y1, 2),
                          round(ln.xheight, 3), round(ln.ink, 4), round(ln.score, 3)] for ln in lines]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        except OSError as exc:  # a full or read-only cache costs a re-read later, never the import
            log.warning("cannot write the OCR cache %s (%s)", self.path, exc)


class TextLayer:
    """The recognised lines of a scanned PDF, page by page, with words fixed as the import fixed them.

    Built from the OCR cache when the reader opens a book (a few milliseconds); a page's words are
    fixed when the page is first shown, so opening a 500-page scan does not hold up the window.
    """

    def __init__(self, recognised: dict[int, list[OcrLine]]):
        self._raw = dict(recognised)
        self._splitter: GlueSplitter | None = None

    @classmethod
    def of(cls, digest: str) -> TextLayer:
        """The layer of the PDF with this SHA-256 (empty when it had no scanned pages, or the cache is gone)."""
        return cls(PageCache(digest).load())

    def __bool__(self) -> bool:
        return bool(self._raw)

    def take(self, page: int) -> list[OcrLine]:
        """The lines of page index ``page`` (0-based), once: later calls return []."""
        raw = self._raw.get(page)
        if not raw:
            return []
        if self._splitter is None:  # counted over every page, as the import counted them
            self._splitter = GlueSplitter.from_texts(ln.text for lines in self._raw.values() for ln in lines)
        self._raw[page] = []
        return [replace(ln, text=self._splitter.split_text(ln.text)) for ln in raw]


def add_invisible_text(page: pymupdf.Page, lines: Sequence[OcrLine]) -> None:
    """Lay ``lines`` over ``page`` as invisible text (in memory), so search and highlights work on a scan."""
    for ln in lines:
        height = ln.y1 - ln.y0
        width = ln.x1 - ln.x0
        if height <= 0 or width <= 0:
            continue
        size = height * 0.75
        natural = pymupdf.get_text_length(ln.text, fontname="helv", fontsize=size)
        if natural <= 0:
            continue
        origin = pymupdf.Point(ln.x0, ln.y1 - height * 0.2)
        page.insert_text(origin, ln.text, fontsize=size, fontname="helv", render_mode=3,
                         morph=(origin, pymupdf.Matrix(width / natural, 1)))


def recognise_pages(doc: pymupdf.Document, path: Path, indices: Sequence[int], progress: ProgressFn,
                    cancel: CancelFn | None) -> dict[int, list[OcrLine]]:
    """OCR the pages ``indices`` (0-based) of ``doc``, reusing and extending the cache of ``path``.

    Reports ``progress("reading scanned pages", k, n)`` and checks ``cancel`` before each page; pages
    read before a cancel stay cached.
    """
    cache = PageCache(file_sha256(path))
    done = cache.load()
    todo = [i for i in indices if i not in done]
    if todo:
        log.info("%s: recognising %d scanned pages (%d cached)", path.name, len(todo), len(indices) - len(todo))
    try:
        recognise = engine() if todo else None
    except OcrUnavailableError as exc:
        raise OcrUnavailableError(f"{path.name} {exc.message}") from None
    n = len(indices)
    for k, i in enumerate(indices):
        progress("reading scanned pages", k, n)
        if i in done:
            continue
        check_cancel(cancel)
        try:
            lines = recognise_page(doc.load_page(i), recognise)
        except Exception as exc:  # one unreadable picture must not stop the book
            log.warning("%s: page %d could not be recognised (%s); skipping it.", path.name, i + 1, exc)
            continue
        cache.append(i, lines)
        done[i] = lines
    progress("reading scanned pages", n, n)
    return {i: done[i] for i in indices if i in done}


def picture_copy(src: Path, dst: Path, dpi: int = DPI, front_pages: int = 0) -> Path:
    """Write ``dst``: ``src`` as grey page pictures only, what a scanner makes (no text layer, no
    bookmarks), after ``front_pages`` blank pictures.  For tests, benchmarks and screenshots."""
    with pymupdf.open(src) as doc, pymupdf.open() as out:
        first = doc[0].rect
        blank = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 85, 110), False)
        blank.set_rect(blank.irect, (255,))
        for _ in range(front_pages):
            out.new_page(width=first.width, height=first.height).insert_image(first, pixmap=blank)
        for page in doc:
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY))
        out.save(dst, deflate=True, garbage=3)
    return dst
