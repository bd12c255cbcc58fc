"""Classic UNO (RULES.md §2)."""

from __future__ import annotations

from typing import ClassVar

from ..card_rules import CardRule
from ..cards import CLASSIC_DECK, NUMBERS, Face
from ..penalty_cards import PenaltyCards
from ..pending import PendingKind, Reason
from ..state import Continuation
from . import challenge
from .base import Variant
from .effects import draw_and_skip, no_effect, reverse, skip


class Classic(Variant):
    key = "classic"
    title = "Classic UNO"
    table = CLASSIC_DECK
    redraw_first = frozenset({Face.WILD_DRAW4})  # CL-2
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW2, 2, Face.WILD_DRAW4, 4, Face.SKIP, Face.REVERSE,
                                           challenge.colour_held)
    continuations: ClassVar[dict[Reason | PendingKind, Continuation]] = {
        **Variant.continuations,
        PendingKind.CHALLENGE: challenge.resolve,  # CL-6
    }

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW2: CardRule(draw_and_skip(2)),
            Face.WILD: CardRule(no_effect, needs_colour=True),  # CL-4
            Face.WILD_DRAW4: CardRule(challenge.draw(4, challenge.colour_held), needs_colour=True),  # CL-5
        }
