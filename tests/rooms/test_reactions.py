"""Reactions (app/rooms/reactions.py): emotes shown to the whole table, never stored, rate-limited
per sender, and for spectators only where the host lets them chat."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from app.config import Settings
from app.rooms.clock import ManualClock
from app.rooms.memory_store import InMemoryStore
from tests.live import Client, LiveServer, create_room, seat_players, start_game, sync

WINDOW = 1.0
BURST = 3


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = Settings(_env_file=None, reaction_burst=BURST, reaction_window_seconds=WINDOW,  # type: ignore[call-arg]
                        create_rooms_per_minute=100_000, joins_per_minute=100_000, socket_rate_messages=100_000,
                        rooms_per_address=100_000, sockets_per_address=100_000, connections_per_address=100_000,
                        socket_opens_per_minute=1_000_000, http_requests_per_minute=0, watchers_coalesce_seconds=0.0)
    live = LiveServer(settings, clock=ManualClock()).start()  # the rate's window passes when the test says
    yield live
    live.stop()


async def table(server: LiveServer) -> tuple[list[Client], Client]:
    code = await create_room(server, "classic", 2, target=None)
    clients = await seat_players(server, code, 2)
    await start_game(clients)
    watcher = Client(server, code)
    await watcher.connect()
    await watcher.recv()
    return clients, watcher


def test_a_reaction_reaches_everyone_and_is_never_stored(server: LiveServer) -> None:
    async def main() -> None:
        (ana, ben), watcher = await table(server)
        store = server.store
        assert isinstance(store, InMemoryStore)
        before = json.dumps(store.__dict__, default=repr)
        assert (await ana.request({"type": "react", "emote": "laugh"}))["type"] == "ack"
        await sync([ana, ben, watcher])
        for c in (ana, ben, watcher):
            [r] = c.view["reactions"]
            assert r["seat"] == ana.seat and r["emote"] == "laugh" and isinstance(r["n"], int)
        assert json.dumps(store.__dict__, default=repr) == before  # table talk, not the game
        # Only the fixed set: anything else is a typed refusal that changes nothing.
        err = await ben.request({"type": "react", "emote": "<script>"})
        assert err["type"] == "error" and err["code"] == "bad_message"
        await sync([ana])
        assert len(ana.view["reactions"]) == 1
        assert server.audit.violations == []

    asyncio.run(main())


def test_each_sender_may_react_a_few_times_per_window(server: LiveServer) -> None:
    async def main() -> None:
        (ana, ben), _ = await table(server)
        for _ in range(BURST):
            assert (await ana.request({"type": "react", "emote": "clap"}))["type"] == "ack"
        refused = await ana.request({"type": "react", "emote": "clap"})
        assert refused["type"] == "error" and refused["code"] == "too_many_reactions", refused
        assert refused["params"] == {"burst": BURST, "seconds": WINDOW}
        # Another sender has a rate of their own.
        assert (await ben.request({"type": "react", "emote": "gg"}))["type"] == "ack"
        await sync([ben])
        assert [r["emote"] for r in ben.view["reactions"]] == ["clap"] * BURST + ["gg"]
        server.advance(WINDOW - 0.01)
        refused = await ana.request({"type": "react", "emote": "clap"})
        assert refused["type"] == "error", "a hundredth of a second before the window has passed"
        server.advance(0.01)  # once it has passed...
        assert (await ana.request({"type": "react", "emote": "uno"}))["type"] == "ack"  # ... again
        for _ in range(4):  # one every third of the window: never more than the burst within one
            assert (await ben.request({"type": "react", "emote": "wow"}))["type"] == "ack"
            server.advance(WINDOW / BURST)
        await sync([ana])
        assert len(ana.view["reactions"]) == 6  # the view keeps the last few, never a history

    asyncio.run(main())


def test_spectators_react_only_where_they_may_chat(server: LiveServer) -> None:
    async def main() -> None:
        (host, _), watcher = await table(server)
        err = await watcher.request({"type": "react", "emote": "wow"})
        assert err["type"] == "error" and err["code"] == "spectator_chat_off"
        assert (await host.request({"type": "options", "spectator_chat": True}))["type"] == "ack"
        await watcher.drain()
        assert (await watcher.request({"type": "react", "emote": "wow"}))["type"] == "ack"
        await sync([host])
        [r] = host.view["reactions"]
        assert r["seat"] is None and r["name"].startswith("Spectator") and r["emote"] == "wow"

    asyncio.run(main())
