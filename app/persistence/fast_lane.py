"""One round trip for the commonest group commit: action rows and nothing else (Postgres only).

At human pace nearly every group commit holds a single action row.  Through SQLAlchemy's
transaction that is BEGIN, the insert, in a cluster the fencing read, and COMMIT: three or
four round trips, each through the async adapter's greenlet hop.  asyncpg's ``executemany``
sends all its rows with one Sync, so Postgres runs them as one implicit transaction, all
stored or none, in one round trip.  In a cluster each row's epoch is written through
``uno_fence`` (migration 0005), which refuses the whole statement (SQLSTATE UF001) when this
node no longer holds the room at that epoch, and share-locks the room's row until the
statement commits, as the store's fencing read does.

Anything else (another statement in the batch, a refusal, an error, a lost connection) is
answered False, and the store commits the batch its usual way, which sorts out stale
submissions, retries and failures.  Trying again is safe: the insert skips a row already
stored (the same match and seq), so a batch whose commit went through but whose answer was
lost is not stored twice.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .models import ActionRow

log = logging.getLogger("app.persistence")

_INSERT = (f"INSERT INTO {ActionRow.__tablename__} (room_code, match_id, round, seq, seat, action, client_id, epoch) "
           "VALUES ($1::text, $2, $3, $4, $5, $6::json, $7, {epoch}) ON CONFLICT (match_id, seq) DO NOTHING")
_PLAIN = _INSERT.format(epoch="$8")
_FENCED = _INSERT.format(epoch="uno_fence($1::text, $9, $8)")


class FastLane:
    """The store writer's own connection, and the insert prepared on it."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.enabled = True
        self._conn: AsyncConnection | None = None
        self._driver: asyncpg.Connection | None = None
        self._statements: dict[bool, Any] = {}  # fenced or not: asyncpg's prepared statement

    async def commit(self, rows: list[dict[str, Any]], node: str | None) -> bool:
        """Store these action rows (``ops.log_action``'s parameters) in one statement; True if
        they are committed, False if the store must commit them its usual way."""
        if not self.enabled or not rows:
            return False
        try:
            statement = await self._statement(fenced=node is not None)
        except asyncpg.PostgresError as err:
            if self._driver is not None and not self._driver.is_closed():
                # Refused by a live server: the schema lacks uno_fence (not migrated), say.
                self.enabled = False
                log.warning("one-statement commits are off: %s", err)
            await self.close()
            return False
        except Exception:
            await self.close()  # no connection now (the database is away): the usual way waits for it
            return False
        # Serialised as SQLAlchemy's JSON type does it (json.dumps), so the stored text is the same.
        args: list[tuple[Any, ...]] = [
            (p["room_code"], p["match_id"], p["round"], p["seq"], p["seat"], json.dumps(p["action"]), p["client_id"],
             p.get("epoch"), *((node,) if node is not None else ())) for p in rows]
        try:
            await statement.executemany(args)
        except asyncpg.PostgresError:
            # Refused (a stale room, a constraint): rolled back, the connection still good.  Or
            # the server ended the session (a restart): then the connection goes too.
            if self._driver is None or self._driver.is_closed():
                await self.close(invalidate=True)
            return False
        except Exception:
            await self.close(invalidate=True)  # the connection may be broken, or mid-message
            return False
        return True

    async def _statement(self, *, fenced: bool) -> Any:
        statement = self._statements.get(fenced)
        if statement is not None:
            return statement
        if self._conn is None:
            self._conn = await self.engine.connect()
        raw = await self._conn.get_raw_connection()
        driver = self._driver = raw.driver_connection
        assert driver is not None
        statement = self._statements[fenced] = await driver.prepare(_FENCED if fenced else _PLAIN)
        return statement

    async def close(self, *, invalidate: bool = False) -> None:
        conn, self._conn, self._driver = self._conn, None, None
        self._statements.clear()
        if conn is None:
            return
        try:
            if invalidate:
                await conn.invalidate()
            await conn.close()
        except Exception:
            log.debug("closing the one-statement connection failed", exc_info=True)
