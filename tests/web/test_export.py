"""A match played through the server exports and verifies; a live one does not export.

Every round's commitment is published at the deal and its secret only once the round is
over (the frame audit in tests/live.py checks every frame for the secret); the export then
re-deals each round from its secret and replays the log (C-2 the deal, C-15 the match's end).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine.audit import commitment
from app.engine.verify import verify
from tests.live import Client, LiveServer, create_room, play_bot, seat_players, start_game

ROOT = Path(__file__).resolve().parents[2]


async def three_rounds(server: LiveServer) -> list[Client]:
    """A classic match of three rounds (a house rule), played by random bots through the sockets."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "public": False, "max_seats": 3,
                                                "house_rules": {"rounds": 3}})
        assert r.status_code == 201, r.text
    clients = await seat_players(server, r.json()["code"], 3)
    await start_game(clients)
    await asyncio.gather(*(play_bot(c, random.Random(f"export/{c.seat}")) for c in clients))
    for c in clients:
        await c.drain(0.05)
    return clients


@pytest.mark.slow
def test_a_finished_match_exports_and_verifies(server: LiveServer, tmp_path: Path) -> None:
    clients = asyncio.run(three_rounds(server))
    view = clients[0].view
    assert view["room"]["status"] == "over"
    match_id = view["room"]["match_id"]
    r = httpx.get(f"{server.http}/api/matches/{match_id}/export")
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    rounds = doc["rounds"]
    assert len(rounds) == 3
    assert doc["format"] == "uno-match-export" and doc["version"] == 1
    assert doc["config"]["edition"] == "classic" and doc["players"] == ["P0", "P1", "P2"]
    assert verify(doc) == [f"round {n}: fair" for n in range(1, len(rounds) + 1)]
    # Fresh 128-bit secrets, one per round, each matching what the deal committed to.
    assert len({x["secret"] for x in rounds}) == len(rounds) and all(len(x["secret"]) == 32 for x in rounds)
    assert all(x["commitment"] == commitment(x["secret"]) for x in rounds)
    # What the players saw: the last round's commitment in the room, its secret in the summary.
    assert view["room"]["commitment"] == rounds[-1]["commitment"]
    assert view["summary"]["secret"] == rounds[-1]["secret"]
    # The log (its last 60 entries) said the same: the commitment at each deal, the secret at each end.
    told = [e for e in view["log"] if e["kind"] in ("commitment", "secret")]
    assert told[-1]["kind"] == "secret" and told[-1]["round"] == 3
    for e in told:
        assert e["commitment"] == rounds[e["round"] - 1]["commitment"]
        assert e.get("secret", rounds[e["round"] - 1]["secret"]) == rounds[e["round"] - 1]["secret"]
    assert doc["scores"] == view["game"]["scores"] and doc["winner"] == view["game"]["winner"]
    assert all(a["at"] for x in rounds for a in x["actions"])
    history = httpx.get(f"{server.http}/api/matches/{match_id}").json()
    assert [(x["commitment"], x["secret"]) for x in history["rounds"]] == [
        (x["commitment"], x["secret"]) for x in rounds]
    # The command line, as someone on another machine would run it.
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run([sys.executable, "-m", "app.engine.verify", str(path)], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == f"round {len(rounds)}: fair"


def test_only_a_finished_match_exports(server: LiveServer) -> None:
    async def live_match() -> str:
        code = await create_room(server, "classic", 2, target=500)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        match_id = str(clients[0].view["room"]["match_id"])
        for c in clients:
            await c.close()
        return match_id

    match_id = asyncio.run(live_match())
    r = httpx.get(f"{server.http}/api/matches/{match_id}/export")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "match_not_finished"
    history = httpx.get(f"{server.http}/api/matches/{match_id}").json()
    assert history["rounds"][0]["commitment"] and history["rounds"][0]["secret"] is None
    r = httpx.get(f"{server.http}/api/matches/nope/export")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_match"
