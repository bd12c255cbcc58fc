"""HTTP limits as small pure-ASGI middlewares: request body size, and per-address rates for
creating rooms, taking seats and listing rooms.  Refusals use the API's error shape:
``{"detail": {"code": ..., "message": ...}}``.  And a 422 handler that survives any input.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.rates import Windows, address_key

log = logging.getLogger("app.web")

Refused = Callable[[str], None]  # told the reason whenever a limit refuses something (metrics)


class SharedWindows(Protocol):
    """Windows every node of a cluster counts in at once (app/cluster/rates.py)."""

    async def hit(self, kind: str, address: str, limit: int, window: float) -> float: ...


# With several nodes, where the app finds them (None: one server, its own windows count).
Shared = Callable[[], SharedWindows | None]


# Addresses remembered per limit; past this the least recently seen are forgotten (memory stays bounded).
MAX_TRACKED_ADDRESSES = 50_000
RATE_WINDOW_S = 60.0  # the limits are "per minute"
# Requests one address may make at once, of the read floods (room lists, match downloads):
# their per-minute rate holds over shorter windows.  A sliding window of a minute let an address
# spend its minute at once: 40 addresses doing so the moment a build came out made some 2,000
# match downloads reach the route together (each refused busy, about a millisecond of the loop
# apiece), 4 addresses 480 lists, and an honest room's p99 went from ~30 ms to 80-240 ms
# (bench/abuse.py export_flood, rooms_list_flood).
BURST = 10
BURST_WINDOW_S = 10.0  # ... counted over no shorter window (the cluster's shared count is per second)


def burst_window(per_minute: int) -> tuple[int, float]:
    """``per_minute`` requests as (at most this many, in any this many seconds): the same rate, in
    bursts of at most ``BURST`` over at least ``BURST_WINDOW_S`` (a limit of ``BURST`` or less:
    over the minute, as before; above 60: a sixth of it in any 10 s)."""
    if per_minute <= 0:
        return 0, RATE_WINDOW_S
    seconds = min(RATE_WINDOW_S, max(BURST_WINDOW_S, RATE_WINDOW_S * BURST / per_minute))
    return max(1, round(per_minute * seconds / RATE_WINDOW_S)), seconds


def burst_limit(per_minute: int, what: str) -> tuple[Window, str]:
    """A ``burst_window`` limit, and its words for a refusal."""
    limit, seconds = burst_window(per_minute)
    return Window(limit, seconds), f"at most {limit} {what} " + (
        "a minute" if seconds == RATE_WINDOW_S else f"in {seconds:.0f} s")


async def send_error(send: Send, status: int, code: str, message: str,
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": {"code": code, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value)
    return None


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, by ``Content-Length`` or by counting.

    A body is read (at most ``max_bytes``) before the app sees it, then handed over whole;
    requests without a body pass straight through.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, on_refuse: Refused | None = None) -> None:
        self.app, self.max_bytes, self.on_refuse = app, max_bytes, on_refuse

    async def refuse(self, send: Send) -> None:
        if self.on_refuse is not None:
            self.on_refuse("body_too_large")
        await send_error(send, 413, "body_too_large", f"Request bodies are limited to {self.max_bytes} bytes.",
                         [(b"connection", b"close")])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding")
        if length is None and chunked is None:
            await self.app(scope, receive, send)
            return
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared > self.max_bytes:
                await self.refuse(send)
                return
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self.refuse(send)
                return
            parts.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(parts), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class Window:
    """A sliding window of request times per client address (app/rates.py), for a bounded number
    of addresses, and which of them have been refused since they were last allowed."""

    def __init__(self, limit: int, window: float = RATE_WINDOW_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window = limit, window
        self.seen = Windows(limit, window, MAX_TRACKED_ADDRESSES, clock)
        self.refused: dict[str, bool] = {}  # addresses refused since they were last allowed

    def hit(self, address: str) -> float:
        """Count one request; 0 when allowed, else the seconds until the next one would be."""
        wait = self.seen.hit(address)
        if wait <= 0.0:
            self.refused.pop(address, None)
        return wait

    def wait(self, address: str) -> float:
        """As ``hit``, but counts nothing: 0 when a request would be allowed now."""
        return self.seen.wait(address)

    def first_refusal(self, address: str) -> bool:
        """True for the first refusal of an address since it was last allowed: what is logged,
        so that a flood of refused requests is one log line, not a flood of them."""
        if address in self.refused:
            return False
        if len(self.refused) >= MAX_TRACKED_ADDRESSES:
            del self.refused[next(iter(self.refused))]
        self.refused[address] = True
        return True


def client_address(scope: Scope) -> str:
    """The peer's address as the server sees it (a proxy's forwarded one only when trusted: see
    docs/OPERATIONS.md, "Behind a reverse proxy")."""
    client: Any = scope.get("client")
    return str(client[0]) if client else "unknown"


def limited_address(scope: Scope) -> str:
    """What the per-address limits count a request under: its client address, an IPv6 one by its /64."""
    return address_key(client_address(scope))


async def refuse_rate(send: Send, wait: float, words: str) -> None:
    retry = max(1, math.ceil(wait))
    await send_error(send, 429, "rate_limited", f"Too many requests from your address: {words}. "
                     f"Try again in {retry} s.", [(b"retry-after", str(retry).encode())])


class MissLimit:
    """Room codes asked for that don't exist, per client address (HTTP and WebSocket alike).

    A room's code is its only lock for spectators and joins; past ``per_minute`` misses an
    address has every room lookup refused until its window frees up, so codes cannot be
    guessed at speed.  Asking for rooms that exist costs nothing.
    """

    def __init__(self, per_minute: int, on_refuse: Refused | None = None, shared: Shared | None = None) -> None:
        self.window, self.per_minute, self.on_refuse = Window(per_minute), per_minute, on_refuse
        self.shared = shared
        # With several nodes: addresses the shared count refused, until when (monotonic).
        self.blocked: dict[str, float] = {}

    def refused(self, address: str) -> float:
        """Seconds the address must wait before it looks a room up again (0: go ahead);
        a refusal is counted, and the first one in a row is logged."""
        wait = self.window.wait(address)
        until = self.blocked.get(address)
        if until is not None:
            wait = max(wait, until - time.monotonic())
            if wait <= 0:
                del self.blocked[address]
        if wait > 0:
            if self.on_refuse is not None:
                self.on_refuse("room_misses")
            if self.window.first_refusal(address):
                log.info("refusing room lookups from %s: over %d unknown room codes a minute", address,
                         self.per_minute)
        return wait

    def miss(self, address: str) -> None:
        self.window.hit(address)

    async def record(self, address: str) -> float:
        """A lookup found no room: count it.  0, or (with several nodes, whose misses count
        together) the seconds to wait when the address is past its limit already — answer
        this lookup as refused, not as a miss (another node saw the others)."""
        shared = self.shared() if self.shared is not None else None
        if shared is None:
            self.miss(address)
            return 0.0
        try:
            wait = await shared.hit("misses", address, self.per_minute, RATE_WINDOW_S)
        except Exception as err:  # the database is away: this node's own count, meanwhile
            log.warning("room misses counted on this node only: %s", type(err).__name__)
            self.miss(address)
            return 0.0
        if wait > 0:
            if len(self.blocked) >= MAX_TRACKED_ADDRESSES:
                del self.blocked[next(iter(self.blocked))]
            self.blocked[address] = time.monotonic() + wait
            self.refused(address)  # counted and logged as a refusal
        else:
            self.miss(address)  # this node's own count, a part of the shared one
        return wait


CREATE_PATH = re.compile(r"^/api/rooms/?$")
JOIN_PATH = re.compile(r"^/api/rooms/[^/]+/players/?$")
LIST_PATH = CREATE_PATH
QR_PATH = re.compile(r"^/rooms/[^/]+/qr\.svg$")  # the invite QR code (app/web/invite.py)
MATCH_PATH = re.compile(r"^/api/matches/[^/]+/(export|replay)$")  # a finished match's documents (app/web/matches.py)
# What /metrics counts a refusal as, by limit (uno_refused_total{reason}); the others: http_rate.
REFUSAL_REASONS = {"qr": "qr_rate", "match": "match_downloads", "pread": "player_reads"}
# Refusals answered only after this long, by limit: a flood of players' pages refused at once came
# back as fast as it was refused (4 addresses × 4 connections: 1,500 refusals a second, an honest
# p99 of 0.75 s on a busy box: bench/player_memory.py); held, each connection asks once a second.
HELD_S = {"pread": 1.0}


class AddressRateLimit:
    """Per client address, 429 past the limit: ``POST /api/rooms`` (create), ``POST
    /api/rooms/{code}/players`` (join), ``GET /api/rooms`` (the lobby's list) and, when
    given, ``GET /rooms/{code}/qr.svg`` (invite QR codes) and ``GET /api/matches/{id}/export`` and
    ``…/replay`` together (match downloads), and players' pages and leaderboards (``player_reads``,
    in bursts as the downloads are).  In a cluster each is counted by every node together."""

    def __init__(self, app: ASGIApp, create_per_minute: int, joins_per_minute: int, lists_per_minute: int,
                 on_refuse: Refused | None = None, shared: Shared | None = None,
                 qr_per_minute: int | None = None, match_downloads_per_minute: int | None = None,
                 more: Sequence[tuple[str, str, int, str, str]] = (),
                 player_reads: tuple[str, int] | None = None) -> None:
        self.app, self.on_refuse, self.shared = app, on_refuse, shared
        # With several nodes: windows the shared count refused, until when (monotonic).
        self.blocked: dict[tuple[str, str], float] = {}
        lists, listed = burst_limit(lists_per_minute, "room lists")
        self.limits: list[tuple[str, re.Pattern[str], Window, str, str]] = [
            ("POST", CREATE_PATH, Window(create_per_minute), f"at most {create_per_minute} new rooms a minute",
             "create"),
            ("POST", JOIN_PATH, Window(joins_per_minute), f"at most {joins_per_minute} joins a minute", "join"),
            ("GET", LIST_PATH, lists, listed, "list"),
        ]
        if qr_per_minute is not None:
            self.limits.append(("GET", QR_PATH, Window(qr_per_minute), f"at most {qr_per_minute} QR codes a minute",
                                "qr"))
        if match_downloads_per_minute is not None:
            downloads, words = burst_limit(match_downloads_per_minute, "match exports and replays")
            self.limits.append(("GET", MATCH_PATH, downloads, words, "match"))
        if player_reads is not None:  # (path pattern, per minute): players' pages and leaderboards
            reads, words = burst_limit(player_reads[1], "player pages and leaderboards")
            self.limits.append(("GET", re.compile(player_reads[0]), reads, words, "pread"))
        # Others the app adds: (method, path pattern, per minute, what is limited, kind for the shared count).
        for method, path, per_minute, what, kind in more:
            self.limits.append((method, re.compile(path), Window(per_minute), f"at most {per_minute} {what} a minute",
                                kind))

    async def hit(self, window: Window, kind: str, words: str, address: str) -> float:
        """This node's window; with several nodes, the one they all count in (app/cluster/rates.py)."""
        shared = self.shared() if self.shared is not None else None
        if shared is not None:
            # This node's own count is a part of the shared one, and a refusal holds until its
            # window frees up: past either, no need to ask.
            now = time.monotonic()
            wait = max(window.wait(address), self.blocked.get((kind, address), now) - now)
            if wait > 0:
                return wait
            self.blocked.pop((kind, address), None)
            try:
                wait = await shared.hit(kind, address, window.limit, window.window)
            except Exception as err:  # the database is away: this node's own count, meanwhile
                log.warning("%s counted on this node only: %s", words, type(err).__name__)
            else:
                if wait == 0:
                    window.hit(address)
                else:
                    if len(self.blocked) >= MAX_TRACKED_ADDRESSES:
                        del self.blocked[next(iter(self.blocked))]
                    self.blocked[(kind, address)] = now + wait
                return wait
        return window.hit(address)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            method, path = scope.get("method"), scope.get("path", "")
            for wanted, pattern, window, words, kind in self.limits:
                if method == wanted and pattern.match(path):
                    address = limited_address(scope)
                    wait = await self.hit(window, kind, words, address)
                    if wait > 0:
                        if self.on_refuse is not None:
                            self.on_refuse(REFUSAL_REASONS.get(kind, "http_rate"))
                        if window.first_refusal(address):
                            log.info("refusing %s %s from %s: %s", method, path, address, words)
                        if kind in HELD_S:
                            await asyncio.sleep(HELD_S[kind])
                        await refuse_rate(send, max(1.0, wait - HELD_S.get(kind, 0.0)), words)
                        return
                    break
        await self.app(scope, receive, send)


def _json_safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # "inf", "nan": JSON has no such numbers
    if isinstance(value, str):
        # Half a surrogate pair (a JSON "\\ud800" escape) cannot be encoded: shown as U+FFFD.
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_json_safe(str(k)): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 body, made safe for any input: the default handler echoes the input back
    and fails (500) on ``1e999`` or ``NaN``; a very deep input is left out rather than walked."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    try:
        detail = _json_safe(jsonable_encoder(errors))
    except (RecursionError, ValueError, TypeError):
        detail = [{"type": e.get("type"), "loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg"))}
                  for e in errors]
    return JSONResponse(status_code=422, content={"detail": detail})
