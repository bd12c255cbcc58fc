"""Players in a cluster (docs/STATS.md): a match played through nginx on two nodes is settled
once, and both nodes, asked directly, report the same player, stats, rating and leaderboard."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

from bench.nodes import LocalCluster
from tests.cluster.test_match_routing import Through
from tests.live import play_bot
from tests.players.conftest import Person


@pytest.mark.slow
@pytest.mark.usefixtures("nginx")
def test_two_nodes_report_the_same_stats(fresh_postgres_url: str) -> None:
    cluster = LocalCluster(fresh_postgres_url, nodes=2, env={
        "UNO_BETWEEN_ROUNDS_SECONDS": "0.3", "UNO_LEADERBOARD_MIN_MATCHES": "1",
        "UNO_LEADERBOARD_MIN_OPPONENTS": "1",
        # A scripted match of new players, about the nodes' agreement, not farming
        # (tests/players/test_farm.py).
        "UNO_RATING_INSTANT_SHARE": "0", "UNO_RATING_AFTER_MATCHES": "0"})
    cluster.start()

    async def main() -> None:
        through = Through(cluster)
        people = [Person(through, name) for name in ("Ana", "Bo", "Cy")]  # type: ignore[arg-type]
        async with httpx.AsyncClient(base_url=cluster.http, timeout=10) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 3,
                                                    "house_rules": {"rounds": 2}})
            code = r.json()["code"]
        clients = [await p.join(code) for p in people]
        assert (await clients[0].request({"type": "start"}))["type"] == "ack"
        await asyncio.gather(*(play_bot(c, random.Random(i)) for i, c in enumerate(clients)))
        for c in clients:
            await c.close()
        ids = [(await p.me())["id"] for p in people]  # through nginx: either node knows the cookie
        pages: list[list[Any]] = []
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient(timeout=10) as http:
            while True:
                pages = [[(await http.get(f"{cluster.node_http(n)}/api/players/{pid}")).json() for pid in ids]
                         for n in (0, 1)]
                if all(page["stats"].get("classic", {}).get("rating") for page in pages[0]):
                    break
                assert time.monotonic() < deadline, pages
                await asyncio.sleep(0.2)
            assert pages[0] == pages[1]
            boards = [(await http.get(f"{cluster.node_http(n)}/api/leaderboard/classic")).json() for n in (0, 1)]
            assert boards[0] == boards[1] and len(boards[0]["players"]) == 3
        for page in pages[0]:
            assert page["stats"]["classic"]["matches"] == 1 and page["stats"]["classic"]["rating"]["matches"] == 1
        for p in people:
            await p.close()

    try:
        asyncio.run(main())
    finally:
        cluster.stop()
