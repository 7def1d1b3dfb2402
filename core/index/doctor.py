"""``Library.doctor``: find (and where safe, repair) damage in a library folder.

Part of the ``Library`` facade (it is handed the library itself, like ``core.index.rows`` is handed its
connection); nothing here deletes a book's data.  Checks, cheapest first:

* SQLite ``integrity_check`` and ``foreign_key_check``;
* the FTS5 index against the chunks table (``integrity-check``; repaired with ``rebuild``);
* every chunk has a vector of the right size (missing ones are re-embedded from the chunk's text);
  the keyword-only chunks of a book still being imported (``core.index.staged_import``) are not damage;
* every complete book with chunks has its section index (``core.index.sections``; rebuilt from the chunks);
* the FAISS index holds exactly the stored vectors' ids and its manifest matches the embedding model
  and chunker (repaired by rebuilding from SQLite, the source of truth);
* every book's stored file exists; no unreferenced files or temp files are left in ``books/``/``index/``.
"""
from __future__ import annotations

import logging
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from core.errors import ManifestMismatchError
from core.index import schema
from core.index import sections as sections_index
from core.index.rows import embed_text, iter_vectors

log = logging.getLogger(__name__)

# ``<stored name>.<pid>.part`` while an import copies the file, ``<stored name>.<pid>.del`` while a
# removal commits, ``*.<pid>.tmp`` while the index is saved.  The pid tells a dead writer's leftovers
# from a live writer's files (the desktop and the CLI may share a library).
_TEMP = re.compile(r"\.(\d+)\.(part|tmp|del)$")


@dataclass(frozen=True)
class Problem:
    """One thing found wrong; ``repairable`` says whether ``--repair`` can fix it without losing data."""

    code: str
    message: str
    repairable: bool


@dataclass(frozen=True)
class DoctorReport:
    """What ``doctor`` found (``problems`` still present), what it repaired, and which checks ran."""

    problems: tuple[Problem, ...] = ()
    repaired: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"ok": self.ok, "problems": [p.__dict__ for p in self.problems], "repaired": list(self.repaired),
                "checks": list(self.checks)}


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (signal 0 only checks)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def stale_temp_files(root: Path) -> list[Path]:
    """Temp files of writers that no longer run (an import, removal or index save killed mid-way)."""
    out = []
    for folder in (root / "books", root / "index"):
        for path in sorted(folder.glob("*")) if folder.is_dir() else ():
            m = _TEMP.search(path.name)
            if m and not pid_alive(int(m.group(1))):
                out.append(path)
    return out


def sweep_stale_temp_files(root: Path, in_use: Callable[[str], bool] = lambda name: True) -> list[str]:
    """Clean up after dead writers (called when a library opens); return what was done.

    ``.tmp`` files are deleted.  A ``.del`` file is a book file a removal moved aside, a ``.part`` one an
    import copied in: it goes into place when ``in_use(original name)`` says the book's row exists and its
    file is missing (the removal rolled back; the import committed), and is deleted otherwise.
    """
    done = []
    for path in stale_temp_files(root):
        original = path.with_name(_TEMP.sub("", path.name))
        try:
            # A ``.del`` whose book survived goes back; so does a ``.part`` whose book row was committed
            # before its file was moved into place (a course pack renames its files after the COMMIT).
            if path.suffix in (".del", ".part") and in_use(original.name) and not original.exists():
                os.replace(path, original)
                done.append(f"restored {original.name}")
            else:
                path.unlink()
                done.append(f"removed {path.name}")
        except OSError as exc:
            log.warning("could not clean up %s: %s", path, exc)
    if done:
        log.info("cleaned up after an interrupted write: %s", done)
    return done


class Doctor:
    """One run of the checks over an open library (``repair`` fixes what it safely can)."""

    def __init__(self, library, repair: bool = False):
        self.lib = library
        self.repair = repair
        self.problems: list[Problem] = []
        self.repaired: list[str] = []
        self.checks: list[str] = []

    def run(self) -> DoctorReport:
        for check in (self.sqlite, self.fts, self.vectors, self.sections, self.faiss, self.files):
            self.checks.append(check.__name__)
            try:
                check()
            except sqlite3.DatabaseError as exc:
                self.problems.append(Problem("sqlite_error", f"{check.__name__}: {exc}", False))
        return DoctorReport(tuple(self.problems), tuple(self.repaired), tuple(self.checks))

    def _found(self, code: str, message: str, repairable: bool, fix: Callable[[], None] | None = None) -> None:
        if self.repair and repairable and fix is not None:
            fix()
            self.repaired.append(message)
            log.info("repaired: %s", message)
        else:
            self.problems.append(Problem(code, message, repairable))

    # -- checks ----------------------------------------------------------------------------------------
    def sqlite(self) -> None:
        db = self.lib.db
        rows = [r[0] for r in db.execute("PRAGMA integrity_check").fetchall()]
        if rows != ["ok"]:
            self._found("sqlite_integrity", "SQLite integrity check: " + "; ".join(rows[:5]), False)
        orphans = db.execute("PRAGMA foreign_key_check").fetchall()
        if orphans:
            tables = sorted({r[0] for r in orphans})

            def fix() -> None:
                with self.lib._writing():
                    for table, rowid, *_ in orphans:
                        db.execute(f"DELETE FROM [{table}] WHERE rowid = ?", [rowid])
            self._found("orphan_rows", f"{len(orphans)} row(s) in {', '.join(tables)} belong to no book", True, fix)

    def fts(self) -> None:
        self._fts_table("chunks_fts", "fts_mismatch", "the keyword index does not match the chunks")

    def _fts_table(self, table: str, code: str, what: str) -> None:
        db = self.lib.db
        try:
            # rank=1: compare against the content table too, not only the index's own consistency.
            db.execute(f"INSERT INTO {table}({table}, rank) VALUES('integrity-check', 1)")
        except sqlite3.DatabaseError as exc:
            def fix() -> None:
                with self.lib._writing():
                    db.execute(f"INSERT INTO {table}({table}) VALUES('rebuild')")
            self._found(code, f"{what} ({exc})", True, fix)

    def vectors(self) -> None:
        db = self.lib.db
        missing = [r[0] for r in db.execute(
            "SELECT c.id FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id WHERE v.chunk_id IS NULL"
            " AND c.pending = 0")]  # a pending chunk waits for its staged import, which replaces it
        dim = self.lib.embedder.dimension
        bad = [r[0] for r in db.execute("SELECT chunk_id FROM vectors WHERE length(vector) != ?", [4 * dim])]
        todo = missing + bad
        if todo:
            self._found("missing_vectors", f"{len(todo)} chunk(s) have no usable vector", True,
                        lambda: self._reembed(todo))

    def sections(self) -> None:
        db = self.lib.db
        missing = sections_index.books_missing(db)
        self._fts_table("section_fts", "section_fts_damaged", "the section keyword index is damaged")
        if missing:
            def fix() -> None:
                with self.lib._writing():
                    for book_id in missing:
                        sections_index.index_book(db, book_id)
            self._found("section_index_missing", f"{len(missing)} book(s) have no section index (used to rank "
                        "passages)", True, fix)

    def _reembed(self, chunk_ids: list[int]) -> None:
        chunks = self.lib.chunks(chunk_ids)
        texts = [embed_text(c) for c in chunks.values()]
        matrix = np.asarray(self.lib.embedder.encode(texts), dtype=np.float32)
        with self.lib._writing():
            for cid, vec in zip(chunks, matrix):
                self.lib.db.execute("INSERT OR REPLACE INTO vectors (chunk_id, vector) VALUES (?, ?)",
                                    [cid, vec.tobytes()])
            schema.bump_generation(self.lib.db)

    def faiss(self) -> None:
        try:
            index = self.lib.vector_index()  # loads, or rebuilds from SQLite when stale (by design)
        except ManifestMismatchError as exc:
            self._found("manifest_mismatch", exc.message, False)
            return
        stored = {r[0] for r in self.lib.db.execute("SELECT chunk_id FROM vectors")}
        held = set(index.ids())
        if stored != held:
            def fix() -> None:
                index.rebuild(iter_vectors(self.lib.db, index.expected.dimension))
                index.save(schema.generation(self.lib.db))
            self._found("index_mismatch", f"the vector index holds {len(held - stored)} unknown and misses "
                        f"{len(stored - held)} stored vector(s)", True, fix)

    def files(self) -> None:
        root = self.lib.root
        rows = list(self.lib.db.execute("SELECT id, title, stored_name FROM books"))
        for book_id, title, stored in rows:
            if not (root / "books" / stored).is_file():
                self._found("missing_book_file", f"the stored copy of “{title}” ({book_id}) is missing: search "
                            "still works, the reader cannot open it; import the file again to restore it", False)
        referenced = {r[2] for r in rows}
        for path in sorted((root / "books").glob("*")):
            if path.name in referenced or _TEMP.search(path.name):
                continue
            self._found("orphan_file", f"books/{path.name} belongs to no book", True,
                        lambda p=path: p.unlink(missing_ok=True))
        for path in stale_temp_files(root):
            self._found("stale_temp", f"{path.parent.name}/{path.name} was left by an interrupted write", True,
                        lambda p=path: p.unlink(missing_ok=True))


def format_report(report: DoctorReport) -> str:
    """Human-readable lines for the CLI."""
    lines = [f"checked: {', '.join(report.checks)}"]
    lines += [f"repaired: {r}" for r in report.repaired]
    lines += [f"problem ({'repairable' if p.repairable else 'needs you'}): {p.message}" for p in report.problems]
    if report.ok:
        lines.append("ok")
    else:
        hint = "; run `lantern doctor --repair`" if any(p.repairable for p in report.problems) else ""
        lines.append(f"{len(report.problems)} problem(s){hint}")
    return "\n".join(lines)


__all__ = ["Doctor", "DoctorReport", "Problem", "format_report", "stale_temp_files", "sweep_stale_temp_files"]
