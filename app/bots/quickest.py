"""Which of several bots moves first: each picks on its own seat's view, and the shortest human-like pause
wins.  A room plans its next bot move so (rooms/automation.py); bench/engine.py records its matches so."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .heuristic import bot_delay_s, choose_action


def quickest(views: Iterable[tuple[int, dict[str, Any]]], rng: random.Random,
             scale: float = 1.0) -> tuple[float, int, dict[str, Any]] | None:
    """(pause × ``scale``, seat, action) of the bot that acts first among ``views`` (seat, that seat's view),
    in their order on a tie; None when none has anything to do."""
    best: tuple[float, int, dict[str, Any]] | None = None
    for seat, seen in views:
        action = choose_action(seen, rng)
        if action is None:
            continue
        delay = bot_delay_s(action, rng) * scale
        if best is None or delay < best[0]:
            best = (delay, seat, action)
    return best
