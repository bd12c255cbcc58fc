"""A round's stored points per seat follow the scoring house rules (RULES.md §7.7: HR-22, HR-23)."""

from __future__ import annotations

import asyncio

from app.persistence.ops import finish_round
from app.rooms import records as r
from app.rooms.memory_store import InMemoryStore


def test_stored_points_per_seat_are_what_each_total_gained__HR_23() -> None:
    plain = r.RoundFinished("m1", 1, 0, 78, (78, 0, 0), (0, 2, 2))
    penalty = r.RoundFinished("m1", 1, 0, 78, (0, 25, 53), (0, 2, 2), gained=(0, 25, 53))
    assert [plain.seat_points(s) for s in range(3)] == [78, 0, 0]
    assert [penalty.seat_points(s) for s in range(3)] == [0, 25, 53]
    ops = finish_round("m1", 1, 0, 78, (0, 50, 106), (0, 2, 2), [0, 50, 106])  # doubled too (HR-22)
    assert [params["points"] for _, params in ops[1:] if params is not None] == [0, 50, 106]


def test_the_memory_store_keeps_them__HR_22() -> None:
    async def main() -> None:
        store = InMemoryStore()
        await store.write(r.RoomOpened("ABCDEF", "Friday", "classic", True, 2, None, {"house": {}}),
                          r.MatchStarted("ABCDEF", "m1", 1, "classic", {"seats": 2}, 500, "s", ("Ann", "Bo")),
                          r.RoundStarted("m1", 1, "s/1", 0),
                          r.RoundFinished("m1", 1, 1, 42, (0, 84), (3, 0), gained=(0, 84)))
        history = await store.match_history("m1")
        assert history is not None
        assert [s["points"] for s in history["rounds"][0]["scores"]] == [0, 84]

    asyncio.run(main())
