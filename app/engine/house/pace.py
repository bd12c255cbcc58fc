"""Pace (RULES.md §7.8): HR-24 fast mode.

The engine has no clock: the room's turn clock and its bots ask this module how long a turn
lasts and how long a bot pauses.  Fast mode halves both: every deadline is ⌊turn_seconds / 2⌋
seconds, at least 1.  It needs a turn clock (HX-1, checked with the room's options).
"""

from __future__ import annotations

from .options import HouseRules

OPTIONS = ("fast_mode",)


def turn_clock_seconds(house: HouseRules, turn_seconds: int) -> int:
    """How long a seat has for a decision, by the room's ``turn_seconds``."""
    return max(1, turn_seconds // 2) if house.fast_mode else turn_seconds


def bot_pause_factor(house: HouseRules) -> float:
    """What a bot's usual pause before acting is multiplied by."""
    return 0.5 if house.fast_mode else 1.0
