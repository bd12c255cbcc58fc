"""Teams of two and playing again (RULES.md HR-26), over real sockets and the real room actor.

A team match needs 4, 6, 8 or 10 seated.  After a finished 4-seat team match the host's
``rematch`` with 3 left is refused ``bad_teams`` on the message itself (no countdown starts);
a countdown the table stops allowing (a seat leaves, or an absent seat's grace runs out) stops
with nothing dealt, and the table's log says why (``rematch_stopped``).  Someone away within
their grace still counts as seated.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.rooms.clock import ManualClock
from tests.live import Client, LiveServer, next_round_or_over, puppet_step, seat_players, start_game, sync
from tests.waiting import until

COUNTDOWN = 4.0  # long enough for a seat to leave, or an absent seat's grace to run out, during it
GRACE = 2  # the room's grace for absent players: shorter than the countdown


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = Settings(_env_file=None, between_rounds_seconds=0.5, rematch_countdown_seconds=COUNTDOWN,  # type: ignore[call-arg]
                        away_grace_seconds=GRACE, create_rooms_per_minute=100_000, joins_per_minute=100_000,
                        socket_rate_messages=100_000, rooms_per_address=100_000, sockets_per_address=100_000,
                        connections_per_address=100_000, socket_opens_per_minute=1_000_000,
                        watchers_coalesce_seconds=0.0)
    live = LiveServer(settings, clock=ManualClock()).start()  # the countdown and the grace: moved here
    yield live
    live.stop()


async def finished_team_match(server: LiveServer, seed: int, seats: int = 4) -> list[Client]:
    """A team match of Pocket Pizza to a target of 1: one round, then the match is over."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "pocket_pizza", "max_seats": seats, "target_score": 1,
                                                "house_rules": {"team_play": True}})
        assert r.status_code == 201, r.text
        code = str(r.json()["code"])
    clients = await seat_players(server, code, seats)
    await start_game(clients)
    assert clients[0].game is not None and clients[0].game["teams"] == [[0, 2], [1, 3]]
    rng = random.Random(seed)
    while clients[0].status in ("playing", "between"):
        if not await puppet_step(clients, rng, hurry=True):
            await next_round_or_over(clients)
    await sync(clients)
    assert all(c.status == "over" for c in clients)
    return clients


def test_a_start_with_an_odd_count_or_fewer_than_four_is_refused_on_the_message__HR_26(server: LiveServer) -> None:
    """Over the real actor: the host's ``start`` with 3 or 5 seated in a team room is answered
    ``bad_teams`` and nothing starts; with 4 it starts."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 6,
                                                    "house_rules": {"team_play": True}})
            assert r.status_code == 201, r.text
            code = str(r.json()["code"])
        clients = await seat_players(server, code, 5)
        host = clients[0]
        for seated in (5, 3):
            if seated == 3:
                for c in clients[3:]:
                    await leave(c)
            await sync(clients[:seated])
            reply = await host.request({"type": "start"})
            assert reply["type"] == "error" and reply["code"] == "bad_teams", (seated, reply)
            await sync(clients[:seated])
            assert host.view["room"]["status"] == "waiting" and host.game is None
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post(f"/api/rooms/{code}/players", json={"name": "Di"})
            assert r.status_code == 201, r.text
        fourth = Client(server, code, r.json()["token"], r.json()["seat"])
        await fourth.connect()
        assert (await host.request({"type": "start"}))["type"] == "ack"
        await sync([*clients[:3], fourth])
        assert host.view["room"]["status"] == "playing" and host.game is not None
        assert host.game["teams"] == [[0, 2], [1, 3]]

    asyncio.run(main())


def stopped(client: Client) -> list[dict[str, Any]]:
    return [e for e in client.view["log"] if e["kind"] == "rematch_stopped"]


async def leave(client: Client) -> None:
    assert (await client.request({"type": "leave"}))["type"] == "ack"
    await client.close()


def test_a_rematch_with_three_left_is_refused_bad_teams_and_no_countdown_starts__HR_26(server: LiveServer) -> None:
    async def main() -> None:
        host, *others = await finished_team_match(server, seed=1)
        await leave(others[-1])
        stay = [host, *others[:-1]]
        await sync(stay)
        assert len(host.view["players"]) == 3
        reply = await host.request({"type": "rematch"})
        assert reply["type"] == "error" and reply["code"] == "bad_teams", reply
        await sync(stay)
        room = host.view["room"]
        assert room["status"] == "over" and room["rematch_at"] is None and room["match"] == 1
        assert not host.view["players"][host.seat]["ready"]  # the refused message changed nothing
        # Everyone ready deals nothing either: the table reads why instead.
        for c in stay:
            assert (await c.request({"type": "ready"}))["type"] == "ack"
        await sync(stay)
        assert host.view["room"]["status"] == "over" and host.view["room"]["match"] == 1
        assert stopped(host)[-1]["reason"] == "bad_teams" and stopped(host)[-1]["seated"] == 3
        assert server.audit.violations == []

    asyncio.run(main())


@pytest.mark.slow
def test_a_seat_leaving_during_the_countdown_stops_it_with_the_reason__HR_26(server: LiveServer) -> None:
    async def main() -> None:
        host, *others = await finished_team_match(server, seed=2)
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # four seated: the countdown runs
        await sync([host, *others])
        assert host.view["room"]["rematch_at"] is not None
        await leave(others[0])
        stay = [host, *others[1:]]
        await sync(stay)
        room = host.view["room"]
        assert room["rematch_at"] is None and room["status"] == "over", room  # stopped at once, nothing dealt
        assert [e["reason"] for e in stopped(host)] == ["bad_teams"]
        # Past where the countdown would have ended, nothing was dealt: its timer went with it.
        server.advance(COUNTDOWN)
        await sync(stay)
        assert host.view["room"]["status"] == "over" and host.view["room"]["match"] == 1
        assert len(host.view["players"]) == 3 and len(stopped(host)) == 1
        again = await host.request({"type": "rematch"})
        assert again["type"] == "error" and again["code"] == "bad_teams", again
        assert server.audit.violations == []

    asyncio.run(main())


@pytest.mark.slow
def test_an_absent_seat_counts_within_its_grace_and_not_past_it__HR_26(server: LiveServer) -> None:
    """Someone whose socket is gone still counts as seated within the room's grace: the host's
    rematch is acknowledged.  Their grace runs out before the countdown does: at its end three
    are seated, so it stops with nothing dealt and nobody unseated, and the log says why."""

    async def main() -> None:
        host, *others = await finished_team_match(server, seed=3)
        away = others[0]
        await away.close()

        async def seen_gone() -> bool:
            await host.drain(0.05)
            return not host.view["players"][away.seat]["connected"]

        await until(seen_gone, what="the host seeing the seat go")
        assert (await host.request({"type": "rematch"}))["type"] == "ack"  # within the grace: four seated
        stay = [host, *others[1:]]
        await sync(stay)
        assert host.view["room"]["rematch_at"] is not None

        async def countdown_over() -> bool:
            await host.drain(0.05)
            return host.view["room"]["rematch_at"] is None

        server.advance(GRACE)  # the absent seat's grace runs out first: nothing happens until the end
        await sync(stay)
        assert host.view["room"]["rematch_at"] is not None
        server.advance(COUNTDOWN - GRACE)
        await until(countdown_over, what="the countdown's end")
        await sync(stay)
        assert host.view["room"]["status"] == "over" and host.view["room"]["match"] == 1
        assert len(host.view["players"]) == 4  # a refused rematch gives up nobody's seat
        assert stopped(host)[-1]["reason"] == "bad_teams" and stopped(host)[-1]["seated"] == 3
        assert server.audit.violations == []

    asyncio.run(main())

