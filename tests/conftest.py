from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.server import LocalServer


@pytest.fixture
def local_server() -> Iterator[LocalServer]:
    """A real HTTP server on 127.0.0.1; add routes with ``local_server.add(path, reply)``."""
    with LocalServer() as server:
        yield server
