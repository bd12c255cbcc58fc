"""SQL persistence: SQLAlchemy 2 models, Alembic migrations, and a group-committing store."""

from __future__ import annotations

from app.config import Settings

from .db import create_engine, resolve_url
from .store import SqlStore


def open_store(settings: Settings) -> SqlStore:
    """The store the settings ask for; it migrates the schema when started."""
    url = resolve_url(settings.database_url, settings.data_dir, create=False)
    engine = create_engine(url, pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow)
    return SqlStore(engine, migrate_url=url)


__all__ = ["SqlStore", "open_store"]
