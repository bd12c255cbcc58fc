"""UNO Mario Kart (RULES.md §3): every card carries an item; the Wild Item Box fires one
(``item_box.py``); the Wild Draw Four is challenged as in Classic, an Item Box held counting as the
colour (MK-4, ``challenge.py``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..card_rules import CardRule
from ..cards import MARIO_KART_DECK, NUMBERS, CardType, Face
from ..penalty_cards import PenaltyCards
from ..pending import PendingKind, Reason
from ..state import Continuation
from . import challenge, item_box
from .base import Variant
from .effects import draw_and_skip, no_effect, reverse, skip


class MarioKart(Variant):
    key = "mario_kart"
    title = "UNO Mario Kart"
    table = MARIO_KART_DECK
    redraw_first = frozenset({Face.WILD_DRAW4})  # MK-3
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW2, 2, Face.WILD_DRAW4, 4, Face.SKIP, Face.REVERSE,
                                           challenge.colour_or_item_box_held)
    continuations: ClassVar[dict[Reason | PendingKind, Continuation]] = {
        **Variant.continuations,
        Reason.GREEN_SHELL: item_box.green_shell_hits,
        Reason.BOB_OMB: item_box.turn_over,
        Reason.PLAIN_WILD: item_box.turn_over,
        PendingKind.CHALLENGE: challenge.resolve,  # MK-4
    }

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW2: CardRule(draw_and_skip(2)),
            Face.WILD_DRAW4: CardRule(challenge.draw(4, challenge.colour_or_item_box_held),
                                      needs_colour=True),  # MK-4
            Face.ITEM_BOX: item_box.RULE,
        }

    def _card_json(self, card: int, ct: CardType) -> dict[str, Any]:
        out = super()._card_json(card, ct)
        out["item"] = item_box.ITEMS[ct.colour]  # MK-2: every card shows its item
        return out
