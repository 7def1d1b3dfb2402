"""The course-pack container: a zip file with a manifest, every member's SHA-256 checked before use.

Why a zip: any computer can open one (a teacher can look inside), Python writes it streamed
(``ZipFile.open(name, "w")``) and reads members one at a time, and a book file or a vector matrix goes in
as it is.  A SQLite file would be just as well kept, but opening a database a stranger made runs SQLite's
parser over hostile pages; here only ``pack.json`` is parsed (as JSON), and nothing is read from a member
until its bytes match the manifest's hash.

Layout (format 1)::

    pack.json                     the manifest (``PackManifest``): versions, fingerprint, books, members
    books/<book id>/file          the original book file
    books/<book id>/<table>.jsonl the book's rows, one JSON array per line in the manifest's column order
    books/<book id>/vectors.f32   its chunk vectors, float32 little-endian, in ``vector_ids`` order

Member names are never used as paths on disk: a reader asks for the names the manifest promises, and a pack
with any other name (``../x``, ``/etc/x``), a member larger than it says, or a hash that differs is refused
with one message before the library is touched.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import CoursePackError, PackVersionError
from core.progress import CancelFn, ProgressFn, check_cancel

FORMAT = "lantern-course-pack"
FORMAT_VERSION = 1
SUFFIX = ".lantern"
MANIFEST = "pack.json"
MAX_MANIFEST_BYTES = 16 << 20
"""A manifest lists members and columns, not data: anything larger is not a pack of ours."""
MAX_MEMBER_BYTES = 4 << 30
"""No member of a real pack comes near this (a 1,000-page PDF is ~100 MB); a larger one is a zip bomb."""
_NAME = re.compile(r"^(pack\.json|books/[0-9a-f]{16}/(file|vectors\.f32|[a-z_]+\.jsonl))$")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Member:
    """One member as the manifest promises it."""

    name: str
    size: int
    sha256: str


@dataclass(frozen=True)
class PackBook:
    """One book in a pack: its identity, its file and which of its tables the pack holds."""

    id: str
    title: str
    file_name: str
    suffix: str
    tables: dict[str, list[str]]  # table -> column names, in the order of the rows' values
    vector_count: int = 0


@dataclass(frozen=True)
class PackManifest:
    """What a pack says about itself (``pack.json``)."""

    format_version: int
    app_version: str
    schema_version: int
    chunker_version: str
    embedding_model: str
    embedding_dimension: int
    created_at: str
    with_study: bool
    with_progress: bool
    books: tuple[PackBook, ...]
    members: tuple[Member, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": self.format_version, "app_version": self.app_version,
                "schema_version": self.schema_version, "chunker_version": self.chunker_version,
                "embedding": {"model": self.embedding_model, "dimension": self.embedding_dimension},
                "created_at": self.created_at, "with_study": self.with_study, "with_progress": self.with_progress,
                "books": [b.__dict__ for b in self.books], "members": [m.__dict__ for m in self.members]}

    @classmethod
    def from_json(cls, data: Any) -> "PackManifest":
        """Parse and check a manifest (``CoursePackError`` for anything malformed, ``PackVersionError`` for a
        newer format)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CoursePackError("This file is not a Lantern course pack (its manifest is missing or foreign).")
        version = data.get("format_version")
        if not isinstance(version, int) or version < 1:
            raise CoursePackError("This course pack's manifest is damaged (no format version).")
        if version > FORMAT_VERSION:
            raise PackVersionError(f"This course pack was made by a newer Lantern (pack format {version}; this "
                                   f"Lantern reads format {FORMAT_VERSION}). Update Lantern to open it.")
        try:
            books = tuple(PackBook(id=_matching(b["id"], r"[0-9a-f]{16}", "book id"), title=str(b["title"]),
                                   file_name=str(b["file_name"]),
                                   suffix=_matching(b["suffix"], r"(\.[a-z0-9]{1,8})?", "file suffix"),
                                   tables=_tables(b["tables"]), vector_count=int(b.get("vector_count", 0)))
                          for b in data["books"])
            members = tuple(Member(_member_name(m["name"]), int(m["size"]),
                                   _matching(m["sha256"], r"[0-9a-f]{64}", "SHA-256")) for m in data["members"])
            embedding = data["embedding"]
            return cls(version, str(data["app_version"]), int(data["schema_version"]), str(data["chunker_version"]),
                       str(embedding["model"]), int(embedding["dimension"]), str(data["created_at"]),
                       bool(data["with_study"]), bool(data["with_progress"]), books, members)
        except (KeyError, TypeError, ValueError) as exc:
            raise CoursePackError(f"This course pack's manifest is damaged ({exc}).") from None

    def member(self, name: str) -> Member:
        for m in self.members:
            if m.name == name:
                return m
        raise CoursePackError(f"This course pack is incomplete: {name} is missing.")


def book_member(book_id: str, part: str) -> str:
    """The member name of one part of a book ("file", "vectors.f32", "<table>.jsonl")."""
    return f"books/{book_id}/{part}"


def _matching(value: Any, pattern: str, what: str) -> str:
    """``value`` when it is a string that matches ``pattern`` whole (else ``ValueError`` naming ``what``)."""
    if not isinstance(value, str) or not re.fullmatch(pattern, value):
        raise ValueError(f"bad {what} {value!r}")
    return value


def _member_name(value: Any) -> str:
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise ValueError(f"a member named {value!r} is not allowed in a course pack")
    return value


def _tables(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, dict):
        raise ValueError("tables must be an object")
    out = {}
    for table, columns in value.items():
        if not re.fullmatch(r"[a-z_]+", str(table)) or not isinstance(columns, list) or \
                not all(isinstance(c, str) and re.fullmatch(r"[a-z_]+", c) for c in columns):
            raise ValueError(f"bad table {table!r}")
        out[str(table)] = list(columns)
    return out


class PackWriter:
    """Writes a pack member by member (streamed), hashing each; ``close(manifest)`` adds ``pack.json``.

    Written to ``<target>.<pid>.tmp`` and renamed when complete, so a cancelled or failed export never
    leaves a half pack under the chosen name.
    """

    def __init__(self, target: Path, cancel: CancelFn | None = None):
        self.target = target
        self.tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        self.cancel = cancel
        self.members: list[Member] = []
        try:
            self._zip = zipfile.ZipFile(self.tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6,
                                        allowZip64=True)
        except OSError as exc:
            raise CoursePackError(f"The course pack cannot be written to {target}: {exc.strerror or exc}.") from None

    def add_file(self, name: str, path: Path, stored: bool = False) -> None:
        """Copy a file in as ``name`` (``stored``: no compression, for PDFs and other packed formats)."""
        with path.open("rb") as src:
            self._add(name, iter(lambda: src.read(_CHUNK), b""), stored)

    def add_blocks(self, name: str, blocks: Iterator[bytes]) -> None:
        """Bytes produced block by block (compressed)."""
        self._add(name, blocks, False)

    def add_lines(self, name: str, rows: Iterator[list[Any]]) -> None:
        """Rows as JSON lines (one array per line)."""
        self._add(name, ((json.dumps(r, ensure_ascii=False) + "\n").encode() for r in rows), False)

    def _add(self, name: str, blocks, stored: bool) -> None:
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
        digest, size = hashlib.sha256(), 0
        with self._zip.open(info, "w", force_zip64=True) as out:
            for block in blocks:
                check_cancel(self.cancel)
                digest.update(block)
                size += len(block)
                out.write(block)
        self.members.append(Member(name, size, digest.hexdigest()))

    def close(self, manifest: PackManifest) -> None:
        data = json.dumps(manifest.to_json(), ensure_ascii=False, indent=1).encode()
        self._zip.writestr(zipfile.ZipInfo(MANIFEST, date_time=(2020, 1, 1, 0, 0, 0)), data,
                           compress_type=zipfile.ZIP_DEFLATED)
        self._zip.close()
        self.tmp.replace(self.target)

    def abort(self) -> None:
        try:
            self._zip.close()
        except Exception:  # a half-written zip is being thrown away
            pass
        self.tmp.unlink(missing_ok=True)


class PackReader:
    """Opens a pack, reads its manifest and checks every member's size and hash (``verify``) before any of
    them is used.  Raises ``CoursePackError`` with one readable message for anything wrong."""

    def __init__(self, path: Path):
        self.path = path
        try:
            self._zip = zipfile.ZipFile(path, "r")
        except FileNotFoundError:
            raise CoursePackError(f"{path} does not exist.") from None
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            if not _starts_like_a_zip(path):
                raise CoursePackError(f"{path.name} is not a Lantern course pack (it is not a zip file).") from None
            raise CoursePackError(f"{path.name} is not a complete course pack: the file is damaged or "
                                  f"truncated ({exc}).") from None
        try:  # a pack refused here must not stay open (on Windows an open file cannot be moved or deleted)
            self._infos = self._member_infos()
            self.manifest = self._read_manifest()
        except BaseException:
            self.close()
            raise

    def _member_infos(self) -> dict[str, zipfile.ZipInfo]:
        infos: dict[str, zipfile.ZipInfo] = {}
        for info in self._zip.infolist():
            if not _NAME.fullmatch(info.filename) or info.filename in infos:
                raise CoursePackError(f"{self.path.name} is not a safe course pack: it holds a member named "
                                      f"{info.filename!r}, which Lantern never writes. Nothing was imported.")
            infos[info.filename] = info
        return infos

    def _read_manifest(self) -> PackManifest:
        info = self._infos.get(MANIFEST)
        if info is None:
            raise CoursePackError(f"{self.path.name} is not a Lantern course pack (it has no {MANIFEST}).")
        if info.file_size > MAX_MANIFEST_BYTES:
            raise CoursePackError(f"{self.path.name} is not a safe course pack: its manifest is "
                                  f"{info.file_size:,} bytes.")
        try:
            data = json.loads(self._read_bounded(info, MAX_MANIFEST_BYTES))
        except (ValueError, UnicodeDecodeError) as exc:
            raise CoursePackError(f"{self.path.name}: the course pack's manifest is damaged ({exc}).") from None
        try:
            manifest = PackManifest.from_json(data)
        except CoursePackError as exc:  # say which file: a student may have dropped several
            raise type(exc)(f"{self.path.name}: {exc.message}") from None
        promised = {m.name for m in manifest.members}
        extra = set(self._infos) - promised - {MANIFEST}
        if extra:
            raise CoursePackError(f"{self.path.name} was changed after it was made: {sorted(extra)[0]} is not "
                                  "in its manifest. Nothing was imported.")
        return manifest

    def verify(self, progress: ProgressFn | None = None, cancel: CancelFn | None = None) -> None:
        """Stream every member through SHA-256 and compare its size and hash with the manifest."""
        total = sum(m.size for m in self.manifest.members) or 1
        done = 0
        for m in self.manifest.members:
            digest = hashlib.sha256()
            for block in self.blocks(m.name, cancel):
                digest.update(block)
                done += len(block)
                if progress:
                    progress("checking the pack", done, total)
            if digest.hexdigest() != m.sha256:
                raise CoursePackError(f"{self.path.name} is damaged or was tampered with: {m.name} does not "
                                      "match its SHA-256 in the manifest. Nothing was imported.")

    def blocks(self, name: str, cancel: CancelFn | None = None) -> Iterator[bytes]:
        """A member's bytes, never more than the manifest promised (a lying zip header cannot inflate it)."""
        member = self.manifest.member(name)
        info = self._infos.get(name)
        if info is None:
            raise CoursePackError(f"{self.path.name} is incomplete: {name} is missing. Nothing was imported.")
        if member.size > MAX_MEMBER_BYTES or info.file_size != member.size:
            raise CoursePackError(f"{self.path.name} is not a safe course pack: {name} says "
                                  f"{info.file_size:,} bytes where its manifest says {member.size:,}. "
                                  "Nothing was imported.")
        read = 0
        try:
            with self._zip.open(info) as src:
                while True:
                    check_cancel(cancel)
                    block = src.read(min(_CHUNK, member.size - read + 1))
                    if not block:
                        break
                    read += len(block)
                    if read > member.size:
                        raise CoursePackError(f"{self.path.name} is not a safe course pack: {name} holds more "
                                              "bytes than its manifest says.")
                    yield block
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError) as exc:
            raise CoursePackError(f"{self.path.name} is damaged or truncated ({name}: {exc}). "
                                  "Nothing was imported.") from None
        if read != member.size:
            raise CoursePackError(f"{self.path.name} is truncated: {name} is shorter than its manifest says.")

    def read(self, name: str) -> bytes:
        return b"".join(self.blocks(name))

    def lines(self, name: str) -> Iterator[list[Any]]:
        """A ``.jsonl`` member's rows (each a JSON array)."""
        buffer = b""
        for block in self.blocks(name):
            buffer += block
            *complete, buffer = buffer.split(b"\n")
            for line in complete:
                yield _row(self.path, name, line)
        if buffer.strip():
            yield _row(self.path, name, buffer)

    def copy_to(self, name: str, target: Path) -> None:
        with target.open("wb") as out:
            for block in self.blocks(name):
                out.write(block)

    def _read_bounded(self, info: zipfile.ZipInfo, limit: int) -> bytes:
        with self._zip.open(info) as src:
            data = src.read(limit + 1)
        if len(data) > limit:
            raise CoursePackError(f"{self.path.name} is not a safe course pack: its manifest is too large.")
        return data

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> "PackReader":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _row(path: Path, name: str, line: bytes) -> list[Any]:
    try:
        row = json.loads(line)
    except ValueError as exc:
        raise CoursePackError(f"{path.name} is damaged: a row of {name} is not JSON ({exc}).") from None
    if not isinstance(row, list):
        raise CoursePackError(f"{path.name} is damaged: a row of {name} is not a list of values.")
    return row


def _starts_like_a_zip(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(2) == b"PK"
    except OSError:
        return False
