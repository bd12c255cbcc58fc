"""The SQL store: durable writes with group commit (its reads: store_reads.py).

Every write is a small list of statements (``Op``s) submitted by a room actor, which
awaits it: when ``write`` returns, the rows are committed.  One writer task takes every
submission waiting at that moment — from all rooms — and commits them in a single
transaction, so durability costs one commit per batch rather than one per action.

On Postgres a batch of action rows and nothing else (most batches at human pace) is
committed as one statement instead (``fast_lane.py``); whatever it cannot do comes here.

While the database is unreachable the writer retries with backoff and the submitters
keep waiting: nothing is acknowledged before it is stored, and service resumes by itself.
A submission that fails for any other reason (a bug, a constraint) fails alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms import records as r
from app.rooms.ports import Unstorable

from .db import upgrade
from .fast_lane import FastLane
from .fencing import Fence, Fenced
from .models import ActionRow, RoomRow
from .ops import INSERT_ACTION, Op, actions_last, let_go, ops_for, refused_for_content
from .store_reads import StoreReads

log = logging.getLogger("app.persistence")

# A submission: its statements, the room they are for and the epoch this node held it at when
# they were made (None: no room's, or one process alone), and its waiter.
Submission = tuple[list[Op], str | None, int | None, asyncio.Future[None]]

# The fencing read (Postgres only: cluster mode needs it).  FOR SHARE: a take-over's FOR UPDATE
# waits for this commit, and this read waits for a take-over's.
_FENCE_CHECK = f"SELECT code, owner, epoch FROM {RoomRow.__tablename__} WHERE code = ANY($1::text[]) FOR SHARE"


def _action_rows(batch: list[Submission]) -> list[dict[str, Any]] | None:
    """The batch's action rows, if it holds nothing else (the fast lane's case)."""
    rows = []
    for ops, _, _, _ in batch:
        for stmt, params in ops:
            if stmt is not INSERT_ACTION or params is None:
                return None
            rows.append(params)
    return rows


class _Refenced(Exception):
    """A batch held a stale submission: roll it back and commit the rest again."""


# ---------------------------------------------------------------------- the store


class SqlStore(StoreReads):
    def __init__(self, engine: AsyncEngine, *, migrate_url: str | None = None, max_batch: int = 2000,
                 retry_max_s: float = 2.0) -> None:
        self.engine = engine
        self.migrate_url = migrate_url  # when set, start() applies the migrations first
        # A batch retried after its commit went through but its answer was lost must not fail
        # on the actions it already stored: the same (match, seq) is the same action.
        dialect_insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert
        self._insert_action = dialect_insert(ActionRow).on_conflict_do_nothing(index_elements=["match_id", "seq"])
        self.max_batch = max_batch
        self.retry_max_s = retry_max_s
        self._queue: asyncio.Queue[Submission] = asyncio.Queue()
        # Set when several nodes share the database (app/cluster): a room's writes commit only
        # while this node holds the room's current epoch.
        self.fence: Fence | None = None
        self._task: asyncio.Task[None] | None = None
        # Batches of action rows alone commit in one statement (fast_lane.py).
        self.lane = FastLane(engine) if engine.dialect.name == "postgresql" else None
        # Figures for /metrics and the benchmarks.
        self.flushes = 0
        self.one_statement_flushes = 0
        self.flushed_ops = 0
        self.flush_seconds = 0.0
        self.failures = 0

    async def start(self) -> None:
        if self.migrate_url is not None:
            await asyncio.to_thread(upgrade, self.migrate_url)
            self.migrate_url = None
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="sql-writer")

    async def stop(self) -> None:
        """Flush what is queued, then stop the writer and close the pool."""
        if self._task is not None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            await self._queue.put(([], None, None, done))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(done), timeout=10)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.lane is not None:
            await self.lane.close()
        await self.engine.dispose()

    async def write(self, *records: r.Record, room: str | None = None) -> None:
        """Store these records of one room (in order, in one transaction); return once they are
        durable.  Raises ``Fenced`` if the room's epoch has moved since this node took it (another
        node owns it now, or this node took it again): then nothing was stored."""
        ops = [op for record in records for op in ops_for(record)]
        fence = self.fence
        epoch = None
        if fence is not None:
            if room is None:
                room = next((code for rec in records if (code := getattr(rec, "code", None))), None)
            ops = self._fenced_ops(fence, records, ops)
            epoch = fence.epochs.get(room) if room is not None else None
        await self.execute(ops, room, epoch)

    @staticmethod
    def _fenced_ops(fence: Fence, records: Sequence[r.Record], ops: list[Op]) -> list[Op]:
        """A new room is owned by its creator at epoch 1; each action row keeps its epoch."""
        for record in records:
            if isinstance(record, r.RoomOpened):
                fence.epochs[record.code] = 1
                ops.append((update(RoomRow).where(RoomRow.code == record.code).values(owner=fence.node, epoch=1),
                            None))
        return [(stmt, {**params, "epoch": fence.epochs.get(params["room_code"])})
                if stmt is INSERT_ACTION and params is not None else (stmt, params) for stmt, params in ops]

    async def execute(self, flat: list[Op], room: str | None = None, epoch: int | None = None) -> None:
        """Commit these statements (in order, in one transaction); return once they are durable."""
        if self._task is None:
            await self.start()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put((flat, room, epoch, future))
        await future

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < self.max_batch and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._commit(batch)

    async def _commit(self, batch: list[Submission]) -> None:
        if self.lane is not None:
            rows = _action_rows(batch)
            started = time.perf_counter()
            if rows and await self.lane.commit(rows, self.fence.node if self.fence is not None else None):
                self.one_statement_flushes += 1
                self._settle(batch, set(), started)
                return
        delay = 0.05
        fenced: set[int] = set()  # submissions found stale: left out when the batch is tried again
        while True:
            started = time.perf_counter()
            try:
                async with self.engine.begin() as conn:
                    await self._execute(conn, actions_last([op for i, (ops, _, _, _) in enumerate(batch)
                                                            if i not in fenced for op in ops]))
                    stale = await self._stale(conn, batch, fenced)
                    if stale:
                        fenced |= stale
                        raise _Refenced  # roll back, and commit the others without them
            except _Refenced:
                continue
            except (OperationalError, ConnectionError, OSError, DBAPIError) as err:
                if isinstance(err, DBAPIError) and not isinstance(err, OperationalError) \
                        and not err.connection_invalidated:
                    await self._commit_one_by_one(batch)  # not the database's state: the batch's content
                    return
                # The database is away (or locked): keep everyone waiting and try again.
                self.failures += 1
                log.warning("database unavailable, retrying in %.2fs: %s: %.120s", delay, type(err).__name__,
                            str(getattr(err, "orig", None) or ""))  # the driver's words, not the rows
                let_go(err)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)
                continue
            except Exception:
                await self._commit_one_by_one(batch)
                return
            self._settle(batch, fenced, started)
            return

    def _settle(self, batch: list[Submission], fenced: Collection[int], started: float) -> None:
        """The batch is committed (but for its ``fenced`` submissions): tell every waiter."""
        self.flushes += 1
        self.flushed_ops += sum(len(ops) for ops, _, _, _ in batch)
        self.flush_seconds += time.perf_counter() - started
        for i, (_, room, _, future) in enumerate(batch):
            if not future.done():
                if i in fenced:
                    future.set_exception(Fenced(room or ""))
                else:
                    future.set_result(None)

    async def _stale(self, conn: Any, batch: list[Submission], skip: Collection[int] = ()) -> set[int]:
        """The submissions of this batch (by index, but for ``skip``) for a room whose row no
        longer says this node at the epoch they were made under.

        Asked after the batch's statements, just before the commit: the rows stay share-locked
        from then until the commit, so no node takes one of them over in between, and a room
        taken over before is seen with its new epoch (the batch is then rolled back and committed
        again without its submissions).  Asked last, and on the driver's own connection with one
        prepared statement, it costs the commit one short round trip and no statement building.
        The epoch is the submission's own, not the node's latest: the write of a room this node
        dropped and took back since is as stale as another node's."""
        fence = self.fence
        rooms = {room for i, (_, room, _, _) in enumerate(batch) if room is not None and i not in skip}
        if fence is None or not rooms:
            return set()
        raw = await conn.get_raw_connection()
        rows = await raw.driver_connection.fetch(_FENCE_CHECK, list(rooms))
        held = {row["code"]: (row["owner"], row["epoch"]) for row in rows}
        # A room without a row is being created in this batch (or its statements fail on their own).
        return {i for i, (_, room, epoch, _) in enumerate(batch)
                if i not in skip and room in held and held[room] != (fence.node, epoch)}

    async def _commit_one_by_one(self, batch: list[Submission]) -> None:
        """Isolate a failing submission so that the others still commit."""
        for submission in batch:
            ops, room, _, future = submission
            try:
                async with self.engine.begin() as conn:
                    await self._execute(conn, ops)
                    if await self._stale(conn, [submission]):
                        raise Fenced(room or "")  # rolls the statements back
            except Fenced as err:
                if not future.done():
                    future.set_exception(err)
            except Exception as err:
                # A stale write may fail on what the room's new owner stored since (a round
                # number taken, say): it is refused as stale, not as a failure.
                stale = await self._was_stale(submission)
                refused = not stale and refused_for_content(err)
                if refused:  # this submission alone: the room refuses it to its sender (actor.py)
                    log.warning("a write of room %s was refused for its content: %s", room, err)
                elif not stale:
                    log.exception("a write failed")
                if not future.done():
                    future.set_exception(Fenced(room or "") if stale else Unstorable(str(err)) if refused else err)
            else:
                if not future.done():
                    future.set_result(None)

    async def _was_stale(self, submission: Submission) -> bool:
        """Whether this submission's room has moved on from its epoch (epochs only grow: a
        submission stale once stays stale).  False when that can't be told."""
        try:
            async with self.engine.connect() as conn:
                return bool(await self._stale(conn, [submission]))
        except Exception:
            return False

    async def _execute(self, conn: Any, ops: list[Op]) -> None:
        i = 0
        while i < len(ops):
            stmt, params = ops[i]
            if stmt is INSERT_ACTION:
                stmt = self._insert_action
            if params is None:
                await conn.execute(stmt)
                i += 1
                continue
            rows = [params]
            i += 1
            while i < len(ops) and ops[i][0] is ops[i - 1][0] and ops[i][1] is not None:
                rows.append(ops[i][1])  # type: ignore[arg-type]
                i += 1
            await conn.execute(stmt, rows)
