"""Evaluation: retrieval and answer quality on gold questions (the shared benchmark's ``questions.jsonl``).

Owns: retrieval metrics — Hit@k, MRR@10, coverage rates (``retrieval``) — and answer metrics:
citation validity, gold-section citations, multiple choice with and without the book, refusal
(``answers``).  Used by ``lantern eval`` and ``benchmarks/``.
May import: everything below it (``core.library``, ``core.answer``, ``core.retrieval``, ...).
"""
