"""Index: a ``ParsedBook`` → chunks with vectors → the library's SQLite tables (FTS5) and FAISS index.

Owns: the embedding models (``embedder``, and ``embedder_onnx`` for the packaged app), late chunking
(``chunker``: one transformer pass per segment, cuts at topic valleys by ``chunk_cuts``, reuse of an
earlier edition's vectors by ``chunk_reuse``), the database schema and migrations (``schema``), the
rows of books, pages, sections, chunks (``rows``) and conversations (``conversations``), the keyword
index's tokens and MATCH syntax (``fts``), the FAISS side (``vectors``), section-level signals
(``sections``) and the health check (``doctor``).
Offers: ``chunker.chunk_book``, ``embedder.default_embedder``, ``schema.connect``, the row functions
``core.library`` calls inside its transactions, ``vectors.VectorIndex``, ``fts.query_terms``.
May import: ``core.ingest`` and the layers below it.  Only ``core.library`` (and ``doctor``, which it
hands itself) opens the database.
"""
