"""Bot levels: each bot seat plays at one, chosen by the host when it is added.

``LEVELS`` in the order a menu offers them; ``DEFAULT_LEVEL`` for a bot added without one and
for the seat of a person who is away (``rooms/bot_moves.py``).  ``make_bot`` gives a fresh
player of a level: the hard one remembers the round, so each seat has its own.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .easy import Easy
from .hard import Hard
from .normal import Normal


class Bot(Protocol):
    level: str

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        """One of ``view["table"]["legal"]``, or None when the seat has nothing to do now."""
        ...


LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
_MAKERS: dict[str, type[Easy] | type[Normal] | type[Hard]] = {"easy": Easy, "normal": Normal, "hard": Hard}


def make_bot(level: str) -> Bot:
    """A new player of ``level`` (one of ``LEVELS``; anything else is a KeyError)."""
    return _MAKERS[level]()
