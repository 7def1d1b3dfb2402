"""The suite itself runs with the network blocked; prove the guard is active."""
import socket
import urllib.request

import pytest

from tests.conftest import NetworkBlocked


def test_tcp_connect_is_blocked():
    with pytest.raises(NetworkBlocked):
        socket.create_connection(("127.0.0.1", 9), timeout=1)


def test_dns_and_http_are_blocked():
    with pytest.raises((NetworkBlocked, OSError)):
        urllib.request.urlopen("http://example.org", timeout=1)


def test_core_sets_hub_offline_flags():
    import os

    import core  # noqa: F401

    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert os.environ["TRANSFORMERS_OFFLINE"] == "1"
