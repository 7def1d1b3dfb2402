"""Math in HTML and EPUB: a math element as LaTeX, kept in the chunk text so the chat can render it.

A MathML element becomes its TeX ``<annotation>`` when it has one, else its ``alttext``, else the
MathML structure converted to LaTeX (``to_latex``, a pure function over a small ``MathNode`` tree
that ``MathCapture`` builds from the parser's start/end/data calls).  Inline math is written
``\\( … \\)`` and display math ``$$ … $$`` (``delimit``), which is what the GUI looks for.
EPUB pages are laid out by PyMuPDF instead; ``core.ingest.epub_math`` puts the LaTeX back there.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_GREEK = dict(zip("αβγδεζηθικλμνξπρστυφχψωϵϑϕϖϱς", (
    "alpha beta gamma delta varepsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon "
    "varphi chi psi omega epsilon vartheta phi varpi varrho varsigma").split()))
_GREEK.update(zip("ΓΔΘΛΞΠΣΥΦΨΩ", "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split()))
_SYMBOLS = {**{k: "\\" + v for k, v in _GREEK.items()}, **dict(zip(
    "×·⋅∙±∓÷≤≥≠≈≡∼≃≅∝→←↔⇌⇄⇒⇐⇔⟶⟵⟹⟺↑↓↦∑∏∐∫∬∮∞∂∇√∈∉⊂⊆⊃⊇∪∩∀∃∅¬∧∨…⋯⋮⋱∠⊥∥ℏℓ⟨⟩‖∣⊗⊕∘⋆†≪≫∴∵ℜℑℵ",
    r"\times \cdot \cdot \cdot \pm \mp \div \leq \geq \neq \approx \equiv \sim \simeq \cong \propto \rightarrow "
    r"\leftarrow \leftrightarrow \rightleftharpoons \rightleftarrows \Rightarrow \Leftarrow \Leftrightarrow "
    r"\longrightarrow \longleftarrow \Longrightarrow \Longleftrightarrow \uparrow \downarrow \mapsto \sum \prod "
    r"\coprod \int \iint \oint \infty \partial \nabla \surd \in \notin \subset \subseteq \supset \supseteq \cup "
    r"\cap \forall \exists \emptyset \neg \wedge \vee \ldots \cdots \vdots \ddots \angle \perp \parallel \hbar "
    r"\ell \langle \rangle \| \mid \otimes \oplus \circ \star \dagger \ll \gg \therefore \because \Re \Im "
    r"\aleph".split())),
    "−": "-", "–": "-", "∗": "*", "′": "'", "″": "''", "°": "^{\\circ}", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℂ": r"\mathbb{C}", "\u00a0": " ",
    **{c: "" for c in "\u2061\u2062\u2063\u2064\u200b\u200c\u200d\ufeff"}}  # invisible times, apply function…
_SPECIAL = {c: "\\" + c for c in "%#&_{}$"} | {"\\": r"\backslash ", "^": r"\hat{}", "~": r"\sim "}
_PADDED = set("=<>+±∓×·⋅÷≤≥≠≈≡∼≃≅∝→←↔⇌⇄⇒⇐⇔⟶⟵⟹⟺↦∈∉⊂⊆⊃⊇−-")  # relations and binary operators
_FUNCTIONS = set("sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp lim liminf "
                 "limsup max min sup inf det dim ker deg gcd arg hom Pr".split())
_BIG = {r"\sum", r"\prod", r"\coprod", r"\int", r"\iint", r"\oint", r"\lim", r"\max", r"\min", r"\sup", r"\inf",
        r"\bigcup", r"\bigcap", r"\liminf", r"\limsup", r"\det", r"\gcd", r"\Pr"}
_OVER_ACCENTS = {**dict.fromkeys("¯‾―‒_\u0305\u0304−", "bar"), **dict.fromkeys("^ˆ\u0302", "hat"),
                 **dict.fromkeys("~˜\u0303", "tilde"), **dict.fromkeys("→⃗\u20d7", "vec"),
                 **dict.fromkeys("˙.\u0307", "dot"), **dict.fromkeys("¨\u0308", "ddot"), "ˇ": "check",
                 "˘": "breve", "⏞": "overbrace", "︷": "overbrace"}
_WIDE = {"bar": "overline", "hat": "widehat", "tilde": "widetilde", "vec": "overrightarrow"}
_UNDER_ACCENTS = {**dict.fromkeys("_\u0332¯―", "underline"), "⏟": "underbrace", "︸": "underbrace"}
_VARIANTS = {"bold": "mathbf", "bold-italic": "mathbf", "double-struck": "mathbb", "script": "mathcal",
             "bold-script": "mathcal", "fraktur": "mathfrak", "sans-serif": "mathsf", "monospace": "mathtt"}
_SCRIPTS = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts"}
_DISPLAY_CLASSES = {"equation", "displaymath", "katex-display", "mathjax_display", "display-math"}
_NEEDS_SPACE = re.compile(r"\\[A-Za-z]+$|[_^][A-Za-z0-9]$")  # "\alpha"+"x", "^n"+"x" must not run together


def is_display_math(a: dict[str, str]) -> bool:
    """Whether an element's classes mark display (block) math."""
    classes = set(a.get("class", "").lower().split())
    return bool(classes & _DISPLAY_CLASSES) or ("math" in classes and "display" in classes)


def delimit(latex: str, display: bool) -> str:
    """LaTeX with the delimiters the chat renders: ``$$ … $$`` for display math, ``\\( … \\)`` inline."""
    return f"$$ {latex} $$" if display else f"\\( {latex} \\)"


@dataclass(frozen=True)
class MathNode:
    """One element of a captured math tree; children are nodes and text."""

    tag: str
    attrs: tuple[tuple[str, str], ...] = ()
    children: tuple[MathNode | str, ...] = ()

    def attr(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.attrs if k == name), default)

    def elements(self) -> list[MathNode]:
        return [c for c in self.children if isinstance(c, MathNode)]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class MathCapture:
    """One math element as the parser meets it; ``text()`` is its LaTeX (annotation, alttext, converted)."""

    def __init__(self, tag: str, display: bool, attrs: dict[str, str] | None = None) -> None:
        self.tag, self.display = tag, display
        self._stack: list[tuple[str, dict[str, str], list]] = [(tag, attrs or {}, [])]
        self._root: MathNode | None = None
        self.raw: list[str] = []  # every piece of text, annotations too (what a layout engine prints)
        self.tex: list[str] = []

    def start(self, tag: str, a: dict[str, str]) -> None:
        self._stack.append((tag.rpartition(":")[2], a, []))

    def end(self, tag: str) -> bool:
        """Handle an end tag; True when the captured element itself closed (unclosed children end with it)."""
        tag = tag.rpartition(":")[2] if tag != self.tag else tag
        if not any(t == tag for t, _, _ in self._stack):
            return False
        while True:
            name, a, kids = self._stack.pop()
            node = MathNode(name.rpartition(":")[2], tuple(a.items()), tuple(kids))
            if not self._stack:
                self._root = node
                return True
            self._stack[-1][2].append(node)
            if name == tag:
                return False

    def data(self, data: str) -> None:
        self.raw.append(data)
        self._stack[-1][2].append(data)
        inner = next(((t, a) for t, a, _ in reversed(self._stack) if t in ("annotation", "annotation-xml")), None)
        if inner and inner[0] == "annotation" and "tex" in inner[1].get("encoding", "").lower():
            self.tex.append(data)


    def tree(self) -> MathNode:
        if self._root is None:  # still open (the document ended): close what there is
            while not self.end(self._stack[-1][0]):
                pass
        assert self._root is not None
        return self._root

    def plain(self) -> str:
        """The token text without annotations, e.g. for a heading."""
        return " ".join(_plain(self.tree()).split())

    def text(self) -> str:
        """LaTeX without delimiters: TeX annotation, else ``alttext``, else the converted MathML, else the text."""
        tex = " ".join("".join(self.tex).split())
        if tex:
            return tex
        root = self.tree()
        maths = [root] if root.tag == "math" else _find(root, "math")
        latex = " ".join(x for x in (" ".join(m.attr("alttext").split()) or to_latex(m) for m in maths) if x)
        if latex:
            return latex
        text = self.plain()
        for opener, closer in (("\\[", "\\]"), ("\\(", "\\)"), ("$$", "$$")):
            if text.startswith(opener) and text.endswith(closer) and len(text) >= len(opener) + len(closer):
                text = text[len(opener):len(text) - len(closer)].strip()
        return text


def _find(node: MathNode, tag: str) -> list[MathNode]:
    found: list[MathNode] = []
    for child in node.elements():
        found.extend([child] if child.tag == tag else _find(child, tag))
    return found


def _plain(node: MathNode | str) -> str:
    if isinstance(node, str):
        return node
    return "" if node.tag in ("annotation", "annotation-xml") else "".join(_plain(c) for c in node.children)


# -- MathML -> LaTeX ------------------------------------------------------------------------------------------
def to_latex(node: MathNode) -> str:
    """LaTeX for a MathML presentation-markup tree (pure; unknown elements give their children's LaTeX)."""
    return " ".join(_tex(node).split())


def _tex(node: MathNode | str) -> str:
    if isinstance(node, str):
        return ""  # whitespace between elements; token text is read by the token handlers
    handler = _HANDLERS.get(node.tag)
    if handler is not None:
        return handler(node)
    if node.tag in ("annotation", "annotation-xml", "mphantom", "none", "mprescripts"):
        return ""
    if node.tag == "semantics" or node.tag == "maction":
        kids = [k for k in node.elements() if k.tag not in ("annotation", "annotation-xml")]
        return _tex(kids[0]) if kids else ""
    return _row(node.elements())


def _row(kids: Sequence[MathNode]) -> str:
    """Children side by side; roman runs (chemistry: H, 2, O) merge into one ``\\mathrm{H_2O}``."""
    parts: list[str] = []
    romans: list[str] = []
    for i, kid in enumerate(kids):
        roman = _roman(kid)
        if roman is not None:
            romans.append(roman)
            continue
        if romans:
            parts.append(f"\\mathrm{{{''.join(romans)}}}")
            romans = []
        unary = i == 0 or kids[i - 1].tag == "mo" and kids[i - 1].text().strip() not in ")]}|"  # "= -92"
        parts.append(_mo(kid, first=unary) if kid.tag == "mo" else _tex(kid))
    if romans:
        parts.append(f"\\mathrm{{{''.join(romans)}}}")
    return _join(parts)


def _join(parts: Sequence[str]) -> str:
    out = ""
    for p in parts:
        if p and out and _NEEDS_SPACE.search(out) and p[0].isalnum():
            out += " "
        out += p
    return out


def _chars(text: str, *, in_text: bool = False) -> str:
    out: list[str] = []
    for ch in text:
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif not in_text and ch in _SYMBOLS:
            out.append(_SYMBOLS[ch])
        elif ch in "\u2061\u2062\u2063\u2064\u200b\ufeff":
            continue
        else:
            out.append(ch)
    return _join(out)


def _roman(node: MathNode) -> str | None:
    """Inner text when ``node`` is upright letters (a chemical symbol, a unit) or one with a number script."""
    text = node.text().strip()
    if node.tag == "mi" and text.isascii() and text.isalpha() and text not in _FUNCTIONS and (
            len(text) > 1 or node.attr("mathvariant") == "normal"):
        return text
    if node.tag == "mtext" and text.isascii() and text.isalnum() and text == node.text():
        return text
    kids = node.elements()
    if node.tag in ("msub", "msup") and len(kids) == 2 and kids[0].tag in ("mi", "mtext"):
        base, script = _roman(kids[0]), kids[1].text().strip()
        if base is not None and (script.isdigit() or node.tag == "msup" and re.fullmatch(r"\d*[+\-−]", script)):
            return f"{base}{'_' if node.tag == 'msub' else '^'}{_script(_chars(script))}"
    return None


def _mi(node: MathNode) -> str:
    text = node.text().strip()
    if text in _FUNCTIONS:
        return f"\\{text}"
    tex = _chars(text)
    variant = _VARIANTS.get(node.attr("mathvariant"))
    if node.attr("mathvariant") == "normal" and text.isascii() and text.isalpha():
        variant = "mathrm"
    if variant:
        return f"\\{variant}{{{tex}}}"
    if len(text) > 1 and text.isascii() and text.isalpha():
        return f"\\mathrm{{{text}}}"
    return tex


def _mo(node: MathNode, first: bool = False) -> str:
    text = node.text().strip()
    if text in _FUNCTIONS:
        return f"\\{text}"
    tex = _chars(text)
    if text == ",":
        return ", "
    if text in _PADDED and not (first and text in "+-−±∓"):  # a leading sign is unary: "-b", not "- b"
        return f" {tex} "
    return tex


def _mtext(node: MathNode) -> str:
    text = node.text()
    if not text.strip():
        return "\\ " if text else ""
    return "\\text{" + _chars(re.sub(r"\s+", " ", text), in_text=True) + "}"


def _script(tex: str) -> str:
    tex = r"\circ" if tex == r"^{\circ}" else tex  # a degree sign as a superscript
    return tex if len(tex) == 1 or re.fullmatch(r"\\[A-Za-z]+", tex) else f"{{{tex}}}"


def _base(node: MathNode) -> str:
    tex = _tex(node)
    return f"{{{tex}}}" if not tex or node.tag in _SCRIPTS or tex.endswith("'") else tex


def _kid(node: MathNode, i: int) -> MathNode:
    kids = node.elements()
    return kids[i] if i < len(kids) else MathNode("none")


def _sub_sup(node: MathNode) -> str:
    base, a = _base(_kid(node, 0)), _tex(_kid(node, 1))
    if node.tag == "msub":
        return f"{base}_{_script(a)}"
    if node.tag == "msup":
        return f"{base}^{_script(a)}"
    return f"{base}_{_script(a)}^{_script(_tex(_kid(node, 2)))}"


def _under_over(node: MathNode) -> str:
    base_node = _kid(node, 0)
    base = _tex(base_node)
    under = _kid(node, 1) if node.tag != "mover" else None
    over = _kid(node, 2 if node.tag == "munderover" else 1) if node.tag != "munder" else None
    wide = len(base_node.text().strip()) > 1
    if node.tag == "mover" and over is not None and over.text().strip() in _OVER_ACCENTS:
        accent = _OVER_ACCENTS[over.text().strip()]
        return f"\\{_WIDE.get(accent, accent) if wide else accent}{{{base}}}"
    if node.tag == "munder" and under is not None and under.text().strip() in _UNDER_ACCENTS:
        return f"\\{_UNDER_ACCENTS[under.text().strip()]}{{{base}}}"
    if base in _BIG:  # limits of a sum, integral, lim
        return base + (f"_{_script(_tex(under))}" if under else "") + (f"^{_script(_tex(over))}" if over else "")
    if under is not None:
        base = f"\\underset{{{_tex(under)}}}{{{base}}}"
    return f"\\overset{{{_tex(over)}}}{{{base}}}" if over is not None else base


def _fenced(node: MathNode) -> str:
    seps = "".join(node.attr("separators", ",").split()) or ""
    parts: list[str] = []
    for i, kid in enumerate(node.elements()):
        if i and seps:
            parts.append(_chars(seps[min(i - 1, len(seps) - 1)]) + " ")
        parts.append(_tex(kid))
    return _fence(node.attr("open", "(")) + _join(parts) + _fence(node.attr("close", ")"))


def _fence(ch: str) -> str:
    return {"{": r"\{", "}": r"\}", "⟨": r"\langle ", "⟩": r"\rangle", "‖": r"\|"}.get(ch, ch)


def _table(node: MathNode) -> str:
    rows = [[_tex(td).strip() for td in (tr.elements()[1:] if tr.tag == "mlabeledtr" else tr.elements())]
            for tr in node.elements()]
    # Equations lined up at "=" are an aligned block; anything else is a matrix.
    aligned = "left" in node.attr("columnalign") or any(
        c.startswith(("=", r"\leq", r"\geq", "<", ">", r"\approx", r"\rightarrow")) for r in rows for c in r[1:])
    rows = [" & ".join(r) for r in rows]
    env = "aligned" if aligned else "matrix"
    return f"\\begin{{{env}}} " + r" \\ ".join(rows) + f" \\end{{{env}}}"


def _space(node: MathNode) -> str:
    if node.attr("linebreak") == "newline":
        return r" \\ "
    m = re.match(r"([\d.]+)\s*(em|ex|px|pt)?", node.attr("width"))
    width = float(m.group(1)) / (16 if m and m.group(2) in ("px", "pt") else 1) if m else 0.3
    return r"\quad " if width >= 0.9 else r"\; " if width >= 0.25 else r"\,"


def _multiscripts(node: MathNode) -> str:
    kids = node.elements()
    split = next((i for i, k in enumerate(kids) if k.tag == "mprescripts"), len(kids))

    def scripts(pairs: Sequence[MathNode]) -> str:
        subs = _join([_tex(k) for k in pairs[0::2]])
        sups = _join([_tex(k) for k in pairs[1::2]])
        return (f"_{_script(subs)}" if subs else "") + (f"^{_script(sups)}" if sups else "")
    pre = scripts(kids[split + 1:])
    return (f"{{}}{pre}" if pre else "") + (_base(kids[0]) if kids else "") + scripts(kids[1:split])


_HANDLERS = {
    "mi": _mi, "mo": _mo, "mtext": _mtext,
    "mn": lambda n: _chars(n.text().strip()),
    "ms": lambda n: f"\\text{{\"{_chars(n.text(), in_text=True)}\"}}",
    "mfrac": lambda n: f"\\frac{{{_tex(_kid(n, 0))}}}{{{_tex(_kid(n, 1))}}}",
    "msqrt": lambda n: f"\\sqrt{{{_row(n.elements())}}}",
    "mroot": lambda n: f"\\sqrt[{_tex(_kid(n, 1))}]{{{_tex(_kid(n, 0))}}}",
    "msub": _sub_sup, "msup": _sub_sup, "msubsup": _sub_sup,
    "munder": _under_over, "mover": _under_over, "munderover": _under_over,
    "mfenced": _fenced, "mtable": _table, "mspace": _space, "mmultiscripts": _multiscripts,
    "mglyph": lambda n: _chars(n.attr("alt")),
}
