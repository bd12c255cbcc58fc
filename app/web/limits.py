"""The per-address limits' mechanism: a sliding ``Window`` per client address (bounded in
addresses), bursts as a per-minute rate over shorter windows, the address a request counts
under, and refusals in the API's error shape, ``{"detail": {"code": ..., "message": ...}}``
(a rate's: 429 with ``Retry-After``).

What is limited is elsewhere: per-address rates on HTTP routes and room codes asked for that
don't exist (``address_limits.py``), request bodies (``body_limit.py``), each address's budget
of requests (``budget.py``), the players an address makes in an hour (``new_players.py``).
"""
from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from starlette.types import Scope, Send

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
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class Window:
    """A sliding window of request times per client address (app/rates.py), for a bounded number
    of addresses, and which of them have been refused since they were last allowed."""

    def __init__(self, limit: int, window: float = RATE_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
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
