"""Markdown math stays LaTeX: display blocks and math fences as ``$$ … $$`` EQUATION blocks, inline verbatim."""
from __future__ import annotations

from core.ingest.flow import BlockEvent
from core.ingest.markdown import parse_markdown, protect_inline_math
from core.models import BlockKind


def blocks(src: str) -> list[tuple[BlockKind, str]]:
    return [(e.kind, e.text) for e in parse_markdown(src) if isinstance(e, BlockEvent)]


def test_display_math_and_fences_become_delimited_equations() -> None:
    src = ("Intro.\n\n$$\nE_k = \\frac{1}{2} m v^2\n$$\n\n\\[ PV = nRT \\]\n\n"
           "```math\nF = ma\n```\n\n~~~latex\n$$ a = \\frac{\\Delta v}{\\Delta t} $$\n~~~\n")
    assert blocks(src) == [
        (BlockKind.TEXT, "Intro."),
        (BlockKind.EQUATION, "$$ E_k = \\frac{1}{2} m v^2 $$"),
        (BlockKind.EQUATION, "$$ PV = nRT $$"),
        (BlockKind.EQUATION, "$$ F = ma $$"),
        (BlockKind.EQUATION, "$$ a = \\frac{\\Delta v}{\\Delta t} $$"),
    ]


def test_inline_math_is_kept_verbatim_and_money_is_not_math() -> None:
    src = "Area $a*b*c$ and \\(x_1 * y_1\\) and $\\{x\\}$; it costs $5 and $10, `code $a*b$` stays.\n"
    assert blocks(src) == [(BlockKind.TEXT, "Area $a*b*c$ and \\(x_1 * y_1\\) and $\\{x\\}$; it costs $5 and $10, "
                                            "code $a*b$ stays.")]


def test_inline_math_inside_lists_tables_and_code() -> None:
    src = "- item $v^*$ one\n\n| q | value |\n|---|---|\n| $x*y$ | 2 |\n\n    indented $a*b$ code\n"
    assert blocks(src) == [(BlockKind.LIST, "- item $v^*$ one"), (BlockKind.TABLE, "| q | value |\n| $x*y$ | 2 |"),
                           (BlockKind.CODE, "indented $a*b$ code")]


def test_protect_inline_math_wraps_only_math() -> None:
    assert protect_inline_math("a $x$ b `$y$` c $5 and $6") == "a `$x$` b `$y$` c $5 and $6"
    assert protect_inline_math("tick $a`b$") == "tick `` $a`b$ ``"
