"""The connection gate: what every TCP connection must pass, before any request is read.

A connection costs a file descriptor from the moment it is accepted; a request's limits (the
app's, per route) come too late for one that never sends a request.  So the protocol classes
(``uvicorn_adapter.HttpProtocol`` and ``uvicorn_adapter.WebSocketProtocol``) ask this gate on every
connection: at most ``UNO_CONNECTIONS_PER_ADDRESS`` open from one client address and
``UNO_MAX_CONNECTIONS`` in all, and a whole request within ``UNO_HEADER_TIMEOUT_S``.  At the
global cap a newcomer displaces the oldest connection still waiting for its request (the
cheapest to lose: it has had its chance) rather than being refused, so that one attacker's
idle connections can't keep everyone else out.  The gate also bounds each WebSocket's control
frames until the app takes over (``WebSocketProtocol``).  With ``--loop app.transport.accept:Loop``
the listener asks it first, as it accepts: a connection that has sent nothing yet is counted,
displaced and timed out there, without a protocol (``accept.py``).

One gate per server: the app makes it (``create_app``) and hands it to uvicorn's protocols
through the lifespan state (the ``app_state`` each protocol is given).  What it refuses is
counted in the app's ``Metrics`` (``uno_refused_total{reason}``) and logged, at most one line
per reason every ``LOG_EVERY_S`` seconds, with the count: a flood must not flood the log too.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
from collections import Counter, OrderedDict
from typing import Any, Protocol

from app.config import Settings, get_settings, networks_of
from app.rates import address_key

from .metrics import Metrics

log = logging.getLogger("app.transport")

GATE = "uno.connection_gate"  # its key in the lifespan state
LOG_EVERY_S = 10.0
# File descriptors kept for what is not a client: the database pool, SQLite's files, the
# listening socket, logs.  The gate never lets connections take those.
FD_RESERVE = 100


class Waiting(Protocol):
    """A connection the gate may displace: one still waiting for its request."""

    def evict(self) -> None: ...


def fd_bound(wanted: int) -> int:
    """``wanted``, or fewer if the process may not open that many files (less the reserve)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - FD_RESERVE))


class ThrottledLog:
    """One INFO line per reason right away, then at most one every ``every`` seconds, with the count."""

    def __init__(self, every: float = LOG_EVERY_S) -> None:
        self.every = every
        self.last: dict[str, float] = {}
        self.unlogged: Counter[str] = Counter()
        self.texts: dict[str, str] = {}
        self.flush_at: dict[str, asyncio.TimerHandle] = {}

    def __call__(self, reason: str, text: str) -> None:
        now = time.monotonic()
        self.unlogged[reason] += 1
        self.texts[reason] = text
        if now - self.last.get(reason, -self.every) >= self.every:
            self.flush(reason)
        elif reason not in self.flush_at:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a direct call): the next line will carry the count
                return
            self.flush_at[reason] = loop.call_later(self.every - (now - self.last[reason]), self.flush, reason)

    def flush(self, reason: str) -> None:
        timer = self.flush_at.pop(reason, None)
        if timer is not None:
            timer.cancel()
        count = self.unlogged.pop(reason, 0)
        if not count:
            return
        self.last[reason] = time.monotonic()
        text = self.texts.pop(reason)
        if count == 1:
            log.info("%s", text)
        else:
            log.info("%s (%d times in the last %g s)", text, count, self.every)


class ConnectionGate:
    def __init__(self, settings: Settings, metrics: Metrics | None = None) -> None:
        self.header_timeout = settings.header_timeout_s
        self.per_address = settings.connections_per_address
        self.max_connections = fd_bound(settings.max_connections)
        self.accepts_per_turn = settings.accepts_per_turn  # app/transport/accept.py
        # A WebSocket's control frames count against the same rate as its messages.
        self.control_limit = settings.socket_rate_messages
        self.control_window = settings.socket_rate_window_s
        self.metrics = metrics
        self.open = 0
        self.by_address: Counter[str] = Counter()
        # Connections with no complete request yet, oldest first.  An OrderedDict: a plain dict's
        # first entry is found by skipping the ones deleted before it, slower with every eviction.
        self.waiting: OrderedDict[Waiting, None] = OrderedDict()
        self.log = ThrottledLog()
        # The reverse proxies the server takes client addresses from (UNO_TRUSTED_PROXIES, the
        # same list uvicorn is given: app/server.py); None: any address.
        self.proxies = networks_of(settings.trusted_proxies)

    def is_proxy(self, address: str) -> bool:
        """Whether connections from ``address`` come through a trusted reverse proxy."""
        if self.proxies is None:
            return True
        if not self.proxies:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)

    def admit(self, address: str, proxy: bool = False) -> str | None:
        """Count a new connection in; or the reason it is refused (it is not counted then).

        A ``proxy`` (one the server takes client addresses from) carries many clients: it is not
        held to the per-address cap, which the proxy itself must apply (docs/OPERATIONS.md)."""
        key = address_key(address)  # an IPv6 client by its /64
        if not proxy and self.by_address[key] >= self.per_address:
            return "connections_per_address"
        if self.open >= self.max_connections:
            if not self.waiting:
                return "max_connections"
            oldest = next(iter(self.waiting))
            oldest.evict()  # releases its count, so there is room now
            self.refused("header_evicted", f"closed a connection still waiting for its request: "
                         f"{self.max_connections} connections open, and a new one came")
        self.open += 1
        self.by_address[key] += 1
        return None

    def held(self, address: str) -> int:
        """Connections open from the address's key (its /64 for IPv6)."""
        return self.by_address[address_key(address)]

    def release(self, address: str) -> None:
        self.open -= 1
        key = address_key(address)
        left = self.by_address[key] - 1
        if left > 0:
            self.by_address[key] = left
        else:
            del self.by_address[key]

    def refused(self, reason: str, text: str) -> None:
        if self.metrics is not None:
            self.metrics.refuse(reason)
        self.log(reason, text)

    def seen(self, kind: str) -> None:
        """A WebSocket control frame the client sent (``uno_messages_total{type="control_ping"}``...)."""
        if self.metrics is not None:
            self.metrics.messages[kind] += 1


_fallback: ConnectionGate | None = None


def gate_of(app_state: dict[str, Any]) -> ConnectionGate:
    """The app's gate; without one (the lifespan off, another app), one from the environment's settings."""
    gate = app_state.get(GATE)
    if isinstance(gate, ConnectionGate):
        return gate
    global _fallback
    if _fallback is None:
        _fallback = ConnectionGate(get_settings())
    return _fallback
