"""What the ``lantern`` command prints: ``--json`` or text (``emit``), the shared flags, a progress bar on
stderr, and the records of hits, imports and answers (the JSON contract of ``--json``)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from core.answer.language import language_name, sentence_labels
from core.models import Answer, Citation, Hit, ImportResult, ImportStatus


def reranker_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reranker", metavar="DIR|default|off",
                   help="re-ranking stage: a local cross-encoder folder, the model-free default, or off "
                        "(default: $LANTERN_RERANKER, else the default)")


def json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON on stdout")


def emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    """Print ``payload`` as JSON with --json, else the human text."""
    if getattr(args, "json", False):
        json.dump(payload, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    elif text:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    sys.stdout.flush()


class TerminalProgress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, label: str):
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 24
        filled = int(width * min(done, total) / total)
        line = f"\r{self.label[:30]:30} {stage[:21]:21} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        if line != self._last:
            sys.stderr.write(line)
            sys.stderr.flush()
            self._last = line

    def finish(self) -> None:
        if self.enabled and self._last:
            sys.stderr.write("\r" + " " * len(self._last) + "\r")
            sys.stderr.flush()


def import_record(r: ImportResult) -> dict[str, Any]:
    """The JSON shape of one import result (``lantern import --json``)."""
    b = r.book
    return {
        "book_id": b.id if b else None,
        "title": b.title if b else None,
        "path": r.path,
        "pages": b.page_count if b else None,
        "chapters": b.chapter_count if b else None,
        "sections": b.section_count if b else None,
        "status": r.status.value,
        "error": r.error if r.status in (ImportStatus.ERROR, ImportStatus.SEARCHABLE) else None,
    }


def hit_record(h: Hit) -> dict[str, Any]:
    """The JSON shape of one search hit (``lantern search --json``)."""
    c = h.chunk
    return {"rank": h.rank, "chunk_id": c.id, "book_id": c.book_id, "chapter": c.chapter_number,
            "chapter_title": c.chapter_title, "section": c.section_number, "section_title": c.section_title,
            "page_start": c.page_start, "page_end": c.page_end,
            "printed_pages": [c.printed_page_start, c.printed_page_end], "role": c.role.value,
            "score": round(h.score, 6), "text": c.text}


def citation_record(c: Citation) -> dict[str, Any]:
    """The JSON shape of one citation (issue 5's contract, plus the printed end page and the label)."""
    return {"n": c.n, "chunk_id": c.chunk_id, "book_id": c.book_id, "chapter": c.chapter, "section": c.section,
            "section_title": c.section_title, "page_start": c.page_start, "page_end": c.page_end,
            "printed_page": c.printed_page, "quote": c.quote, "printed_page_end": c.printed_page_end,
            "label": c.label, **({"quote_translation": c.quote_translation} if c.quote_translation else {})}


def preview_line(c: Citation) -> str:
    """The book's own best sentence, shown before the model writes."""
    where = f"{c.section or ''} {c.section_title}".strip()
    return f"From the book: \u201c{c.quote}\u201d ({where + ', ' if where else ''}p. {c.printed_page})"


def answer_record(a: Answer) -> dict[str, Any]:
    """``{"answer", "refused", "citations", "timings", ...}`` for ``lantern ask --json``."""
    t = a.timings
    return {
        "answer": a.text, "refused": a.refused,
        "citations": [citation_record(c) for c in a.citations],
        "timings": {k: t.get(k) for k in ("retrieval_ms", "first_token_ms", "total_ms")},
        "beyond_book": a.beyond_book, "extractive": a.extractive, "notice": a.notice or None,
        "nearest_sections": list(a.nearest_sections), "unsupported": list(a.unsupported),
        "about_code": list(a.about_code), "language": a.language,
        "original": a.original or None, "original_language": a.original_language if a.original else None,
        "dropped": list(a.dropped), "question": a.question, "search_question": a.search_question,
        "model": a.model or None, "conversation_id": a.conversation_id,
        "preview": citation_record(a.preview) if a.preview is not None else None,
    }


def print_answer_tail(a: Answer, out: TextIO, streamed: str = "") -> None:
    """After the streamed text: the checked answer when checking changed it (markers added, sentences
    dropped), what was not found in the book, the sources with their quotes, the notice."""
    lines = [""]
    if a.dropped:
        lines += ["", f"(removed {len(a.dropped)} sentence(s) that nothing in your book supports)"]
    not_found = [s for s in a.unsupported if s not in a.about_code]
    not_found_label, about_code_label = sentence_labels(a.language)
    if not_found:
        lines += ["", f"({not_found_label}: {' / '.join(not_found)})"]
    if a.about_code:
        lines += ["", f"({about_code_label}: {' / '.join(a.about_code)})"]
    if a.original:  # asked in another language: the book's language streamed, then its translation
        lines += ["", f"In {language_name(a.language)} (translated from the {language_name(a.original_language)} "
                      "answer, which was checked against your book; quotes are the book's own words):", a.text]
    elif " ".join(a.text.split()) != " ".join(streamed.split()):
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
            if c.quote_translation:
                lines.append(f"      ({language_name(a.language)}: {c.quote_translation})")
    if a.notice:
        lines += ["", f"Note: {a.notice}"]
    out.write("\n".join(lines) + "\n")
    out.flush()
