"""app/server.py's ``Server``: uvicorn's own tick once a second (an idle server is woken ten times
less), each one a tenth tick to ``on_tick``, and a stop signal heard at once, not at the next tick."""

from __future__ import annotations

import asyncio
import signal
import time

from app.config import Settings
from app.server import TICK_S, Server, uvicorn_config


class Counted(Server):
    """Records each tick's counter and time; stops as uvicorn's own ``on_tick`` would."""

    ticks: list[tuple[int, float]]

    async def on_tick(self, counter: int) -> bool:
        self.ticks.append((counter, time.monotonic()))
        return self.should_exit


def test_the_server_ticks_once_a_second_and_a_signal_stops_it_at_once() -> None:
    server = Counted(uvicorn_config(Settings(_env_file=None)))  # type: ignore[call-arg]
    server.ticks = []
    signalled = 2.5 * TICK_S  # between two ticks

    async def main() -> float:
        asyncio.get_running_loop().call_later(signalled, server.handle_exit, signal.SIGTERM, None)
        started = time.monotonic()
        await server.main_loop()
        return time.monotonic() - started

    took = asyncio.run(main())
    counters = [counter for counter, _ in server.ticks]
    assert counters == [0, 10, 20, 30]  # uvicorn's once-a-second work (counter % 10 == 0) every time
    gaps = [b - a for (_, a), (_, b) in zip(server.ticks, server.ticks[1:], strict=False)]
    assert all(gap >= 0.9 * TICK_S for gap in gaps[:2])
    assert took < signalled + 0.4 * TICK_S  # woken by the signal, not at the next tick
