"""The game's WebSocket endpoint, ``/ws/rooms/{code}`` (the benchmark's ``/ws/echo`` is in echo.py).

Handshake: a browser's ``Origin`` must be the server's own or an allowed one (else HTTP 403).
Reader side: check each client frame's size and the socket's message rate (``limits.py``: too
big closes 1009, too fast 1008; control frames count too, checked by the protocol), parse it,
hand it to the room's inbox and wait until the room has processed it before reading the next —
one frame in flight per socket, so a flooding client only slows itself.  Writer side:
``Connection``.  Counters for ``/metrics``: ``metrics.py``.  The app reaches both endpoints
through ``serve_socket`` (not FastAPI's router: see there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time

from fastapi import WebSocket, WebSocketDisconnect
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.config import Settings
from app.rates import address_key
from app.rooms.actor import RoomActor
from app.rooms.errors import (
    CLOSE_BAD_TOKEN,
    CLOSE_NO_ROOM,
    CLOSE_RESTARTING,
    CLOSE_ROOM_CLOSED,
    CLOSE_SCREEN_REVOKED,
    CLOSE_TOO_MANY,
    CLOSE_TOO_MANY_WATCHING,
    RoomError,
)
from app.rooms.frames import dumps
from app.rooms.inbox import Command, Detach
from app.rooms.ports import Rate
from app.rooms.registry import RoomRegistry
from app.rooms.room_state import hash_token

from .connection import Connection
from .gate import ConnectionGate
from .limits import CLOSE_POLICY, CLOSE_TOO_BIG, SeatRates, SlidingWindow, frame_bytes, origin_allowed
from .messages import BadMessage, parse
from .metrics import Metrics
from .uvicorn_adapter import CONTROL_FRAME

log = logging.getLogger("app.transport")

SOCKETS = "sockets"  # what an address holds, in the registry's holdings
OPENS_WINDOW_S = 60.0  # UNO_SOCKET_OPENS_PER_MINUTE: a minute's window


def bearer_token(ws: WebSocket) -> str | None:
    token = ws.query_params.get("token")
    if token:
        return token
    auth = ws.headers.get("authorization", "")
    scheme, _, value = auth.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def last_seq(ws: WebSocket) -> int | None:
    raw = ws.query_params.get("last_seq")
    if raw is None or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def screen_key(ws: WebSocket) -> str | None:
    """``?screen=KEY``: the host's big-screen link (app/rooms/screen.py); ignored with a seat's token."""
    key = ws.query_params.get("screen")
    return key[:64] if key else None


def acks_in_patch(ws: WebSocket) -> bool:
    """``?acks=in_patch``: the client takes the ack of a command in the patch it caused (PROTOCOL.md)."""
    return ws.query_params.get("acks") == "in_patch"


def seat_rates(ws: WebSocket, settings: Settings) -> SeatRates:
    """The app's per-seat rate windows (made on first use, from the app's settings)."""
    state = ws.app.state
    rates: SeatRates | None = getattr(state, "seat_rates", None)
    if rates is None:
        rates = state.seat_rates = SeatRates(settings.socket_rate_messages, settings.socket_rate_window_s)
    return rates


def check_origin(ws: WebSocket, settings: Settings) -> bool:
    return origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.origins)


async def refuse(conn: Connection, code: int, error: str, message: str, reason: str) -> None:
    """A typed error frame, then close with ``code``; waits (briefly) until both have gone."""
    conn.offer(dumps({"type": "error", "id": None, "code": error, "message": message}))
    conn.close(code, reason)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(conn.writer), 2)


def owner_headers(registry: RoomRegistry, code: str) -> list[tuple[bytes, bytes]] | None:
    """With several nodes: which node serves this socket, and at which of the room's epochs
    (for operators and the cluster tests; clients need not read them)."""
    held = registry.tenancy.holder(code)
    if held is None:
        return None
    node, epoch = held
    return [(b"x-uno-node", node.encode()), (b"x-uno-epoch", str(epoch).encode())]


async def room_socket(ws: WebSocket, code: str) -> None:
    registry: RoomRegistry = ws.app.state.registry
    settings: Settings = ws.app.state.settings
    metrics: Metrics = ws.app.state.metrics
    if not check_origin(ws, settings):
        metrics.refuse("origin")
        log.info("refused a WebSocket from origin %.100r", ws.headers.get("origin"))
        await ws.close(CLOSE_POLICY)  # before accept: the handshake is refused with HTTP 403
        return
    address = address_key(ws.client.host) if ws.client is not None else ""  # an IPv6 client by its /64
    # A socket closed for flooding can simply open another: each costs a handshake and a
    # snapshot.  So sockets are opened at a bounded rate per address, refused before anything
    # is built for them (HTTP 429, the cheapest answer there is).  And one address holds a
    # bounded number of game sockets: each costs the server memory and every room it watches a
    # view per message.  Both counted in the registry's holdings: with several nodes, every
    # node's (app/cluster/holdings.py), in one ask.
    holdings = registry.holdings
    refusal = await holdings.take(SOCKETS, address, settings.sockets_per_address,
                                  Rate(settings.socket_opens_per_minute, OPENS_WINDOW_S))
    if refusal is not None and refusal.over == "rate":
        gate: ConnectionGate = ws.app.state.connection_gate
        gate.refused("socket_opens", f"refused a WebSocket from {address}: over "
                     f"{settings.socket_opens_per_minute} a minute")
        retry = max(1, math.ceil(refusal.wait))
        await ws.send_denial_response(Response(status_code=429, headers={"Retry-After": str(retry)}))
        return
    try:
        await ws.accept(headers=owner_headers(registry, code))
        if refusal is not None:
            metrics.refuse("sockets_per_address")
            log.info("refused a WebSocket: %d already open from one address (%d on this node)",
                     settings.sockets_per_address, holdings.held(SOCKETS, address))
            conn = Connection(ws, settings.send_queue_frames, max_chars=settings.send_queue_chars)
            await refuse(conn, CLOSE_TOO_MANY, "too_many_sockets",
                         f"At most {settings.sockets_per_address} connections from one address.", "too many sockets")
            await conn.aclose()
            return
        metrics.sockets += 1
        metrics.sockets_opened += 1
        try:
            await _serve(ws, code, registry, settings, metrics)
        finally:
            metrics.sockets -= 1
    finally:
        if refusal is None:
            holdings.give_back(SOCKETS, address)


async def _serve(ws: WebSocket, code: str, registry: RoomRegistry, settings: Settings, metrics: Metrics) -> None:
    # Unknown codes count against the address, as over HTTP: codes are not to be guessed here
    # either.  One count for both (app.main wires it: the MissLimit of app/web/address_limits.py).
    misses = ws.app.state.room_misses
    address = address_key(ws.client.host) if ws.client else "unknown"
    if misses.refused(address):
        await ws.close(CLOSE_POLICY, "too many unknown rooms")
        return
    actor = await registry.find(code)
    if actor is None:
        if await misses.record(address) > 0:  # past the limit, on the count of every node
            await ws.close(CLOSE_POLICY, "too many unknown rooms")
            return
        await ws.close(CLOSE_NO_ROOM, "no such room")
        return
    token = bearer_token(ws)
    seat_token = hash_token(token) if token else None
    rate = seat_rates(ws, settings).for_seat(seat_token)  # a reconnect does not reset a seat's rate
    # Control frames (pings, unsolicited pongs) count against the same window, from now on: the
    # protocol asks it for each one, and closes the socket with 1008 past it (uvicorn_adapter.py).
    extensions = ws.scope.get("extensions") or {}
    if CONTROL_FRAME in extensions:
        extensions[CONTROL_FRAME] = rate.allow
    conn = Connection(ws, settings.send_queue_frames, max_chars=settings.send_queue_chars)
    try:
        key = None if token else screen_key(ws)
        await actor.attach(conn, token, last_seq(ws), address, acks_in_patch(ws), key)
    except RoomError as err:
        if err.code == "too_many_watching":
            metrics.refuse("spectators_per_address")
        conn.offer(dumps({"type": "error", "id": None, "code": err.code, "message": err.message}))
        close = {"bad_token": CLOSE_BAD_TOKEN, "room_restarting": CLOSE_RESTARTING,
                 "too_many_spectators": CLOSE_TOO_MANY,
                 "too_many_watching": CLOSE_TOO_MANY_WATCHING,
                 "bad_screen_key": CLOSE_SCREEN_REVOKED}.get(err.code, CLOSE_ROOM_CLOSED)
        conn.close(close, err.message)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.writer, 2)
        return
    conn.reader = asyncio.current_task()
    try:
        await _read(ws, conn, actor, seat_token, rate, settings, metrics)
    except asyncio.CancelledError:
        if not conn.cut_off:
            raise
        # Cut off for not reading what it is sent (Connection.close): this task was cancelled
        # to stop waiting on a peer that may never send again.  Not a shutdown: carry on.
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
    except (WebSocketDisconnect, RoomError, RuntimeError):
        pass
    finally:
        actor.tell(Detach(conn))
        await conn.aclose()


async def _read(ws: WebSocket, conn: Connection, actor: RoomActor, seat_token: str | None, rate: SlidingWindow,
                settings: Settings, metrics: Metrics) -> None:
    """Each client frame in turn: size, rate, parse, then the room — one message in flight per socket."""
    loop = asyncio.get_running_loop()
    max_bytes = settings.message_max_bytes
    while True:
        frame = await ws.receive()
        received = time.perf_counter()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            raw = frame.get("bytes") or b""
            size = len(raw)
            text = raw.decode("utf-8", "replace") if size <= max_bytes else ""
        else:
            size = len(text) if len(text) * 4 <= max_bytes else frame_bytes(text)
        # Size before anything else: nothing larger is ever parsed.
        if size > max_bytes:
            metrics.refuse("frame_too_large")
            log.info("room %s: closing a socket that sent a %d-byte frame", actor.code, size)
            await refuse(conn, CLOSE_TOO_BIG, "too_large", f"Messages are limited to {max_bytes} bytes.",
                         "message too big")
            return
        if not rate.allow():
            metrics.refuse("socket_rate")
            log.info("room %s: closing a socket over the message rate", actor.code)
            window = settings.socket_rate_window_s
            await refuse(conn, CLOSE_POLICY, "rate_limited",
                         f"Too many messages: at most {settings.socket_rate_messages} per {window:g} s.",
                         "rate limit exceeded")
            return
        try:
            msg = parse(text, max_bytes)
        except BadMessage as err:
            metrics.messages["invalid"] += 1
            conn.offer(dumps({"type": "error", "id": err.id, "code": err.code, "message": err.message}))
            continue
        metrics.messages[msg.type] += 1
        done: asyncio.Future[None] = loop.create_future()
        actor.tell(Command(conn, seat_token, msg, done))
        await done
        if msg.type == "action":
            metrics.actions += 1
            metrics.action_seconds.observe(time.perf_counter() - received)


# ---------------------------------------------------------------------- the sockets' own entrance


_ROOM_PREFIX = "/ws/rooms/"


async def serve_socket(app: Starlette, scope: Scope, receive: Receive, send: Send) -> bool:
    """Take a game WebSocket straight to its endpoint; False for anything else.

    A socket lives for hours, and whatever wraps its handler lives as long: FastAPI's stack of
    middleware and routing layers cost each socket about twenty suspended coroutines and a
    wrapper around every frame sent.  None of them does anything for a socket (its checks
    are the endpoint's own), so the app sends these paths here first (``UnoApp``), and they
    are not registered with FastAPI's router at all.
    """
    if scope["type"] != "websocket":
        return False
    path: str = scope["path"]
    if path.startswith(_ROOM_PREFIX) and "/" not in path[len(_ROOM_PREFIX):] and len(path) > len(_ROOM_PREFIX):
        scope["app"] = app
        await room_socket(WebSocket(scope, receive, send), path[len(_ROOM_PREFIX):])
        return True
    return False
