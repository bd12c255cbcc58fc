"""A match's routes (history, export) are answered by the node that owns its room, through nginx."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from bench.nodes import LocalCluster
from tests.live import Client


class Through:
    """What tests.live.Client needs of a server: addresses (nginx's) and no in-process audit."""

    audits_views = False

    def __init__(self, cluster: LocalCluster) -> None:
        self.http, self.ws = cluster.http, cluster.ws


@pytest.mark.slow
@pytest.mark.usefixtures("nginx")
def test_a_matchs_routes_are_answered_by_its_rooms_node(fresh_postgres_url: str) -> None:
    """A live match in a room with a spectator delay is withheld whichever node nginx asks
    first: only the room's own node knows what its spectators have been shown."""
    cluster = LocalCluster(fresh_postgres_url, nodes=2).start()

    async def main() -> None:
        async with httpx.AsyncClient(base_url=cluster.http, timeout=10) as http:
            r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "spectator_delay": 30})
            code = r.json()["code"]
            players = []
            for name in ("Ana", "Bo"):
                seat = (await http.post(f"/api/rooms/{code}/players", json={"name": name})).json()
                players.append(Client(Through(cluster), code, seat["token"], seat["seat"]))  # type: ignore[arg-type]
            for c in players:
                await c.connect()
                await c.recv()
            assert (await players[0].request({"type": "start"}))["type"] == "ack"
            while not players[0].view["room"]["match_id"]:
                await players[0].recv()
            match_id = players[0].view["room"]["match_id"]
            # Round robin: each node is asked first about half of the time.
            for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/export") * 3:
                r = await http.get(path)
                assert r.status_code == 409 and r.json()["detail"]["code"] == "match_not_finished", (path, r.text)
            for _ in range(2):
                r = await http.get("/api/matches/0123456789abcdef")
                assert r.status_code == 404 and r.json()["detail"]["code"] == "no_match"
            for c in players:
                await c.close()

    try:
        asyncio.run(main())
    finally:
        cluster.stop()
