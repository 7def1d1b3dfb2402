"""What the dev-set benchmarks share: where the dev books and their libraries are, and argument parsing."""
from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

from core.library import Library


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


REPO = Path(__file__).resolve().parent.parent
BENCH = REPO.parent / "shared" / "bench"
DEV_BOOKS = ("psychology-2e", "chemistry-2e", "american-government-4e", "astronomy-2e", "rust-book")
"""Every dev book in ../shared/bench (its README lists them)."""


def book_library(libs: Path, book: str) -> Library:
    """The library ``<libs>/<book>`` (one dev book imported); exits with the import command when missing."""
    folder = Path(libs) / book
    if not (folder / Library.DB_NAME).exists():
        raise SystemExit(f"{folder} holds no library: run  .venv/bin/lantern --library {folder} import "
                         f"{BENCH / book / 'book.pdf'}")
    return Library(folder)


def load() -> str:
    """The load average (1, 5, 15 min) as the benchmarks print it beside every number."""
    return "load %.2f %.2f %.2f" % os.getloadavg()


def load_jsonl(path: Path) -> list[dict]:
    """The records of a JSON Lines file."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def share(flags) -> float | None:
    """The share of true ``flags`` (3 decimals); None for none."""
    flags = list(flags)
    return round(sum(map(bool, flags)) / len(flags), 3) if flags else None


def p50(values: list[float]) -> float | None:
    """The median of ``values`` (1 decimal); None for none."""
    return round(statistics.median(values), 1) if values else None


def fmt(x: float | None) -> str:
    """A share for a table: ".83", or "—" when there is none."""
    return "—" if x is None else f"{x:.2f}"
