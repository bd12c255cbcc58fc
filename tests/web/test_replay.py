"""A finished match replays move by move: every step's table, with every hand, is the engine's.

The replay (GET /api/matches/{id}/replay) is made from the stored log, like the export; here a
match is played through the server's sockets, and each step is checked against an engine
match rebuilt independently (``app.engine.replay``) from the export's log, round by round and
action by action.  Only a finished match replays (its hands are no longer hidden, C-16).
"""

from __future__ import annotations

import asyncio
import gzip
import io
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import MatchConfig, action_from_json, apply, new_match, start_next_round
from app.engine.playback import state
from tests.live import Client, LiveServer, create_room, seat_players, start_game

from .test_export import three_rounds

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_finished_match_replays_step_by_step_as_the_engine_plays_it(server: LiveServer) -> None:
    clients: list[Client] = asyncio.run(three_rounds(server))
    match_id = clients[0].view["room"]["match_id"]
    export = httpx.get(f"{server.http}/api/matches/{match_id}/export").json()
    r = httpx.get(f"{server.http}/api/matches/{match_id}/replay")
    assert r.status_code == 200, r.text
    assert r.headers["content-encoding"] == "gzip"  # httpx asks for it, and decodes it
    doc: dict[str, Any] = r.json()
    assert doc["format"] == "uno-match-replay" and doc["version"] == 1
    assert doc["players"] == ["P0", "P1", "P2"] and doc["match"]["id"] == match_id
    assert doc["config"] == export["config"] and doc["target"] == 500
    assert [c["id"] for c in doc["cards"]] == list(range(len(doc["cards"])))
    assert len(doc["rounds"]) == len(export["rounds"]) == 3

    # The engine, on its own, from the export's secrets and actions.
    config = MatchConfig.from_json(export["config"])
    match, _ = new_match(config, export["rounds"][0]["secret"])
    for replayed, exported in zip(doc["rounds"], export["rounds"], strict=True):
        n = exported["number"]
        if n > 1:
            start_next_round(match, exported["secret"])
        steps = replayed["steps"]
        assert replayed["number"] == n and replayed["dealer"] == exported["dealer"] == match.round.dealer
        assert (replayed["commitment"], replayed["secret"]) == (exported["commitment"], exported["secret"])
        assert len(steps) == len(exported["actions"]) + 1
        assert steps[0]["action"] is None and steps[0]["state"] == state(match)
        assert [e["kind"] for e in steps[0]["events"]] == [e["kind"] for e in exported["deal"]]
        for step, logged in zip(steps[1:], exported["actions"], strict=True):
            assert (step["seq"], step["seat"], step["action"], step["at"]) == (
                logged["seq"], logged["seat"], logged["action"], logged["at"])
            apply(match, logged["seat"], action_from_json(logged["action"]))
            assert step["state"] == state(match), f"round {n}, action #{logged['seq']}"
            assert [e["kind"] for e in step["events"]] == [e["kind"] for e in logged["events"]]
        # The round's end: every hand as the export has it, the winner and the points.
        last = steps[-1]["state"]
        assert [[doc["cards"][c] for c in hand] for hand in last["hands"]] == exported["final_hands"]
        assert last["winner"] == replayed["winner"] == exported["winner"]
        assert replayed["points"] == exported["points"]
    # The very end, as the players saw it at the table.
    table = clients[0].view["game"]["table"]
    last = doc["rounds"][-1]["steps"][-1]["state"]
    assert doc["cards"][last["top"]] == table["top"] and last["discard_pile"] == table["discard_pile"]
    assert last["draw_pile"] == table["draw_pile"]
    assert [len(h) for h in last["hands"]] == table["hand_sizes"]
    assert last["scores"] == doc["scores"] == clients[0].view["game"]["scores"] == list(match.scores)
    assert doc["winner"] == match.winner == clients[0].view["game"]["winner"]
    # Private events are there (the match is over), and say who saw them then.
    drew = [e for rnd in doc["rounds"] for s in rnd["steps"] for e in s["events"] if e["kind"] == "drew"]
    assert drew and all(e["private"] == [e["seat"]] and e["cards"] for e in drew)
    # Gzip only when asked for, and much smaller.
    plain = httpx.get(f"{server.http}/api/matches/{match_id}/replay", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == doc
    assert len(gzip.compress(plain.content)) < len(plain.content) / 4


def test_only_a_finished_match_replays(server: LiveServer) -> None:
    async def live_match() -> str:
        code = await create_room(server, "classic", 2, target=500)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        match_id = str(clients[0].view["room"]["match_id"])
        for c in clients:
            await c.close()
        return match_id

    match_id = asyncio.run(live_match())
    r = httpx.get(f"{server.http}/api/matches/{match_id}/replay")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "match_not_finished"
    assert "hands" not in r.text
    r = httpx.get(f"{server.http}/api/matches/nope/replay")
    assert r.status_code == 404 and r.json()["detail"]["code"] == "no_match"


def test_the_engine_source_is_served_as_the_server_runs_it(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/api/engine/source.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        names = set(zf.namelist())
        engine = {p.relative_to(ROOT).as_posix() for p in (ROOT / "app" / "engine").rglob("*.py")}
        assert names == engine | {"app/__init__.py"}
        assert zf.read("app/engine/verify.py") == (ROOT / "app/engine/verify.py").read_bytes()
    again = httpx.get(f"{server.http}/api/engine/source.zip", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.slow
def test_only_the_match_page_and_the_verifier_may_compile_webassembly(server: LiveServer) -> None:
    def script_src(path: str) -> str:
        csp = httpx.get(server.http + path).headers["content-security-policy"]
        return next(d for d in csp.split("; ") if d.startswith("script-src"))

    assert script_src("/matches/abc") == "script-src 'self' 'wasm-unsafe-eval'"
    assert script_src("/static/js/verify_worker.js") == "script-src 'self' 'wasm-unsafe-eval'"
    for path in ("/", "/lobby", "/r/ABCD", "/static/js/pages/match.js", "/api/engine/source.zip"):
        assert script_src(path) == "script-src 'self'", path
