"""What each client address holds and opens, counted over every live node (the ``Holdings`` port,
app/rooms/ports.py): game sockets open, live rooms created, and game sockets opened a minute.

Counted per node, a client held to 200 sockets and 20 rooms got 200 and 20 from each node
behind nginx.  So every node keeps its own count of each address (``LocalHoldings``) and
mirrors it in a row of its own of an UNLOGGED table, ``uno_address_holds`` (node, kind,
address, n).  An address's count is this node's own plus the rows of the other *live* nodes,
by the leases in ``nodes`` (app/cluster/ownership.py): a node that dies stops counting when its
lease runs out, as its rooms are taken over then, with no one having to clean up after it.

- Taking one (a socket opens, a room is created) is one short transaction: a transaction-scoped
  advisory lock on the address and kind, so that two nodes count one after the other, then one
  statement that sums the other live nodes' rows and, when under the cap, writes this node's
  count.  A socket's open rate is counted in the same statement, in the sliding window
  app/cluster/rates.py keeps (``uno_rate_windows``): a socket costs one transaction, not two.
  Takes that come while one is being decided wait and are decided together, up to
  ``ASK_BATCH`` in one transaction (as the store's group commit): a burst of sockets
  reconnecting after a failover costs a transaction per batch, not per socket.  A take the
  node can refuse on its own (its own count of rooms at the cap; a window of opens this node
  has seen full) asks nobody.
- Giving one back (a socket closes, a room goes) asks nobody either: it is written a moment
  later, in one statement with every other count that changed meanwhile.  Until then the other
  nodes see one too many: a refusal can come early, never late.
- Every write carries a stamp taken when its count was read, and a row keeps the newest:
  a take and a batch of give-backs may commit in either order.
- While the database is away, each node counts on its own (as the rates do); its row is
  written again once it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rooms.holdings import LocalHoldings
from app.rooms.ports import Rate, Refusal

from .rates import MAX_BLOCKED, OneAtATime

log = logging.getLogger("app.cluster")

_CREATE = [
    text("SELECT pg_advisory_xact_lock(hashtext('uno_address_holds'))"),  # nodes starting together
    text("CREATE UNLOGGED TABLE IF NOT EXISTS uno_address_holds ("
         "kind varchar(16) NOT NULL, address varchar(100) NOT NULL, node text NOT NULL, "
         "n integer NOT NULL, stamp bigint NOT NULL, PRIMARY KEY (kind, address, node))"),
]

# A node starting again under the same id holds nothing yet; one leaving holds nothing more.
_FORGET_NODE = text("DELETE FROM uno_address_holds WHERE node = :node")

# The windows and counts of a batch of asks, each a transaction-scoped advisory lock, taken in
# the order of their ids (every node takes them in the same order: no deadlock).
_LOCK = text("""
    SELECT count(pg_advisory_xact_lock(s.id)) FROM (
        SELECT DISTINCT hashtext(t.key) AS id FROM unnest(CAST(:keys AS text[])) AS t(key) ORDER BY 1 OFFSET 0) AS s
""")

# Taken after the locks, in a statement of its own: so its snapshot sees every count committed
# by whoever held a lock before.  Per ask: its open counted in its rate window, if it has one
# (app/cluster/rates.py's window) and is within it; then, if so, its hold, when the other live
# nodes' counts and this node's are under the cap.
_DECIDE = text("""
    WITH req AS (
        SELECT * FROM unnest(CAST(:kinds AS text[]), CAST(:addresses AS text[]), CAST(:heres AS integer[]),
                             CAST(:caps AS integer[]), CAST(:rate_keys AS text[]), CAST(:limits AS integer[]),
                             CAST(:windows AS integer[]), CAST(:stamps AS bigint[]))
               AS r(kind, address, here, cap, rate_key, lim, win, stamp)),
    clock AS (SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now_s),
    gone AS (DELETE FROM uno_rate_windows w USING req, clock
             WHERE w.key = req.rate_key AND w.second <= clock.now_s - req.win),
    recent AS (SELECT req.kind, req.address, coalesce(sum(w.hits), 0) AS n, min(w.second) AS first
               FROM req CROSS JOIN clock
               LEFT JOIN uno_rate_windows w ON w.key = req.rate_key AND w.second > clock.now_s - req.win
               GROUP BY req.kind, req.address),
    others AS (SELECT req.kind, req.address, coalesce(sum(h.n), 0) AS n
               FROM req LEFT JOIN uno_address_holds h
                 ON h.kind = req.kind AND h.address = req.address AND h.node <> :node
                AND EXISTS (SELECT 1 FROM nodes d WHERE d.id = h.node AND d.lease_until > now())
               GROUP BY req.kind, req.address),
    verdict AS (SELECT req.*, recent.n AS opened, recent.first, others.n AS others,
                       (req.rate_key IS NULL OR recent.n < req.lim) AS within_rate
                FROM req JOIN recent USING (kind, address) JOIN others USING (kind, address)),
    added AS (INSERT INTO uno_rate_windows (key, second, hits)
              SELECT v.rate_key, clock.now_s, 1 FROM verdict v, clock WHERE v.rate_key IS NOT NULL AND v.within_rate
              ON CONFLICT (key, second) DO UPDATE SET hits = uno_rate_windows.hits + 1 RETURNING 1),
    put AS (INSERT INTO uno_address_holds (kind, address, node, n, stamp)
            SELECT v.kind, v.address, :node, v.here + 1, v.stamp FROM verdict v
            WHERE v.within_rate AND v.others + v.here < v.cap
            ON CONFLICT (kind, address, node) DO UPDATE SET n = EXCLUDED.n, stamp = EXCLUDED.stamp
            WHERE uno_address_holds.stamp < EXCLUDED.stamp RETURNING 1)
    SELECT v.kind, v.address, v.within_rate, v.first + v.win - clock.now_s AS wait, v.others FROM verdict v, clock
""")

_WRITE = text("""
    INSERT INTO uno_address_holds (kind, address, node, n, stamp)
    SELECT t.kind, t.address, :node, t.n, :stamp
    FROM unnest(CAST(:kinds AS text[]), CAST(:addresses AS text[]), CAST(:ns AS integer[])) AS t(kind, address, n)
    ON CONFLICT (kind, address, node) DO UPDATE SET n = EXCLUDED.n, stamp = EXCLUDED.stamp
    WHERE uno_address_holds.stamp < EXCLUDED.stamp
""")
_DROP_EMPTY = text("DELETE FROM uno_address_holds WHERE node = :node AND n <= 0")

# Rows of nodes dead a while (one that is only late keeps its rows, and writes them all again
# when it is back: ``rewrite_all``).
_SWEEP = text("""
    DELETE FROM uno_address_holds h
    WHERE NOT EXISTS (SELECT 1 FROM nodes d WHERE d.id = h.node AND d.lease_until > now() - interval '60 seconds')
""")

FLUSH_DELAY_S = 0.1  # give-backs within this are written together
FLUSH_BATCH = 500  # counts per write
ASK_BATCH = 200  # takes decided in one transaction (a burst of sockets reconnecting after a failover)
SWEEP_SECONDS = 60.0


@dataclass(eq=False)
class Ask:
    """One take waiting for the database: one at a time per kind and address on a node."""

    kind: str
    address: str
    here: int  # this node's count before it
    cap: int
    rate: Rate | None
    stamp: int  # when ``here`` was read
    answer: asyncio.Future[Any] | None = None

    @property
    def rate_key(self) -> str | None:
        return f"{self.kind} {self.address}"[:120] if self.rate is not None else None


class SharedHoldings:
    """The ``Holdings`` of one node of several (app/rooms/ports.py)."""

    def __init__(self, engine: AsyncEngine, node: str, gate: asyncio.Semaphore) -> None:
        self.engine = engine
        self.node = node
        self.gate = gate  # the connections the node's counting may hold (shared with its rates)
        self.local = LocalHoldings()  # this node's own share of every count
        self.one_at_a_time = OneAtATime()
        self.stamps = itertools.count(1)
        self.dirty: set[tuple[str, str]] = set()  # counts changed here since they were last written
        self.wake = asyncio.Event()
        # Rate windows the shared count refused, until when (monotonic).
        self.blocked: dict[tuple[str, str], float] = {}
        self.asks: list[Ask] = []  # waiting for the next batch
        self.asking: asyncio.Task[None] | None = None

    async def start(self) -> None:
        async with self.engine.begin() as conn:
            for statement in _CREATE:
                await conn.execute(statement)
            await conn.execute(_FORGET_NODE, {"node": self.node})

    async def leave(self) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(_FORGET_NODE, {"node": self.node})

    def held(self, kind: str, address: str) -> int:
        return self.local.held(kind, address)

    def give_back(self, kind: str, address: str) -> None:
        self.local.give_back(kind, address)
        self.dirty.add((kind, address))
        self.wake.set()

    def rewrite_all(self) -> None:
        """Write every count again (back after a lapse: the rows may have been swept)."""
        self.dirty.update((kind, address) for kind, counts in self.local.counts.items() for address in counts)
        self.wake.set()

    async def take(self, kind: str, address: str, cap: int, rate: Rate | None = None) -> Refusal | None:
        address = address[:100]
        if rate is not None:
            # This node's own window is a part of the shared one, and a refusal holds until the
            # window frees up: past either, no need to ask.
            now = time.monotonic()
            wait = max(self.local.rate_wait(kind, address, rate), self.blocked.get((kind, address), now) - now)
            if wait > 0:
                return Refusal("rate", wait)
            self.blocked.pop((kind, address), None)
        async with self.one_at_a_time.turn(f"held {kind} {address}"):
            here = self.local.held(kind, address)
            if rate is None and here >= cap:  # (an open over the cap still counts in its rate)
                return Refusal("cap")
            # Counted here before asking: a write of this count that commits first is not undone
            # by a batch of give-backs read before it (the newer stamp wins).
            self.local.add(kind, address)
            try:
                row = await self._ask(Ask(kind, address, here, cap, rate, next(self.stamps)))
            except Exception as err:  # the database is away: this node's own count, meanwhile
                log.warning("%s per address counted on this node only: %s", kind, type(err).__name__)
                self.give_back(kind, address)  # and its row is written again once it can be
                return self.local.take_now(kind, address, cap, rate)
            except BaseException:  # cancelled: nothing taken
                self.give_back(kind, address)
                raise
        if rate is not None:
            if not row.within_rate:
                # Nothing was written; a batch of give-backs read since may have written this
                # one in: the count is written again.
                self.give_back(kind, address)
                wait = max(1.0, float(row.wait or rate.window))
                if len(self.blocked) >= MAX_BLOCKED:
                    del self.blocked[next(iter(self.blocked))]
                self.blocked[(kind, address)] = time.monotonic() + wait
                return Refusal("rate", wait)
            self.local.opened(kind, address, rate)  # this node's share of the window
        if row.others + here >= cap:
            self.give_back(kind, address)  # (as above)
            return Refusal("cap")
        if self.local.held(kind, address) != here + 1:  # given back meanwhile: write the count again
            self.dirty.add((kind, address))
            self.wake.set()
        return None

    async def _ask(self, ask: Ask) -> Any:
        """The database's answer to one ask, decided in a batch with every other ask waiting then."""
        ask.answer = asyncio.get_running_loop().create_future()
        self.asks.append(ask)
        if self.asking is None:
            self.asking = asyncio.create_task(self._decide_all(), name="cluster-holdings-asks")
        return await ask.answer

    async def _decide_all(self) -> None:
        """One batch in flight at a time: what comes meanwhile waits for the next (as group commit)."""
        try:
            while self.asks:
                batch, self.asks = self.asks[:ASK_BATCH], self.asks[ASK_BATCH:]
                try:
                    rows = await self._decide(batch)
                except BaseException as err:
                    for ask in batch:
                        if ask.answer is not None and not ask.answer.done():
                            ask.answer.set_exception(err if isinstance(err, Exception) else RuntimeError("stopped"))
                    if not isinstance(err, Exception):
                        raise
                else:
                    for ask in batch:
                        row = rows.get((ask.kind, ask.address))
                        if ask.answer is None or ask.answer.done():
                            continue
                        if row is None:
                            ask.answer.set_exception(RuntimeError("no answer for this ask"))
                        else:
                            ask.answer.set_result(row)
        finally:
            self.asking = None
            for ask in self.asks:  # stopped (cancelled) with asks waiting
                if ask.answer is not None and not ask.answer.done():
                    ask.answer.set_exception(RuntimeError("stopped"))
            self.asks = []

    async def _decide(self, batch: list[Ask]) -> dict[tuple[str, str], Any]:
        keys = [f"held {ask.kind} {ask.address}" for ask in batch]
        keys += [ask.rate_key for ask in batch if ask.rate_key is not None]
        params = {"node": self.node, "kinds": [ask.kind for ask in batch],
                  "addresses": [ask.address for ask in batch], "heres": [ask.here for ask in batch],
                  "caps": [ask.cap for ask in batch], "rate_keys": [ask.rate_key for ask in batch],
                  "limits": [ask.rate.limit if ask.rate else 0 for ask in batch],
                  "windows": [int(ask.rate.window) if ask.rate else 0 for ask in batch],
                  "stamps": [ask.stamp for ask in batch]}
        async with self.gate, self.engine.begin() as conn:
            await conn.execute(_LOCK, {"keys": keys})
            rows = (await conn.execute(_DECIDE, params)).all()
        return {(row.kind, row.address): row for row in rows}

    async def flush(self) -> None:
        """Write the counts that changed here (a batch of them) in one statement."""
        batch = list(itertools.islice(self.dirty, FLUSH_BATCH))
        self.dirty.difference_update(batch)
        # Read as the stamp is taken, with no wait between: a later take has a later stamp.
        counts = [self.local.held(kind, address) for kind, address in batch]
        params = {"node": self.node, "stamp": next(self.stamps), "kinds": [kind for kind, _ in batch],
                  "addresses": [address for _, address in batch], "ns": counts}
        try:
            async with self.gate, self.engine.begin() as conn:
                await conn.execute(_WRITE, params)
                await conn.execute(_DROP_EMPTY, {"node": self.node})
        except BaseException:
            self.dirty.update(batch)
            raise

    async def run_forever(self) -> None:
        """Write give-backs as they come (a few at a time), and sweep dead nodes' rows now and then."""
        swept = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), SWEEP_SECONDS)
            self.wake.clear()
            await asyncio.sleep(FLUSH_DELAY_S)
            try:
                while self.dirty:
                    await self.flush()
                if time.monotonic() - swept >= SWEEP_SECONDS:
                    swept = time.monotonic()
                    async with self.gate, self.engine.begin() as conn:
                        await conn.execute(_SWEEP)
            except Exception as err:
                log.warning("could not write the counts per address: %s", type(err).__name__)
                await asyncio.sleep(1.0)
                self.wake.set()
