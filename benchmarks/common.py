"""What the dev-set benchmarks share: the arguments naming the two bench libraries."""
from __future__ import annotations

import argparse


def dev_parser(description: str | None, *, limits: bool = True) -> argparse.ArgumentParser:
    """A parser with ``--psy``/``--chem`` (libraries holding the two dev books) and, with ``limits``,
    ``--limit-psy``/``--limit-chem`` (how many of each book's questions; Chemistry defaults to 800)."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--psy", default="/tmp/bench-psy", help="library holding Psychology 2e")
    ap.add_argument("--chem", default="/tmp/bench-chem", help="library holding Chemistry 2e")
    if limits:
        ap.add_argument("--limit-psy", type=int)
        ap.add_argument("--limit-chem", type=int, default=800)
    return ap
