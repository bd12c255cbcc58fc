"""The rematch as a table decision (app/rooms/rematch.py), over real sockets.

Everyone at the table says ready, or leaves; the host may start a short countdown instead,
and asking again starts at once.  Whoever has left the table is not dealt in; a rematch that
would leave too few players is refused on the host's message and changes nothing (no countdown).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from app.config import Settings
from app.rooms.clock import ManualClock
from tests.live import Client, LiveServer, create_room, next_round_or_over, puppet_step, seat_players, start_game, sync

COUNTDOWN = 1.5
GRACE = 1  # the room's grace for absent players: shorter than the countdown


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = Settings(_env_file=None, between_rounds_seconds=0.5, rematch_countdown_seconds=COUNTDOWN,  # type: ignore[call-arg]
                        away_grace_seconds=GRACE, create_rooms_per_minute=100_000, joins_per_minute=100_000,
                        socket_rate_messages=100_000, rooms_per_address=100_000, sockets_per_address=100_000,
                        connections_per_address=100_000, socket_opens_per_minute=1_000_000, http_requests_per_minute=0,
                        watchers_coalesce_seconds=0.0)
    live = LiveServer(settings, clock=ManualClock()).start()  # the countdown and the grace: moved here
    yield live
    live.stop()


async def finished_match(server: LiveServer, seats: int, seed: int) -> list[Client]:
    """Pocket Pizza to a target of 1: one round, then the match is over."""
    rng = random.Random(seed)
    code = await create_room(server, "pocket_pizza", seats, target=1)
    clients = await seat_players(server, code, seats)
    await start_game(clients)
    while clients[0].status in ("playing", "between"):
        if not await puppet_step(clients, rng, hurry=True):
            await next_round_or_over(clients)
    await sync(clients)
    assert all(c.status == "over" for c in clients)
    return clients


def names(client: Client) -> list[str]:
    return [p["name"] for p in client.view["players"]]


def test_the_rematch_starts_when_everyone_at_the_table_is_ready(server: LiveServer) -> None:
    async def main() -> None:
        clients = await finished_match(server, 3, seed=1)
        for c in clients[1:]:
            assert (await c.request({"type": "ready"}))["type"] == "ack"
        await sync(clients)
        assert clients[0].status == "over"  # the host has not said ready yet
        assert [p["ready"] for p in clients[0].view["players"]] == [False, True, True]
        await clients[0].request({"type": "ready"})
        await sync(clients)
        v = clients[2].view
        assert v["room"]["status"] == "playing" and v["room"]["match"] == 2 and names(clients[2]) == ["P0", "P1", "P2"]
        assert v["room"]["rematch_at"] is None and v["game"]["scores"] == [0, 0, 0]
        assert server.audit.violations == []

    asyncio.run(main())


@pytest.mark.slow
def test_the_hosts_rematch_counts_down_and_deals_in_only_who_is_still_there(server: LiveServer) -> None:
    async def main() -> None:
        clients = await finished_match(server, 3, seed=2)
        host, stays, goes = clients
        await goes.close()  # closes the tab: past the grace, they have left the table
        while next(p for p in host.view["players"] if p["seat"] == goes.seat)["connected"]:
            await host.recv(5)
        assert (await stays.request({"type": "rematch"}))["code"] == "not_host"
        started = server.clock.wall()
        assert (await host.request({"type": "rematch"}))["type"] == "ack"
        await sync([host, stays])
        due = host.view["room"]["rematch_at"]
        assert host.view["room"]["status"] == "over" and due == round(started + COUNTDOWN, 3)
        server.advance(COUNTDOWN - 0.01)
        await sync([host, stays])
        assert host.status == "over", "not before the countdown's end"
        server.advance(0.01)  # nobody else answers: the countdown runs out (and P2's grace with it)
        while host.status == "over":
            await host.recv()
        await sync([host, stays])
        assert host.view["room"]["match"] == 2 and names(host) == ["P0", "P1"] and names(stays) == ["P0", "P1"]
        assert any(e["kind"] == "left" and e["name"] == "P2" for e in host.view["log"])
        assert len(host.view["game"]["scores"]) == 2  # not dealt in

    asyncio.run(main())


def test_asking_again_during_the_countdown_starts_at_once(server: LiveServer) -> None:
    async def main() -> None:
        clients = await finished_match(server, 2, seed=3)
        await clients[0].request({"type": "rematch"})
        await sync(clients)
        assert clients[1].view["room"]["rematch_at"] is not None and clients[1].status == "over"
        await clients[0].request({"type": "rematch"})
        await sync(clients)
        assert clients[1].status == "playing" and clients[1].view["room"]["match"] == 2

    asyncio.run(main())


def test_when_the_last_one_not_ready_leaves_the_others_play_on(server: LiveServer) -> None:
    async def main() -> None:
        clients = await finished_match(server, 3, seed=4)
        for c in clients[:2]:
            await c.request({"type": "ready"})
        assert (await clients[2].request({"type": "leave"}))["type"] == "ack"
        await sync(clients[:2])
        assert clients[0].status == "playing" and names(clients[0]) == ["P0", "P1"]

    asyncio.run(main())


@pytest.mark.slow
def test_a_rematch_that_would_leave_too_few_is_refused_and_changes_nothing(server: LiveServer) -> None:
    async def main() -> None:
        host, other = await finished_match(server, 2, seed=5)
        await other.close()
        while next(p for p in host.view["players"] if p["seat"] == other.seat)["connected"]:
            await host.recv(5)
        server.advance(GRACE)  # from the server's seeing them go (before the host was told): they have left
        reply = await host.request({"type": "rematch"})  # refused on the message itself: too few are left
        assert reply["code"] == "not_enough_players", reply
        await sync([host])
        # No countdown started, and nobody was unseated.
        assert host.status == "over" and host.view["room"]["rematch_at"] is None and names(host) == ["P0", "P1"]
        again = await host.request({"type": "rematch"})
        assert again["code"] == "not_enough_players", again

    asyncio.run(main())


@pytest.mark.slow
def test_the_host_chooses_the_next_matchs_game_and_the_table_answers_again(server: LiveServer) -> None:
    async def main() -> None:
        clients = await finished_match(server, 2, seed=6)
        host, other = clients
        assert (await other.request({"type": "ready"}))["type"] == "ack"
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # a countdown...
        choice = {"type": "next_match", "variant": "mario_kart", "target_score": 200, "house_rules": {"stacking": True}}
        assert (await other.request(choice))["code"] == "not_host"
        bad = await host.request({**choice, "variant": "chess"})
        assert bad["code"] == "bad_variant"
        await sync(clients)
        assert other.view["room"]["edition"] == "pocket_pizza" and other.view["room"]["rematch_at"] is not None
        assert (await host.request(choice))["type"] == "ack"
        await sync(clients)
        room = other.view["room"]
        assert (room["edition"], room["target"], room["house_rules"]["stacking"]) == ("mario_kart", 200, True)
        # ... which the new terms cancel: everyone answers again.
        assert room["rematch_at"] is None and not any(p["ready"] for p in other.view["players"])
        assert any(e["kind"] == "next_match" and e["edition"] == "mario_kart" for e in other.view["log"])
        for c in clients:
            await c.request({"type": "ready"})
        await sync(clients)
        assert other.status == "playing" and other.view["game"]["edition"] == "mario_kart"
        # The stored room has the new game (a restart deals the next match from it).
        stored = next(r for r in await server.store.unfinished_rooms() if r.code == host.code)
        assert (stored.edition, stored.target) == ("mario_kart", 200)

    asyncio.run(main())


@pytest.mark.slow
def test_a_game_the_seated_players_do_not_fit_is_refused(server: LiveServer) -> None:
    async def main() -> None:
        rng = random.Random(7)
        code = await create_room(server, "classic", 6, target=1)
        clients = await seat_players(server, code, 6)
        await start_game(clients)
        while clients[0].status in ("playing", "between"):
            if not await puppet_step(clients, rng, hurry=True):
                await next_round_or_over(clients)
        err = await clients[0].request({"type": "next_match", "variant": "pocket_pizza"})
        assert err["code"] == "bad_seats" and "6 are seated" in err["message"]
        await sync(clients)
        assert clients[1].view["room"]["edition"] == "classic"

    asyncio.run(main())
