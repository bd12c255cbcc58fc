"""Throwaway Postgres databases for the benchmarks' runs, made on ``BENCH_POSTGRES_URL``'s
server (by default postgresql://postgres@127.0.0.1:5432/postgres) and dropped afterwards:

- ``postgres_database`` / ``drop_postgres_database``: bench/load.py's durable run, skipped
  (``None``, said on stderr) when no Postgres answers;
- ``fresh_database``: bench/cluster.py's, one per part and per load run, so that no run
  restores and plays an earlier one's rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
from collections.abc import Iterator

import asyncpg  # the app's own driver

ADMIN = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


async def execute(admin: str, *statements: str) -> None:
    """Each statement in turn, on one connection to the admin database."""
    conn = await asyncpg.connect(admin, timeout=5)
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


def postgres_database() -> tuple[str, str] | None:
    """A fresh Postgres database for the durable run (admin URL, database URL), if one answers."""
    name = f"uno_bench_{os.getpid()}"
    try:
        asyncio.run(execute(ADMIN, f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        print(f"no Postgres for the durable run: {err}", file=sys.stderr)
        return None
    return ADMIN, ADMIN.rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(admin: str, url: str) -> None:
    asyncio.run(execute(admin, f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """A new database for this run, dropped at the end whatever happens."""
    name = f"uno_bench_{secrets.token_hex(4)}"
    asyncio.run(execute(ADMIN, f'CREATE DATABASE "{name}"'))
    try:
        yield ADMIN.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(execute(ADMIN, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
