"""Database URLs, engines and migrations.

``DATABASE_URL`` picks the database.  Unset, the server keeps an embedded SQLite file in
its data directory, created on first run.  ``postgres://`` and ``postgresql://`` URLs are
driven by asyncpg.  The schema only ever comes from the Alembic migrations.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

ROOT = Path(__file__).resolve().parents[2]


def resolve_url(database_url: str | None, data_dir: str | Path, *, create: bool = True) -> str:
    """The async SQLAlchemy URL for a setting (None: the embedded SQLite file, its folder made)."""
    if not database_url:
        path = Path(data_dir).resolve()
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{path / 'uno.sqlite3'}"
    url = make_url(database_url)
    if url.drivername in ("postgres", "postgresql", "postgresql+psycopg2"):
        url = url.set(drivername="postgresql+asyncpg")
    elif url.drivername == "sqlite":
        url = url.set(drivername="sqlite+aiosqlite")
    return url.render_as_string(hide_password=False)


def is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str, *, pool_size: int = 5, max_overflow: int = 5) -> AsyncEngine:
    """An engine with a bounded pool: connections are borrowed per write batch, never held by sockets."""
    if is_sqlite(url):
        engine = create_async_engine(url)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: object, _record: object) -> None:
            cursor = dbapi_conn.cursor()  # type: ignore[attr-defined]
            # WAL: readers never block the writer.  NORMAL sync survives a process crash
            # (what we promise: SIGKILL loses nothing acknowledged); foreign keys enforced.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No pre-ping: it would cost every checkout (every group commit) a round trip of its own.
    # A connection the database dropped fails its first statement instead; SQLAlchemy then
    # invalidates the whole pool, and the store's writer and the cluster's loops try again.
    return create_async_engine(url, pool_size=pool_size, max_overflow=max_overflow, pool_timeout=10)


def alembic_config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Bring the schema to the newest migration (making an SQLite file's folder first).

    Blocking: call it in a thread from async code.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), "head")
