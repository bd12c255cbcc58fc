"""The SQL store on SQLite and on a real Postgres: schema, durable writes, group commit, reads."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from app.persistence.db import create_engine, upgrade
from app.persistence.schema import metadata
from app.persistence.store import SqlStore
from app.rooms import records as r

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def test_models_and_migrations_agree(db_url: str) -> None:
    async def diff() -> list[Any]:
        engine = create_engine(db_url)
        async with engine.connect() as conn:
            found = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}),
                                              metadata))
        await engine.dispose()
        return list(found)

    assert run(diff()) == []


async def _seed_room(store: SqlStore, code: str = "ABCDEF") -> None:
    await store.write(r.RoomOpened(code, "Friday", "classic", True, 4, None, {"house": {}}),
                      r.SeatsChanged(code, (r.SeatInfo(0, "Ann", "h0"), r.SeatInfo(1, "Bo", "h1"))))


def started(match_id: str = "m1") -> r.MatchStarted:
    return r.MatchStarted("ABCDEF", match_id, 1, "classic", {"seats": 2}, 500, "s", ("Ann", "Bo"))


def action(seq: int, round_no: int = 1, kind: str = "draw") -> r.ActionApplied:
    return r.ActionApplied("ABCDEF", "m1", round_no, seq, seq % 2, {"kind": kind, "n": seq})


def test_room_match_and_log_come_back_in_order(db_url: str) -> None:
    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(started(), r.RoundStarted("m1", 1, "s/1", 0))
        for seq in range(1, 6):
            await store.write(action(seq))
        await store.write(r.RoundFinished("m1", 1, 1, 42, (0, 42), (3, 0)), r.RoundStarted("m1", 2, "s/2", 1),
                          r.ChatPosted("ABCDEF", 0, "Ann", "gg"))
        await store.write(action(6, round_no=2))
        await store.stop()

        again = SqlStore(create_engine(db_url))
        rooms = await again.unfinished_rooms()
        assert len(rooms) == 1
        room = rooms[0]
        assert room.status == "playing"
        assert room.seats == [r.SeatInfo(0, "Ann", "h0"), r.SeatInfo(1, "Bo", "h1")]
        assert room.match is not None and room.match.rounds_started == 2
        assert [a["n"] for _, _, a in room.match.log] == [1, 2, 3, 4, 5, 6]
        assert [r for r, _, _ in room.match.log] == [1, 1, 1, 1, 1, 2]
        assert room.chat == [(0, "Ann", "gg")]
        history = await again.match_history("m1")
        assert history is not None
        assert history["rounds"][0]["winner"] == 1 and history["rounds"][0]["points"] == 42
        assert history["totals"] == [0, 42]
        assert await again.match_history("nope") is None
        await again.stop()

    run(scenario())


def test_concurrent_writes_are_group_committed(db_url: str) -> None:
    async def scenario() -> tuple[int, int]:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(started())
        before = store.flushes
        await asyncio.gather(*(store.write(action(seq)) for seq in range(1, 201)))
        flushes = store.flushes - before
        async with store.engine.connect() as conn:
            count = (await conn.execute(text("SELECT count(*) FROM actions"))).scalar_one()
        await store.stop()
        return flushes, count

    flushes, count = run(scenario())
    assert count == 200
    assert flushes < 200 / 4, f"{flushes} commits for 200 writes: they were not batched"


def test_action_rows_alone_commit_in_one_statement_and_store_the_same(fresh_postgres_url: str) -> None:
    """Postgres: a batch of action rows and nothing else is one statement (fast_lane.py); what it
    stores is what the usual transaction stores for the same action; anything else in the batch
    sends it the usual way."""
    upgrade(fresh_postgres_url)

    async def scenario() -> list[tuple[Any, ...]]:
        store = SqlStore(create_engine(fresh_postgres_url))
        await _seed_room(store)
        await store.write(started(), started("m2"))
        lone = store.one_statement_flushes
        await store.write(action(1))  # alone: one statement
        assert store.one_statement_flushes == lone + 1
        other = r.ActionApplied("ABCDEF", "m2", 1, 1, 1, {"kind": "draw", "n": 1})
        await store.write(other, r.ChatPosted("ABCDEF", 0, "Ann", "hi"))  # with a chat row: the usual way
        assert store.one_statement_flushes == lone + 1
        await asyncio.gather(*(store.write(action(seq)) for seq in range(2, 40)))
        assert store.one_statement_flushes > lone + 1
        async with store.engine.connect() as conn:
            rows = (await conn.execute(text(
                "SELECT match_id, round, seq, seat, action::text, client_id, epoch FROM actions "
                "WHERE seq = 1 ORDER BY match_id"))).all()
            count = (await conn.execute(text("SELECT count(*) FROM actions WHERE match_id = 'm1'"))).scalar_one()
        await store.stop()
        assert count == 39
        return [tuple(row) for row in rows]

    one_statement, usual = run(scenario())
    assert one_statement[0] == "m1" and usual[0] == "m2"
    assert one_statement[1:] == usual[1:]  # the same columns, the same JSON text, no epoch (one process)


def test_a_failing_write_fails_alone(db_url: str) -> None:
    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(started())
        await store.write(action(1))
        orphan = r.ActionApplied("ABCDEF", "no-such-match", 1, 1, 0, {"kind": "draw"})
        results = await asyncio.gather(
            store.write(orphan),  # refused by the foreign key
            store.write(action(2)),
            return_exceptions=True,
        )
        assert isinstance(results[0], Exception) and results[1] is None
        rooms = await store.unfinished_rooms()
        assert rooms[0].match is not None and [a["kind"] for _, _, a in rooms[0].match.log] == ["draw", "draw"]
        # A batch retried after its commit went through stores each action once, without an error.
        await store.write(action(2), action(3))
        rooms = await store.unfinished_rooms()
        assert rooms[0].match is not None and [a["n"] for _, _, a in rooms[0].match.log] == [1, 2, 3]
        await store.stop()

    run(scenario())


def test_default_url_is_an_embedded_sqlite_file(tmp_path: object) -> None:
    from pathlib import Path

    from app.persistence.db import resolve_url

    url = resolve_url(None, Path(str(tmp_path)) / "data")
    assert url.startswith("sqlite+aiosqlite:///") and url.endswith("data/uno.sqlite3")
    assert (Path(str(tmp_path)) / "data").is_dir()
    assert resolve_url("postgres://u:p@h/db", ".") == "postgresql+asyncpg://u:p@h/db"


@pytest.mark.parametrize("status", ["closed"])
def test_closed_rooms_are_not_restored(db_url: str, status: str) -> None:
    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(r.RoomClosed("ABCDEF"))
        assert await store.unfinished_rooms() == []
        await store.stop()

    run(scenario())
