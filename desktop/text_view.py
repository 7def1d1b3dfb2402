"""The reader for books without printed pages (Markdown, plain text, HTML): the stored file as text.

Citations scroll to the section's heading and highlight the quoted passage.  The importer's
"virtual pages" are not reproduced here, so page numbers are not shown for these books.
"""
from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QTextEdit, QWidget

from core.errors import UnreadablePathError
from core.models import SourceFormat
from desktop.page_view import QUOTE_HIGHLIGHT

log = logging.getLogger(__name__)


def load_text(path: Path, fmt: SourceFormat) -> tuple[str, str]:
    """``(kind, content)`` to show for a stored file: kind is "markdown", "html" or "plain"."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadablePathError(f"The library's copy of this book cannot be read: {exc}") from None
    if fmt is SourceFormat.HTML:
        from core.ingest.html.reader import decode_html
        return "html", decode_html(raw)
    text = raw.decode("utf-8", errors="replace")
    if fmt is SourceFormat.MARKDOWN:
        from core.ingest.markdown import split_front_matter
        return "markdown", split_front_matter(text)[1]
    return "plain", text


class TextView(QTextBrowser):
    """A read-only text/Markdown/HTML view that can jump to headings and highlight quotes."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)  # a book's links never navigate (and never reach the network)
        self.highlighted = ""

    def load(self, path: Path, fmt: SourceFormat) -> None:
        """Show the stored file ``path``."""
        kind, content = load_text(path, fmt)
        {"markdown": self.setMarkdown, "html": self.setHtml}.get(kind, self.setPlainText)(content)
        self.highlighted = ""
        self.setExtraSelections([])

    def scroll_to_heading(self, heading: str) -> bool:
        """Scroll so the heading containing ``heading`` is at the top; True if it was found."""
        cursor = self._heading_cursor(heading) if heading else None
        if cursor is None:
            return False
        self._scroll_to(cursor)
        return True

    def highlight_quote(self, quote: str, after_heading: str = "") -> bool:
        """Highlight ``quote`` (matched by its opening words), preferring a match after the heading."""
        start = self._heading_cursor(after_heading) if after_heading else None
        found = self._find_words(quote.split(), start)
        if found is None and start is not None:
            found = self._find_words(quote.split(), None)
        if found is None:
            return False
        sel = QTextEdit.ExtraSelection()
        sel.cursor = found
        fmt = QTextCharFormat()
        fmt.setBackground(QUOTE_HIGHLIGHT)
        sel.format = fmt
        self.setExtraSelections([sel])
        self.highlighted = found.selectedText()
        self._scroll_to(found)
        return True

    def find_text(self, text: str, backwards: bool = False) -> bool:
        """Find the next (or previous) occurrence, wrapping around; selects it."""
        flags = QTextDocument.FindFlag.FindBackward if backwards else QTextDocument.FindFlag(0)
        if self.find(text, flags):
            return True
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End if backwards else QTextCursor.MoveOperation.Start)
        self.setTextCursor(cursor)
        return self.find(text, flags)

    def count(self, text: str) -> int:
        """How many times ``text`` occurs (case-insensitive)."""
        doc, n, cursor = self.document(), 0, QTextCursor(self.document())
        while text:
            cursor = doc.find(text, cursor)
            if cursor.isNull():
                break
            n += 1
        return n

    # -- helpers -------------------------------------------------------------------------------------------
    def _heading_cursor(self, heading: str) -> QTextCursor | None:
        """A cursor at the first heading block (Markdown/HTML) or line (plain text) containing ``heading``."""
        needle = " ".join(heading.split()).lower()
        block = self.document().begin()
        fallback = None
        while block.isValid():
            text = " ".join(block.text().split()).lower()
            if needle and needle in text:
                if block.blockFormat().headingLevel() > 0:
                    return QTextCursor(block)
                if fallback is None and len(text) < len(needle) + 40:
                    fallback = QTextCursor(block)
            block = block.next()
        return fallback

    def _find_words(self, words: list[str], start: QTextCursor | None) -> QTextCursor | None:
        """A cursor selecting the quote from its first words to its last found window."""
        doc = self.document()
        begin = start or QTextCursor(doc)
        anchor = None
        for size in (8, 5, 3):
            if words:
                anchor = doc.find(" ".join(words[:size]), begin)
                if not anchor.isNull():
                    break
        if anchor is None or anchor.isNull():
            return None
        tail = " ".join(words[-6:]) if len(words) > 12 else ""
        end = doc.find(tail, anchor) if tail else None
        if end is not None and not end.isNull() and end.position() - anchor.position() < 3 * len(" ".join(words)):
            anchor.setPosition(anchor.selectionStart())
            anchor.setPosition(end.position(), QTextCursor.MoveMode.KeepAnchor)
        return anchor

    def _scroll_to(self, cursor: QTextCursor) -> None:
        """Scroll so ``cursor`` is near the top of the view."""
        top = QTextCursor(cursor)
        top.setPosition(cursor.selectionStart())
        bar = self.verticalScrollBar()
        rect = self.cursorRect(top)
        bar.setValue(bar.value() + rect.top() - self.viewport().height() // 6)
