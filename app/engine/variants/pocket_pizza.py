"""UNO Pocket Pizza Pizza (RULES.md §5): a 52-card pocket deck with Dip Into The Deck (``dip.py``) and a
Wild Draw 2 challenged as PP-5 and PP-6 say (``challenge.py``)."""

from __future__ import annotations

from typing import ClassVar

from ..card_rules import CardRule
from ..cards import NUMBERS, POCKET_PIZZA_DECK, Face
from ..penalty_cards import PenaltyCards
from ..pending import PendingKind, Reason
from ..state import Continuation
from . import challenge, dip
from .base import Variant
from .effects import draw_and_skip, no_effect, reverse, skip


class PocketPizza(Variant):
    key = "pocket_pizza"
    title = "UNO Pocket Pizza Pizza"
    table = POCKET_PIZZA_DECK
    hand_size = 5
    max_seats = 5
    target = 250
    redraw_first = frozenset({Face.WILD_DRAW2})  # PP-2
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW1, 1, Face.WILD_DRAW2, 2, Face.SKIP, Face.REVERSE,
                                           challenge.other_play_held, guilty_if_other_answer=True)
    continuations: ClassVar[dict[Reason | PendingKind, Continuation]] = {
        **Variant.continuations,
        Reason.DIP: dip.pass_on,  # PP-4
        PendingKind.CHALLENGE: challenge.resolve,  # PP-6
    }

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS[1:]},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW1: CardRule(draw_and_skip(1)),  # PP-3
            Face.WILD: CardRule(no_effect, needs_colour=True),
            Face.WILD_DIP: dip.RULE,
            # PP-5, PP-6: legal only without another playable card, which a challenge finds out.
            Face.WILD_DRAW2: CardRule(challenge.draw(2, challenge.other_play_held), needs_colour=True),
        }
