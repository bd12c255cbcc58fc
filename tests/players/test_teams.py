"""A team match over real sockets credits the team everywhere (RULES.md §7.9 HR-26, HR-27;
HX-14): the stored rounds, the match's API, the export's events, each partner's history and
stats, and the ratings — both partners win or lose together, with the same figures, and are
rated as one openskill team of two (docs/STATS.md)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from app.persistence.db import resolve_url
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room

MODEL = PlackettLuce()
TEAMS = [[0, 2], [1, 3]]  # Ana & Cy against Bo & Di: partners sit opposite


@pytest.mark.slow
def test_a_team_match_credits_both_partners_everywhere__HR_26_HR_27_HX_14(tmp_path: Path) -> None:
    server = remembering_server(resolve_url(None, tmp_path), leaderboard_min_matches=1, leaderboard_min_opponents=1)
    try:
        asyncio.run(_team_match(server))
    finally:
        server.stop()


async def _team_match(server: LiveServer) -> None:
    people = [Person(server, name) for name in ("Ana", "Bo", "Cy", "Di")]
    code = await open_room(server, 4, house_rules={"rounds": 2, "team_play": True})
    clients = [await p.join(code) for p in people]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(f"teams/{i}")) for i, c in enumerate(clients)))
    await settled(server, 1)
    ids = [(await p.me())["id"] for p in people]
    match_id = clients[0].view["room"]["match_id"]
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        stored = (await http.get(f"/api/matches/{match_id}")).json()
        export = (await http.get(f"/api/matches/{match_id}/export")).json()
        pages = [(await http.get(f"/api/players/{pid}")).json() for pid in ids]
        board = (await http.get("/api/leaderboard/classic")).json()["players"]

    # The match is won by a team: both partners, with the team's total.
    assert stored["team_play"] is True and stored["sides"] == TEAMS
    won = next(k for k, side in enumerate(TEAMS) if stored["winner"] in side)
    assert stored["winners"] == TEAMS[won]
    assert stored["side_totals"] == [sum(stored["totals"][s] for s in side) for side in TEAMS]
    assert stored["places"] == [1 if s in TEAMS[won] else 2 for s in range(4)]

    # Every round's points are what its seats were credited: the partner's hand counts for nobody.
    for r in stored["rounds"]:
        assert r["points"] == sum(s["points"] for s in r["scores"]), r
    overs = [e["data"] for rnd in export["rounds"] for a in rnd["actions"] for e in a["events"]
             if e["kind"] == "round_over"]
    assert [o["points"] for o in overs] == [r["points"] for r in stored["rounds"]]
    assert all(o["team"] == next(side for side in TEAMS if o["winner"] in side) for o in overs)

    # Each partner's history line and stats: the same win or loss, place, points and rounds.
    lines = [page["history"][0] for page in pages]
    for side in TEAMS:
        a, b = (lines[s] for s in side)
        assert a["won"] == b["won"] == (side == TEAMS[won])
        assert a["placement"] == b["placement"]
        assert a["points"] == b["points"] == stored["side_totals"][TEAMS.index(side)]
        stats = [pages[s]["stats"]["classic"] for s in side]
        assert stats[0]["wins"] == stats[1]["wins"] == (1 if side == TEAMS[won] else 0)
        rounds_won = sum(1 for r in stored["rounds"] if r["winner"] in side)
        assert stats[0]["rounds_won"] == stats[1]["rounds_won"] == rounds_won

    # Ratings: the two teams as openskill teams of two, partners moved together.
    teams = MODEL.rate([[MODEL.rating(), MODEL.rating()] for _ in TEAMS],
                       ranks=[1 if k == won else 2 for k in range(len(TEAMS))])
    for k, side in enumerate(TEAMS):
        for seat, expected in zip(side, teams[k], strict=True):
            rating: dict[str, Any] = pages[seat]["stats"]["classic"]["rating"]
            assert abs(rating["mu"] - expected.mu) < 0.01 and abs(rating["sigma"] - expected.sigma) < 0.01
    assert {row["player"] for row in board[:2]} == {ids[s] for s in TEAMS[won]}  # the winners lead, side by side

    for c in clients:
        await c.close()
    for p in people:
        await p.close()
