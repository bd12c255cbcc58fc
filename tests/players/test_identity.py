"""A player without an account: made with the first seat, remembered, renamed, moved to another
browser by a one-time code (once, for a few minutes, a few tries a minute), and deleted."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.persistence.db import resolve_url
from app.persistence.players import CODE_LENGTH, FORMER_PLAYER
from app.rooms.room_state import RoomState
from tests.frame_audit import FrameAudit
from tests.live import LiveServer, create_room
from tests.players.conftest import Person, remembering_server


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_first_seat_makes_a_player_and_the_next_seats_are_theirs(server: LiveServer) -> None:
    async def go() -> None:
        ana = Person(server, "Ana")
        r = await ana.http.get("/api/me")
        assert r.status_code == 404 and r.json()["detail"]["code"] == "no_player"
        first = await ana.join(await create_room(server, "classic", 2))
        cookie = ana.http.cookies.get("uno_player")
        assert cookie and len(cookie) >= 40  # 32 random bytes
        me = await ana.me()
        assert me["name"] == "Ana"
        second = await ana.join(await create_room(server, "classic", 2))
        assert (await ana.me())["id"] == me["id"]  # the same player, remembered
        assert ana.http.cookies.get("uno_player") == cookie
        # The cookie is HttpOnly and never readable by the page's scripts.
        r = await Person(server, "Bo").http.post("/api/me", json={"name": "Bo"})
        header = r.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header and "path=/" in header
        for c in (first, second):
            await c.close()
        await ana.close()

    run(go())


def test_a_player_renames_and_the_secret_is_stored_only_as_its_hash(server: LiveServer, tmp_path: Path) -> None:
    async def go() -> None:
        ana = Person(server, "Ana")
        r = await ana.http.post("/api/me", json={"name": "Ana"})
        assert r.status_code == 201
        pid = r.json()["id"]
        r = await ana.http.patch("/api/me", json={"name": "  Ana B  "})
        assert r.status_code == 200 and r.json()["name"] == "Ana B"
        assert (await ana.me())["name"] == "Ana B"
        r = await ana.http.patch("/api/me", json={"name": "x" * 100})
        assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_name"
        assert (await ana.me())["name"] == "Ana B"  # nothing changed
        r = await ana.http.get(f"/api/players/{pid}")
        assert r.json()["player"]["name"] == "Ana B"
        secret = ana.http.cookies["uno_player"]
        assert secret not in r.text
        # The database holds the secret's hash, never the secret.
        with sqlite3.connect(tmp_path / "uno.sqlite3") as db:
            dump = " ".join(str(row) for t in ("players", "player_keys") for row in db.execute(f"SELECT * FROM {t}"))
        assert secret not in dump and pid in dump
        assert hashlib.sha256(secret.encode()).hexdigest() in dump
        await ana.close()

    run(go())


def test_a_code_moves_the_player_to_another_browser_once(server: LiveServer) -> None:
    async def go() -> None:
        phone, laptop = Person(server, "Ana"), Person(server, "?")
        await phone.http.post("/api/me", json={"name": "Ana"})
        r = await phone.http.post("/api/me/codes")
        assert r.status_code == 201, r.text
        made = r.json()
        code = made["code"]
        assert len(code.replace("-", "")) == CODE_LENGTH and made["seconds"] == 300
        assert made["qr"].startswith("data:image/svg+xml;base64,")  # the link, drawn by the QR worker
        r = await laptop.http.post("/api/me/claim", json={"code": code.lower()})  # typed in any case
        assert r.status_code == 200, r.text
        assert r.json()["id"] == (await phone.me())["id"]
        assert (await laptop.me())["id"] == (await phone.me())["id"]
        assert laptop.http.cookies["uno_player"] != phone.http.cookies["uno_player"]  # a secret per browser
        # Single use.
        other = Person(server, "?")
        r = await other.http.post("/api/me/claim", json={"code": code})
        assert r.status_code == 404 and r.json()["detail"]["code"] == "bad_code"
        # A new code replaces the last one.
        first = (await phone.http.post("/api/me/codes")).json()["code"]
        second = (await phone.http.post("/api/me/codes")).json()["code"]
        assert (await other.http.post("/api/me/claim", json={"code": first})).status_code == 404
        assert (await other.http.post("/api/me/claim", json={"code": second})).status_code == 200
        for p in (phone, laptop, other):
            await p.close()

    run(go())


@pytest.mark.slow
def test_codes_expire_and_guessing_them_is_rate_limited(tmp_path: Path) -> None:
    live = remembering_server(resolve_url(None, tmp_path), player_code_seconds=0.5, player_claims_per_minute=3)
    try:
        async def go() -> None:
            ana, thief = Person(live, "Ana"), Person(live, "?")
            await ana.http.post("/api/me", json={"name": "Ana"})
            code = (await ana.http.post("/api/me/codes")).json()["code"]
            await asyncio.sleep(1.0)
            r = await thief.http.post("/api/me/claim", json={"code": code})
            assert r.status_code == 404  # expired
            for guess in ("AAAA-AAAA", "BBBB-BBBB"):
                assert (await thief.http.post("/api/me/claim", json={"code": guess})).status_code == 404
            r = await thief.http.post("/api/me/claim", json={"code": "CCCC-CCCC"})
            assert r.status_code == 429 and r.json()["detail"]["code"] == "rate_limited"
            assert int(r.headers["retry-after"]) >= 1
            await ana.close()
            await thief.close()

        run(go())
    finally:
        live.stop()


def test_a_deleted_player_is_a_former_player_in_stored_matches(server: LiveServer) -> None:
    async def go() -> None:
        ana, bo = Person(server, "Ana"), Person(server, "Bo")
        code = await create_room(server, "classic", 2)
        a, b = await ana.join(code), await bo.join(code)
        pid = (await ana.me())["id"]
        r = await ana.http.delete("/api/me")
        assert r.status_code == 204
        assert "uno_player" not in ana.http.cookies
        assert (await ana.http.get("/api/me")).status_code == 404
        assert (await bo.http.get(f"/api/players/{pid}")).status_code == 404
        async with httpx.AsyncClient(base_url=server.http) as http:
            seats = (await http.get(f"/api/rooms/{code}")).json()
        assert seats["players"]  # the room itself is untouched while open
        for c in (a, b):
            await c.close()
        for p in (ana, bo):
            await p.close()

    run(go())
    assert FORMER_PLAYER == "a former player"


@pytest.mark.parametrize("path", ["/api/me", "/api/me/codes", "/api/players/nobody", "/api/players/nobody/standing",
                                  "/api/leaderboard/classic"])
def test_without_a_database_players_are_not_kept(path: str) -> None:
    live = LiveServer().start()  # in memory
    try:
        r = httpx.get(live.http + path) if "codes" not in path else httpx.post(live.http + path)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "no_players"
    finally:
        live.stop()


def test_the_frame_audit_catches_a_players_secret_in_a_frame() -> None:
    """So that its silence in the matches of tests/players means something."""
    audit = FrameAudit()
    secret = "s3cr3t-" + "x" * 36
    audit.secrets.add(secret)
    st = RoomState(code="TEST2345", edition="classic", public=True, max_seats=2, target=None, name="t")
    audit("TEST2345", 0, json.dumps({"type": "patch", "seq": 1, "ops": [{"op": "add", "path": "/x", "value": "ok"}]}),
          st, None)
    assert audit.violations == []
    audit("TEST2345", 0, json.dumps({"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": secret}]}),
          st, None)
    assert len(audit.violations) == 1 and secret not in audit.violations[0]  # named, not repeated
    FrameAudit.all.remove(audit)  # a deliberate leak: not one the session's check should fail on
