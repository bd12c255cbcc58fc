"""The in-memory store answers exactly like the SQL store for the same records."""

from __future__ import annotations

import asyncio
from typing import Any

from app.persistence.db import create_engine
from app.persistence.store import SqlStore
from app.rooms import records as r
from app.rooms.memory_store import InMemoryStore

RECORDS: list[tuple[r.Record, ...]] = [
    (r.RoomOpened("ROOM2345", "Night", "mario_kart", False, 3, 200, {"house": {"stacking": True}}),),
    (r.SeatsChanged("ROOM2345", (r.SeatInfo(0, "Ann", "a"), r.SeatInfo(1, "Bo", "b"), r.SeatInfo(2, "Cy", "c"))),),
    (r.MatchStarted("ROOM2345", "mx", 1, "mario_kart", {"seats": 3}, 200, "seed", ("Ann", "Bo", "Cy")),
     r.RoundStarted("mx", 1, "seed/1", 2)),
    *((r.ActionApplied("ROOM2345", "mx", 1, seq, seq % 3, {"kind": "draw"}),) for seq in range(1, 4)),
    (r.RoundFinished("mx", 1, 0, 120, (120, 0, 0), (0, 4, 6)), r.RoundStarted("mx", 2, "seed/2", 0)),
    (r.ActionApplied("ROOM2345", "mx", 2, 4, 1, {"kind": "play", "card": 3}),
     r.RoundFinished("mx", 2, 1, 90, (120, 90, 0), (2, 0, 5)), r.RoundStarted("mx", 3, "seed/3", 1)),
    (r.ChatPosted("ROOM2345", 2, "Cy", "close one"), r.RoomChanged("ROOM2345", "playing", 1)),
]


def without_times(history: dict[str, Any] | None) -> dict[str, Any] | None:
    if history is None:
        return None
    return {k: v for k, v in history.items() if not k.endswith("_at")}


async def replay_into(store: Any) -> tuple[Any, Any, Any]:
    for group in RECORDS:
        await store.write(*group)
    rooms = await store.unfinished_rooms()
    history = without_times(await store.match_history("mx"))
    missing = await store.match_history("none")
    await store.stop()
    return rooms, history, missing


def test_memory_and_sql_stores_agree(sqlite_url: str) -> None:
    from app.persistence.db import upgrade

    upgrade(sqlite_url)
    sql = asyncio.run(replay_into(SqlStore(create_engine(sqlite_url))))
    memory = asyncio.run(replay_into(InMemoryStore()))
    assert memory == sql
    rooms, history, missing = sql
    assert missing is None
    assert history["totals"] == [120, 90, 0] and [x["winner"] for x in history["rounds"]] == [0, 1, None]
    assert rooms[0].match.rounds_started == 3 and len(rooms[0].match.log) == 4
