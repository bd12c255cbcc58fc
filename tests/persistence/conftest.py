"""Databases for the persistence tests: a temporary SQLite file, and a real Postgres.

Postgres: ``TEST_DATABASE_URL`` when set, else the server on 127.0.0.1:5432 when it
answers.  Each run creates its own database (a unique name) and drops it afterwards.
Where no Postgres answers the Postgres tests skip — unless ``UNO_REQUIRE_POSTGRES`` is
set (CI sets it), which turns the skip into a failure.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from app.persistence.db import resolve_url, upgrade

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def _admin_dsn() -> str:
    url = make_url(os.environ.get("TEST_DATABASE_URL") or DEFAULT_ADMIN_URL)
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(_admin_dsn(), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh Postgres database for this test run, dropped at the end."""
    name = f"uno_test_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        if os.environ.get("UNO_REQUIRE_POSTGRES"):
            pytest.fail(f"Postgres is required here (UNO_REQUIRE_POSTGRES) but unreachable: {err}")
        pytest.skip(f"no Postgres to test against: {err}")
    url = make_url(_admin_dsn()).set(database=name).render_as_string(hide_password=False)
    try:
        yield resolve_url(url, ".")
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return resolve_url(None, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test runs on both databases, on a freshly migrated schema."""
    if request.param == "sqlite":
        url = resolve_url(None, tmp_path)
    else:
        url = request.getfixturevalue("postgres_url")
        asyncio.run(_reset(url))
    upgrade(url)
    return url


async def _reset(url: str) -> None:
    """Empty the run's Postgres database so each test starts from nothing."""
    conn = await asyncpg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> str:
    """The run's Postgres database, emptied: whoever uses it applies the migrations."""
    asyncio.run(_reset(postgres_url))
    return postgres_url
