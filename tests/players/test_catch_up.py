"""A match that ended just before the server stopped, with nothing of its players written yet,
is settled when the server starts again (its room's seats are still the match's)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from app.persistence.db import resolve_url
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room


@pytest.mark.slow
def test_a_match_left_unsettled_is_settled_on_the_next_start(tmp_path: Path) -> None:
    url = resolve_url(None, tmp_path)
    first = remembering_server(url)
    try:
        ids = asyncio.run(_play(first))
    finally:
        first.stop()
    with sqlite3.connect(tmp_path / "uno.sqlite3") as db:  # as if the server died at the match's end
        db.execute("DELETE FROM player_matches")
        db.execute("DELETE FROM settled_matches")
        db.execute("DELETE FROM player_ratings")
        db.execute("DELETE FROM player_standings")  # written in the settlement's transaction too
        db.execute("DELETE FROM rated_opponents")
    again = remembering_server(url)
    try:
        asyncio.run(_read(again, ids))
    finally:
        again.stop()


async def _play(server: LiveServer) -> list[str]:
    people = [Person(server, n) for n in ("Ana", "Bo")]
    code = await open_room(server, 2)
    clients = [await p.join(code) for p in people]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(i)) for i, c in enumerate(clients)))
    await settled(server, 1)
    ids = [(await p.me())["id"] for p in people]
    for c in clients:
        await c.close()
    for p in people:
        await p.close()
    return ids


async def _read(server: LiveServer, ids: list[str]) -> None:
    await settled(server, 1)
    for pid in ids:
        person = Person(server, "?")
        page = (await person.http.get(f"/api/players/{pid}")).json()
        assert len(page["history"]) == 1 and page["stats"]["classic"]["matches"] == 1
        assert page["stats"]["classic"]["rating"]["matches"] == 1  # two rounds, two players: rated
        await person.close()
