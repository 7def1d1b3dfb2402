"""The ``lantern`` command line: one module per group of sub-commands, each with ``add_parsers(sub)``
and ``COMMANDS``; ``main`` builds the parser and runs a command against one ``Library``.

Owns: ``books`` (import, books, toc, remove, doctor, demo), ``search`` (search, eval), ``ask``, ``study``
(practice, cards, quiz, guide, progress) and ``output`` (``--json`` or text, records, progress bar).
May import: anything in ``core`` (it is the top layer, beside the desktop app).
"""
