"""What each client address holds and opens, counted by this process alone (the ``Holdings`` port's
default, app/rooms/ports.py): a count per kind and address, and a sliding window per rate.

A node of a cluster keeps one of these too (app/cluster/holdings.py): its own share of every
count, which it tells the other nodes, and what it falls back on while the database is away.
"""

from __future__ import annotations

from collections import Counter

from app.rates import Windows

from .ports import Rate, Refusal

# Addresses whose open rate is remembered, per kind: the least recently seen are forgotten past it.
MAX_TRACKED_ADDRESSES = 100_000


class LocalHoldings:
    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {}
        self.rates: dict[tuple[str, Rate], Windows] = {}

    def count_of(self, kind: str) -> Counter[str]:
        found = self.counts.get(kind)
        if found is None:
            found = self.counts[kind] = Counter()
        return found

    def window(self, kind: str, rate: Rate) -> Windows:
        found = self.rates.get((kind, rate))
        if found is None:
            found = self.rates[(kind, rate)] = Windows(rate.limit, rate.window, MAX_TRACKED_ADDRESSES)
        return found

    def rate_wait(self, kind: str, address: str, rate: Rate) -> float:
        """Seconds until ``address`` may open one more ``kind`` here (0: now); counts nothing."""
        return self.window(kind, rate).wait(address)

    def opened(self, kind: str, address: str, rate: Rate) -> float:
        """Count one open within ``rate``: 0, or (not counted) the seconds until one would be allowed."""
        return self.window(kind, rate).hit(address)

    async def take(self, kind: str, address: str, cap: int, rate: Rate | None = None) -> Refusal | None:
        return self.take_now(kind, address, cap, rate)

    def take_now(self, kind: str, address: str, cap: int, rate: Rate | None = None) -> Refusal | None:
        if rate is not None:
            wait = self.opened(kind, address, rate)
            if wait > 0:
                return Refusal("rate", wait)
        counts = self.count_of(kind)
        if counts[address] >= cap:
            return Refusal("cap")
        counts[address] += 1
        return None

    def add(self, kind: str, address: str) -> int:
        """One more, unconditionally (a cluster's node, before it asks the others): the new count."""
        counts = self.count_of(kind)
        counts[address] += 1
        return counts[address]

    def give_back(self, kind: str, address: str) -> None:
        counts = self.count_of(kind)
        left = counts[address] - 1
        if left > 0:
            counts[address] = left
        else:
            counts.pop(address, None)

    def held(self, kind: str, address: str) -> int:
        counts = self.counts.get(kind)
        return counts.get(address, 0) if counts is not None else 0
