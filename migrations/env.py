"""Alembic environment: runs migrations over the app's async engine."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.persistence.db import create_engine, resolve_url
from app.persistence.schema import metadata

config = context.config
target_metadata = metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    return url or resolve_url(os.environ.get("DATABASE_URL"), os.environ.get("UNO_DATA_DIR", "data"))


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several nodes starting together migrate one at a time: the others wait here, then
            # find the schema up to date.  The lock ends with the transaction.
            connection.execute(text("SELECT pg_advisory_xact_lock(7305917)"))
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
