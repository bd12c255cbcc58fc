"""The normal bot: the heuristic player (``heuristic.py``), which never forgets UNO!.

It says UNO! with the play that leaves it one card, declares at once when it is exposed anyway
(a received one-card hand, §6.1) and catches every exposed opponent it sees — after a person's
pause (``pauses.py``).  An away person's seat is played at this level: it plays their cards
as well as a steady player would, without the hard bot's memory.
"""

from __future__ import annotations

import random
from typing import Any

from . import heuristic

LEVEL = "normal"


class Normal:
    """Stateless: every decision is the heuristic's on the view of the moment."""

    level = LEVEL

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        return heuristic.choose_action(view, rng, uno_reliability=1.0)
