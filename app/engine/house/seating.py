"""Shuffled seats (RULES.md §7.9): HR-28.

Every round, the first included, plays in a fresh random cyclic order of the seats still in,
drawn from the round's own seed (``order``).  The round's ``ring`` (``state.py``) is that order,
so every "next", "left", "previous" or "seated before" (C-1, MK-7, the 0, HR-3, HR-4) follows
it; seat numbers never change, and views show it (``seat_order``).  The order's first seat
deals — C-2's draw is skipped — and C-4 applies (``match.py``).  With ``team_play`` partners stay
N/2 apart in it: the teams are shuffled, each shows one partner in the first half and the other
in the same place of the second.

Hook: ``Rulebook.seat_order`` under ``shuffle_seats``, asked by ``match.py`` for each round's order;
the table view carries ``seat_order`` when it is set.

Its option, HR-28 ``shuffle_seats``, is declared with §7.9's in ``teams.py`` (``TeamsOptions``).
"""

from __future__ import annotations

import random
from collections.abc import Collection

from ..rulebook import Rulebook
from .declare import played_by
from .teams import TeamsOptions

OPTIONS: tuple[str, ...] = played_by(TeamsOptions, "seating")  # declared in teams.py


def order(house: TeamsOptions, seats: int, out: Collection[int], seed: str) -> list[int] | None:
    """HR-28: the round's cyclic order of the seats still in (None with the option off)."""
    if not house.shuffle_seats:
        return None
    rng = random.Random(f"{seed}/seats")
    if house.team_play:
        half = seats // 2
        teams = list(range(half))
        rng.shuffle(teams)
        first = [t if rng.random() < 0.5 else t + half for t in teams]
        return first + [(s + half) % seats for s in first]
    ring = [s for s in range(seats) if s not in out]
    rng.shuffle(ring)
    return ring


def plug(book: Rulebook, house: TeamsOptions) -> None:
    """The family's hook: ``Rulebook.seat_order``."""
    if house.shuffle_seats:
        def seat_order(seats: int, out: Collection[int], seed: str) -> list[int] | None:
            return order(house, seats, out, seed)
        book.seat_order = seat_order
