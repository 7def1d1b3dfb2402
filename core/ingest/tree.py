"""The section tree of a parsed book: parents from heading levels, page ends from the next heading."""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from core.models import SectionNode


def finalize_sections(sections: Sequence[SectionNode], last_page: int) -> tuple[SectionNode, ...]:
    """Fill ``parent`` from levels and ``page_end`` from the next heading at the same or a higher level.

    A section ends on the page where the next section at its level or above starts (that page is
    shared), or on the book's last page.  Levels are normalised so the tree has no gaps.
    """
    out: list[SectionNode] = []
    stack: list[int] = []  # indexes of open ancestors
    for i, s in enumerate(sections):
        while stack and sections[stack[-1]].level >= s.level:
            stack.pop()
        parent = stack[-1] if stack else None
        level = (out[parent].level + 1) if parent is not None else 1
        out.append(dataclasses.replace(s, parent=parent, level=level))
        stack.append(i)
    finished: list[SectionNode] = []
    for i, s in enumerate(out):
        end = last_page
        for later in out[i + 1:]:
            if later.level <= s.level:
                end = later.page_start
                break
        end = max(s.page_start, min(end, last_page))
        if s.page_end is not None:
            end = max(s.page_start, s.page_end)
        finished.append(dataclasses.replace(s, page_end=end))
    return tuple(finished)
