"""A local server for a test, served in a thread until the test's block ends.

Its loop looks for the shutdown every 50 ms: with the standard library's 0.5 s, every test that started a
server waited up to half a second at its end for the loop to notice."""

from __future__ import annotations

import socketserver
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

Server = TypeVar("Server", bound=socketserver.BaseServer)


@contextmanager
def served(server: Server) -> Iterator[Server]:
    """`server`, answering in a thread of its own; stopped and closed when the block ends."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
