"""In-process counters for ``/metrics`` (Prometheus text format, no dependencies).

Everything runs on the server's one event loop, so plain integers are enough.  The transport
updates these; ``app/web/metrics.py`` renders them together with room and store figures.
"""

from __future__ import annotations

import bisect
from collections import Counter

# Seconds from an action frame's arrival to the room having handled it (applied, stored, sent).
ACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Histogram:
    def __init__(self, buckets: tuple[float, ...]) -> None:
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)  # the last one is +Inf
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.buckets, value)] += 1
        self.sum += value
        self.count += 1

    def cumulative(self) -> list[tuple[str, int]]:
        out, total = [], 0
        for bound, n in zip((*(repr(b) for b in self.buckets), "+Inf"), self.counts, strict=True):
            total += n
            out.append((bound, total))
        return out


class Metrics:
    def __init__(self) -> None:
        self.sockets = 0  # open game sockets (accepted, not yet finished)
        self.sockets_opened = 0
        self.messages: Counter[str] = Counter()  # client messages received, by type ("invalid": unparsable)
        self.actions = 0
        self.action_seconds = Histogram(ACTION_BUCKETS)
        self.refused: Counter[str] = Counter()  # limits hit, by reason

    def refuse(self, reason: str) -> None:
        self.refused[reason] += 1
