"""The PDF importer: text lines and reading order (``layout``), running headers and printed page labels,
chapters and sections from bookmarks or the layout (``structure``), paragraphs with emphasis and code
(``paragraphs``), put together by ``reader.read``.  Part of ``core.ingest``; same imports allowed.
"""
