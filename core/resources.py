"""Find files shipped with Lantern (the sample book, icons) from source, a wheel or a frozen app."""
from __future__ import annotations

import os
import sys
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder: $LANTERN_RESOURCES, the frozen bundle's, or the repo's."""
    env = os.environ.get("LANTERN_RESOURCES")
    if env:
        return Path(env)
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def sample_books() -> list[Path]:
    """The bundled sample textbook(s), PDF first."""
    folder = resources_dir() / "sample"
    return sorted(folder.glob("*.pdf")) or sorted(folder.glob("*.md"))
