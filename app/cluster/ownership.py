"""Who owns which room, kept in Postgres: node leases, owners and fencing epochs.

Every node has a row in ``nodes`` with a lease it renews each second on the database's clock.
Every room row names its owner and an epoch, raised each time the room changes hands.  A
node takes a room (``claim``, ``take_over``) only when nobody alive owns it, and the store
commits a write for a room only while the writer still holds that room's current epoch
(``Fence``, app/persistence/fencing.py, checked under ``FOR SHARE`` in the write's own
transaction): two nodes may, for a moment, both believe they own a room, but only one of them
can ever store anything for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.persistence.fencing import Fence, Fenced
from app.rooms.options import RoomOptions

__all__ = ["Fence", "Fenced", "Location", "Ownership"]

_ALIVE = "EXISTS (SELECT 1 FROM nodes n WHERE n.id = {owner} AND n.lease_until > now())"

_ORPHAN = f"r.status != 'closed' AND (r.owner IS NULL OR NOT {_ALIVE.format(owner='r.owner')})"

# The renewal also tells whether any room has nobody alive owning it: a node looks for rooms to
# take over only then, instead of with a query of its own every second.  (The answer is read
# before this renewal counts, so after a lapse the node may see its own rooms as orphans: a
# hint only, which the take-over, in a transaction of its own, gets right.)  One statement, sent
# on the driver's connection outside any transaction: Postgres commits it on its own, in one
# round trip (``renew``).
_RENEW = f"""
    WITH renewed AS (
        INSERT INTO nodes (id, address, lease_until)
        VALUES ($1::text, $2::text, now() + make_interval(secs => $3::float8))
        ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, lease_until = EXCLUDED.lease_until
        RETURNING id)
    SELECT EXISTS (SELECT 1 FROM rooms r WHERE {_ORPHAN}) AS orphans
"""

_LEAVE = text("DELETE FROM nodes WHERE id = :id")

_RELEASE = text("UPDATE rooms SET owner = NULL WHERE owner = :id AND code = ANY(:codes)")

_LOCATE = text(f"""
    SELECT r.owner, r.epoch, n.address, {_ALIVE.format(owner="r.owner")} AS alive
    FROM rooms r LEFT JOIN nodes n ON n.id = r.owner
    WHERE r.code = :code AND r.status != 'closed'
""")

# A room is free to take when its owner is nobody, is dead, or is the taker itself (a room
# this node dropped, e.g. after a failed write, and is asked for again).
_CLAIM = text(f"""
    UPDATE rooms SET owner = :id, epoch = epoch + 1
    WHERE code = :code AND status != 'closed'
      AND (owner IS NULL OR owner = :id OR NOT {_ALIVE.format(owner="rooms.owner")})
    RETURNING epoch
""")

# The rooms of dead nodes (and rooms nobody owns), a batch at a time; SKIP LOCKED lets the
# survivors share them out instead of queueing behind one another.
_TAKE_OVER = text(f"""
    UPDATE rooms SET owner = :id, epoch = epoch + 1
    WHERE code IN (
        SELECT r.code FROM rooms r
        WHERE {_ORPHAN}
        ORDER BY r.updated_at DESC
        LIMIT :limit
        FOR UPDATE SKIP LOCKED)
    RETURNING code, epoch
""")

_MATCH_ROOM = text("SELECT room_code FROM matches WHERE id = :id")

_HELD = text("SELECT code, owner, epoch FROM rooms WHERE code = ANY(:codes)")

# What the lobby lists: public rooms still waiting, owned by a live node, with a free seat.
_LOBBY = text(f"""
    SELECT r.code, r.name, r.edition, r.public, r.max_seats, r.target, r.status, r.options, r.created_at,
           coalesce(array_agg(s.name ORDER BY s.seat) FILTER (WHERE s.id IS NOT NULL), '{{}}') AS players,
           count(s.id) FILTER (WHERE s.is_bot) AS bots
    FROM rooms r LEFT JOIN seats s ON s.room_code = r.code
    WHERE r.public AND r.status = 'waiting' AND r.owner IS NOT NULL AND {_ALIVE.format(owner="r.owner")}
    GROUP BY r.code
    HAVING count(s.id) < r.max_seats
    ORDER BY r.created_at DESC
    LIMIT :limit
""")


@dataclass(frozen=True)
class Location:
    owner: str | None
    epoch: int
    address: str | None
    alive: bool


class Ownership:
    def __init__(self, engine: AsyncEngine, node: str, address: str, lease_seconds: float) -> None:
        self.engine = engine
        self.node = node
        self.address = address
        self.lease_seconds = lease_seconds

    async def renew(self) -> bool:
        """Register this node or extend its lease (raises when the database can't be reached);
        whether some room has no live owner (one for ``take_over``).

        Every node renews every second, busy or idle: through SQLAlchemy's transaction that was
        BEGIN, the statement and COMMIT, three round trips, each a wake-up of the event loop and
        a pass through the async adapter, a fixed cost each node paid again.  The statement alone
        is one round trip, on the driver's own connection (as the store's fencing read)."""
        async with self.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            try:
                row = await driver.fetchrow(_RENEW, self.node, self.address, self.lease_seconds)
            except BaseException:
                await conn.invalidate()  # broken, or left mid-statement: not back into the pool
                raise
        return bool(row["orphans"])

    async def leave(self, codes: list[str]) -> None:
        """Give these rooms up and end the lease: survivors take the rooms at once."""
        async with self.engine.begin() as conn:
            if codes:
                await conn.execute(_RELEASE, {"id": self.node, "codes": codes})
            await conn.execute(_LEAVE, {"id": self.node})

    async def locate(self, code: str) -> Location | None:
        """Where an open room lives (None: no such open room)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_LOCATE, {"code": code})).first()
        if row is None:
            return None
        return Location(row.owner, row.epoch, row.address, bool(row.alive))

    async def claim(self, code: str) -> int | None:
        """Take this room if no live node has it: its new epoch, or None."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(_CLAIM, {"id": self.node, "code": code})).first()
        return None if row is None else int(row.epoch)

    async def take_over(self, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` rooms nobody alive owns: (code, new epoch) of each."""
        async with self.engine.begin() as conn:
            rows = (await conn.execute(_TAKE_OVER, {"id": self.node, "limit": limit})).all()
        return [(row.code, int(row.epoch)) for row in rows]

    async def room_of_match(self, match_id: str) -> str | None:
        """The room a match was played in (None: no such match)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_MATCH_ROOM, {"id": match_id})).first()
        return None if row is None else str(row.room_code)

    async def held(self, codes: list[str]) -> dict[str, tuple[str | None, int]]:
        """(owner, epoch) of each of these rooms, as stored."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_HELD, {"codes": codes})).all()
        return {row.code: (row.owner, int(row.epoch)) for row in rows}

    async def lobby(self, settings: Settings) -> list[dict[str, Any]]:
        """The public rooms waiting for players, newest first, as the lobby lists them."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_LOBBY, {"limit": settings.max_rooms})).all()
        return [_summary(row, settings) for row in rows]


def _summary(row: Any, settings: Settings) -> dict[str, Any]:
    """A stored room as the lobby lists it: its options read back as a restore reads them, then
    the rooms' own builder (``RoomOptions.lobby_summary``), so every node lists what one process would."""
    options = RoomOptions.restored(settings, row.edition, public=row.public, max_seats=row.max_seats,
                                   target=row.target, name=row.name, options=row.options or {})
    created: datetime = row.created_at
    return options.lobby_summary(row.code, status=row.status, players=list(row.players), bots=int(row.bots),
                                 created_at=created.timestamp())
