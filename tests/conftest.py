"""Suite-wide guards: no network for any test, Qt offscreen, and shared fixtures."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.offline import NetworkBlocked, block_network  # noqa: F401 - tests import NetworkBlocked from here

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# No test measures the chat models (desktop.model_choice) unless it asks to.
os.environ.setdefault("LANTERN_MEASURE_MODELS", "0")
# OCR results are cached per PDF; tests never write into the user's cache folder.
if "LANTERN_CACHE" not in os.environ:
    import tempfile
    os.environ["LANTERN_CACHE"] = tempfile.mkdtemp(prefix="lantern-test-cache-")

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO.parent / "shared" / "bench"


def pytest_configure(config: pytest.Config) -> None:
    # Lantern is offline by design: every test runs with sockets blocked, so any code path that
    # reaches for the network (a hub download, nltk.download, telemetry) fails loudly.
    block_network()


def require_real_file(path: Path) -> Path:
    """Return ``path`` if it exists; skip (or fail under LANTERN_REQUIRE_REAL_DATA=1) otherwise."""
    if path.exists():
        return path
    if os.environ.get("LANTERN_REQUIRE_REAL_DATA") == "1":
        pytest.fail(f"required real-data file is missing: {path}")
    pytest.skip(f"real-data file not available: {path}")


@pytest.fixture
def bench_dir() -> Path:
    return require_real_file(BENCH)
