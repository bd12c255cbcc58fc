"""Composition root: wires settings, the store, the room registry and the routes."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import IO, Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.types import Receive, Scope, Send

from app import gc_policy
from app.cluster.node import ClusterNode, node_address
from app.cluster.routing import route
from app.config import Settings, get_settings
from app.persistence import SqlStore, open_store
from app.persistence.board import Ranking
from app.persistence.farm_guard import FarmGuard
from app.persistence.fencing import Fence
from app.persistence.player_reads import PlayerReads
from app.persistence.players import PlayerStore
from app.persistence.remembering import RememberingStore
from app.persistence.settle import Settler
from app.rooms.clock import REAL_CLOCK, Clock
from app.rooms.memory_store import InMemoryStore
from app.rooms.ports import Store
from app.rooms.registry import RoomRegistry
from app.rooms.stream import FrameObserver
from app.transport import echo, ws
from app.transport.accept import Loop
from app.transport.gate import GATE, ConnectionGate
from app.transport.loop_lag import LoopLag
from app.transport.metrics import Metrics
from app.web import (
    api,
    health,
    house_rules,
    matches,
    metrics,
    pages,
    player_pages,
    players,
    pwa,
    rules,
    screen_links,
)
from app.web.address_limits import AddressRateLimit, MissLimit
from app.web.body_limit import BodyLimit
from app.web.budget import RequestBudget
from app.web.download_budget import DownloadBudget
from app.web.headers import SecurityHeaders
from app.web.identity import Players
from app.web.invite import QrCodes
from app.web.limits import SharedWindows
from app.web.match_builds import MatchBuilds
from app.web.new_players import NewPlayers
from app.web.validation_errors import validation_error

log = logging.getLogger("app")

# "token=" as a URL may spell it: a query parameter's name is percent-decoded before it is
# read, so "?%74oken=" authenticates like "?token=" and must be redacted like it.
_NAME = r"(?:t|%74|%54)(?:o|%6f|%4f)(?:k|%6b|%4b)(?:e|%65|%45)(?:n|%6e|%4e)="
_TOKEN = re.compile(rf"({_NAME})[^&\s\"']+", re.IGNORECASE)
_UNREDACTED = re.compile(rf"{_NAME}(?!\[redacted\])[^&\s\"']", re.IGNORECASE)


def _redact(value: object) -> object:
    return _TOKEN.sub(r"\1[redacted]", value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """Seat tokens may arrive in a WebSocket URL; uvicorn logs URLs.  Never let a token reach a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact(v) for k, v in record.args.items()}
        if not record.args:
            record.msg = _redact(record.msg)
            return True
        try:
            text = record.getMessage()
        except Exception:  # a malformed record: logging itself reports it
            return True
        if _UNREDACTED.search(text):  # e.g. "token=%s" with the token as an argument
            record.msg, record.args = _redact(text), None
        return True


def install_log_redaction() -> None:
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "app"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


class JsonFormatter(logging.Formatter):
    """One JSON object per line (``UNO_LOG_JSON=1``): time, level, logger, message, and for
    uvicorn's access log the request's parts as fields.  Tokens are redacted here too."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": _TOKEN.sub(r"\1[redacted]", record.getMessage()),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, version, status = record.args
            out.update(client=client, method=method, path=_redact(path), http=version, status=status)
        if record.exc_info:
            out["exc"] = _TOKEN.sub(r"\1[redacted]", self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


class PlainHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The app's own stderr handler (a class of its own, so it is found and never added twice)."""


def install_plain_logs(stream: IO[str] | None = None) -> logging.Handler | None:
    """Plain text lines on stderr for the app's loggers, INFO and up (or at uvicorn's ``--log-level``).

    uvicorn configures only its own loggers: without a handler, the ``app.*`` lines that
    docs/OPERATIONS.md says to watch (limits hit, sockets cut off, rooms that failed to
    restore) were dropped below WARNING, and shown without time or logger above it.  Nothing
    is added when logging was configured already (a root handler, e.g. uvicorn's
    ``--log-config``, or pytest's), so no line is printed twice.
    """
    app_logger = logging.getLogger("app")
    if app_logger.level == logging.NOTSET:
        # uvicorn's --log-level, when uvicorn runs the app (it configures its loggers first).
        app_logger.setLevel(logging.getLogger("uvicorn.error").level or logging.INFO)
    if app_logger.handlers or logging.getLogger().handlers:
        return None
    handler = PlainHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactTokens())
    app_logger.addHandler(handler)
    return handler


def install_json_logs(stream: IO[str] | None = None) -> logging.Handler:
    """JSON lines for the app's loggers and uvicorn's (whose handlers it configured already)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactTokens())
    app_logger = logging.getLogger("app")
    app_logger.handlers = [h for h in app_logger.handlers
                           if not isinstance(h.formatter, JsonFormatter) and not isinstance(h, PlainHandler)]
    app_logger.addHandler(handler)
    app_logger.setLevel(logging.INFO)
    app_logger.propagate = False
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        for h in logging.getLogger(name).handlers:
            h.setFormatter(JsonFormatter())
            if not any(isinstance(f, RedactTokens) for f in h.filters):
                h.addFilter(RedactTokens())
    return handler


class UnoApp(FastAPI):
    """FastAPI, with the game's WebSockets taken straight to their endpoints (``ws.serve_socket``)."""

    node: ClusterNode | None = None  # one node of several: a room's traffic goes to its owner
    # Other WebSocket paths served the same way (the benchmark's /ws/echo, when asked for).
    sockets: dict[str, Callable[[Scope, Receive, Send], Awaitable[None]]]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.node is not None and await route(self.node, scope, receive, send):
            return
        if await ws.serve_socket(self, scope, receive, send):
            return
        extra = self.sockets.get(scope["path"]) if scope["type"] == "websocket" else None
        if extra is not None:
            scope["app"] = self
            await extra(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def join_cluster(settings: Settings, store: Store, registry: RoomRegistry) -> ClusterNode:
    """Make this process one node of several sharing the database (docs/SCALING.md)."""
    if not isinstance(store, SqlStore) or store.engine.dialect.name != "postgresql":
        raise RuntimeError("UNO_CLUSTER needs a Postgres DATABASE_URL: the nodes share it")
    store.fence = Fence(ClusterNode.new_id(settings))
    node = ClusterNode(settings, store.engine, registry, store.fence, node_address(settings, settings.port))
    registry.tenancy = node
    registry.holdings = node.holdings  # sockets and rooms per address, over every live node
    return node


def create_app(settings: Settings | None = None, store: Store | None = None,
               observer: FrameObserver | None = None, clock: Clock = REAL_CLOCK) -> FastAPI:
    """The app; ``clock`` is the rooms' time (app/rooms/clock.py): a test may bring one it moves itself."""
    settings = settings or get_settings()
    if store is None:
        # DATABASE_URL=memory:// keeps nothing across restarts: for throwaway servers and benchmarks.
        store = InMemoryStore() if settings.database_url == "memory://" else open_store(settings)
    # Players are remembered in the SQL store's database (app/web/identity.py); not in memory.
    guard = FarmGuard(instant_share=settings.rating_instant_share, rated_after=settings.rating_after_matches,
                      first_day_rated=settings.rating_first_day_matches,
                      pair_limit=settings.rating_pair_limit)
    ranking = Ranking(settings.leaderboard_min_matches, settings.leaderboard_min_opponents)
    remembered = Players(PlayerStore(store.engine, ranking), PlayerReads(store.engine),
                         Settler(store.engine, ranking, guard)) if isinstance(store, SqlStore) else None
    rooms_store: Store = RememberingStore(store, remembered.settler) \
        if isinstance(store, SqlStore) and remembered is not None else store
    registry = RoomRegistry(settings, rooms_store, observer, clock)
    node = join_cluster(settings, store, registry) if settings.cluster else None
    install_log_redaction()
    if os.environ.get("UNO_LOG_JSON", "").lower() in ("1", "true", "yes"):
        install_json_logs()
    else:
        install_plain_logs()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        if not isinstance(asyncio.get_running_loop(), Loop):
            log.warning("the server was not started with its protections (connection limits, timeouts, frame "
                        "bounds): start it with 'python -m app serve' (docs/OPERATIONS.md)")
        await rooms_store.start()  # the schema is migrated before any room is restored
        collector = None
        if settings.gc_full_seconds > 0:  # full collections on a timer, not whenever the heap grows
            # Frozen before the rooms are restored: those change and die, and count toward the heap a pass walks.
            gc_policy.tune()
        await registry.start()
        app.state.qr_codes.start()  # the invite QR codes' worker process (app/web/invite.py)
        if settings.gc_full_seconds > 0:
            collector = asyncio.create_task(gc_policy.full_collections(settings.gc_full_seconds,
                                                                        settings.gc_ceiling_mib << 20))
        lag_watch = asyncio.create_task(app.state.loop_lag.watch())
        try:
            yield {GATE: app.state.connection_gate}  # uvicorn hands it to each connection's protocol
        finally:
            lag_watch.cancel()
            if collector is not None:
                collector.cancel()
            await registry.stop()
            await app.state.match_builds.close()
            await rooms_store.stop()
            app.state.qr_codes.close()

    app = UnoApp(title="UNO server", version="0.1.0", lifespan=lifespan,
                  description="Real-time multiplayer UNO. The WebSocket protocol is in docs/PROTOCOL.md.")
    app.node = node
    app.sockets = {echo.PATH: echo.serve_echo} if settings.echo_endpoint else {}
    app.state.settings = settings
    app.state.registry = registry
    app.state.node = node  # for /metrics
    app.state.store = store
    app.state.players = remembered
    app.state.metrics = counters = Metrics()
    app.state.loop_lag = LoopLag()
    app.state.lobby_pages = api.PageCache()  # GET /api/rooms: each page made once per list
    app.state.connection_gate = ConnectionGate(settings, counters)  # app/transport/gate.py
    app.state.echo_groups = {}  # /ws/echo?group=: the benchmark's relay baseline (app/transport/echo.py)
    app.state.match_builds = MatchBuilds(settings, store)  # finished matches' exports, replays
    app.state.match_downloads = DownloadBudget.of(settings)  # ... and how many are sent at once, how fast
    # With several nodes the per-address rates are counted by all of them together (app/cluster/rates.py).
    def shared() -> SharedWindows | None:
        return node.rates if node is not None else None

    app.state.room_misses = MissLimit(settings.room_misses_per_minute, on_refuse=counters.refuse, shared=shared)
    app.state.qr_codes = QrCodes()  # app/web/invite.py
    app.state.new_players = NewPlayers(settings.new_players_per_hour, shared=shared)  # per address, per hour
    # Limits (app/web/body_limit.py, address_limits.py); the last added runs first: per-address
    # rates, then body size.
    app.add_middleware(BodyLimit, max_bytes=settings.http_body_max_bytes, on_refuse=counters.refuse)
    app.add_middleware(AddressRateLimit, create_per_minute=settings.create_rooms_per_minute,
                       joins_per_minute=settings.joins_per_minute, lists_per_minute=settings.room_lists_per_minute,
                       on_refuse=counters.refuse, shared=shared, qr_per_minute=settings.qr_per_minute,
                       more=[("POST", players.CODE_PATH, settings.player_codes_per_minute, "player codes", "pcode"),
                             ("POST", players.CLAIM_PATH, settings.player_claims_per_minute, "player codes tried",
                              "pclaim"),
                             ("POST", players.BECOME_PATH, settings.create_rooms_per_minute, "new players",
                              "player"),
                             ("PATCH", players.BECOME_PATH, settings.create_rooms_per_minute, "renames",
                              "rename")],
                       match_downloads_per_minute=settings.match_downloads_per_minute,
                       player_reads=(players.READ_PATH, settings.player_reads_per_minute))
    # Before the others: the cheapest refusal, for a flood of any request at all (app/web/budget.py).
    app.add_middleware(RequestBudget, per_minute=settings.http_requests_per_minute,
                       burst=settings.http_requests_burst, on_refuse=counters.refuse)
    app.add_middleware(SecurityHeaders)  # outermost: the limits' refusals carry the headers too
    app.add_exception_handler(RequestValidationError, validation_error)
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(api.router)
    app.include_router(screen_links.router)
    app.include_router(house_rules.router)
    app.include_router(rules.router)
    app.include_router(matches.router)
    app.include_router(players.router)
    app.include_router(player_pages.router)
    app.include_router(pwa.router)  # the manifest, the service worker and the offline page
    pages.install(app)  # the HTML pages and /static
    return app


def __getattr__(name: str) -> object:
    # ``uvicorn app.main:app`` would run the server without its protections (app/server.py): there
    # is no module-level app to run that way.
    if name == "app":
        raise AttributeError("app.main has no 'app': start the server with 'python -m app serve' "
                             "(or build one with create_app())")
    raise AttributeError(f"module 'app.main' has no attribute {name!r}")
