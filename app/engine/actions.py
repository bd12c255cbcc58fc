"""The decisions a seat can make, as small immutable values.

``Action`` is a NamedTuple so that legal-action lists are cheap to build and to compare:
applying an action checks membership in ``legal_actions``, so the engine can never accept
anything it would not have offered.
"""

from __future__ import annotations

from typing import Any, NamedTuple

# Turn and decision actions.
PLAY = "play"  # card [, colour] [, target] [, uno]
DRAW = "draw"  # voluntary or forced draw of one card (C-6)
PLAY_DRAWN = "play_drawn"  # card [, colour] [, target] [, uno] — the card just drawn
KEEP = "keep"  # keep the drawn card; the turn ends
ACCEPT = "accept"  # take the Wild Draw Four / Wild Draw 2 penalty
CHALLENGE = "challenge"
CHOOSE_COLOUR = "choose_colour"  # colour — Bob-omb, a wild first card, a plain-wild Item Box
CHOOSE_TARGET = "choose_target"  # target — Green Shell, a first Targeted Draw Two / Forced Swap
PASS_CARD = "pass_card"  # card [, uno] — Dip Into The Deck
SPECIAL_DRAW = "special_draw"  # All Wild AW-6
# UNO actions, open to every seat whenever they are valid (C-11, C-12).
DECLARE_UNO = "declare_uno"
CATCH = "catch"  # target
# The match clock's expiry (HR-25, house/pace.py): the room's own action, never a seat's.
BLITZ_EXPIRY = "blitz_expiry"
CLOCK_SEAT = -1  # the seat it is logged under: no seat of the table
BLITZ_BY_CLOCK_ONLY = "Only the match clock runs out (blitz, HR-25)."

KINDS = frozenset(
    {PLAY, DRAW, PLAY_DRAWN, KEEP, ACCEPT, CHALLENGE, CHOOSE_COLOUR, CHOOSE_TARGET, PASS_CARD,
     SPECIAL_DRAW, DECLARE_UNO, CATCH, BLITZ_EXPIRY}
)
UNO_KINDS = frozenset({DECLARE_UNO, CATCH})


class Action(NamedTuple):
    kind: str
    card: int | None = None
    colour: str | None = None
    target: int | None = None
    uno: bool = False
    more: tuple[int, ...] = ()  # HR-8: the further cards of a batch, in order (house/volume.py)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            out["card"] = self.card
        if self.colour is not None:
            out["colour"] = self.colour
        if self.target is not None:
            out["target"] = self.target
        if self.uno:
            out["uno"] = True
        if self.more:
            out["more"] = list(self.more)
        return out
