"""Composition root: wires settings, the store, the room registry and the routes."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.config import Settings, get_settings
from app.persistence import open_store
from app.rooms.actor import FrameObserver
from app.rooms.memory_store import InMemoryStore
from app.rooms.ports import Store
from app.rooms.registry import RoomRegistry
from app.transport import ws
from app.web import api, health, matches, pages

_TOKEN = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


def _redact(value: object) -> object:
    return _TOKEN.sub(r"\1[redacted]", value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Seat tokens may arrive in a WebSocket URL; uvicorn logs URLs.  Never let a token reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact(v) for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1[redacted]", record.msg)
        return True


def install_log_redaction() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "app"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def create_app(settings: Settings | None = None, store: Store | None = None,
               observer: FrameObserver | None = None) -> FastAPI:
    settings = settings or get_settings()
    if store is None:
        # DATABASE_URL=memory:// keeps nothing across restarts: for throwaway servers and benchmarks.
        store = InMemoryStore() if settings.database_url == "memory://" else open_store(settings)
    registry = RoomRegistry(settings, store, observer)
    install_log_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.start()  # the schema is migrated before any room is restored
        await registry.start()
        try:
            yield
        finally:
            await registry.stop()
            await store.stop()

    app = FastAPI(title="UNO server", version="0.1.0", lifespan=lifespan,
                  description="Real-time multiplayer UNO. The WebSocket protocol is in docs/PROTOCOL.md.")
    app.state.settings = settings
    app.state.registry = registry
    app.state.store = store
    app.include_router(health.router)
    app.include_router(api.router)
    app.include_router(matches.router)
    app.include_router(ws.router)
    pages.install(app)  # the HTML pages and /static
    return app


app = create_app()
