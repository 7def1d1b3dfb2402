"""Where the library lives: ``--library DIR`` > ``LANTERN_LIBRARY`` > platformdirs' user data dir."""
from __future__ import annotations

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


def resolve_library_dir(cli_value: str | None) -> Path:
    """``--library`` wins over the environment and the default."""
    return Path(cli_value).expanduser() if cli_value else default_library_dir()
