"""Which matches count (docs/STATS.md): a one-round match counts in the stats but moves no
rating; a match of one person and a bot neither; neither puts anyone on the leaderboard.  And
no player's secret is in any frame, export or log line."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from pathlib import Path

import httpx
import pytest

from app.persistence.db import resolve_url
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled


async def _room(server: LiveServer, seats: int, **body: object) -> str:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": seats, **body})
        assert r.status_code == 201, r.text
        return str(r.json()["code"])


@pytest.mark.slow
def test_one_round_and_bot_matches_count_in_stats_but_not_in_ratings(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    server = remembering_server(resolve_url(None, tmp_path))
    try:
        secrets = asyncio.run(_play(server))
    finally:
        server.stop()
    with sqlite3.connect(tmp_path / "uno.sqlite3") as db:
        reasons = [row for row in db.execute("SELECT rated, reason FROM settled_matches ORDER BY settled_at")]
        ratings = db.execute("SELECT count(*) FROM player_ratings").fetchone()[0]
    assert reasons == [(0, "single_round"), (0, "few_players")]
    assert ratings == 0
    # The server's log lines, every logger at DEBUG (the test's own HTTP client logs what it receives).
    server_side = [r for r in caplog.records if not r.name.startswith(("httpcore", "httpx", "websockets.client"))]
    leaks = [(r.name, r.getMessage()[:300]) for r in server_side if any(s in r.getMessage() for s in secrets)]
    assert caplog.records and not leaks


async def _play(server: LiveServer) -> list[str]:
    ana, bo = Person(server, "Ana"), Person(server, "Bo")
    # One round (the first to go out wins the match).
    code = await _room(server, 2, house_rules={"single_round": True})
    clients = [await ana.join(code), await bo.join(code)]
    secrets = [p.http.cookies["uno_player"] for p in (ana, bo)]
    server.audit.secrets.update(secrets)
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(i)) for i, c in enumerate(clients)))
    # Ana and a bot, two rounds.
    code = await _room(server, 2, house_rules={"rounds": 2})
    mine = await ana.join(code)
    r = await ana.http.post(f"/api/rooms/{code}/bots", headers={"Authorization": f"Bearer {mine.token}"})
    assert r.status_code == 201, r.text
    await mine.drain(0.2)
    assert (await mine.request({"type": "start"}))["type"] == "ack"
    await play_bot(mine, random.Random(3))
    await settled(server, 2)

    me = (await ana.me())["id"]
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        page = (await http.get(f"/api/players/{me}")).json()
        assert page["stats"]["classic"]["matches"] == 2 and page["stats"]["classic"]["rating"] is None
        assert [line["rating"] for line in page["history"]] == [None, None]
        assert all(line["counted"] for line in page["history"])
        assert (await http.get("/api/leaderboard/classic")).json()["players"] == []
        for line in page["history"]:
            export = (await http.get(f"/api/matches/{line['match']}/export")).text
            assert not any(s in export for s in secrets)
    for c in [*clients, mine]:
        await c.close()
    for p in (ana, bo):
        await p.close()
    return secrets
