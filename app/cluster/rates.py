"""Per-address rate limits that hold across the cluster: counted in the Postgres every node shares.

Each node's own windows (app/web/limits.py) let a client through N nodes N times its limit
(through nginx with 2 nodes: 40 room creations a minute where the limit is 20, 60 unknown
codes where it is 30).  nginx cannot count them for the nodes: its ``limit_req`` is a leaky
bucket (its burst plus its rate let twice the limit through in a minute) and it cannot tell
an unknown room code from a known one, which only the node knows once it has looked.

So a node counts these limits here: a sliding window of a minute as a node's own, counted
per second of the database's clock (at most 60 rows a window, however high its limit), one
window per limit and address, in an UNLOGGED table (counters need no crash safety, and skip
the write-ahead log).  A transaction-scoped advisory lock on the key makes the count and the
increment one step for every node at once.
It costs one short transaction per request counted — room creations, joins, room lists and
unknown codes, each already a request that touches the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.rates import HOUR_S, HOURLY_KIND

log = logging.getLogger("app.cluster")

_CREATE = [
    text("SELECT pg_advisory_xact_lock(hashtext('uno_rate_windows'))"),  # nodes starting together
    text("CREATE UNLOGGED TABLE IF NOT EXISTS uno_rate_windows ("
         "key varchar(120) NOT NULL, second bigint NOT NULL, hits integer NOT NULL, PRIMARY KEY (key, second))"),
]

_LOCK = text("SELECT pg_advisory_xact_lock(hashtext(:key))")

# Taken after the lock, in a statement of its own: so its snapshot sees every hit committed
# by whoever held the lock before.
_HIT = text("""
    WITH clock AS (SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS now_s),
    gone AS (DELETE FROM uno_rate_windows w USING clock WHERE w.key = :key AND w.second <= clock.now_s - :window),
    recent AS (SELECT coalesce(sum(w.hits), 0) AS n, min(w.second) AS first FROM uno_rate_windows w, clock
               WHERE w.key = :key AND w.second > clock.now_s - :window),
    added AS (INSERT INTO uno_rate_windows (key, second, hits) SELECT :key, clock.now_s, 1 FROM recent, clock
              WHERE recent.n < :limit
              ON CONFLICT (key, second) DO UPDATE SET hits = uno_rate_windows.hits + 1 RETURNING 1)
    SELECT recent.n, recent.first + :window - clock.now_s AS wait FROM recent, clock
""")

_NOW_S = "floor(extract(epoch FROM clock_timestamp()))"
_SWEEP = text(f"DELETE FROM uno_rate_windows WHERE second <= {_NOW_S} - :window AND key NOT LIKE :hourly")
# The players made per address are counted per hour (app/web/new_players.py): kept that long.
_SWEEP_HOURLY = text(f"DELETE FROM uno_rate_windows WHERE second <= {_NOW_S} - :window AND key LIKE :hourly")

SWEEP_SECONDS = 60.0  # windows nobody has used for a while are deleted this often
LONGEST_WINDOW_S = 60.0  # the longest window counted here but the hourly one (the limits are per minute)
# Database connections a node's counting may hold at once.  The count shares the store's
# pool: a flood of counted requests must never take the connections the rooms commit with.
CONNECTIONS = 2
MAX_BLOCKED = 50_000  # windows a node remembers as refused (the least recently refused forgotten past it)


class OneAtATime:
    """One count in flight per key on this node: a flood from one address waits here, in memory,
    not in the database's lock queue holding connections."""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        lock, users = self.keys.get(key) or (asyncio.Lock(), 0)
        self.keys[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.keys[key]
            if users <= 1:
                del self.keys[key]
            else:
                self.keys[key] = (lock, users - 1)


class SharedRates:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.gate = asyncio.Semaphore(CONNECTIONS)
        self.one_at_a_time = OneAtATime()  # per window

    async def start(self) -> None:
        async with self.engine.begin() as conn:
            for statement in _CREATE:
                await conn.execute(statement)

    async def hit(self, kind: str, address: str, limit: int, window: float) -> float:
        """Count one request of ``kind`` from ``address``: 0 when allowed (and counted), else the
        seconds until the next one would be (not counted).  Raises when the database is away."""
        if limit <= 0:
            return window
        key = f"{kind} {address}"[:120]
        async with self.one_at_a_time.turn(key), self.gate, self.engine.begin() as conn:
            await conn.execute(_LOCK, {"key": key})
            row = (await conn.execute(_HIT, {"key": key, "window": int(window), "limit": limit})).one()
        if row.n < limit:
            return 0.0
        return max(1.0, float(row.wait or window))

    async def sweep(self) -> None:
        """Delete the windows' seconds that left them (the hourly ones' after the hour)."""
        async with self.engine.begin() as conn:
            await conn.execute(_SWEEP, {"window": int(LONGEST_WINDOW_S), "hourly": f"{HOURLY_KIND}%"})
            await conn.execute(_SWEEP_HOURLY, {"window": int(HOUR_S), "hourly": f"{HOURLY_KIND}%"})

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception as err:
                log.warning("could not sweep the shared rate windows: %s", type(err).__name__)
