"""Classic UNO (RULES.md §2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..card_rules import CardRule
from ..cards import CLASSIC_DECK, NUMBERS, Face
from ..house.stacking import PenaltyCards
from ..state import RoundState
from .base import Variant
from .effects import challengeable_draw, draw_and_skip, no_effect, reverse, skip


def draw4_guilty(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """CL-5: a Wild Draw Four is illegal while holding a card of the colour it replaced."""
    cards = rnd.cards
    return any(cards[c].colour == colour for c in hand)


class Classic(Variant):
    key = "classic"
    title = "Classic UNO"
    table = CLASSIC_DECK
    redraw_first = frozenset({Face.WILD_DRAW4})  # CL-2
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW2, 2, Face.WILD_DRAW4, 4, Face.SKIP, Face.REVERSE, draw4_guilty)

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW2: CardRule(draw_and_skip(2)),
            Face.WILD: CardRule(no_effect, needs_colour=True),  # CL-4
            Face.WILD_DRAW4: CardRule(challengeable_draw(4, draw4_guilty), needs_colour=True),  # CL-5
        }
