"""The ``lantern`` command line: one sub-command per module of ``core.cli``, run against one ``Library``.

stdout carries JSON only with ``--json``; human-readable text otherwise.  Logs go to stderr.
Exit status is non-zero when anything failed.
"""
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from core import __version__
from core.cli import ask, books, models, packs, search, study
from core.cli.output import emit
from core.errors import LanternError
from core.library import Library
from core.paths import resolve_library_dir

log = logging.getLogger("lantern")

_MODULES = (books, packs, search, ask, study, models)
COMMANDS = {name: handler for module in _MODULES for name, handler in module.COMMANDS.items()}


def build_parser() -> argparse.ArgumentParser:
    """The whole ``lantern`` parser: global options, then every module's sub-commands."""
    parser = argparse.ArgumentParser(prog="lantern", description="Lantern: an offline tutor for your textbooks.")
    parser.add_argument("--version", action="version", version=f"lantern {__version__}")
    parser.add_argument("--library", metavar="DIR",
                        help="library folder (default: $LANTERN_LIBRARY or the user data dir)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output on stderr")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _MODULES:
        module.add_parsers(sub)
    return parser


def _setup_logging(verbosity: int) -> None:
    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lantern`` command."""
    args = build_parser().parse_args(argv)
    _setup_logging(args.verbose)
    try:
        with Library(resolve_library_dir(args.library)) as lib:
            return COMMANDS[args.command](lib, args)
    except LanternError as exc:
        if getattr(args, "json", False):
            emit(args, {"error": exc.message, "code": exc.code}, "")
        sys.stderr.write(f"lantern: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("lantern: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
