"""Where a player stands, and what is left before the leaderboard ranks them (docs/STATS.md):
``GET /api/players/{id}/standing`` (and ``standing`` on ``GET /api/players/{id}``) reads the
leaderboard's own rule — rated matches against different players — and, once ranked, the place
the leaderboard gives.  Here the rule is 2 rated matches against 2 different players."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.persistence.db import resolve_url
from app.persistence.standing import left
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room


def test_what_is_left_counts_down_to_zero_and_never_below() -> None:
    assert left(0, 0, 3, 2) == {"matches_left": 3, "opponents_left": 2}
    assert left(1, 1, 3, 2) == {"matches_left": 2, "opponents_left": 1}
    assert left(5, 1, 3, 2) == {"matches_left": 0, "opponents_left": 1}
    assert left(5, 4, 3, 2) == {"matches_left": 0, "opponents_left": 0}


async def _match(server: LiveServer, people: list[Person], seed: int) -> None:
    code = await open_room(server, len(people))
    clients = [await p.join(code) for p in people]
    assert (await clients[0].request({"type": "start"}))["type"] == "ack"
    await asyncio.gather(*(play_bot(c, random.Random(f"{seed}/{i}")) for i, c in enumerate(clients)))
    for c in clients:
        await c.close()


async def _standing(http: httpx.AsyncClient, pid: str) -> dict[str, Any]:
    r = await http.get(f"/api/players/{pid}/standing")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.slow
def test_standing_counts_down_to_the_leaderboards_rule_and_then_gives_its_place(tmp_path: Path) -> None:
    server = remembering_server(resolve_url(None, tmp_path), leaderboard_min_matches=2, leaderboard_min_opponents=2)

    async def go() -> None:
        ana, bo, cy = Person(server, "Ana"), Person(server, "Bo"), Person(server, "Cy")
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
            await _match(server, [ana, bo], 1)
            await settled(server, 1)
            ids = [(await p.me())["id"] for p in (ana, bo)]
            first = await _standing(ana.http, ids[0])  # Ana asks about herself
            assert first["min_matches"] == 2 and first["min_opponents"] == 2
            classic = first["editions"]["classic"]
            # One rated match against one player: one more match, and one more player met, to go.
            assert classic == {"matches": 1, "opponents": 1, "matches_left": 1, "opponents_left": 1,
                               "ranked": False, "rank": None, "ranked_players": None,
                               "latest": classic["latest"], "unrated": {}}
            # Her newest match, for the podium to know it is counted; to others it is not named
            # (a private room's match id leads to its code).
            history = (await ana.http.get(f"/api/players/{ids[0]}")).json()["history"]
            assert classic["latest"] == history[0]["match"] is not None
            assert (await _standing(http, ids[0]))["editions"]["classic"]["latest"] is None
            # Nothing played in the other editions: the whole rule is left there.
            assert first["editions"]["mario_kart"]["matches_left"] == 2
            assert first["editions"]["mario_kart"]["opponents_left"] == 2
            assert first["editions"]["mario_kart"]["latest"] is None

            await _match(server, [ana, bo, cy], 2)
            await settled(server, 2)
            cy_id = (await cy.me())["id"]
            board = (await http.get("/api/leaderboard/classic")).json()["players"]
            on_board = {row["player"]: row["rank"] for row in board}
            assert set(on_board) == set(ids)  # Ana and Bo: 2 matches, 2 players met; Cy: 1 match
            for pid in ids:
                mine = (await _standing(http, pid))["editions"]["classic"]
                assert mine["ranked"] and mine["matches_left"] == 0 and mine["opponents_left"] == 0
                assert mine["rank"] == on_board[pid] and mine["ranked_players"] == 2
            cy_now = (await _standing(http, cy_id))["editions"]["classic"]
            assert cy_now["matches_left"] == 1 and cy_now["opponents_left"] == 0 and not cy_now["ranked"]
            # The player page carries the same.
            page = (await http.get(f"/api/players/{cy_id}")).json()
            assert page["standing"]["editions"]["classic"] == cy_now
            assert (await http.get("/api/players/nobody/standing")).json()["detail"]["code"] == "no_such_player"
        for p in (ana, bo, cy):
            await p.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
