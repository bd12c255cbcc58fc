from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live import LiveServer


@pytest.fixture(scope="session")
def server() -> Iterator[LiveServer]:
    live = LiveServer().start()
    yield live
    live.stop()
