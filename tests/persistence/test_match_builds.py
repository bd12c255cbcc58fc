"""Finished matches' builds and the signing key are kept in the database (migration 0006), on
SQLite and on a real Postgres: a second server on the same database serves what the first
built, without building it again, and signs with the same key."""

from __future__ import annotations

import asyncio
import gzip
import json

import pytest
from sqlalchemy import select, update

from app.config import Settings
from app.engine.verify import verify
from app.persistence.builds import Built, SqlBuilds
from app.persistence.db import create_engine
from app.persistence.models import MatchRow
from app.persistence.players import FORMER_PLAYER
from app.persistence.store import SqlStore
from app.web.match_builds import MatchBuilds, Refused
from bench.abuse_matches import big_match_records

pytestmark = pytest.mark.slow  # each server's builds are made in worker processes: real processes


def settings() -> Settings:
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_two_servers_on_one_database_share_builds_and_key(db_url: str) -> None:
    async def scenario() -> None:
        first_store, second_store = SqlStore(create_engine(db_url)), SqlStore(create_engine(db_url))
        await first_store.write(*big_match_records("d1d1d1d1d1d1d1d1", "DBMATCH", seats=3, rounds=2, seed="db"))
        first, second = MatchBuilds(settings(), first_store), MatchBuilds(settings(), second_store)
        try:
            built = await first.get("d1d1d1d1d1d1d1d1", "export")
            assert first.builds["export"] == 1
            doc = json.loads(gzip.decompress(built.body))
            assert verify(doc) == ["round 1: fair", "round 2: fair"]
            again = await second.get("d1d1d1d1d1d1d1d1", "export")
            assert again == built and second.builds["export"] == 0  # read back, not rebuilt
            assert await first.signing_key() == await second.signing_key()
            try:
                await second.get("nosuchmatch", "replay")
            except Refused as err:
                assert (err.status, err.code) == (404, "no_match")
            else:
                raise AssertionError("an unknown match was built")
        finally:
            for builds, store in ((first, first_store), (second, second_store)):
                await builds.close()
                await store.stop()

    asyncio.run(scenario())


def test_a_build_named_before_a_player_was_deleted_is_stored_by_no_one(db_url: str) -> None:
    """A build carries the names it was made with: if a deletion renamed the match's players
    while it ran (and dropped the match's builds), storing it would bring the old name back, so
    ``put`` refuses it.  ``current`` tells a stored build from any other, by its ETag."""

    async def scenario() -> None:
        store = SqlStore(create_engine(db_url))
        await store.write(*big_match_records("d2d2d2d2d2d2d2d2", "DBNAMES", seats=3, rounds=1, seed="names"))
        kept = SqlBuilds(store.engine)
        try:
            async with store.engine.connect() as conn:
                names = (await conn.execute(select(MatchRow.players).where(MatchRow.id == "d2d2d2d2d2d2d2d2"))).scalar()
            assert isinstance(names, list) and len(names) == 3
            built = Built("a" * 64, 2, gzip.compress(b"{}"))
            renamed = [FORMER_PLAYER, *names[1:]]  # as deleting seat 0's player leaves them
            assert not await kept.put("d2d2d2d2d2d2d2d2", "export", built, [*names, "someone else"])
            async with store.engine.begin() as conn:
                await conn.execute(update(MatchRow).where(MatchRow.id == "d2d2d2d2d2d2d2d2").values(players=renamed))
            assert not await kept.put("d2d2d2d2d2d2d2d2", "export", built, names)  # made before the rename
            assert await kept.get("d2d2d2d2d2d2d2d2", "export") is None
            assert not await kept.current("d2d2d2d2d2d2d2d2", "export", built.etag)
            assert await kept.put("d2d2d2d2d2d2d2d2", "export", built, renamed)
            assert await kept.current("d2d2d2d2d2d2d2d2", "export", built.etag)
            assert not await kept.current("d2d2d2d2d2d2d2d2", "export", "b" * 64)
            assert not await kept.current("d2d2d2d2d2d2d2d2", "replay", built.etag)
        finally:
            await store.stop()

    asyncio.run(scenario())
