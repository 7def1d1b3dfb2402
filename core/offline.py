"""A process-wide network block: Lantern's "never online" rule made mechanical.

``block_network()`` makes every IP connection and DNS lookup in the process raise
``NetworkBlocked`` (local AF_UNIX sockets, which Qt and D-Bus use, still work).  The packaged app
turns it on before anything else runs; the test suite turns it on for every test.
"""
from __future__ import annotations

import socket

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


class NetworkBlocked(RuntimeError):
    """Raised when code tries to open a network connection in a process where the network is blocked."""


def _guard(sock: socket.socket, address) -> None:
    if sock.family == getattr(socket, "AF_UNIX", None):
        return
    raise NetworkBlocked(f"Lantern is offline: a network connection was attempted ({address!r})")


def _blocked_connect(self, address):
    _guard(self, address)
    return _real_connect(self, address)


def _blocked_connect_ex(self, address):
    _guard(self, address)
    return _real_connect_ex(self, address)


def _blocked_getaddrinfo(host, *args, **kwargs):
    raise NetworkBlocked(f"Lantern is offline: a DNS lookup was attempted ({host!r})")


def block_network() -> None:
    """Block IP connections and DNS lookups for the rest of the process (idempotent)."""
    socket.socket.connect = _blocked_connect
    socket.socket.connect_ex = _blocked_connect_ex
    socket.getaddrinfo = _blocked_getaddrinfo


def network_blocked() -> bool:
    return socket.getaddrinfo is _blocked_getaddrinfo
