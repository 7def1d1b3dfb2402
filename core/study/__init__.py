"""Study tools for any book: practice, flashcards with spaced repetition, verified quizzes, chapter guides
and progress.

One pipeline: ``lesson`` finds what a chapter teaches (``statements``: defining sentences, rules, facts
about its key terms and identifiers, and code examples with the output the book prints; ``prose``
keeps only whole sentences) and caches it in the library; ``quizgen`` (checks in ``quizchecks``),
``lesson_cards``, ``drills`` (practice made from the text, after the book's own exercises from
``practice``) and ``guide`` all start from it, for the CLI and the desktop alike (``render`` holds the
desktop's HTML).  Pure functions over ``Chunk`` records (tested directly); persistence goes through
``Library`` (the SQL of the study tables is ``store``, called only by the library).
May import: ``core.retrieval``, ``core.llm`` and the layers below; never ``core.answer`` or ``core.library``.
A new study tool is a module here taking a lesson or chunks (and a model when it needs one), with a
command in ``core.cli.study`` and a tab in ``desktop/study.py``.
"""
