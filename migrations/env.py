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

# Tables a migration fills in bulk (0010: the leaderboard's standings and rated pairs).  Postgres
# reads a page of the board from its index alone only once VACUUM has marked the table's pages
# all-visible; until autovacuum comes round (a minute or more) every page and count read the
# table too, several times slower.  VACUUM cannot run inside the migration's transaction, and
# leaving that transaction early would let go of the lock below before the version row is written.
BULK_FILLED = ("player_standings", "rated_opponents")
# A migration that rewrites many rows of a table already vacuumed asks for it again by name:
# ``op.get_context().config.attributes["vacuum"]`` (0012: the standings' unrated counts).
ASKED = "vacuum"


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
    _vacuum_bulk_filled(connection)


def _vacuum_bulk_filled(connection: Connection) -> None:
    """After the migrations' transaction (the lock let go, the version written): vacuum the bulk-filled
    tables that were never vacuumed, once, and those a migration of this run asked for.  Two nodes
    doing it together is harmless (one waits)."""
    if connection.dialect.name != "postgresql":
        return
    connection.commit()  # end the transaction a read on this connection may have begun
    auto = connection.execution_options(isolation_level="AUTOCOMMIT")
    never = auto.execute(text("SELECT relname FROM pg_stat_user_tables WHERE relname = ANY(:names) "
                              "AND last_vacuum IS NULL AND last_autovacuum IS NULL"),
                         {"names": list(BULK_FILLED)}).scalars().all()
    asked = set(config.attributes.get(ASKED, ())) & set(BULK_FILLED)
    for name in sorted(set(never) | asked):
        auto.execute(text(f'VACUUM ANALYZE "{name}"'))


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
