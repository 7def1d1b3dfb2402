"""Suite-wide guards: no network for any test, Qt offscreen, and shared fixtures."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO.parent / "shared" / "bench"


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to open a network connection."""


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guard(sock: socket.socket, address) -> None:
    if sock.family == getattr(socket, "AF_UNIX", None):
        return
    raise NetworkBlocked(f"network access attempted during tests: {address!r}")


def _blocked_connect(self, address):
    _guard(self, address)
    return _real_connect(self, address)


def _blocked_connect_ex(self, address):
    _guard(self, address)
    return _real_connect_ex(self, address)


def _blocked_getaddrinfo(host, *args, **kwargs):
    raise NetworkBlocked(f"DNS lookup attempted during tests: {host!r}")


def pytest_configure(config: pytest.Config) -> None:
    # Lantern is offline by design: every test runs with sockets blocked, so any code path that
    # reaches for the network (a hub download, nltk.download, telemetry) fails loudly.
    socket.socket.connect = _blocked_connect
    socket.socket.connect_ex = _blocked_connect_ex
    socket.getaddrinfo = _blocked_getaddrinfo


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
