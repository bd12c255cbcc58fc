"""Which of several bots moves first: each picks on its own seat's view, and the shortest human-like pause
wins.  A room plans its next bot move so (rooms/bot_moves.py); bench/engine.py records its matches so."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from .levels import DEFAULT_LEVEL, Bot, make_bot
from .pauses import scaled_pause_s


def quickest(views: Iterable[tuple[int, dict[str, Any]]], rng: random.Random, scale: float = 1.0,
             bots: Mapping[int, Bot] | None = None) -> tuple[float, int, dict[str, Any]] | None:
    """(pause, seat, action) of the bot that acts first among ``views`` (seat, that seat's view),
    in their order on a tie; None when none has anything to do.  ``bots``: who plays each seat
    (a seat not in it plays at the default level); the pause is ``scale``d but a catch keeps its
    floor (``pauses.scaled_pause_s``)."""
    best: tuple[float, int, dict[str, Any]] | None = None
    for seat, seen in views:
        bot = bots.get(seat) if bots is not None else None
        action = (bot or make_bot(DEFAULT_LEVEL)).act(seen, rng)
        if action is None:
            continue
        delay = scaled_pause_s(action, rng, scale)
        if best is None or delay < best[0]:
            best = (delay, seat, action)
    return best
