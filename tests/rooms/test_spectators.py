"""Spectators: the watcher count, spectator chat under the host's switch, the spectators' delay,
and a full room that says so instead of seating nobody."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.rooms.clock import ManualClock
from app.rooms.memory_store import InMemoryStore
from tests.live import Client, LiveServer, puppet_step, seat_players, start_game, sync
from tests.waiting import until


def settings(**over: Any) -> Settings:
    values: dict[str, Any] = {
        "between_rounds_seconds": 0.5, "_env_file": None, "create_rooms_per_minute": 100_000,
        "joins_per_minute": 100_000, "sockets_per_address": 100_000, "socket_rate_messages": 100_000,
        "socket_opens_per_minute": 1_000_000, "http_requests_per_minute": 0, "connections_per_address": 100_000,
        "rooms_per_address": 100_000,
        "spectators_per_address": 100_000,
        "watchers_coalesce_seconds": 0.3,
    }
    values.update(over)
    return Settings(**values)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(settings()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def lagged() -> Iterator[LiveServer]:
    """For the spectators' delay: the rooms' time moves only when the test says, so a frame held
    back is seen to wait the whole delay however busy the machine (the watcher count follows at
    once: a coalescing window would be one more timer to move)."""
    server = LiveServer(settings(watchers_coalesce_seconds=0.0), clock=ManualClock()).start()
    yield server
    server.stop()


async def counted_in(server: LiveServer, code: str, players: list[Client], watchers: int = 1) -> None:
    """Wait until the room has counted its spectators and queued the frames that show it (a seat's
    ping is answered after that message is published): time the test moves on from then is time
    those frames wait."""
    actor = server.registry.get(code)
    await until(lambda: actor.state.watchers == watchers, what="the spectator's arrival handled")
    await sync(players)


async def nothing_new(client: Client) -> bool:
    """Whether no frame reaches ``client`` for a while (the room's clock standing still)."""
    seen = len(client.frames)
    await client.drain(0.2)
    return len(client.frames) == seen


async def new_room(server: LiveServer, seats: int = 2, **options: Any) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": seats, "target_score": 500,
                                                **options})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


async def watcher(server: LiveServer, code: str) -> Client:
    c = Client(server, code)
    await c.connect()
    return c


async def counted(clients: list[Client], watchers: int) -> bool:
    """Whether every client, brought up to date, shows this many watchers."""
    await sync(clients)
    return all(c.view["room"]["watchers"] == watchers for c in clients)


def watcher_patches(client: Client) -> int:
    """How many frames this client got that changed the watcher count."""
    return sum(1 for text in client.frames if '"/room/watchers"' in text)


def test_players_see_the_watcher_count_coalesced(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live)
        ann, bo = await seat_players(live, code, 2)
        await sync([ann, bo])
        assert ann.view["room"]["watchers"] == 0
        seen = len(ann.frames)
        # Eight spectators arrive at once: the seats get one count, not a patch per socket.
        crowd = [await watcher(live, code) for _ in range(8)]
        for c in crowd:
            await c.recv()
            assert c.view["you"] is None and "private" not in c.view
        await until(lambda: counted([ann, bo], 8), what="the eight spectators counted")
        assert ann.view["room"]["watchers"] == 8 and bo.view["room"]["watchers"] == 8
        assert 1 <= watcher_patches(ann) <= 2, ann.frames
        state_frames = [f for f in ann.frames[seen:] if '"type":"patch"' in f or '"type":"snapshot"' in f]
        assert len(state_frames) == watcher_patches(ann), state_frames  # nothing else reached the seat
        # They leave: the count comes down, again in one go.
        before = watcher_patches(ann)
        for c in crowd:
            await c.close()
        await until(lambda: counted([ann, bo], 0), what="the spectators' leaving counted")
        assert ann.view["room"]["watchers"] == 0
        assert 1 <= watcher_patches(ann) - before <= 2
        for c in (ann, bo):
            await c.close()

    asyncio.run(main())


def test_spectator_chat_is_refused_unless_the_host_allows_it(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live)
        ann, bo = await seat_players(live, code, 2)
        eve = await watcher(live, code)
        await eve.recv()
        refused = await eve.request({"type": "chat", "text": "hello table"})
        assert refused["type"] == "error" and refused["code"] == "spectator_chat_off", refused
        # Only the host may change it.
        not_host = await bo.request({"type": "options", "spectator_chat": True})
        assert not_host["type"] == "error" and not_host["code"] == "not_host"
        assert (await ann.request({"type": "options", "spectator_chat": True}))["type"] == "ack"
        said = await eve.request({"type": "chat", "text": "hello table"})
        assert said["type"] == "ack", said
        await sync([ann])
        line = ann.view["chat"][-1]
        assert line["text"] == "hello table" and line["seat"] is None and line["spectator"] is True
        assert ann.view["room"]["spectator_chat"] is True
        # Switched off again: refused again.
        assert (await ann.request({"type": "options", "spectator_chat": False}))["type"] == "ack"
        again = await eve.request({"type": "chat", "text": "still here?"})
        assert again["type"] == "error" and again["code"] == "spectator_chat_off"
        # Other spectator commands are refused as before.
        start = await eve.request({"type": "start"})
        assert start["code"] == "spectator"
        for c in (ann, bo, eve):
            await c.close()

    asyncio.run(main())


def test_the_spectator_delay_is_validated_with_a_typed_error(live: LiveServer) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            for bad in (31, -1, 3600):
                r = await http.post("/api/rooms", json={"variant": "classic", "spectator_delay": bad})
                assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_spectator_delay", r.text
        code = await new_room(live, spectator_delay=30)
        [ann] = await seat_players(live, code, 1)
        assert ann.view["room"]["spectator_delay"] == 30
        for bad in (31, -5):
            refused = await ann.request({"type": "options", "spectator_delay": bad})
            assert refused["type"] == "error" and refused["code"] == "bad_spectator_delay", refused
        typed = await ann.request({"type": "options", "spectator_delay": "5"})
        assert typed["type"] == "error" and typed["code"] == "bad_message"
        assert (await ann.request({"type": "options", "spectator_delay": 0}))["type"] == "ack"
        await sync([ann])
        assert ann.view["room"]["spectator_delay"] == 0
        await ann.close()

    asyncio.run(main())


def test_spectator_frames_arrive_the_delay_late_in_order_and_hide_every_hand(lagged: LiveServer) -> None:
    """C-16: a delayed spectator sees what a live one would, later — never a card in any hand."""
    delay = 1

    async def main() -> None:
        code = await new_room(lagged, spectator_delay=delay)
        players = await seat_players(lagged, code, 2)
        await start_game(players)
        eve = await watcher(lagged, code)
        await counted_in(lagged, code, players)
        assert await nothing_new(eve), "a delayed spectator's snapshot waits the delay too"
        lagged.advance(delay)
        await eve.recv(5)
        await eve.drain(0.1)  # and its own arrival, counted at the same time
        assert eve.view["you"] is None and "hand" not in eve.view["game"]["table"]
        rng = random.Random(3)
        moved = 0
        for _ in range(4):
            moved += await puppet_step(players, rng)
        assert moved
        await sync(players)
        assert await nothing_new(eve), "the moves are held back"
        # Less what only that seat sees: its hand and choices, a drawn card, a hand a challenge showed it.
        public = {k: v for k, v in players[0].view["game"]["table"].items()
                  if k not in ("hand", "legal", "drawn", "revealed")}
        # The moves reach the spectator in order (Client checks every patch's seq follows the last
        # one), until it holds the table as the players do, less their hands; how late each
        # move arrives, test_each_move_is_held_back_at_least_the_delay measures.
        lagged.advance(delay)
        while eve.view["game"]["table"] != public:
            frame = await eve.recv()
            assert frame["type"] == "patch"
            assert "hand" not in eve.view["game"]["table"] and "private" not in eve.view
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_each_move_is_held_back_at_least_the_delay(lagged: LiveServer) -> None:
    """Frames carrying a move reach a spectator no sooner than the delay after the move."""
    delay = 1

    async def main() -> None:
        code = await new_room(lagged, spectator_delay=delay)
        players = await seat_players(lagged, code, 2)
        await start_game(players)
        eve = await watcher(lagged, code)
        await counted_in(lagged, code, players)
        lagged.advance(delay)
        while eve.view is None or eve.view["room"]["watchers"] != 1:  # its snapshot, and its arrival counted
            await eve.recv(5)
        await eve.drain(0.1)
        rng = random.Random(11)
        assert await puppet_step(players, rng)  # the players are shown the move (and synced)
        public = {k: v for k, v in players[0].view["game"]["table"].items() if k not in ("hand", "legal", "drawn")}
        lagged.advance(delay - 0.01)
        assert await nothing_new(eve), "a hundredth of a second before the delay is over, nothing"
        lagged.advance(0.01)
        while eve.view["game"]["table"] != public:
            frame = await eve.recv()
            assert frame["type"] == "patch"
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_the_delayed_queue_is_bounded_and_merges_rather_than_drops() -> None:
    """C-16: with a tiny budget the spectators' frames merge, stay in order, and show no hand."""
    server = LiveServer(settings(spectator_lag_frames=3, watchers_coalesce_seconds=0.0),
                        clock=ManualClock()).start()
    try:
        async def main() -> None:
            code = await new_room(server, spectator_delay=1)
            players = await seat_players(server, code, 2)
            await start_game(players)
            eve = await watcher(server, code)
            await counted_in(server, code, players)
            rng = random.Random(7)
            actor = server.registry.get(code)
            most = 0
            for _ in range(12):
                if not await puppet_step(players, rng):
                    break
                lag = actor.streams.lag
                most = max(most, len(lag.queue) if lag is not None else 0)
            assert most == 3  # the room's clock stands still: every move waits, merged past three frames
            # Once the delay has passed the spectator holds the table as it is (patches applied in order).
            # What the advance itself fires (a window closing) is published then and, merged into the
            # full queue's newest frame, waits its own second: so the clock moves on until it is shown.
            await sync(players)
            public: dict[str, object] = {}
            for _ in range(5):
                server.advance(1)
                await sync(players)
                public = {k: v for k, v in players[0].view["game"]["table"].items()
                          if k not in ("hand", "legal", "drawn")}
                try:
                    while eve.view is None or eve.view["game"] is None or eve.view["game"]["table"] != public:
                        assert (await eve.recv(3))["type"] in ("snapshot", "patch")
                    break
                except TimeoutError:
                    continue
            assert eve.view is not None and eve.view["game"]["table"] == public
            for c in (*players, eve):
                await c.close()

        asyncio.run(main())
    finally:
        server.stop()


@pytest.mark.slow
def test_spectator_options_survive_a_restart() -> None:
    store = InMemoryStore()
    first = LiveServer(settings(), store=store).start()
    try:
        async def setup() -> str:
            code = await new_room(first)
            [ann] = await seat_players(first, code, 1)
            reply = await ann.request({"type": "options", "spectator_chat": True, "spectator_delay": 7})
            assert reply["type"] == "ack", reply
            await ann.close()
            return code

        code = asyncio.run(setup())
    finally:
        first.stop()
    second = LiveServer(settings(), store=store).start()
    try:
        actor = second.registry.get(code)
        assert actor is not None
        assert actor.state.spectator_chat is True and actor.state.spectator_delay == 7
        assert actor.summary["spectator_delay"] == 7 and actor.summary["spectator_chat"] is True
    finally:
        second.stop()


def test_a_full_room_answers_room_full_and_still_lets_people_watch(live: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(live, seats=2)
        players = await seat_players(live, code, 2)
        async with httpx.AsyncClient(base_url=live.http) as http:
            r = await http.post(f"/api/rooms/{code}/players", json={"name": "Late"})
            assert r.status_code == 409 and r.json()["detail"]["code"] == "room_full", r.text
            summary = (await http.get(f"/api/rooms/{code}")).json()
            assert summary["seats_free"] == 0
        await sync(players)
        assert [p["name"] for p in players[0].view["players"]] == ["P0", "P1"]  # nobody was seated
        eve = await watcher(live, code)
        await eve.recv()
        assert eve.view["you"] is None
        await start_game(players)
        async with httpx.AsyncClient(base_url=live.http) as http:
            r = await http.post(f"/api/rooms/{code}/players", json={"name": "Later"})
            assert r.status_code == 409 and r.json()["detail"]["code"] == "room_started"
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())


def test_changing_the_delay_starts_spectators_again_from_a_snapshot(lagged: LiveServer) -> None:
    async def main() -> None:
        code = await new_room(lagged)
        players = await seat_players(lagged, code, 2)
        await start_game(players)
        eve = await watcher(lagged, code)
        await eve.recv()
        await eve.drain(0.4)
        live_seq = eve.seq
        # Delayed from now on: nothing for a second, then a fresh snapshot, numbered on.
        assert (await players[0].request({"type": "options", "spectator_delay": 1}))["type"] == "ack"
        assert await nothing_new(eve)
        lagged.advance(1)
        frame = await eve.recv(5)
        assert frame["type"] == "snapshot" and frame["seq"] > live_seq
        assert eve.view["room"]["spectator_delay"] == 1
        # A move shows up late, as a patch on that snapshot.
        assert await puppet_step(players, random.Random(5))
        assert await nothing_new(eve)
        lagged.advance(1)
        frame = await eve.recv(5)
        assert frame["type"] == "patch"
        # Live again: a snapshot at once, with no time passing.
        assert (await players[0].request({"type": "options", "spectator_delay": 0}))["type"] == "ack"
        while True:
            frame = await eve.recv(5)
            if frame["type"] == "snapshot":
                break
        assert eve.view["room"]["spectator_delay"] == 0
        await sync(players)
        # Less what only that seat sees: its hand and choices, a drawn card, a hand a challenge showed it.
        public = {k: v for k, v in players[0].view["game"]["table"].items()
                  if k not in ("hand", "legal", "drawn", "revealed")}
        assert eve.view["game"]["table"] == public
        for c in (*players, eve):
            await c.close()

    asyncio.run(main())
