"""The store the rooms write through when players are remembered: the SQL store, and after a
match's end is stored, its players noted and its figures and ratings settled (settle.py).

Noting the players is awaited with the write (one short statement), while the seats are still
the match's; settling is not: the room publishes the match's end without waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import OperationalError

from app.rooms import records as r
from app.rooms.records import StoredRoom

from .ops import let_go
from .settle import Settler
from .store import SqlStore

log = logging.getLogger("app.persistence")
T = TypeVar("T")


async def _again(job: Callable[[], Awaitable[T]], tries: int = 5) -> T:
    """Try a players' write a few times: on SQLite a transaction that read before another
    writer committed cannot write (busy), and is simply tried again."""
    delay = 0.05
    for attempt in range(tries):
        try:
            return await job()
        except OperationalError as err:
            if attempt == tries - 1:
                raise
            let_go(err)
            await asyncio.sleep(delay)
            delay *= 2
    raise AssertionError("unreachable")


class RememberingStore:
    def __init__(self, store: SqlStore, settler: Settler) -> None:
        self.store, self.settler = store, settler
        self.tasks: set[asyncio.Task[Any]] = set()

    def _later(self, job: Any, what: str) -> None:
        async def run() -> None:
            try:
                await job
            except Exception:
                log.exception("%s failed; it is tried again when the server starts", what)

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def start(self) -> None:
        await self.store.start()
        await _again(self.settler.rerank)
        self._later(self.settler.settle_pending(), "settling finished matches")

    async def stop(self) -> None:
        if self.tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait(list(self.tasks), timeout=10)
        await self.store.stop()

    async def write(self, *records: r.Record, room: str | None = None) -> None:
        await self.store.write(*records, room=room)
        for record in records:
            if isinstance(record, r.MatchFinished):
                try:
                    await _again(partial(self.settler.seat_players, record.code, record.match_id,
                                         record.think))
                except Exception:  # the match is stored; only its players' memory of it is lost
                    log.exception("the players of match %s could not be noted", record.match_id)
                    continue
                self._later(_again(partial(self.settler.settle, record.match_id)), f"settling match {record.match_id}")

    async def unfinished_rooms(self) -> list[StoredRoom]:
        return await self.store.unfinished_rooms()

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self.store.load_room(code)

    async def match_history(self, match_id: str) -> dict[str, Any] | None:
        return await self.store.match_history(match_id)

    async def match_export(self, match_id: str) -> dict[str, Any] | None:
        return await self.store.match_export(match_id)
