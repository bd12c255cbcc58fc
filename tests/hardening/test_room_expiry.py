"""Rooms nobody plays in are swept even when someone watches or polls them; rooms per address are capped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.config import Settings
from app.rooms.errors import CLOSE_ROOM_CLOSED
from tests.live import Client, LiveServer, create_room, seat_players, start_game


def quick_server(**values: Any) -> LiveServer:
    settings = Settings(_env_file=None, create_rooms_per_minute=10_000, joins_per_minute=10_000,  # type: ignore[call-arg]
                        socket_rate_messages=10_000, sweep_seconds=0.2, **values)
    return LiveServer(settings).start()


@pytest.fixture(scope="module")
def sweeping() -> Iterator[LiveServer]:
    # Idle times of seconds, not fractions: a busy machine takes that long to seat a room's player.
    live = quick_server(waiting_room_idle_seconds=3.0, room_idle_seconds=4.0, away_grace_seconds=600)
    yield live
    live.stop()


async def poll(server: LiveServer, code: str, until: float) -> list[int]:
    """``GET /api/rooms/{code}`` every 0.1 s (each used to count as the room being used), until it is gone."""
    statuses: list[int] = []
    async with httpx.AsyncClient(base_url=server.http) as http:
        while time.monotonic() < until and 404 not in statuses:
            statuses.append((await http.get(f"/api/rooms/{code}")).status_code)
            await asyncio.sleep(0.1)
    return statuses


async def watch(server: LiveServer, code: str, until: float) -> int | None:
    """A bare spectator socket, pinging now and then; the close code the server ends it with."""
    spectator = Client(server, code)
    await spectator.connect()
    try:
        while time.monotonic() < until:
            await spectator.request({"type": "ping"}, timeout=2)
            await asyncio.sleep(0.2)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    await spectator.close()
    return None


@pytest.mark.slow
def test_watched_or_polled_rooms_nobody_plays_in_are_swept(sweeping: LiveServer) -> None:
    async def main() -> None:
        left = await create_room(sweeping, "classic", 2)  # its one player comes and goes
        kept = await create_room(sweeping, "classic", 2)  # its player stays connected
        staying = await seat_players(sweeping, kept, 1)
        leaving = await seat_players(sweeping, left, 1)
        await leaving[0].close()
        # A match under way whose players went (no bot takes over: the grace is long).
        abandoned = await create_room(sweeping, "classic", 2, target=None)
        players = await seat_players(sweeping, abandoned, 2)
        await start_game(players)
        for p in players:
            await p.close()
        # Made last, so that a slow machine's setup above cannot outlast their short idle time
        # before anyone looks at them.
        watched = await create_room(sweeping, "classic", 2)
        polled = await create_room(sweeping, "classic", 2)
        until = time.monotonic() + 30  # each ends as soon as its room is gone
        closed, polled_statuses, abandoned_statuses, _ = await asyncio.gather(
            watch(sweeping, watched, until), poll(sweeping, polled, until), poll(sweeping, abandoned, until),
            staying[0].drain(0.5))
        assert closed == CLOSE_ROOM_CLOSED
        assert polled_statuses[0] == 200 and polled_statuses[-1] == 404
        assert abandoned_statuses[0] == 200 and abandoned_statuses[-1] == 404
        async with httpx.AsyncClient(base_url=sweeping.http) as http:
            assert (await http.get(f"/api/rooms/{left}")).status_code == 404
            assert (await http.get(f"/api/rooms/{kept}")).status_code == 200
        assert (await staying[0].request({"type": "ping"}))["type"] == "pong"
        await staying[0].close()

    asyncio.run(main())


@pytest.mark.slow
def test_rooms_per_address_are_capped_and_freed_when_swept() -> None:
    server = quick_server(rooms_per_address=3, waiting_room_idle_seconds=3.0)
    try:
        with httpx.Client(base_url=server.http) as http:
            made = [http.post("/api/rooms", json={"variant": "classic"}) for _ in range(3)]
            assert [r.status_code for r in made] == [201] * 3
            r = http.post("/api/rooms", json={"variant": "classic"})
            assert r.status_code == 429
            assert r.json()["detail"]["code"] == "too_many_rooms" and "3 open rooms" in r.json()["detail"]["message"]
            deadline = time.monotonic() + 30
            while http.get(f"/api/rooms/{made[0].json()['code']}").status_code != 404:
                assert time.monotonic() < deadline, "the unplayed room was never swept"
                time.sleep(0.1)
            assert http.post("/api/rooms", json={"variant": "classic"}).status_code == 201
    finally:
        server.stop()
