"""Where finished matches' built documents and the server's signing key are kept.

``SqlBuilds`` keeps them in the database (``match_builds``, ``server_keys``), so that every
node of a cluster serves the same bytes and signs with the same key; ``MemoryBuilds`` is its
in-memory twin, for the in-memory store.  A build is written at most once: a second writer
(another node that built the same match at the same moment) leaves the first one's row, and
both documents are the same anyway but for nothing (a finished match never changes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from sqlalchemy import bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from .models import MatchBuildRow, MatchRow, ServerKeyRow

# Built once, bound when it runs (as players.py's statements are): the primary key's index finds it.
_CURRENT = select(MatchBuildRow.etag).where(
    MatchBuildRow.match_id == bindparam("match_id"), MatchBuildRow.kind == bindparam("kind"),
    MatchBuildRow.etag == bindparam("etag"))
_NAMES_HELD = select(MatchRow.players).where(MatchRow.id == bindparam("match_id")).with_for_update(read=True)


class Built(NamedTuple):
    etag: str  # SHA-256 hex of the uncompressed document
    size: int  # its length, uncompressed
    body: bytes  # gzipped


class BuildStore(Protocol):
    async def status(self, match_id: str) -> tuple[str, str] | None:
        """The match's status (playing, over, abandoned) and its room's code, None if there is no
        such match: one small read, made before anything is built."""
        ...

    async def get(self, match_id: str, kind: str) -> Built | None: ...

    async def current(self, match_id: str, kind: str, etag: str) -> bool:
        """Is the build of this ``etag`` still the stored one?  One read by the table's primary
        key, made before a copy held in memory is served: deleting a player drops the builds that
        name them (``players.py``), and every node's copies with them."""
        ...

    async def put(self, match_id: str, kind: str, built: Built, players: list[str]) -> bool:
        """Store ``built``, made with these ``players``' names, unless the match's names have
        changed since (a player deleted themselves while it was built: the deletion has dropped
        the match's builds already, and this one must not come back with the old name).  False
        when it was not stored so."""
        ...

    async def signing_key(self, name: str, algorithm: str, make: Callable[[], bytes]) -> bytes:
        """The private key named ``name``; made with ``make`` and stored the first time."""
        ...


class SqlBuilds:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    async def status(self, match_id: str) -> tuple[str, str] | None:
        async with self.engine.connect() as conn:
            query = select(MatchRow.status, MatchRow.room_code).where(MatchRow.id == match_id)
            row = (await conn.execute(query)).first()
        return (row.status, row.room_code) if row is not None else None

    async def get(self, match_id: str, kind: str) -> Built | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(MatchBuildRow.etag, MatchBuildRow.size, MatchBuildRow.body)
                                      .where(MatchBuildRow.match_id == match_id, MatchBuildRow.kind == kind))).first()
        return Built(row.etag, row.size, bytes(row.body)) if row is not None else None

    async def current(self, match_id: str, kind: str, etag: str) -> bool:
        async with self.engine.connect() as conn:
            found = (await conn.execute(_CURRENT, {"match_id": match_id, "kind": kind, "etag": etag})).first()
        return found is not None

    async def put(self, match_id: str, kind: str, built: Built, players: list[str]) -> bool:
        stmt = self.insert(MatchBuildRow).values(match_id=match_id, kind=kind, etag=built.etag, size=built.size,
                                                 body=built.body)
        async with self.engine.begin() as conn:
            # The match's row held shared until this commits: a deletion renaming its players
            # waits for it and then drops this build; one that renamed them first is seen here.
            names = (await conn.execute(_NAMES_HELD, {"match_id": match_id})).scalar()
            if names != players:
                return False
            await conn.execute(stmt.on_conflict_do_nothing(index_elements=["match_id", "kind"]))
        return True

    async def signing_key(self, name: str, algorithm: str, make: Callable[[], bytes]) -> bytes:
        query = select(ServerKeyRow.private_key).where(ServerKeyRow.name == name)
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).scalar()
        if found is None:
            # Two nodes starting at once: the first insert wins, and both read the winner's key.
            stmt = self.insert(ServerKeyRow).values(name=name, algorithm=algorithm, private_key=make())
            async with self.engine.begin() as conn:
                await conn.execute(stmt.on_conflict_do_nothing(index_elements=["name"]))
                found = (await conn.execute(query)).scalar_one()
        return bytes(found)


class MemoryBuilds:
    """As ``SqlBuilds``, for a server that keeps nothing across restarts (``DATABASE_URL=memory://``)."""

    def __init__(self, store: Any) -> None:
        self.store = store  # the in-memory store (app/rooms/memory_store.py)
        self.builds: dict[tuple[str, str], Built] = {}
        self.keys: dict[str, bytes] = {}

    async def status(self, match_id: str) -> tuple[str, str] | None:
        found = await self.store.match_export(match_id)  # in memory: no read to speak of
        return (str(found["status"]), str(found["room"])) if found is not None else None

    async def get(self, match_id: str, kind: str) -> Built | None:
        return self.builds.get((match_id, kind))

    async def current(self, match_id: str, kind: str, etag: str) -> bool:
        held = self.builds.get((match_id, kind))
        return held is not None and held.etag == etag

    async def put(self, match_id: str, kind: str, built: Built, players: list[str]) -> bool:
        self.builds.setdefault((match_id, kind), built)
        return True  # without a database there are no players to delete: names never change

    async def signing_key(self, name: str, algorithm: str, make: Callable[[], bytes]) -> bytes:
        if name not in self.keys:
            self.keys[name] = make()
        return self.keys[name]
