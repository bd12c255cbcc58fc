"""How long a bot waits before it acts: a person's pause, never a machine's reflex.

A catch (C-11) races the people at the table, and the race is settled by arrival at the room
(C-12): a bot's catch that came in 0.3 s after the chance opened took the table's best moment
from every person there.  So a catch waits as long as a person reacting normally takes to see
the chance and press the button (``CATCH_PAUSE_S``, jittered), and that floor is never scaled
down — not by fast mode (HR-24), not by the operator's ``UNO_BOT_DELAY_SCALE``: a person who
presses Catch within about 1.5 s always gets there first.  Declaring one's own UNO! is a defence,
not a race against people for a prize, and stays quick.
"""

from __future__ import annotations

import random
from typing import Any

# A catch waits this long (seconds, uniformly): slower than a person who is paying attention.
CATCH_PAUSE_S = (1.5, 3.0)


def bot_delay_s(action: dict[str, Any], rng: random.Random) -> float:
    """A human-like pause before sending ``action``: a quick declaration, a think for a turn, a
    person's reaction time for a catch."""
    kind = action.get("kind")
    if kind == "catch":
        return rng.uniform(*CATCH_PAUSE_S)
    if kind == "declare_uno":
        return rng.uniform(0.3, 1.2)
    if kind in ("choose_colour", "choose_target"):
        return rng.uniform(0.5, 1.3)
    return rng.uniform(0.6, 1.8)


def scaled_pause_s(action: dict[str, Any], rng: random.Random, scale: float) -> float:
    """``bot_delay_s`` times ``scale`` (fast mode's and the operator's factors), except that a catch's
    pause is only ever lengthened: it keeps ``CATCH_PAUSE_S``'s floor under any scale below 1."""
    pause = bot_delay_s(action, rng)
    if action.get("kind") == "catch":
        return pause * max(1.0, scale)
    return pause * scale
