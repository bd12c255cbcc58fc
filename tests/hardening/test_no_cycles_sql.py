"""A server on its SQL store leaves no cyclic garbage of SQLAlchemy's behind either.

The server never collects on allocation and a busy one skips its timed full pass
(app/gc_policy.py), so a statement that leaves a reference cycle each time it is built (an
``in_`` over a list made per call, a clause combined with ``&``) piles up until the memory
ceiling forces a long pause: the half-hour soak found one such cycle per settled player.

Two people play rated matches against each other on SQLite, as a server starts by default;
their matches are settled (figures, ratings) and their pages, group and the leaderboard are
read.  The first match warms the statement cache (a statement compiled the first time leaves
garbage once, by design); after the second, with automatic collection off, one collection that
frees nothing (``gc.DEBUG_SAVEALL``) shows what it would have had to free: none of it may be
SQLAlchemy's, nor the project's.  And a write the store retries while another writer holds the
database leaves none either (each retried error's frames held it, with the statements).
"""

from __future__ import annotations

import asyncio
import gc
import random
import sqlite3
import types
from collections import Counter
from pathlib import Path

import httpx
import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from app.persistence.db import resolve_url, upgrade
from app.persistence.store import SqlStore
from app.rooms import records as r
from tests.hardening.test_no_cycles import the_projects
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.waiting import until


async def a_rated_match(server: LiveServer, ana: Person, bo: Person, settled_before: int) -> None:
    """Ana and Bo play a two-round match; it is settled; every page of theirs is read."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/rooms", json={"variant": "classic", "max_seats": 2, "house_rules": {"rounds": 2}})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        clients = [await ana.join(code), await bo.join(code)]
        assert (await clients[0].request({"type": "start"}))["type"] == "ack"
        await asyncio.gather(*(play_bot(c, random.Random(settled_before + i)) for i, c in enumerate(clients)))
        await settled(server, settled_before + 1)
        for person in (ana, bo):
            pid = (await person.me())["id"]
            page = await http.get(f"/api/players/{pid}")
            assert page.status_code == 200 and page.json()["history"], page.text
            assert (await http.get(f"/api/players/{pid}/group")).status_code == 200
        assert (await http.get("/api/leaderboard/classic")).status_code == 200
        for c in clients:
            await c.close()


def sqlalchemys_or_ours(obj: object) -> str | None:
    module = getattr(type(obj), "__module__", "") or ""
    if module.startswith("sqlalchemy"):
        return f"{module}.{type(obj).__qualname__}"
    return the_projects(obj)


async def garbage_after_two_matches(server: LiveServer) -> tuple[Counter[str], Counter[str]]:
    ana, bo = Person(server, "Ana"), Person(server, "Bo")
    try:
        await a_rated_match(server, ana, bo, 0)  # warms the compiled-statement cache
        gc.collect()
        gc.disable()
        try:
            await a_rated_match(server, ana, bo, 1)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            found = Counter(name for name in map(sqlalchemys_or_ours, gc.garbage) if name is not None)
            clauses = Counter(str(o) for o in gc.garbage if hasattr(o, "left") and hasattr(o, "right"))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        return found, clauses
    finally:
        await ana.close()
        await bo.close()


@pytest.mark.slow
def test_settling_and_reading_players_leaves_no_cyclic_garbage(tmp_path: Path) -> None:
    server = remembering_server(resolve_url(None, tmp_path), leaderboard_min_matches=1)
    try:
        found, clauses = asyncio.run(garbage_after_two_matches(server))
    finally:
        server.stop()
    assert not found, f"cyclic garbage: {found.most_common(10)}; clauses among it: {clauses.most_common(5)}"


def held_by_a_retry(obj: object) -> str | None:
    """SQLAlchemy's objects and ours, and the tracebacks and frames of any code (a retried
    error's)."""
    if isinstance(obj, types.TracebackType | types.FrameType):
        return type(obj).__name__
    return sqlalchemys_or_ours(obj)


async def garbage_after_retries(path: Path) -> tuple[Counter[str], int]:
    url = resolve_url(None, path)
    # A short busy timeout: a write waits 0.1 s for the lock, not SQLite's default 5 s.
    store = SqlStore(create_async_engine(url, connect_args={"timeout": 0.1}), retry_max_s=0.1)
    try:
        await store.write(r.RoomOpened("WARM0000", "warm", "classic", True, 2, 500))
        gc.collect()
        gc.disable()
        try:
            blocker = sqlite3.connect(path / "uno.sqlite3", isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database
            write = asyncio.create_task(store.write(r.RoomOpened("LOCKED00", "locked", "classic", True, 2, 500)))
            await until(lambda: store.failures >= 3, 60, what="the write refused the lock")
            blocker.execute("COMMIT")
            blocker.close()
            await asyncio.wait_for(write, 60)  # stored once the lock is free
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            found = Counter(name for name in map(held_by_a_retry, gc.garbage) if name is not None)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        return found, store.failures
    finally:
        await store.stop()


@pytest.mark.slow
def test_a_write_retried_while_the_database_is_locked_leaves_no_cyclic_garbage(tmp_path: Path) -> None:
    upgrade(resolve_url(None, tmp_path))
    found, failures = asyncio.run(garbage_after_retries(tmp_path))
    assert failures >= 3
    with sqlite3.connect(tmp_path / "uno.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM rooms WHERE code = 'LOCKED00'").fetchone()[0] == 1
    assert not found, f"cyclic garbage after {failures} retries: {found.most_common(10)}"
