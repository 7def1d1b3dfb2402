"""Ingest: a book file → a ``ParsedBook`` (chapters/sections, printed page labels, typed text blocks).

Owns: format detection and one importer per format (``pdf/``, ``epub``, ``html``, ``markdown``,
``plain_text``; ``flow`` and ``headings`` are the shared back half of the text formats), the section
tree (``tree``), sentence splitting trained on the book (``sentences``) and text-only enrichment of
chunks: roles, key terms, equations, figure references (``enrich``).
Offers: ``read.read_book(path, progress, cancel)``, ``read.detect_format``, ``read.book_digest``.
May import: only the layers below it (``core.progress``, ``core.paths``, ``core.models``, ``core.errors``).
A new importer is a module here with ``read(path, progress, cancel) -> ParsedBook`` that raises a
``BookImportError`` subclass for bad input, registered in ``read._MODULES``.
"""
