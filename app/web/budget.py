"""Every HTTP request from one client address draws on a budget of its own, on this node.

The limits of app/web/address_limits.py guard what is dear (rooms made, joins, QR codes, downloads),
each counted across nodes. Everything else was free, and a cheap answer is not free in bulk:
1,500 ``GET /api/house-rules`` a second from one address (8 keep-alive connections) took an
honest room's p99 from 30 ms to 860 ms on the 2-core box (bench/abuse.py ``http_flood``). So
each address (an IPv6 client by its /64) has a bucket of ``burst`` requests that refills at
``per_minute``; past it a request is refused 429 before any route, parser of a body or database
sees it, and that answer is held back ``HOLD_S`` first. A 429 alone is hardly cheaper than the
cached answer the flood asked for (the same flood answered 429 at once still cost the honest
room its p99); held, each of the flooder's connections asks once a second at most (HTTP/1.1
answers a connection's requests in order, pipelined or not), and the connections one address may
hold are bounded (``UNO_CONNECTIONS_PER_ADDRESS``). Holding costs a timer, not a thread or a
buffer. A page load (the room's page is 56 requests with nothing cached: the page, its modules,
styles, words and cards) and a household behind one address loading four at once fit in the burst.

The count is this node's own on purpose: a cross-node count would cost a Postgres transaction
per request, more than most of the requests it guards. With several nodes an address gets a
budget on each; what must hold for the whole cluster is counted by the shared limits, and a
reverse proxy in front should still limit per client (docs/OPERATIONS.md). ``/healthz`` is never
counted: a proxy's or orchestrator's checks come from one address, often and by design.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.limits import MAX_TRACKED_ADDRESSES, limited_address, refuse_rate

log = logging.getLogger(__name__)

EXEMPT = frozenset({"/healthz"})
HOLD_S = 1.0  # how long a refused request waits for its answer


class Buckets:
    """A token bucket per key: ``burst`` at most, refilled at ``per_second``; at most
    ``MAX_TRACKED_ADDRESSES`` keys, the least recently seen forgotten (a forgotten key starts full)."""

    def __init__(self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second, self.burst, self.clock = per_second, float(burst), clock
        self.by_key: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)

    def take(self, key: str) -> float:
        """Spend one request of ``key``: 0 when it may go, else the seconds until it could."""
        now = self.clock()
        tokens, when = self.by_key.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.per_second)
        if tokens >= 1.0:
            tokens -= 1.0
            wait = 0.0
        else:
            wait = (1.0 - tokens) / self.per_second if self.per_second > 0 else math.inf
        self.by_key[key] = (tokens, now)
        if len(self.by_key) > MAX_TRACKED_ADDRESSES:
            self.by_key.popitem(last=False)
        return wait


class RequestBudget:
    """ASGI middleware: 429 ``rate_limited`` for an HTTP request past its address's budget.
    A ``per_minute`` of 0 turns it off."""

    def __init__(self, app: ASGIApp, per_minute: int, burst: int,
                 on_refuse: Callable[[str], None] | None = None) -> None:
        self.app, self.on_refuse = app, on_refuse
        self.buckets = Buckets(per_minute / 60.0, burst) if per_minute > 0 else None
        self.words = f"at most {burst} requests at once, then {per_minute} a minute"
        self.refusing: OrderedDict[str, None] = OrderedDict()  # addresses refused since last allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.buckets is None or scope["type"] != "http" or scope.get("path") in EXEMPT:
            await self.app(scope, receive, send)
            return
        address = limited_address(scope)
        wait = self.buckets.take(address)
        if wait <= 0:
            self.refusing.pop(address, None)
            await self.app(scope, receive, send)
            return
        if self.on_refuse is not None:
            self.on_refuse("http_budget")
        if address not in self.refusing:  # one log line per flood, not one per request
            log.info("refusing HTTP requests from %s: over %s", address, self.words)
            self.refusing[address] = None
            if len(self.refusing) > MAX_TRACKED_ADDRESSES:
                self.refusing.popitem(last=False)
        await asyncio.sleep(HOLD_S)
        await refuse_rate(send, max(wait - HOLD_S, 1.0), self.words)
