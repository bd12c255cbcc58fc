"""An edition's row of the table in RULES.md §7: its small and big Draw, its Skip and Reverse, and
what makes its big Draw guilty when challenged.

Each edition names its own (``Variant.penalty_cards``, ``variants/``): its vocabulary, which the
stacking family (``house/stacking.py``) reads to give those faces its effects, and the challenge
(``variants/challenge.py``) to judge its big Draw.  It sits in the core so that the editions and the
house rules both build on it, and neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .cards import Face
from .state import RoundState

# Would a big Draw be an illegal play (CL-5, MK-4, PP-5)?  (round, the hand it is played from —
# without it —, the colour then to match, the card then on top.)  Judged at the play, or before one
# (HR-11).
Guilt = Callable[[RoundState, Sequence[int], "str | None", int], bool]


class PenaltyCards(NamedTuple):
    """An edition's row of the table in RULES.md §7: its Draw cards, Skip and Reverse."""

    small: Face
    small_count: int
    big: Face
    big_count: int
    skip: Face
    reverse: Face
    big_guilt: Guilt | None  # CL-5, MK-4, PP-5; None: the big Draw is never challenged (AW-3)
    colourless: bool = False  # All Wild: "of the current colour" lapses (HX-10)
    # Pocket Pizza (D-4): a big Draw played as an answer is guilty when another answer was held.
    guilty_if_other_answer: bool = False
