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
    (r.SeatsChanged("ROOM2345", (r.SeatInfo(0, "Ann", "a"), r.SeatInfo(1, "Bo", "b"),
                                 r.SeatInfo(2, "Cy", "c", True, "hard"))),),
    (r.MatchStarted("ROOM2345", "mx", 1, "mario_kart", {"seats": 3}, 200, "seed", ("Ann", "Bo", "Cy")),
     r.RoundStarted("mx", 1, "seed/1", 2)),
    *((r.ActionApplied("ROOM2345", "mx", 1, seq, seq % 3, {"kind": "draw"}),) for seq in range(1, 4)),
    (r.RoundFinished("mx", 1, 0, 120, (120, 0, 0), (0, 4, 6)), r.RoundStarted("mx", 2, "s2/2", 0, "s2", "c2")),
    (r.ActionApplied("ROOM2345", "mx", 2, 4, 1, {"kind": "play", "card": 3}),
     r.RoundFinished("mx", 2, 1, 90, (120, 90, 0), (2, 0, 5)), r.RoundStarted("mx", 3, "s3/3", 1, "s3", "c3")),
    (r.ChatPosted("ROOM2345", 2, "Cy", "close one"), r.RoomChanged("ROOM2345", "playing", 1)),
    (r.ChatPosted("ROOM2345", None, "Spectator 1", "go Cy"),
     r.OptionsChanged("ROOM2345", {"house": {"stacking": True}, "spectator_chat": True, "spectator_delay": 10})),
    (r.GameChanged("ROOM2345", "classic", 4, 300),),  # the next match's game (app/rooms/rematch.py)
]


def without_times(history: dict[str, Any] | None) -> dict[str, Any] | None:
    if history is None:
        return None
    return {k: v for k, v in history.items() if not k.endswith("_at")}


def export_without_times(raw: dict[str, Any] | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    out = without_times(raw)
    assert out is not None
    out["actions"] = [{k: v for k, v in a.items() if k != "at"} for a in raw["actions"]]
    assert all(a["at"] for a in raw["actions"])
    return out


async def replay_into(store: Any) -> tuple[Any, ...]:
    for group in RECORDS:
        await store.write(*group)
    rooms = await store.unfinished_rooms()
    history = without_times(await store.match_history("mx"))
    missing = await store.match_history("none")
    live = without_times(await store.match_export("mx"))
    await store.write(r.RoundFinished("mx", 3, 2, 10, (120, 90, 10), (1, 1, 0)), r.MatchFinished("ROOM2345", "mx", 0))
    over = export_without_times(await store.match_export("mx"))
    finished = without_times(await store.match_history("mx"))
    await store.stop()
    return rooms, history, missing, live, over, finished


def test_memory_and_sql_stores_agree(sqlite_url: str) -> None:
    from app.persistence.db import upgrade

    upgrade(sqlite_url)
    sql = asyncio.run(replay_into(SqlStore(create_engine(sqlite_url))))
    memory = asyncio.run(replay_into(InMemoryStore()))
    assert memory == sql
    rooms, history, missing, live, over, finished = sql
    assert missing is None
    assert history["totals"] == [120, 90, 0] and [x["winner"] for x in history["rounds"]] == [0, 1, None]
    assert rooms[0].match.rounds_started == 3 and len(rooms[0].match.log) == 4
    # The host's option changes replace the options the room opened with.
    assert rooms[0].options == {"house": {"stacking": True}, "spectator_chat": True, "spectator_delay": 10}
    assert rooms[0].chat[-1] == (None, "Spectator 1", "go Cy")
    # A bot seat keeps its level (a person's seat has none), for the room rebuilt after a restart.
    assert [(s.is_bot, s.bot_level) for s in rooms[0].seats] == [(False, None), (False, None), (True, "hard")]
    # Secrets go back to a restart, and to people only for rounds that are over.
    assert rooms[0].match.secrets == {2: "s2", 3: "s3"}
    assert [(x["commitment"], x["secret"]) for x in history["rounds"]] == [(None, None), ("c2", "s2"), ("c3", None)]
    assert [x["secret"] for x in finished["rounds"]] == [None, "s2", "s3"]
    # An export is made only of a finished match: nothing secret while it is played.
    assert live["status"] == "playing" and live["actions"] == [] and {x["secret"] for x in live["rounds"]} == {None}
    assert over["status"] == "over" and len(over["actions"]) == 4
    # Round 1 was stored without a secret: it was dealt from the match seed.
    assert [(x["commitment"], x["secret"]) for x in over["rounds"]] == [(None, "seed"), ("c2", "s2"), ("c3", "s3")]
