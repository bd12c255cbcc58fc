"""Per-address limits hold for the cluster, not per node: two nodes behind nginx refuse one
client at the configured limit (room creations, unknown room codes, match downloads, players'
pages and leaderboards), counted in Postgres."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.nodes import LocalCluster

CREATES, MISSES, DOWNLOADS, READS = 6, 8, 4, 4


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def ws_close_code(url: str) -> int | None:
    try:
        async with connect(url) as ws:
            await ws.recv()
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except InvalidStatus as refused:
        return refused.response.status_code
    return None


@pytest.mark.slow
@pytest.mark.usefixtures("nginx")
def test_two_nodes_behind_nginx_refuse_one_address_at_the_limit(fresh_postgres_url: str) -> None:
    cluster = LocalCluster(fresh_postgres_url, nodes=2, env={
        "UNO_CREATE_ROOMS_PER_MINUTE": str(CREATES), "UNO_ROOM_MISSES_PER_MINUTE": str(MISSES),
        "UNO_MATCH_DOWNLOADS_PER_MINUTE": str(DOWNLOADS), "UNO_PLAYER_READS_PER_MINUTE": str(READS)}).start()

    async def main() -> None:
        async with httpx.AsyncClient(base_url=cluster.http, timeout=10) as http:
            made = []
            for _ in range(CREATES):
                r = await http.post("/api/rooms", json={"variant": "classic"})
                assert r.status_code == 201, r.text
                made.append(r.json()["code"])
            # Round robin: both nodes made some, and neither has seen the limit on its own.
            conn = await asyncpg.connect(_dsn(fresh_postgres_url))
            try:
                owners = {row["owner"] for row in await conn.fetch("SELECT owner FROM rooms")}
            finally:
                await conn.close()
            assert len(owners) == 2, owners
            for _ in range(2):  # whichever node it reaches
                r = await http.post("/api/rooms", json={"variant": "classic"})
                assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text
                assert int(r.headers["retry-after"]) >= 1

            # Unknown codes, over HTTP and WebSocket alike: MISSES of them, then refusals.
            for i in range(MISSES):
                if i % 2:
                    assert await ws_close_code(f"{cluster.ws}/ws/rooms/NOSUCH{i:02d}") == 4404
                else:
                    r = await http.get(f"/api/rooms/NOSUCH{i:02d}")
                    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_room", r.text
            for i in range(4):  # both nodes refuse: the next unknown codes, then a room that exists
                r = await http.get(f"/api/rooms/NOSUCH{MISSES + i:02d}")
                assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text
            for _ in range(4):
                r = await http.get(f"/api/rooms/{made[0]}")
                assert r.status_code == 429, r.text
            assert await ws_close_code(f"{cluster.ws}/ws/rooms/NOSUCHWS") == 1008

            # Match exports and replays together, wherever nginx sends them (an unknown match counts too).
            for i in range(DOWNLOADS):
                r = await http.get(f"/api/matches/{i:016x}/{'export' if i % 2 else 'replay'}")
                assert r.status_code == 404 and r.json()["detail"]["code"] == "no_match", r.text
            for _ in range(2):
                r = await http.get(f"/api/matches/{0:016x}/export")
                assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text

            # Players' pages and leaderboards together, whichever node answers.
            for i in range(READS):
                r = await http.get("/api/leaderboard/classic" if i % 2 else "/api/players/nobody")
                assert r.status_code == (200 if i % 2 else 404), r.text
            for path in ("/api/leaderboard/classic", "/api/players/nobody/standing"):
                r = await http.get(path)
                assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited", r.text
        # Another address is not held to the first one's count.
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=cluster.http, transport=other, timeout=10) as http:
            assert (await http.get(f"/api/rooms/{made[0]}")).status_code == 200
            assert (await http.post("/api/rooms", json={"variant": "classic"})).status_code == 201

    try:
        asyncio.run(main())
    finally:
        cluster.stop()

