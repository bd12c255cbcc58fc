from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.config import Settings
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """The tests' usual server: production frame size, raised per-address and per-socket rates."""
    live = LiveServer().start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def strict() -> Iterator[LiveServer]:
    """Tight limits, to hit them quickly."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, between_rounds_seconds=0.5, socket_rate_messages=10, socket_rate_window_s=20.0,
        create_rooms_per_minute=3, joins_per_minute=4, http_body_max_bytes=1024,
        allowed_origins="https://uno.example, https://friends.example/")
    live = LiveServer(settings).start()
    yield live
    live.stop()
