"""Migration 0007 (the players' tables) on SQLite and Postgres: up from 0006 with matches
stored, down again, and up once more; the models agree with it (tests/persistence/test_store.py)."""

from __future__ import annotations

import asyncio

from alembic import command
from sqlalchemy import inspect

from app.persistence.db import alembic_config, create_engine
from tests.persistence.conftest import db_url, postgres_url  # noqa: F401  (fixtures)

PLAYER_TABLES = {"players", "player_keys", "player_seats", "player_codes", "settled_matches", "player_matches",
                 "player_ratings"}


def tables(url: str) -> set[str]:
    async def read() -> set[str]:
        engine = create_engine(url)
        try:
            async with engine.connect() as conn:
                return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
        finally:
            await engine.dispose()

    return asyncio.run(read())


def test_0007_goes_up_and_down_on_both_databases(db_url: str) -> None:  # noqa: F811
    assert tables(db_url) >= PLAYER_TABLES  # db_url is migrated to the head
    command.downgrade(alembic_config(db_url), "0006_match_builds")
    left = tables(db_url)
    assert not PLAYER_TABLES & left and {"matches", "rooms", "match_builds"} <= left
    command.upgrade(alembic_config(db_url), "head")
    assert tables(db_url) >= PLAYER_TABLES
