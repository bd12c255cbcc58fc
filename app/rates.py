"""The one sliding-window rate limiter: at most ``limit`` events in any ``window`` seconds.

Used below the app and in it alike: each seat's message rate and each socket's control frames
(app/transport), each address's requests (app/web).  Exact, not approximate: the last ``limit``
times are kept, so a burst at the end of one window and the start of the next is still held
to ``limit``.  ``Windows`` keeps one per key (a seat, an address), the least recently used
dropped past a bound, so no flood of keys grows it without end.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict, deque
from collections.abc import Callable

# An IPv6 host is given a whole /64 by its network (RFC 6177's smallest end-site prefix), and
# picks any address in it at will: counted per address, one such host would have 2^64 windows.
IPV6_HOST_PREFIX = 64
# The limits are per minute, but for one: players made per address, per hour (app/web/new_players.py).
# A window of a kind that starts so is kept an hour where the nodes count together (app/cluster/rates.py).
HOURLY_KIND = "hourly_players"
HOUR_S = 3600.0


def address_key(address: str) -> str:
    """What a per-address limit counts a client under: an IPv4 address as it is (an IPv4-mapped
    IPv6 one as that IPv4 address), an IPv6 address by its /64 network, anything else unchanged."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_HOST_PREFIX), strict=False))
    return address


class SlidingWindow:
    """At most ``limit`` events in any ``window`` seconds; a ``limit`` of 0 or less allows none."""

    __slots__ = ("limit", "times", "window")

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.times: deque[float] = deque(maxlen=max(1, limit))

    def wait(self, now: float | None = None) -> float:
        """Seconds until one more event would be allowed (0: now); counts nothing."""
        if self.limit <= 0:
            return self.window
        if len(self.times) < self.limit:
            return 0.0
        now = time.monotonic() if now is None else now
        return max(0.0, self.times[0] + self.window - now)

    def hit(self, now: float | None = None) -> float:
        """Count one event if it is allowed (0), else the seconds until one would be."""
        now = time.monotonic() if now is None else now
        wait = self.wait(now)
        if wait <= 0.0:
            # Times that left the window count for nothing: drop them, so a window with a high
            # limit (a bench's, an operator's) holds what its last seconds saw, not its last
            # ``limit`` events for as long as its key lives.
            times, oldest = self.times, now - self.window
            while times and times[0] <= oldest:
                times.popleft()
            times.append(now)
        return wait

    def allow(self, now: float | None = None) -> bool:
        """Count one event if it is allowed: whether it was."""
        return self.hit(now) <= 0.0


class Windows:
    """A ``SlidingWindow`` per key, made on first use; at most ``kept`` keys, the least recently used dropped."""

    def __init__(self, limit: int, window: float, kept: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.kept, self.clock = limit, window, kept, clock
        self.by_key: OrderedDict[str, SlidingWindow] = OrderedDict()

    def get(self, key: str) -> SlidingWindow | None:
        return self.by_key.get(key)

    def of(self, key: str) -> SlidingWindow:
        found = self.by_key.get(key)
        if found is None:
            found = self.by_key[key] = SlidingWindow(self.limit, self.window)
            while len(self.by_key) > self.kept:
                self.by_key.popitem(last=False)
        else:
            self.by_key.move_to_end(key)
        return found

    def hit(self, key: str) -> float:
        """Count one event of ``key``: 0 when allowed, else the seconds until one would be."""
        return self.of(key).hit(self.clock())

    def wait(self, key: str) -> float:
        """As ``hit``, but counts nothing."""
        found = self.by_key.get(key)
        if found is None:
            return self.window if self.limit <= 0 else 0.0
        return found.wait(self.clock())
