"""Fast mode (RULES.md §7.8 HR-24): the turn clock halved, and a turn clock required (HX-1)."""

from __future__ import annotations

import asyncio
import time

import httpx

from app.engine import HouseRules
from app.engine.house.pace import bot_pause_factor, turn_clock_seconds
from tests.live import LiveServer, seat_players, start_game, sync

from .test_players_away import new_room


def test_fast_mode_halves_the_clock_and_the_bots_pause__HR_24() -> None:
    fast = HouseRules(fast_mode=True)
    assert [turn_clock_seconds(fast, s) for s in (1, 2, 15, 31, 60)] == [1, 1, 7, 15, 30]
    assert turn_clock_seconds(HouseRules(), 15) == 15
    assert bot_pause_factor(fast) == 0.5 and bot_pause_factor(HouseRules()) == 1.0


def test_fast_mode_without_a_turn_clock_is_refused__HR_24__HX_1(server: LiveServer) -> None:
    r = httpx.post(server.http + "/api/rooms", json={"variant": "classic", "house_rules": {"fast_mode": True}})
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_house_rules"
    assert "'fast_mode' needs 'turn_seconds'" in r.json()["detail"]["message"]


def test_a_fast_room_sets_half_the_deadline__HR_24(server: LiveServer) -> None:
    async def main() -> None:
        room = await new_room(server, "classic", 2, target=100_000, turn_seconds=4, house_rules={"fast_mode": True})
        a, b = await seat_players(server, room["code"], 2)
        await start_game([a, b])
        await sync([a, b])
        deadline = a.view["room"]["turn_deadline"]
        assert deadline is not None and 0 < deadline - time.time() <= 2.01  # ⌊4 / 2⌋ s, not 4
        for c in (a, b):
            await c.close()

    asyncio.run(main())
