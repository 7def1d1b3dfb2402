"""Find files shipped with Lantern (the sample book, icons) from source, a wheel or a frozen app."""
from __future__ import annotations

import os
from pathlib import Path

from core.paths import bundle_dir


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
