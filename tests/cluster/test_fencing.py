"""Fencing: a node that lost a room can never store anything for it again.

Two stores on the run's Postgres play two nodes.  Node A opens a room; B may not take it
while A's lease runs; once A's lease has run out B takes it, at the next epoch, and from then
on every write A makes for the room is refused (``Fenced``) and stores nothing, even in a
batch with writes of A's own rooms, which still commit, and even when the stale write would
fail on its own.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from app.cluster.ownership import Ownership
from app.persistence.db import create_engine, upgrade
from app.persistence.fencing import Fence, Fenced
from app.persistence.ops import ops_for
from app.persistence.store import SqlStore
from app.rooms import records as r


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def test_a_node_that_lost_a_room_stores_nothing_more_for_it(fresh_postgres_url: str) -> None:
    upgrade(fresh_postgres_url)
    asyncio.run(_scenario(fresh_postgres_url))


async def _chat(conn: asyncpg.Connection, code: str) -> list[str]:
    return [row["text"] for row in await conn.fetch("SELECT text FROM chat WHERE room_code = $1 ORDER BY id", code)]


async def _scenario(url: str) -> None:
    a, b = SqlStore(create_engine(url)), SqlStore(create_engine(url))
    a.fence, b.fence = Fence("node-a"), Fence("node-b")
    own_a = Ownership(a.engine, "node-a", "127.0.0.1:1", 5.0)
    own_b = Ownership(b.engine, "node-b", "127.0.0.1:2", 5.0)
    conn = await asyncpg.connect(_dsn(url))
    try:
        await own_a.renew()
        await own_b.renew()
        await a.write(r.RoomOpened("LOSTROOM", "Lost", "classic", False, 4, None))
        await a.write(r.RoomOpened("KEPTROOM", "Kept", "classic", False, 4, None))
        assert a.fence.epochs == {"LOSTROOM": 1, "KEPTROOM": 1}
        located = await own_b.locate("LOSTROOM")
        assert located is not None and located.owner == "node-a" and located.alive
        assert located.address == "127.0.0.1:1"

        # Not while A's lease runs.
        assert await own_b.claim("LOSTROOM") is None

        # A stops renewing (paused, cut off); its lease runs out and B takes the room.
        await conn.execute("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'node-a'")
        epoch = await own_b.claim("LOSTROOM")
        assert epoch == 2
        b.fence.epochs["LOSTROOM"] = epoch

        # A, back, still believes it owns both rooms.  Its lease is renewed (it is alive again),
        # but the room it lost stays lost: the write is refused and nothing of it is stored.
        await own_a.renew()
        stale = a.write(r.ChatPosted("LOSTROOM", 0, "Ana", "from the old owner"), room="LOSTROOM")
        own = a.write(r.ChatPosted("KEPTROOM", 0, "Ana", "still mine"), room="KEPTROOM")
        results = await asyncio.gather(stale, own, return_exceptions=True)
        assert isinstance(results[0], Fenced) and results[0].code == "LOSTROOM"
        assert results[1] is None
        assert await _chat(conn, "LOSTROOM") == []
        assert await _chat(conn, "KEPTROOM") == ["still mine"]

        # The new owner's writes go through.
        await b.write(r.ChatPosted("LOSTROOM", 0, "Ana", "from the new owner"), room="LOSTROOM")
        assert await _chat(conn, "LOSTROOM") == ["from the new owner"]
        # A stale write that fails on its own (the store checks the epoch after the statements;
        # here the room's row exists) is refused as stale too, not reported as a failure.
        with pytest.raises(Fenced):
            await a.execute(ops_for(r.RoomOpened("LOSTROOM", "Again", "classic", False, 4, None)), "LOSTROOM", 1)
        assert await own_a.held(["LOSTROOM", "KEPTROOM"]) == {"LOSTROOM": ("node-b", 2), "KEPTROOM": ("node-a", 1)}

        # A node that drops a room and takes it back (epoch 3) must not store a write made
        # under the epoch it dropped: that room's old actor may still have one in flight.
        await conn.execute("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'node-b'")
        await own_a.renew()
        a.fence.epochs["LOSTROOM"] = 2  # as if A had held it at 2 ...
        await conn.execute("UPDATE rooms SET owner = 'node-a', epoch = 2 WHERE code = 'LOSTROOM'")
        retaken = await own_a.claim("LOSTROOM")  # dropped, then taken back at 3
        assert retaken == 3
        a.fence.epochs["LOSTROOM"] = retaken
        with pytest.raises(Fenced):  # what the dropped actor had made under epoch 2 arrives now
            await a.execute(ops_for(r.ChatPosted("LOSTROOM", 0, "Ana", "from the dropped actor")), "LOSTROOM", 2)
        assert await _chat(conn, "LOSTROOM") == ["from the new owner"]
        await own_b.renew()

        # Leaving hands the rooms over at once: nobody owns them, and any live node may take them.
        await own_a.leave(["KEPTROOM"])
        # (LOSTROOM too: node-a held it again, and node-a has gone.)
        assert sorted(await own_b.take_over(10)) == [("KEPTROOM", 2), ("LOSTROOM", 4)]
        with pytest.raises(Fenced):
            await a.write(r.ChatPosted("KEPTROOM", 0, "Ana", "after leaving"), room="KEPTROOM")
    finally:
        await conn.close()
        await a.stop()
        await b.stop()


def test_a_stale_action_is_refused_by_its_own_insert(fresh_postgres_url: str) -> None:
    """Action rows alone commit in one statement (app/persistence/fast_lane.py), each row's epoch
    written through ``uno_fence``: the database itself refuses a row for a room the writer no
    longer holds, and the store then sorts the batch out as usual (the stale submission is
    ``Fenced``, the others commit)."""
    upgrade(fresh_postgres_url)
    asyncio.run(_one_statement_scenario(fresh_postgres_url))


def _started(code: str) -> r.MatchStarted:
    return r.MatchStarted(code, f"m-{code}", 1, "classic", {"seats": 2}, 500, "s", ("Ann", "Bo"))


def _action(code: str, seq: int) -> r.ActionApplied:
    return r.ActionApplied(code, f"m-{code}", 1, seq, seq % 2, {"kind": "draw", "n": seq})


async def _one_statement_scenario(url: str) -> None:
    a, b = SqlStore(create_engine(url)), SqlStore(create_engine(url))
    a.fence, b.fence = Fence("node-a"), Fence("node-b")
    own_a = Ownership(a.engine, "node-a", "127.0.0.1:1", 5.0)
    own_b = Ownership(b.engine, "node-b", "127.0.0.1:2", 5.0)
    conn = await asyncpg.connect(_dsn(url))

    async def logged(code: str) -> list[tuple[int, int]]:
        rows = await conn.fetch("SELECT seq, epoch FROM actions WHERE room_code = $1 ORDER BY seq", code)
        return [(row["seq"], row["epoch"]) for row in rows]

    try:
        await own_a.renew()
        await own_b.renew()
        for code in ("LOSTROOM", "KEPTROOM"):
            await a.write(r.RoomOpened(code, code, "classic", False, 4, None), _started(code))
        before = a.one_statement_flushes
        await asyncio.gather(a.write(_action("LOSTROOM", 1)), a.write(_action("KEPTROOM", 1)))
        assert a.one_statement_flushes > before
        assert await logged("LOSTROOM") == [(1, 1)]

        await conn.execute("UPDATE nodes SET lease_until = now() - interval '1 second' WHERE id = 'node-a'")
        b.fence.epochs["LOSTROOM"] = await own_b.claim("LOSTROOM") or 0
        await own_a.renew()
        with pytest.raises(asyncpg.PostgresError) as refused:  # the check itself, as the insert calls it
            await conn.execute("SELECT uno_fence('LOSTROOM', 'node-a', 1)")
        assert refused.value.sqlstate == "UF001"

        # A, stale for one room, writes an action to each in one batch: one is refused, one stored.
        before = a.one_statement_flushes
        stale, own = await asyncio.gather(a.write(_action("LOSTROOM", 2)), a.write(_action("KEPTROOM", 2)),
                                          return_exceptions=True)
        assert isinstance(stale, Fenced) and stale.code == "LOSTROOM"
        assert own is None
        assert a.one_statement_flushes == before  # refused in one statement, committed the usual way
        assert await logged("LOSTROOM") == [(1, 1)]
        assert await logged("KEPTROOM") == [(1, 1), (2, 1)]
        # Alone, too.
        with pytest.raises(Fenced):
            await a.write(_action("LOSTROOM", 2))
        assert await logged("LOSTROOM") == [(1, 1)]

        # The new owner's action goes through in one statement, under its epoch.
        before = b.one_statement_flushes
        await b.write(_action("LOSTROOM", 2))
        assert b.one_statement_flushes == before + 1
        assert await logged("LOSTROOM") == [(1, 1), (2, 2)]
    finally:
        await conn.close()
        await a.stop()
        await b.stop()
