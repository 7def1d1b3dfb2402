"""How ``lantern ask`` shows an ``Answer``: the JSON record and the text printed after the streamed answer."""
from __future__ import annotations

from typing import Any, TextIO

from core.models import Answer, Citation


def citation_record(c: Citation) -> dict[str, Any]:
    """The JSON shape of one citation (issue 5's contract, plus the printed end page and the label)."""
    return {"n": c.n, "chunk_id": c.chunk_id, "book_id": c.book_id, "chapter": c.chapter, "section": c.section,
            "section_title": c.section_title, "page_start": c.page_start, "page_end": c.page_end,
            "printed_page": c.printed_page, "quote": c.quote, "printed_page_end": c.printed_page_end,
            "label": c.label}


def answer_record(a: Answer) -> dict[str, Any]:
    """``{"answer", "refused", "citations", "timings", ...}`` for ``lantern ask --json``."""
    t = a.timings
    return {
        "answer": a.text, "refused": a.refused,
        "citations": [citation_record(c) for c in a.citations],
        "timings": {k: t.get(k) for k in ("retrieval_ms", "first_token_ms", "total_ms")},
        "beyond_book": a.beyond_book, "extractive": a.extractive, "notice": a.notice or None,
        "nearest_sections": list(a.nearest_sections), "unsupported": list(a.unsupported),
        "dropped": list(a.dropped), "question": a.question, "search_question": a.search_question,
        "model": a.model or None, "conversation_id": a.conversation_id,
    }


def print_answer_tail(a: Answer, out: TextIO, streamed: str = "") -> None:
    """After the streamed text: the checked answer when checking changed it (markers added, sentences
    dropped), what was not found in the book, the sources with their quotes, the notice."""
    lines = [""]
    if a.dropped:
        lines += ["", f"(removed {len(a.dropped)} sentence(s) that nothing in your book supports)"]
    if a.unsupported:
        lines += ["", f"(not found in your book: {' / '.join(a.unsupported)})"]
    if " ".join(a.text.split()) != " ".join(streamed.split()):
        lines += ["", "Checked against your book:", a.text]
    if a.citations:
        lines.append("")
        lines.append("Sources:")
        for c in a.citations:
            pages = c.printed_page if not c.printed_page_end or c.printed_page_end == c.printed_page else \
                f"{c.printed_page}–{c.printed_page_end}"
            where = f"{c.section or ''} {c.section_title}".strip()
            lines.append(f"  [{c.n}] {where}, p. {pages}")
            if c.quote:
                lines.append(f"      \u201c{c.quote}\u201d")
    if a.notice:
        lines += ["", f"Note: {a.notice}"]
    out.write("\n".join(lines) + "\n")
    out.flush()
