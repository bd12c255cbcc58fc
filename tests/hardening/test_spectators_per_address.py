"""One address cannot fill a room's spectator places: spectators per room *and* per address."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from websockets.asyncio.client import connect

from app.config import Settings
from tests.hardening.test_limits import closed_with
from tests.live import Client, LiveServer, create_room


class From(Client):
    """A spectator whose socket comes from a loopback address of its own (127.0.0.x)."""

    def __init__(self, server: LiveServer, code: str, source: str) -> None:
        super().__init__(server, code)
        self.source = source

    async def connect(self, last_seq: int | None = None, header: bool = False) -> None:
        self.ws = await connect(f"{self.server.ws}/ws/rooms/{self.code}", max_size=2**22,
                                local_addr=(self.source, 0))


@pytest.mark.slow
def test_one_address_takes_at_most_its_share_of_a_rooms_spectator_places() -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, spectators_per_room=6, spectators_per_address=3, watchers_coalesce_seconds=0.0)
    live = LiveServer(settings).start()

    async def main() -> None:
        code = await create_room(live, "classic", 2)
        squatters = [From(live, code, "127.0.0.2") for _ in range(4)]
        for s in squatters[:3]:
            await s.connect()
            assert (await s.recv())["type"] == "snapshot"
        await squatters[3].connect()  # one more from the same address
        close, frames = await closed_with(squatters[3])
        assert close == 4430 and frames[-1]["code"] == "too_many_watching", (close, frames)
        # Other addresses still watch, up to the room's own cap.
        others = [From(live, code, f"127.0.0.{3 + i}") for i in range(3)]
        for o in others:
            await o.connect()
            assert (await o.recv())["type"] == "snapshot"
        extra = From(live, code, "127.0.0.9")
        await extra.connect()
        close, frames = await closed_with(extra)
        assert close == 4429 and frames[-1]["code"] == "too_many_spectators"
        # A squatter that leaves frees its address's place (and the room's) again.
        await squatters[0].close()
        again = From(live, code, "127.0.0.2")
        deadline = time.monotonic() + 10
        refused = 1
        while True:
            await again.connect()
            first = await again.recv()
            if first["type"] == "snapshot":
                break
            assert first["code"] == "too_many_watching" and time.monotonic() < deadline, first
            refused += 1
            await asyncio.sleep(0.05)  # the server has not seen the close yet
        async with httpx.AsyncClient(base_url=live.http) as http:
            metrics = (await http.get("/metrics")).text
        assert f'uno_refused_total{{reason="spectators_per_address"}} {refused}' in metrics
        for c in (*squatters[1:3], *others, again):
            await c.close()

    try:
        asyncio.run(main())
    finally:
        live.stop()
