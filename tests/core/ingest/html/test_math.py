"""MathML -> LaTeX, and LaTeX kept in the text of HTML/EPUB books with the delimiters the chat renders."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pymupdf
import pytest

from core.ingest.epub import page_blocks
from core.ingest.epub_math import MathText, epub_math, insert_math, mathml_to_latex
from core.ingest.html.parser import BookHTMLParser
from core.ingest.flow import BlockEvent
from core.ingest.read import read_book
from core.models import BlockKind
from tests.core.ingest.epub_fixture import write_epub

NS = 'xmlns="http://www.w3.org/1998/Math/MathML"'
QUADRATIC = f"""<math {NS} display="block"><mrow><mi>x</mi><mo>=</mo><mfrac><mrow><mo>&#x2212;</mo><mi>b</mi>
  <mo>&#x00B1;</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>&#x2212;</mo><mn>4</mn><mo>&#x2062;</mo><mi>a</mi>
  <mo>&#x2062;</mo><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mo>&#x2062;</mo><mi>a</mi></mrow></mfrac></mrow></math>"""
EMC2 = f"<math {NS}><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>"
GAS = f"<math {NS}><mi>P</mi><mi>V</mi><mo>=</mo><mi>n</mi><mi>R</mi><mi>T</mi></math>"
GAS_BLOCK = GAS.replace("<math", '<math display="block"')
HABER = (f'<math {NS}><msub><mi mathvariant="normal">N</mi><mn>2</mn></msub><mo>+</mo><mn>3</mn>'
         '<msub><mi mathvariant="normal">H</mi><mn>2</mn></msub><mo>&#x21CC;</mo><mn>2</mn>'
         '<mi mathvariant="normal">N</mi><msub><mi mathvariant="normal">H</mi><mn>3</mn></msub></math>')
WATER = f"<math {NS}><mtext>H</mtext><msub><mtext></mtext><mn>2</mn></msub><mtext>O</mtext></math>"
SPEED = (f"<math {NS}><msub><mi>v</mi><mtext>avg</mtext></msub><mo>=</mo><mfrac><mrow><msub><mi>x</mi><mi>f</mi>"
         "</msub><mo>&#x2212;</mo><msub><mi>x</mi><mn>0</mn></msub></mrow><mrow><msub><mi>t</mi><mi>f</mi></msub>"
         "<mo>&#x2212;</mo><msub><mi>t</mi><mn>0</mn></msub></mrow></mfrac></math>")


@pytest.mark.parametrize("markup, latex", [
    (QUADRATIC, r"x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}"),
    (EMC2, "E = mc^2"),
    (GAS, "PV = nRT"),
    (HABER, r"\mathrm{N_2} + 3\mathrm{H_2} \rightleftharpoons 2\mathrm{NH_3}"),
    (SPEED, r"v_{\text{avg}} = \frac{x_f - x_0}{t_f - t_0}"),
    (f"<math {NS}><munderover><mo>&#x2211;</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover>"
     "<msub><mi>x</mi><mi>i</mi></msub><mo>&#x2264;</mo><msubsup><mo>&#x222B;</mo><mn>0</mn><mi>&#x221E;</mi>"
     "</msubsup><msup><mi>e</mi><mrow><mo>&#x2212;</mo><mi>x</mi></mrow></msup></math>",
     r"\sum_{i = 1}^n x_i \leq \int_0^\infty e^{-x}"),
    (f"<math {NS}><mover><mi>x</mi><mo>&#xAF;</mo></mover><mo>,</mo><mover accent='true'><mi>v</mi><mo>&#x2192;</mo>"
     "</mover><mo>,</mo><mover><mi>n</mi><mo>^</mo></mover><mo>,</mo><mover><mi>AB</mi><mo>&#xAF;</mo></mover></math>",
     r"\bar{x}, \vec{v}, \hat{n}, \overline{\mathrm{AB}}"),
    (f"<math {NS}><mi>sin</mi><mo>&#x2061;</mo><mi>&#x3B8;</mi><mo>&#x22C5;</mo><mi>&#x3BC;</mi><mo>&#x2260;</mo>"
     "<mi>&#x394;</mi><mi>x</mi><mo>&#x2265;</mo><mn>0</mn><mo>&#xD7;</mo><mi>&#x3B1;</mi></math>",
     r"\sin\theta \cdot \mu \neq \Delta x \geq 0 \times \alpha"),
    (f"<math {NS}><mroot><mi>x</mi><mn>3</mn></mroot><mspace width='1em'/><mtext>if 5% &amp; #1_a {{b}} $</mtext>"
     "</math>", r"\sqrt[3]{x}\quad \text{if 5\% \& \#1\_a \{b\} \$}"),
    (f"<math {NS}><mfenced><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd>"
     "<mtd><mn>1</mn></mtd></mtr></mtable></mfenced></math>",
     r"(\begin{matrix} 1 & 0 \\ 0 & 1 \end{matrix})"),
    (f"<math {NS}><mtable columnalign='right left'><mtr><mtd><mi>y</mi></mtd><mtd><mo>=</mo><mn>2</mn><mi>x</mi>"
     "</mtd></mtr></mtable></math>", r"\begin{aligned} y & = 2x \end{aligned}"),
    (f"<math {NS}><mmultiscripts><mi mathvariant='normal'>C</mi><mprescripts/><mn>6</mn><mn>14</mn></mmultiscripts>"
     "</math>", r"{}_6^{14}\mathrm{C}"),
    (f"<math {NS}><munder><mo>lim</mo><mrow><mi>x</mi><mo>&#x2192;</mo><mn>0</mn></mrow></munder><mfrac><mrow>"
     "<mi>sin</mi><mi>x</mi></mrow><mi>x</mi></mfrac></math>", r"\lim_{x \rightarrow 0}\frac{\sin x}{x}"),
    (f"<math {NS}><mi>&#x394;</mi><msup><mi>H</mi><mo>&#xB0;</mo></msup><mo>=</mo><mn>&#x2212;92</mn>"
     "<mtext>&#xA0;kJ</mtext></math>", r"\Delta H^\circ = -92\text{ kJ}"),
    (f"<math {NS}><mi>y</mi><mo>=</mo><mo>&#x2212;</mo><mn>3</mn><mo>(</mo><mo>&#x2212;</mo><mi>x</mi><mo>)</mo>"
     "<mo>&#x2212;</mo><mn>1</mn></math>", "y = -3(-x) - 1"),
])
def test_mathml_structure_becomes_latex(markup: str, latex: str) -> None:
    assert mathml_to_latex(markup) == latex


def test_chemistry_text_is_upright_and_merged() -> None:
    assert mathml_to_latex(WATER) in (r"\mathrm{H_2O}", r"\mathrm{H}_2\mathrm{O}", r"\mathrm{H}{}_2\mathrm{O}")


def test_tex_annotation_wins_then_alttext() -> None:
    annotated = (f"<math {NS}><semantics><mrow><mi>y</mi></mrow>"
                 '<annotation encoding="application/x-tex">y = \\tfrac12 x</annotation></semantics></math>')
    assert mathml_to_latex(annotated) == r"y = \tfrac12 x"
    assert mathml_to_latex(f'<math {NS} alttext="a^2 + b^2 = c^2"><mi>a</mi></math>') == "a^2 + b^2 = c^2"


def test_html_import_keeps_delimited_latex(tmp_path: Path) -> None:
    page = tmp_path / "physics.html"
    page.write_text(f"<html><body><h1>Energy</h1><p>Einstein wrote {EMC2} in 1905.</p>{QUADRATIC}"
                    f"<ul><li>Gas law: {GAS_BLOCK}</li></ul></body></html>")
    blocks = read_book(page).blocks
    assert blocks[0].text == r"Einstein wrote \( E = mc^2 \) in 1905."
    assert blocks[1].kind is BlockKind.EQUATION
    assert blocks[1].text == r"$$ x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a} $$"
    assert blocks[2].kind is BlockKind.LIST and blocks[2].text == r"- Gas law: \( PV = nRT \)"


def test_mathjax_script_and_katex_keep_their_tex() -> None:
    parser = BookHTMLParser()
    parser.feed('<p>Inline <script type="math/tex">a_1</script> here.</p>'
                '<script type="math/tex; mode=display">\\int_0^1 x\\,dx</script>')
    parser.close()
    texts = [(e.kind, e.text) for e in parser.events if isinstance(e, BlockEvent)]
    assert texts == [(BlockKind.TEXT, r"Inline \( a_1 \) here."), (BlockKind.EQUATION, r"$$ \int_0^1 x\,dx $$")]


def test_epub_token_text_is_replaced_by_latex(tmp_path: Path) -> None:
    body = (f"<p>Kinetic energy is {EMC2.replace('E</mi>', 'K</mi>')} where <math {NS}><mi>m</mi></math> is a "
            f"mass and a speed.</p>{GAS_BLOCK}<p>The reaction {HABER} "
            "is reversible.</p>")
    path = write_epub(tmp_path / "chem.epub", [("Chapter 1: Energy", body, [])])
    with zipfile.ZipFile(path) as zf:
        maths = epub_math(zf.read("OEBPS/ch0.xhtml").decode())
    assert [m.flat for m in maths] == ["K=mc2", "m", "PV=nRT", "N2+3H2⇌2NH3"]
    with pymupdf.open(path, filetype="epub") as doc:  # PyMuPDF prints the token text run together
        laid_out = [b.text for b in page_blocks(doc[0], 1) if not b.text.startswith("Chapter")]
    assert insert_math(laid_out, maths) == [
        r"Kinetic energy is \( K = mc^2 \) where \( m \) is a mass and a speed.",
        "$$ PV = nRT $$",
        r"The reaction \( \mathrm{N_2} + 3\mathrm{H_2} \rightleftharpoons 2\mathrm{NH_3} \) is reversible."]


def test_insert_math_needs_context_for_short_formulas_and_skips_lost_ones() -> None:
    a = MathText("a", "a", False, "constant")
    lost = MathText("zzz", "z", False, "")
    x = MathText("x2", "x^2", False, "square")
    texts = ["Take a ruler: the constant a is fixed.", "Its square x2 grows."]
    assert insert_math(texts, [a, lost, x]) == [r"Take a ruler: the constant \( a \) is fixed.",
                                                r"Its square \( x^2 \) grows."]
    assert insert_math(["Nothing to see."], [a]) == ["Nothing to see."]


def test_html_import_uses_a_math_elements_alttext(tmp_path) -> None:
    from core.ingest.html.reader import read as read_html
    from core.progress import no_progress
    page = tmp_path / "pythagoras.html"
    page.write_text(f'<html><body><h1>Triangles</h1><p>For a right triangle '
                    f'<math {NS} alttext="a^2 + b^2 = c^2"><mi>a</mi></math> holds.</p></body></html>',
                    encoding="utf-8")
    text = " ".join(b.text for b in read_html(page, no_progress, None).blocks)
    assert r"\( a^2 + b^2 = c^2 \)" in text
