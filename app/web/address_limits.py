"""What is limited per client address: 429 past the limit for creating rooms, taking seats,
listing rooms, QR codes, match downloads and players' pages (``AddressRateLimit``, a pure-ASGI
middleware), and room lookups refused past too many codes that don't exist (``MissLimit``).  In
a cluster each is counted by every node together (app/cluster/rates.py); the windows they count
in, and the refusal's words, are app/web/limits.py's.
"""
from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.limits import (
    MAX_TRACKED_ADDRESSES,
    RATE_WINDOW_S,
    Refused,
    Shared,
    Window,
    burst_limit,
    limited_address,
    refuse_rate,
)

log = logging.getLogger("app.web")


class MissLimit:
    """Room codes asked for that don't exist, per client address (HTTP and WebSocket alike).

    A room's code is its only lock for spectators and joins; past ``per_minute`` misses an
    address has every room lookup refused until its window frees up, so codes cannot be
    guessed at speed.  Asking for rooms that exist costs nothing.
    """

    def __init__(self, per_minute: int, on_refuse: Refused | None = None,
                 shared: Shared | None = None) -> None:
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
# A finished match's documents (app/web/matches.py).
MATCH_PATH = re.compile(r"^/api/matches/[^/]+/(export|replay)$")
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
            ("POST", CREATE_PATH, Window(create_per_minute),
             f"at most {create_per_minute} new rooms a minute", "create"),
            ("POST", JOIN_PATH, Window(joins_per_minute),
             f"at most {joins_per_minute} joins a minute", "join"),
            ("GET", LIST_PATH, lists, listed, "list"),
        ]
        if qr_per_minute is not None:
            self.limits.append(("GET", QR_PATH, Window(qr_per_minute),
                                f"at most {qr_per_minute} QR codes a minute", "qr"))
        if match_downloads_per_minute is not None:
            downloads, words = burst_limit(match_downloads_per_minute, "match exports and replays")
            self.limits.append(("GET", MATCH_PATH, downloads, words, "match"))
        if player_reads is not None:  # (path pattern, per minute): players' pages and leaderboards
            reads, words = burst_limit(player_reads[1], "player pages and leaderboards")
            self.limits.append(("GET", re.compile(player_reads[0]), reads, words, "pread"))
        # Others the app adds: (method, path pattern, per minute, what is limited, kind for the shared count).
        for method, path, per_minute, what, kind in more:
            self.limits.append((method, re.compile(path), Window(per_minute),
                                f"at most {per_minute} {what} a minute", kind))

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
