"""UNO Pocket Pizza Pizza (RULES.md §5): a 52-card pocket deck with Dip Into The Deck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..actions import Action
from ..card_rules import CardRule, HandAfter
from ..cards import NUMBERS, POCKET_PIZZA_DECK, Face
from ..house.stacking import PenaltyCards
from ..pending import PASS, Pending, Reason
from ..state import Continuation, RoundState
from .base import Variant
from .effects import challengeable_draw, draw_and_skip, no_effect, reverse, skip


def draw2_guilty(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """PP-5: a Wild Draw 2 is illegal while holding any other card that could have been played."""
    cards = rnd.cards
    top_face = cards[top].face
    return any(cards[c].colour is None or cards[c].colour == colour or cards[c].face == top_face for c in hand)


def dip(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """PP-4: draw one card, then pass one card to the next player (who keeps their turn)."""
    if last:  # C-13: void as a last card
        return
    rnd.draw(seat, 1, "dip")
    rnd.ask(Pending(PASS, seat, reason=Reason.DIP))


def pass_on(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """PP-4: the chosen card goes to the next player; then it is their turn as usual."""
    assert action.card is not None
    to = rnd.next_seat(seat)
    rnd.give_card(seat, to, action.card)
    rnd.emit("pass", {"seat": seat, "to": to})
    rnd.emit("passed", {"seat": seat, "to": to, "card": rnd.variant.card_json[action.card]}, (seat, to))
    rnd.pass_turn(seat)


class PocketPizza(Variant):
    key = "pocket_pizza"
    title = "UNO Pocket Pizza Pizza"
    table = POCKET_PIZZA_DECK
    hand_size = 5
    max_seats = 5
    target = 250
    redraw_first = frozenset({Face.WILD_DRAW2})  # PP-2
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW1, 1, Face.WILD_DRAW2, 2, Face.SKIP, Face.REVERSE, draw2_guilty,
                                           guilty_if_other_answer=True)
    continuations: ClassVar[dict[Reason, Continuation]] = {**Variant.continuations, Reason.DIP: pass_on}

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS[1:]},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW1: CardRule(draw_and_skip(1)),  # PP-3
            Face.WILD: CardRule(no_effect, needs_colour=True),
            # After a dip the hand is back to its size: UNO is said with the pass instead.
            Face.WILD_DIP: CardRule(dip, needs_colour=True, hand_after=HandAfter.SAME),
            Face.WILD_DRAW2: CardRule(challengeable_draw(2, draw2_guilty), needs_colour=True),
        }
