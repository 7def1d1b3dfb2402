"""Where things live: the library folder (``--library DIR`` > ``LANTERN_LIBRARY`` > platformdirs' user data
dir), the packaged app's bundle, and the files shipped with Lantern (the sample book, icons)."""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "Lantern"


def bundle_dir() -> Path | None:
    """The PyInstaller bundle's data folder when running as the packaged app, else None."""
    bundle = getattr(sys, "_MEIPASS", None)
    if not getattr(sys, "frozen", False) or bundle is None:
        return None
    return Path(bundle)


def default_library_dir() -> Path:
    """The library folder used when none is given on the command line."""
    env = os.environ.get("LANTERN_LIBRARY")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "library"


def cache_dir() -> Path:
    """Where work that can be redone is kept (OCR of scanned pages): $LANTERN_CACHE or the user cache dir."""
    env = os.environ.get("LANTERN_CACHE")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def resolve_library_dir(cli_value: str | None) -> Path:
    """``--library`` wins over the environment and the default."""
    return Path(cli_value).expanduser() if cli_value else default_library_dir()


def resources_dir() -> Path:
    """The ``resources/`` folder: $LANTERN_RESOURCES, the frozen bundle's, or the repo's."""
    env = os.environ.get("LANTERN_RESOURCES")
    if env:
        return Path(env)
    bundle = bundle_dir()
    if bundle is not None:
        return bundle / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def sample_books() -> list[Path]:
    """The bundled sample textbook(s), PDF first."""
    folder = resources_dir() / "sample"
    return sorted(folder.glob("*.pdf")) or sorted(folder.glob("*.md"))


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
