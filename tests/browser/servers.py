"""The live servers the browser tests' module fixtures start.

Every page of a session is on 127.0.0.1, so the per-address limits that playing many rooms
would hit are lifted (``LIFTED``); each module adds the settings it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from app.config import Settings
from tests.live import LiveServer

LIFTED: dict[str, Any] = {"create_rooms_per_minute": 100_000, "joins_per_minute": 100_000,
                          "socket_rate_messages": 100_000, "sockets_per_address": 100_000,
                          "http_requests_per_minute": 0}  # a test server serves many page loads


def serve(**settings: Any) -> Iterator[LiveServer]:
    """A live server with these settings (and no .env file), for a fixture to ``yield from``."""
    server = LiveServer(Settings(_env_file=None, **settings)).start()  # type: ignore[call-arg]
    try:
        yield server
    finally:
        server.stop()
