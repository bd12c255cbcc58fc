"""How a bot meets a pending penalty (RULES.md §6.1, §7.1): answer it, challenge it or take it.

Works on the same view as ``heuristic.py``: the answers the house rules allow are exactly the
``play`` actions listed on a ``stack`` or ``challenge`` decision, so whatever is chosen here
is legal under any option set.
"""

from __future__ import annotations

import random
from typing import Any

Card = dict[str, Any]
ActionJSON = dict[str, Any]

# Roughly the share of the deck that makes a challengeable big Draw an illegal play: one colour
# (a quarter of the coloured cards), plus in Mario Kart the Item Boxes, plus in Pocket Pizza the
# other wilds and same-face cards.
GUILT_SHARE = {"classic": 0.23, "mario_kart": 0.29, "pocket_pizza": 0.33}
# Which answer to prefer: a Draw card passes more on to the next seat; a deflection keeps ours.
ANSWER_ORDER = ("wild_draw4", "wild_draw2", "draw2", "draw1", "reverse", "skip", "wild_reverse", "wild_skip")


def best_answer(legal: list[ActionJSON], hand: list[Card], rng: random.Random) -> int | None:
    """The card to answer the pending penalty with, or None when nothing answers it.

    Passing a penalty on always beats drawing it.  A deflection goes first (it costs a card
    worth little), then a small Draw; the big Draw is kept for last, for a bigger pile-up.
    """
    ids = {a["card"] for a in legal if a["kind"] == "play"}
    held = [c for c in hand if c["id"] in ids]
    if not held:
        return None

    def rank(card: Card) -> tuple[int, float]:
        face = card["face"]
        return (ANSWER_ORDER.index(face) if face in ANSWER_ORDER else -1, rng.random())

    best: int = max(held, key=rank)["id"]
    return best


def guilty_odds(edition: str, cards_left: int) -> float:
    """How likely a challenged big Draw was illegal, judged on the size of the hand it came from.

    The view does not say what the colour was before the wild, so each card in that hand is a
    possible legal alternative with the edition's ``GUILT_SHARE``.
    """
    share = GUILT_SHARE.get(edition, 0.25)
    return 1 - (1 - share) ** cards_left
