"""Retrieval: a question → the best few passages, and whether the book covers it at all.

Owns: query understanding (``plan``: intent, expansions; ``scope``: "chapter 5", "pages 40–60"),
keyword/vector/hybrid candidates (``retriever``), fusion (``fusion``), re-scoring (``rescoring``: the
model-free signal blend or a local cross-encoder), shaping the list (``selection``: de-duplication,
per-section diversity, role quotas), the pipeline around one search function (``pipeline.find``),
coverage (``coverage``: "does the book answer this?") and context assembly (``context``: numbered
sources grown small-to-big within a token budget).
Offers: ``pipeline.find``, ``retriever.Retriever``, ``coverage.assess``, ``context.build_sources``.
May import: ``core.index`` and the layers below it.  A new re-scorer implements ``rescoring.Rescorer``
and is named by ``rescoring.reranker_from_setting``.
"""
