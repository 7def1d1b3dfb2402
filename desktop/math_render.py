"""Equations in the chat: LaTeX spans found in text and drawn as images with matplotlib's mathtext.

Books keep their equations as LaTeX in the chunk text (``$$ … $$`` display, ``\\( … \\)`` or ``$ … $``
inline), so answers, quotes and source passages carry them too.  ``math_html`` turns such text into
HTML for a ``QTextBrowser``/``QLabel`` with every formula an ``<img>`` (a ``data:`` URI, which Qt's rich
text loads without a resource handler).  A formula mathtext cannot draw is shown as its TeX source in a
monospace span; nothing here raises for bad TeX.  Only the Agg backend is used (no pyplot, no GUI), and
matplotlib is imported on the first formula, with its cache in Lantern's cache folder.
"""
from __future__ import annotations

import base64
import functools
import html
import io
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

# "$$…$$", "\[…\]", "\(…\)", or "$…$" by Pandoc's rule: a non-space right after the opening "$" and right
# before the closing one, and no digit right after it, so "costs $5 and $10" is not math.
_MATH = re.compile(r"\$\$(?P<dd>.+?)\$\$|\\\[(?P<db>.+?)\\\]|\\\((?P<ip>.+?)\\\)"
                   r"|(?<![\\$\w])\$(?=[^\s$])(?P<id>(?:\\.|[^$\\\n])+?)(?<=[^\s\\])\$(?!\d)", re.S)
# What code between two "$" looks like and TeX rarely does: a leading "(", a ";", a method call "v.push(".
_CODE_LIKE = re.compile(r"^\(|;|\w\.\w+\(")
_OPENERS = re.compile(r"\$\$|\\\[|\\\(")
_ALIGN_ENVS = {"aligned", "align", "align*", "split", "gathered", "gather", "gather*", "eqnarray", "eqnarray*",
               "alignat", "alignat*", "multline", "equation", "equation*"}
# TeX that mathtext does not know, rewritten to what it does (or dropped when it only tunes spacing/size).
_COMPAT = [(re.compile(p), r) for p, r in (
    (r"\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits|nonumber|notag|!)(?![A-Za-z])", ""),
    (r"\\(?:tag|label)\*?\{[^{}]*\}", ""),
    (r"\\[bB]ig{1,2}[lrm]?(?![A-Za-z])", ""),
    (r"\\le(?![A-Za-z])", r"\\leq"), (r"\\ge(?![A-Za-z])", r"\\geq"),
    (r"\\iff(?![A-Za-z])", r"\\Leftrightarrow"), (r"\\implies(?![A-Za-z])", r"\\Rightarrow"),
    (r"\\[lr]vert(?![A-Za-z])", "|"), (r"\\[lr]Vert(?![A-Za-z])", r"\\|"), (r"\\&", "&"),
    (r"\\tfrac(?![A-Za-z])", r"\\frac"), (r"\\text(rm|it|bf|sf|tt)(?![A-Za-z])", r"\\math\1"),
    (r"\\mbox(?![A-Za-z])", r"\\text"), (r"\\operatorname\*", r"\\operatorname"),
    (r"\\stackrel(?![A-Za-z])", r"\\overset"), (r"\\xrightarrow\{([^{}]*)\}", r"\\overset{\1}{\\rightarrow}"),
    (r"\\xleftarrow\{([^{}]*)\}", r"\\overset{\1}{\\leftarrow}"), (r"\\(?:boxed|cancel)(?![A-Za-z])", ""),
    (r"\\Box(?![A-Za-z])", r"\\square"), (r"(?<!\\)~", r"\\ "),
)]


@dataclass(frozen=True)
class MathSpan:
    """One formula in a text: ``text[start:end]`` is it with its delimiters, ``tex`` without."""

    start: int
    end: int
    tex: str
    display: bool


@dataclass(frozen=True)
class MathStyle:
    """How formulas are drawn: the surrounding font's pixel size and x-height, the text colour, and the
    screen's device-pixel ratio (images are drawn at that resolution and shown at their logical size)."""

    px: float = 13.0
    color: str = "#000000"
    x_height: float = 7.0
    scale: float = 1.0

    @classmethod
    def for_font(cls, font, color: str, scale: float = 1.0) -> MathStyle:
        """The style of a ``QFont`` in ``color`` on a screen of device-pixel ratio ``scale``."""
        from PySide6.QtGui import QFontInfo, QFontMetricsF
        return cls(float(QFontInfo(font).pixelSize()), color, QFontMetricsF(font).xHeight(), max(1.0, scale))

    @classmethod
    def for_widget(cls, widget, color: str | None = None) -> MathStyle:
        """The style of ``widget``'s font and text colour (``color`` overrides it, e.g. for muted text)."""
        from PySide6.QtGui import QPalette
        text = color or widget.palette().color(QPalette.ColorRole.Text).name()
        return cls.for_font(widget.font(), text, float(widget.devicePixelRatioF()))


@dataclass(frozen=True)
class Formula:
    """A rendered formula: PNG bytes at ``scale`` times its logical ``width`` x ``height`` pixels."""

    png: bytes
    width: int
    height: int

    def img(self, tex: str) -> str:
        uri = "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")
        return (f'<img src="{uri}" width="{self.width}" height="{self.height}" alt="{html.escape(tex)}"'
                ' style="vertical-align: middle">')


def find_math(text: str) -> list[MathSpan]:
    """The formulas in ``text`` in order (``$$…$$`` and ``\\[…\\]`` display, ``\\(…\\)`` and ``$…$`` inline)."""
    spans = []
    for m in _MATH.finditer(text):
        key = next(k for k in ("dd", "db", "ip", "id") if m.group(k) is not None)
        tex = m.group(key).strip()
        if key == "id" and _CODE_LIKE.search(tex):
            continue  # "$( v.push($" in a Rust macro, "$x; echo $" in a shell line: code, not math
        if tex:
            spans.append(MathSpan(m.start(), m.end(), tex, key in ("dd", "db")))
    return spans


def clip(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters at a space, never inside a formula (one the cut would split
    is kept whole when short, else left out), and without the opening delimiter of a formula an earlier cut
    left unclosed ("… $$ E = m"); "…" marks a cut."""
    spans = find_math(text)

    def inside(i: int) -> MathSpan | None:
        return next((s for s in spans if s.start < i < s.end), None)
    cut = len(text)
    if len(text) > limit:
        span = inside(limit)
        if span is not None:
            cut = span.end if span.end - limit < 80 else span.start
        else:
            cut = text.rfind(" ", 0, limit)
            while cut > 0 and (span := inside(cut)) is not None:
                cut = text.rfind(" ", 0, span.start + 1)
            cut = cut if cut > 0 else limit
    head = text[:cut]
    done = [s.end for s in spans if s.end <= cut]
    dangling = _OPENERS.search(head, done[-1] if done else 0)
    if dangling is not None:
        head = head[:dangling.start()]
    return head if head == text else head.rstrip() + "…"


def mathtext_tex(tex: str) -> list[tuple[str, bool]]:
    """``tex`` as rows mathtext can draw: ``(row, centred)``.  Environments and ``\\\\`` line breaks become
    separate rows (mathtext has neither); ``&`` is dropped in aligned equations and spaces matrix cells."""
    env = re.search(r"\\begin\{([a-zA-Z*]+)\}", tex)
    aligned = env is None or env.group(1) in _ALIGN_ENVS
    tex = re.sub(r"\\(?:begin|end)\{[a-zA-Z*]+\}(?:\{[^{}]*\})?", " ", tex)
    rows = [" ".join(re.sub(r"(?<!\\)&", "" if aligned else r"\\quad ", r).split())
            for r in re.split(r"\\\\|\n", tex)]
    rows = [_brace_frac_args(_compat(r)) for r in rows if r]
    # mathtext's \frac shrinks both parts to about half the text size, unreadable at chat sizes (even inline).
    rows = [re.sub(r"\\frac(?![A-Za-z])", r"\\dfrac", r) for r in rows]
    return [(r, not aligned) for r in rows]


def _compat(tex: str) -> str:
    for pattern, repl in _COMPAT:
        tex = pattern.sub(repl, tex)
    return tex


def _brace_frac_args(tex: str) -> str:
    r"""``\frac12`` and ``\frac a b`` as ``\frac{1}{2}``: mathtext needs braced arguments."""
    out, i = [], 0
    for m in re.finditer(r"\\[dt]?frac(?![A-Za-z])", tex):
        if m.start() < i:
            continue
        out.append(tex[i:m.end()])
        j = m.end()
        for _ in range(2):
            while j < len(tex) and tex[j] == " ":
                j += 1
            if j < len(tex) and tex[j] == "{":  # already braced: copy the balanced group
                depth, k = 0, j
                while k < len(tex):
                    depth += {"{": 1, "}": -1}.get(tex[k], 0)
                    k += 1
                    if depth == 0:
                        break
                out.append(tex[j:k])
                j = k
            elif j < len(tex):
                arg = re.match(r"\\[A-Za-z]+|\\?.", tex[j:], re.S)
                out.append("{" + arg.group(0) + "}")
                j += len(arg.group(0))
        i = j
    return "".join(out) + tex[i:]


@functools.lru_cache(maxsize=1024)
def render_tex(tex: str, style: MathStyle = MathStyle(), display: bool = False) -> Formula | None:
    """``tex`` drawn in ``style`` (display math 15% larger), padded so that Qt's "middle" alignment puts the
    formula's baseline on the text's; None when mathtext cannot parse it."""
    rows = mathtext_tex(tex)
    if not rows:
        return None
    size = style.px * style.scale * (1.15 if display else 1.05)
    try:
        drawn = [(_coverage(row, size), centred) for row, centred in rows]
    except Exception as exc:  # mathtext raises ValueError for bad TeX, others for glyphs it lacks
        log.debug("mathtext cannot draw %r: %s", tex, exc)
        return None
    import numpy as np
    if len(drawn) == 1:
        (image, depth), _ = drawn[0]
    else:  # rows stacked with a little leading, the whole centred on the line
        gap = round(size * 0.35)
        width = max(img.shape[1] for (img, _), _ in drawn)
        parts = []
        for (img, _), centred in drawn:
            left = (width - img.shape[1]) // 2 if centred else 0
            parts.append(np.pad(img, ((0, gap), (left, width - img.shape[1] - left))))
        image = np.vstack(parts)[:-gap]
        depth = image.shape[0] / 2 - style.x_height * style.scale / 2
    image = _pad_for_middle(image, depth, style.x_height * style.scale)
    return _formula(image, style)


def _coverage(tex: str, size: float):
    """(coverage array, depth below the baseline in pixels) of one mathtext row."""
    from matplotlib.font_manager import FontProperties
    import numpy as np
    parser = _parser()
    with _matplotlib().rc_context({"mathtext.fontset": "dejavusans", "mathtext.default": "it"}):
        parsed = parser.parse(f"${tex}$", dpi=72, prop=FontProperties(size=size))
    image = np.asarray(parsed.image)
    return image, float(parsed.depth)


def _pad_for_middle(image, depth: float, x_height: float):
    """Pad so the image's centre sits x-height/4 above the formula's baseline: where Qt puts the centre of
    an image aligned "middle" (its ascent is (height + x-height/2) / 2)."""
    import numpy as np
    height = image.shape[0]
    ascent = height - depth
    extra = (ascent - x_height / 2) - depth  # > 0: more above the baseline than below it
    top, bottom = (0, round(extra)) if extra > 0 else (round(-extra), 0)
    return np.pad(image, ((top + 1, bottom + 1), (1, 1)))


def _formula(coverage, style: MathStyle) -> Formula:
    import numpy as np
    from PIL import Image
    rgb = tuple(int(style.color.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
    rgba = np.zeros((*coverage.shape, 4), np.uint8)
    rgba[..., :3] = rgb
    rgba[..., 3] = coverage
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, "PNG")
    h, w = coverage.shape
    return Formula(buf.getvalue(), max(1, round(w / style.scale)), max(1, round(h / style.scale)))


@functools.cache
def _matplotlib():
    """matplotlib on the Agg backend, its config and font cache in Lantern's cache folder (never read-only)."""
    if "MPLCONFIGDIR" not in os.environ:
        from core.paths import cache_dir
        folder = cache_dir() / "matplotlib"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.environ["MPLCONFIGDIR"] = str(folder)
        except OSError as exc:  # matplotlib then uses a temporary folder of its own
            log.info("no matplotlib cache folder at %s: %s", folder, exc)
    import matplotlib
    matplotlib.use("Agg", force=False)
    return matplotlib


@functools.cache
def _parser():
    _matplotlib()
    from matplotlib.mathtext import MathTextParser
    return MathTextParser("agg")


def formula_html(span: MathSpan, style: MathStyle) -> str:
    """One formula as HTML: its image (display math on a line of its own), else its TeX in monospace."""
    formula = render_tex(span.tex, style, span.display)
    if formula is None:
        source = html.escape(f"$${span.tex}$$" if span.display else f"${span.tex}$")
        return f"<code>{source}</code>"
    return f"<br>&emsp;{formula.img(span.tex)}<br>" if span.display else formula.img(span.tex)


def math_html(text: str, style: MathStyle, escape: Callable[[str], str] = html.escape) -> str:
    """``text`` as HTML: the prose through ``escape``, each formula as an image."""
    out, pos = [], 0
    for span in find_math(text):
        out += [escape(text[pos:span.start]), formula_html(span, style)]
        pos = span.end
    return "".join(out) + escape(text[pos:])


class MathStash:
    """Formulas swapped for placeholders while the rest of a text is escaped and marked up, then swapped
    back as images: the same formula always gets the same placeholder, so substrings still match."""

    def __init__(self) -> None:
        self.spans: dict[tuple[str, bool], int] = {}

    def hide(self, text: str) -> str:
        out, pos = [], 0
        for span in find_math(text):
            n = self.spans.setdefault((span.tex, span.display), len(self.spans))
            out += [text[pos:span.start], f"\ue000{n}\ue001"]
            pos = span.end
        return "".join(out) + text[pos:]

    def reveal(self, marked: str, style: MathStyle) -> str:
        if not self.spans:
            return marked
        by_n = {n: key for key, n in self.spans.items()}
        return re.sub("\ue000(\\d+)\ue001", lambda m: formula_html(
            MathSpan(0, 0, *by_n[int(m.group(1))]), style), marked)
