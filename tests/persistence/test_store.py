"""The SQL store on SQLite and on a real Postgres: schema, durable writes, group commit, reads."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from app.persistence import store as ops
from app.persistence.db import create_engine
from app.persistence.models import Base
from app.persistence.store import SqlStore

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def test_models_and_migrations_agree(db_url: str) -> None:
    async def diff() -> list[Any]:
        engine = create_engine(db_url)
        async with engine.connect() as conn:
            found = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}),
                                              Base.metadata))
        await engine.dispose()
        return list(found)

    assert run(diff()) == []


async def _seed_room(store: SqlStore, code: str = "ABCDEF") -> None:
    await store.write(ops.create_room(code, name="Friday", edition="classic", public=True, max_seats=4,
                                      target=None, options={"house": {}}),
                      ops.put_seat(code, 0, "Ann", "h0"), ops.put_seat(code, 1, "Bo", "h1"))


def test_room_match_and_log_come_back_in_order(db_url: str) -> None:
    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(ops.start_match("ABCDEF", "m1", number=1, edition="classic", options={"seats": 2},
                                          target=500, seed="s", players=["Ann", "Bo"]),
                          ops.start_round("m1", 1, "s/1", 0))
        for seq in range(1, 6):
            await store.write(ops.log_action("ABCDEF", "m1", 1, seq, seq % 2, {"kind": "draw", "n": seq}))
        await store.write(ops.finish_round("m1", 1, winner=1, points=42, totals=[0, 42], cards_left=[3, 0]),
                          ops.start_round("m1", 2, "s/2", 1), ops.add_chat("ABCDEF", 0, "Ann", "gg"))
        await store.write(ops.log_action("ABCDEF", "m1", 2, 6, 0, {"kind": "draw", "n": 6}))
        await store.stop()

        again = SqlStore(create_engine(db_url))
        rooms = await again.unfinished_rooms()
        assert len(rooms) == 1
        room = rooms[0]
        assert room.status == "playing" and room.seats == [(0, "Ann", "h0", False), (1, "Bo", "h1", False)]
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
        await store.write(ops.start_match("ABCDEF", "m1", number=1, edition="classic", options={}, target=500,
                                          seed="s", players=["Ann", "Bo"]))
        before = store.flushes
        await asyncio.gather(*(store.write(ops.log_action("ABCDEF", "m1", 1, seq, 0, {"kind": "draw"}))
                               for seq in range(1, 201)))
        flushes = store.flushes - before
        async with store.engine.connect() as conn:
            count = (await conn.execute(text("SELECT count(*) FROM actions"))).scalar_one()
        await store.stop()
        return flushes, count

    flushes, count = run(scenario())
    assert count == 200
    assert flushes < 200 / 4, f"{flushes} commits for 200 writes: they were not batched"


def test_a_failing_write_fails_alone(db_url: str) -> None:
    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await _seed_room(store)
        await store.write(ops.start_match("ABCDEF", "m1", number=1, edition="classic", options={}, target=500,
                                          seed="s", players=["Ann", "Bo"]))
        await store.write(ops.log_action("ABCDEF", "m1", 1, 1, 0, {"kind": "draw"}))
        results = await asyncio.gather(
            store.write(ops.log_action("ABCDEF", "m1", 1, 1, 0, {"kind": "again"})),  # duplicate seq
            store.write(ops.log_action("ABCDEF", "m1", 1, 2, 1, {"kind": "draw"})),
            return_exceptions=True,
        )
        assert isinstance(results[0], Exception) and results[1] is None
        rooms = await store.unfinished_rooms()
        assert rooms[0].match is not None and [a["kind"] for _, _, a in rooms[0].match.log] == ["draw", "draw"]
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
        await store.write(ops.update_room("ABCDEF", status=status))
        assert await store.unfinished_rooms() == []
        await store.stop()

    run(scenario())
