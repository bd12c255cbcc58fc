"""Rooms nobody plays in are swept even when someone watches or polls them; rooms per address are capped."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.config import Settings
from app.rooms.clock import ManualClock
from app.rooms.errors import CLOSE_ROOM_CLOSED
from tests.live import Client, LiveServer, create_room, seat_players, start_game
from tests.waiting import eventually, until


def quick_server(**values: Any) -> LiveServer:
    """The rooms' time (idleness, the sweep) moves only when a test here says: a busy machine that
    takes seconds to seat a player cannot make a room look idle, nor keep one from looking so."""
    settings = Settings(_env_file=None, create_rooms_per_minute=10_000, joins_per_minute=10_000,  # type: ignore[call-arg]
                        socket_rate_messages=10_000, sweep_seconds=0.2, **values)
    return LiveServer(settings, clock=ManualClock()).start()


@pytest.fixture(scope="module")
def sweeping() -> Iterator[LiveServer]:
    live = quick_server(waiting_room_idle_seconds=3.0, room_idle_seconds=4.0, away_grace_seconds=600)
    yield live
    live.stop()


async def gone(http: httpx.AsyncClient, code: str) -> bool:
    return (await http.get(f"/api/rooms/{code}")).status_code == 404


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
        watched = await create_room(sweeping, "classic", 2)
        polled = await create_room(sweeping, "classic", 2)
        spectator = Client(sweeping, watched)
        await spectator.connect()
        await spectator.recv()
        gone_from = [sweeping.registry.get(left), sweeping.registry.get(abandoned)]
        # Their players' going handled: the last use of those rooms.
        await until(lambda: not any(a.connections for a in gone_from), what="the players' going handled")
        closed: int | None = None
        statuses: dict[str, list[int]] = {"polled": [], "abandoned": []}
        async with httpx.AsyncClient(base_url=sweeping.http) as http:
            # Six seconds of the rooms' time in half seconds, past every idle limit here; between
            # steps a spectator pings and someone reads the rooms (each used to count as use).
            for _ in range(12):
                for name, code in (("polled", polled), ("abandoned", abandoned)):
                    statuses[name].append((await http.get(f"/api/rooms/{code}")).status_code)
                if closed is None:
                    try:
                        await spectator.request({"type": "ping"}, timeout=5)
                    except ConnectionClosed as ended:
                        closed = ended.rcvd.code if ended.rcvd else None
                sweeping.advance(0.5)
            for code in (polled, abandoned, left):
                await until(functools.partial(gone, http, code), what=f"room {code} swept")
            while closed is None:
                try:
                    await spectator.recv()
                except ConnectionClosed as ended:
                    closed = ended.rcvd.code if ended.rcvd else -1
            assert (await http.get(f"/api/rooms/{kept}")).status_code == 200
        assert closed == CLOSE_ROOM_CLOSED
        assert statuses["polled"][0] == 200 and statuses["abandoned"][0] == 200
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
            server.advance(3.0 + 0.5)  # past the waiting room's idle time, and a sweep
            eventually(lambda: http.get(f"/api/rooms/{made[0].json()['code']}").status_code == 404,
                       what="the unplayed room's sweep")
            assert http.post("/api/rooms", json={"variant": "classic"}).status_code == 201
    finally:
        server.stop()
