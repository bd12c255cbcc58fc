"""Players on Postgres, and two servers over one database: a match played on one is settled
once, and both report the same player, stats, ratings and leaderboard (as the nodes of a
cluster do: they share the database).  And the ratings worked out again from the stored
history are the ones stored (docs/STATS.md)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.persistence.db import create_engine
from app.persistence.settle import recompute_ratings
from tests.live import play_bot
from tests.persistence.conftest import _reset
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room

pytestmark = pytest.mark.slow  # two servers, real matches


def test_two_servers_on_one_postgres_report_the_same_memory(postgres_url: str) -> None:
    asyncio.run(_reset(postgres_url))
    one = remembering_server(postgres_url, leaderboard_min_matches=1, leaderboard_min_opponents=1)
    two = remembering_server(postgres_url, leaderboard_min_matches=1, leaderboard_min_opponents=1)
    try:
        asyncio.run(_play_on_one_read_on_both(one, two, postgres_url))
    finally:
        one.stop()
        two.stop()


async def _play_on_one_read_on_both(one: Any, two: Any, url: str) -> None:
    people = [Person(one, "Ana"), Person(one, "Bo"), Person(one, "Cy")]
    for seed in (1, 2):
        code = await open_room(one, 3)
        clients = [await p.join(code) for p in people]
        for p in people:
            one.audit.secrets.add(p.http.cookies["uno_player"])
        assert (await clients[0].request({"type": "start"}))["type"] == "ack"
        await asyncio.gather(*(play_bot(c, random.Random(f"{seed}/{i}")) for i, c in enumerate(clients)))
        for c in clients:
            await c.close()
    await settled(one, 2)
    ids = [(await p.me())["id"] for p in people]
    async with httpx.AsyncClient(base_url=one.http) as a, httpx.AsyncClient(base_url=two.http) as b:
        for pid in ids:
            here, there = (await a.get(f"/api/players/{pid}")).json(), (await b.get(f"/api/players/{pid}")).json()
            assert here == there and here["stats"]["classic"]["matches"] == 2
        board = [(await c.get("/api/leaderboard/classic")).json() for c in (a, b)]
        assert board[0] == board[1] and len(board[0]["players"]) == 3
        # The browser's secret works on the other server too (the other node, behind the proxy).
        r = await b.get("/api/me", headers={"cookie": f"uno_player={people[0].http.cookies['uno_player']}"})
        assert r.json()["id"] == ids[0]
    engine = create_engine(url)
    try:
        table = await recompute_ratings(engine)
    finally:
        await engine.dispose()
    for pid in ids:
        rating = board[0]["players"][[row["player"] for row in board[0]["players"]].index(pid)]
        (mu_sigma, matches) = table[(pid, "classic")]
        assert matches == 2 and round(mu_sigma.mu, 2) == rating["mu"] and round(mu_sigma.sigma, 2) == rating["sigma"]
    assert one.app.state.players.settler.settled + two.app.state.players.settler.settled == 2  # once each
    for p in people:
        await p.close()
