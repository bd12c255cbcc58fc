"""The room's life: waiting room, host powers, rounds, the between-rounds pause, rematch, cleanup."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine, Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.rooms.clock import ManualClock
from app.rooms.memory_store import InMemoryStore
from tests.live import (
    Client,
    LiveServer,
    create_room,
    next_round_or_over,
    puppet_step,
    seat_players,
    start_game,
    sync,
)
from tests.waiting import until


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """The rooms' time moves only when a test here says: the pause between rounds, idleness."""
    live = LiveServer(clock=ManualClock()).start()
    yield live
    live.stop()


def test_waiting_room_join_rename_leave_kick_and_host(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 4)
        clients = await seat_players(server, code, 3)
        host, b, c = clients
        await sync(clients)
        assert host.view["players"][0]["host"] and not b.view["players"][1]["host"]
        # Only the host starts or removes seats.
        assert (await b.request({"type": "start"}))["code"] == "not_host"
        assert (await b.request({"type": "kick", "seat": 2}))["code"] == "not_host"
        assert (await b.request({"type": "rename", "name": "Bea"}))["type"] == "ack"
        assert (await c.request({"type": "rename", "name": "bea"}))["code"] == "name_taken"
        assert (await host.request({"type": "kick", "seat": 0}))["code"] == "bad_seat"
        await host.request({"type": "kick", "seat": 1})
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await b.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4403
        await sync([host, c])
        assert [p["name"] for p in host.view["players"]] == ["P0", "P2"]
        assert c.view["you"] == 1  # seats close up
        # The host leaves: the longest-seated player becomes host.
        await host.request({"type": "leave"})
        await sync([c])
        assert c.view["you"] == 0 and c.view["players"][0]["host"]
        assert (await c.request({"type": "start"}))["code"] == "not_enough_players"
        assert any(e["kind"] == "kicked" for e in c.view["log"])

    asyncio.run(main())


def test_join_refusals_are_clear_409s(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "pocket_pizza", 2)
        clients = await seat_players(server, code, 2)
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post(f"/api/rooms/{code}/players", json={"name": "late"})
            assert r.status_code == 409 and r.json()["detail"]["code"] == "room_full"
            await start_game(clients)
            code2 = await create_room(server, "pocket_pizza", 3)
            c2 = await seat_players(server, code2, 2)
            await start_game(c2)
            r = await http.post(f"/api/rooms/{code2}/players", json={"name": "late"})
            assert r.status_code == 409 and r.json()["detail"]["code"] == "room_started"
            assert "started" in r.json()["detail"]["message"]

    asyncio.run(main())


def test_rounds_summary_ready_and_rematch(server: LiveServer) -> None:
    async def main() -> None:
        rng = random.Random(11)
        code = await create_room(server, "all_wild", 3, target=10_000)
        clients = await seat_players(server, code, 3)
        await start_game(clients)
        while clients[0].status == "playing":
            await puppet_step(clients, rng)
        v = clients[0].view
        assert v is not None and v["room"]["status"] == "between"
        s = v["summary"]
        assert s["round"] == 1 and not s["final"] and s["cards_left"][s["winner"]] == 0
        assert s["points"] == s["scores"][s["winner"]] > 0
        assert v["room"]["next_round_at"] == pytest.approx(server.clock.wall() + 0.5, abs=0.001)
        # Everyone ready: round 2 starts at once.
        await next_round_or_over(clients)
        assert clients[0].status == "playing" and clients[0].game["round"] == 2
        assert clients[0].view["summary"] is None
        # Nobody ready: it starts by itself after the pause (0.5 s in tests).
        while clients[0].status == "playing":
            await puppet_step(clients, rng)
        pause = server.settings.between_rounds_seconds
        server.advance(pause - 0.01)
        await sync(clients)
        assert clients[0].status == "between", "a hundredth of a second before the pause is over"
        server.advance(0.01)
        while clients[0].status != "playing":
            await clients[0].recv()
        assert clients[0].game["round"] == 3

    asyncio.run(main())


def test_match_end_and_rematch_with_the_same_seats(server: LiveServer) -> None:
    async def main() -> None:
        rng = random.Random(12)
        code = await create_room(server, "pocket_pizza", 2, target=1)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        while clients[0].status in ("playing", "between"):
            if not await puppet_step(clients, rng):
                await next_round_or_over(clients)
        v = clients[0].view
        assert v is not None and v["room"]["status"] == "over" and v["summary"]["final"]
        assert v["summary"]["table"][0]["seat"] == v["game"]["winner"]
        assert (await clients[1].request({"type": "rematch"}))["code"] == "not_host"
        # Play again is the table's decision (app/rooms/rematch.py): both say ready.
        for c in clients:
            assert (await c.request({"type": "ready"}))["type"] == "ack"
        await sync(clients)
        v = clients[1].view
        assert v is not None and v["room"]["status"] == "playing" and v["room"]["match"] == 2
        assert v["game"]["scores"] == [0, 0] and [p["name"] for p in v["players"]] == ["P0", "P1"]
        assert server.audit.violations == []
        # The store port saw the room and the finished match (tokens only as hashes).
        store = server.store
        assert isinstance(store, InMemoryStore)
        stored = next(room for room in await store.unfinished_rooms() if room.code == code)
        assert stored.match is not None and stored.match.number == 2
        assert [s.name for s in stored.seats] == ["P0", "P1"]
        assert all(len(s.token_hash) == 64 and s.token_hash != c.token
                   for s, c in zip(stored.seats, clients, strict=True))
        first = [m for m in store.matches.values() if m.started.code == code and m.started.number == 1]
        assert len(first) == 1 and first[0].status == "over" and first[0].winner is not None

    asyncio.run(main())


def test_idle_and_finished_rooms_are_stopped_and_removed(server: LiveServer) -> None:
    async def main() -> None:
        code = await create_room(server, "classic", 2)
        clients = await seat_players(server, code, 1)
        reg = server.registry
        actor = reg.get(code)
        # Connected rooms are not idle; an idle room with nobody connected is swept.
        server.advance(server.settings.room_idle_seconds + 1)  # (the registry's own sweeps run meanwhile)
        assert code not in await run_in_server(server, reg.sweep())
        await clients[0].close()
        await until(lambda: not actor.connections, what="the disconnect reaching the room")
        unseated = server.settings.waiting_room_idle_seconds  # a waiting room nobody is seated in
        server.advance(unseated - 1)
        assert code not in await run_in_server(server, reg.sweep()), "not idle long enough yet"
        server.advance(2)
        swept = await run_in_server(server, reg.sweep())
        assert code in swept and reg.get(code) is None and actor.stopped
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get(f"/api/rooms/{code}")).status_code == 404
        late = Client(server, code)
        await late.connect()
        with pytest.raises(ConnectionClosed):
            await late.recv(5)

    asyncio.run(main())


async def run_in_server(server: LiveServer, coro: Coroutine[Any, Any, list[str]]) -> list[str]:
    """Run a registry coroutine on the server's own loop (actors belong to it)."""
    fut = asyncio.run_coroutine_threadsafe(coro, server.registry.loop)
    return await asyncio.wrap_future(fut)
