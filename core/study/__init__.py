"""Study tools: practice from the book's own exercises, flashcards with spaced repetition, generated
quizzes whose answers are verified against their source passage, chapter guides and progress.

Pure functions over ``Chunk`` records (tested directly); persistence goes through ``Library`` (the SQL
of the study tables is ``store``, called only by the library).
May import: ``core.retrieval``, ``core.llm`` and the layers below; never ``core.answer`` or ``core.library``.
A new study tool is a module here taking chunks (and a model when it needs one), with a command in
``core.cli.study`` and a tab in ``desktop/study.py``.
"""
