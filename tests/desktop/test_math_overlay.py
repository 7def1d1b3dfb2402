"""EPUB formulas drawn over the reader's page: where a formula's token text is, and that it gets drawn."""
from __future__ import annotations

from pathlib import Path

from core.ingest.epub_math import MathText
from desktop.math_overlay import formula_boxes


def _chars(text: str, y: float = 100.0, x: float = 10.0) -> list:
    out = []
    for c in text:
        out.append((c, (x, y, x + 5, y + 12), y + 9, 10.0))
        x += 5
    return out


def test_a_formula_is_found_after_its_context_on_one_line():
    chars = _chars("E=mc2 is famous; so is E=mc2 here")
    second = formula_boxes(chars, [MathText("E=mc2", "E = mc^2", False, "sois")])
    assert len(second) == 1 and second[0].box[0] == 10 + 5 * len("E=mc2 is famous; so is ")
    assert second[0].baseline == 109.0 and second[0].size == 10.0
    first = formula_boxes(chars, [MathText("E=mc2", "E = mc^2", False, "nothing")])
    assert first[0].box[0] == 10  # no context match: the first place


def test_a_formula_broken_over_lines_is_drawn_on_its_longest_piece_and_one_letter_ones_are_left_alone():
    chars = _chars("mass m and Ek=12") + _chars("mv2, measured", y=114.0)
    maths = [MathText("m", "m", False, "mass"), MathText("Ek=12mv2", r"E_k = \frac12 mv^2", False, "and")]
    (placed,) = formula_boxes(chars, maths)
    assert placed.math.flat == "Ek=12mv2" and placed.box == (65, 100.0, 90, 112.0)  # "Ek=12" on the first line
    assert placed.blank == ((10, 114.0, 25, 126.0),)  # "mv2" at the start of the next


def test_the_reader_draws_an_epub_formula_over_its_token_text(qtbot, tmp_path: Path):
    from desktop.page_view import PagedView
    from desktop.screenshots import equation_book
    view = PagedView()
    qtbot.addWidget(view)
    view.open(equation_book(tmp_path / "eq.epub"))
    drawn = view._render_image(1, 1.5)
    view._maths = []  # the same page with no formulas drawn
    plain = view._render_image(1, 1.5)
    assert drawn.size() == plain.size() and drawn != plain
