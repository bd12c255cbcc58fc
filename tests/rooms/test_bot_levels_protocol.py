"""A bot's level over the protocol: ``add_bot`` (socket) and ``POST /api/rooms/{code}/bots`` take an
optional ``level``; an unknown one is refused ``bad_bot_level`` and seats nobody."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.live import LiveServer, seat_players, sync

from .test_players_away import fast_settings, new_room


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = LiveServer(fast_settings()).start()
    yield server
    server.stop()


def test_add_bot_takes_a_level_and_refuses_an_unknown_one(live: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(live, "classic", 4)
        code = room["code"]
        (host,) = await seat_players(live, code, 1)
        bad = await host.request({"type": "add_bot", "level": "expert"})
        assert bad["type"] == "error" and bad["code"] == "bad_bot_level"
        assert (await host.request({"type": "add_bot", "level": "hard"}))["type"] == "ack"
        headers = {"Authorization": f"Bearer {host.token}"}
        async with httpx.AsyncClient(base_url=live.http) as http:
            r = await http.post(f"/api/rooms/{code}/bots", headers=headers, json={"level": "easy"})
            assert r.status_code == 201 and r.json()["level"] == "easy"
            r = await http.post(f"/api/rooms/{code}/bots", headers=headers, json={"level": "wizard"})
            assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_bot_level"
            r = await http.post(f"/api/rooms/{code}/bots", headers=headers)  # no body: normal
            assert r.status_code == 201 and r.json()["level"] == "normal"
        await sync([host])
        assert [(p["bot"], p["level"]) for p in host.view["players"]] == [
            (False, None), (True, "hard"), (True, "easy"), (True, "normal")]
        await host.close()

    asyncio.run(main())
