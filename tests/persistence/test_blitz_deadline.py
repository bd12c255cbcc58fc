"""HR-25: the match clock's deadline is stored with the match, so a restart keeps it (SQLite and Postgres)."""

from __future__ import annotations

import asyncio

from app.persistence.db import create_engine
from app.persistence.store import SqlStore
from app.rooms import records as r


def test_the_blitz_deadline_comes_back_after_a_restart__HR_25(db_url: str) -> None:
    async def scenario() -> tuple[float | None, float | None]:
        store = SqlStore(create_engine(db_url))
        await store.write(r.RoomOpened("BLITZ234", "Friday", "classic", True, 2, None, {"house": {}}),
                          r.SeatsChanged("BLITZ234", (r.SeatInfo(0, "Ann", "h0"), r.SeatInfo(1, "Bo", "h1"))))
        deadline = 1_796_000_123.456
        await store.write(r.MatchStarted("BLITZ234", "m1", 1, "classic", {"seats": 2}, 500, "s", ("Ann", "Bo"),
                                         deadline),
                          r.MatchStarted("BLITZ234", "m2", 2, "classic", {"seats": 2}, 500, "s", ("Ann", "Bo")),
                          r.RoundStarted("m1", 1, "s/1", 0))
        await store.stop()
        again = SqlStore(create_engine(db_url))
        async with again.engine.connect() as conn:
            first, _ = await again._load_match(conn, "m1")
            second, _ = await again._load_match(conn, "m2")
        await again.stop()
        assert first is not None and second is not None
        return first.blitz_deadline, second.blitz_deadline

    assert asyncio.run(scenario()) == (1_796_000_123.456, None)  # to the millisecond; none without blitz
