"""Formulas in the chat: found in text, drawn by mathtext as images Qt shows, TeX source when they cannot be."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QPalette, QTextDocument
from PySide6.QtWidgets import QLabel, QTextBrowser

from core.models import Answer
from desktop.conversations import CiteRecord, Turn
from desktop.math_render import MathSpan, MathStyle, clip, find_math, formula_html, math_html, mathtext_tex, render_tex
from desktop.transcript import SourceCard, turn_html

KINETIC = r"E_k = \frac{1}{2} m v^2"


def spans(text: str) -> list[tuple[str, bool]]:
    return [(s.tex, s.display) for s in find_math(text)]


def test_find_math_delimiters() -> None:
    text = r"Inline \( a^2 \) and $b_1$, display $$ c = d $$ and \[ \sqrt{x} \] end."
    assert spans(text) == [("a^2", False), ("b_1", False), ("c = d", True), (r"\sqrt{x}", True)]
    found = find_math(text)[0]
    assert text[found.start:found.end] == r"\( a^2 \)"
    assert spans("$$ x = 1\n\ny = 2 $$") == [("x = 1\n\ny = 2", True)]


@pytest.mark.parametrize("text", ["It costs $5 and $10.", "From $ 3 to $4", "Pay $20, get $x$5 back", "a \\$ b \\$"])
def test_dollars_that_are_not_math(text: str) -> None:
    assert all(tex == "x" for tex, _ in spans(text)) and len(spans(text)) <= 1
    assert spans("It costs $5 and $10.") == []


def test_clip_never_splits_a_formula() -> None:
    text = "word " * 48 + f"$$ {KINETIC} $$ and more words after it"
    clipped = clip(text, 250)
    assert clipped.endswith("$$…") and spans(clipped) == [(KINETIC, True)]
    assert clip("short", 250) == "short"
    assert clip("the formula $$ E = m", 250) == "the formula…"  # cut off upstream: the opener goes


def test_mathtext_rewrites_what_it_cannot_draw() -> None:
    assert mathtext_tex(r"a \le b \ge c, \frac12") == [(r"a \leq b \geq c, \dfrac{1}{2}", False)]
    assert mathtext_tex(r"\begin{aligned} a &= b \\ &= c \end{aligned}") == [("a = b", False), ("= c", False)]
    assert mathtext_tex(r"\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}") == [
        (r"1 \quad 0", True), (r"0 \quad 1", True)]


def test_render_valid_tex_to_png_and_invalid_to_none() -> None:
    style = MathStyle(px=14, color="#202020")
    formula = render_tex(KINETIC, style)
    assert formula is not None and formula.png.startswith(b"\x89PNG")
    assert 30 < formula.width < 200 and 14 <= formula.height < 80
    assert render_tex(KINETIC, style) is formula  # cached
    big = render_tex(KINETIC, MathStyle(px=28, color="#202020"))
    assert big is not None and big.width > 1.6 * formula.width
    assert render_tex(r"\frac{a", style) is None
    one_row = render_tex("a = b", style)
    assert render_tex(r"\begin{aligned} a &= b \\ &= c \end{aligned}", style).height > one_row.height


def test_unrenderable_tex_is_shown_as_source() -> None:
    html = math_html(r"Bad \( \frac{a <b> \) here", MathStyle())
    assert html == r"Bad <code>$\frac{a &lt;b&gt;$</code> here"
    assert formula_html(MathSpan(0, 0, r"\nosuchcommand{x}", True), MathStyle()).startswith("<code>$$")


def test_math_html_escapes_prose_and_draws_formulas(qapp) -> None:
    html = math_html(r"If a < b then \( a^2 < b^2 \) & so on", MathStyle())
    assert html.startswith("If a &lt; b then <img src=\"data:image/png;base64,") and html.endswith(" &amp; so on")
    assert 'alt="a^2 &lt; b^2"' in html


def test_qtextbrowser_shows_the_formula_image(qapp) -> None:
    browser = QTextBrowser()
    browser.setHtml("<p>" + math_html(f"Energy \\( {KINETIC} \\) here.", MathStyle.for_widget(browser)) + "</p>")
    doc = browser.document()
    names = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    assert len(names) == 1 and names[0].startswith("data:image/png")
    image = doc.resource(QTextDocument.ResourceType.ImageResource, QUrl(names[0]))
    assert image is not None and not image.isNull()


def test_chat_answer_quote_and_sources_draw_their_formulas(qapp) -> None:
    quote = f"Kinetic energy is \\( {KINETIC} \\) for a mass m."
    record = CiteRecord(1, "b", 3, 3, "3", "1.2 Energy", "Physics › 1.2 Energy, p. 3", snippet=quote, quote=quote)
    turn = Turn("What is kinetic energy?", sources=[record])
    turn.preview = record
    turn.finish(Answer(question=turn.question, text=f"It is \\( {KINETIC} \\) [1]. See $\\sqrt[3]{{x}}$ too.",
                       citations=(), unsupported=(r"See $\sqrt[3]{x}$ too.",)))
    html = turn_html(turn, 0, QPalette())
    assert html.count('<img src="data:image/png') == 3  # the quote, the answer's two formulas
    assert "cite:0:1" in html and "preview:0:1" in html
    assert "not found in your book" in html  # the unsupported sentence was still matched around its formula
    card = SourceCard(record)
    texts = [label.text() for label in card.findChildren(QLabel)]
    assert any('<img src="data:image/png' in t for t in texts)


def test_dollar_signs_in_code_are_not_math():
    from desktop.math_render import find_math
    assert find_math("macro_rules! vec { ( $( $x:expr ),* ) => { $( v.push($x); )* v }; }") == []
    assert find_math("for f in *.txt; do echo $f; done; echo $HOME") == []
    # The price of that rule: a formula that opens with "(" stays text.
    assert [s.tex for s in find_math(r"The area is $\pi r^2$ and $(a+b)$ is not counted.")] == [r"\pi r^2"]
