"""Servers that remember players: a live server over a real database (SQLite by default; the
Postgres tests bring their own), and people with browsers of their own (a cookie jar each)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.persistence.db import create_engine, resolve_url
from app.persistence.store import SqlStore
from tests.live import Client, LiveServer
from tests.persistence.conftest import postgres_url  # noqa: F401  (the fixture, for the Postgres tests)
from tests.waiting import until

QUICK: dict[str, Any] = dict(
    _env_file=None, between_rounds_seconds=0.3, bot_delay_scale=0.02, create_rooms_per_minute=100_000,
    joins_per_minute=100_000, socket_rate_messages=100_000, rooms_per_address=100_000, room_lists_per_minute=100_000,
    room_misses_per_minute=100_000, sockets_per_address=100_000, connections_per_address=100_000,
    socket_opens_per_minute=1_000_000, spectators_per_address=100_000, match_downloads_per_minute=100_000,
    http_requests_per_minute=0, player_reads_per_minute=100_000,
    watchers_coalesce_seconds=0.0, echo_endpoint=True,
    # The scripted matches of these tests are about figures, not farming (tests/players/test_farm.py):
    # their instant moves, new players and repeated tables count as a person's would.
    new_players_per_hour=100_000, rating_instant_share=0, rating_after_matches=0, rating_first_day_matches=0,
    rating_pair_limit=0)


def remembering_server(url: str, **settings: Any) -> LiveServer:
    store = SqlStore(create_engine(url), migrate_url=url)
    return LiveServer(Settings(**{**QUICK, **settings}), store=store).start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = remembering_server(resolve_url(None, tmp_path))
    yield live
    live.stop()


class Person:
    """Someone with a browser of their own: their cookies, their seats."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.server, self.name = server, name
        self.http = httpx.AsyncClient(base_url=server.http)

    async def join(self, code: str) -> Client:
        r = await self.http.post(f"/api/rooms/{code}/players", json={"name": self.name})
        assert r.status_code == 201, r.text
        body = r.json()
        client = Client(self.server, code, body["token"], body["seat"])
        await client.connect()
        await client.recv()
        return client

    async def me(self) -> dict[str, Any]:
        r = await self.http.get("/api/me")
        assert r.status_code == 200, r.text
        return dict(r.json())

    async def close(self) -> None:
        await self.http.aclose()


async def settled(server: LiveServer, matches: int, timeout: float = 30) -> None:
    """Wait until this many matches are settled (their players' figures and ratings written)."""
    players = server.app.state.players
    await until(lambda: players.settler.settled >= matches, timeout, what=f"{matches} matches settled")
