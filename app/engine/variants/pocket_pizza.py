"""UNO Pocket Pizza Pizza (RULES.md §5): a 52-card pocket deck with Dip Into The Deck."""

from __future__ import annotations

from ..actions import Action
from ..cards import POCKET_PIZZA_DECK
from ..round import PASS, Pending, Round
from .base import Effect, Variant, challengeable_draw, draw_and_skip, no_effect, reverse, skip


class PocketPizza(Variant):
    key = "pocket_pizza"
    title = "UNO Pocket Pizza Pizza"
    table = POCKET_PIZZA_DECK
    hand_size = 5
    max_seats = 5
    target = 250
    redraw_first = frozenset({"wild_draw2"})  # PP-2
    colour_faces = frozenset({"wild", "wild_dip", "wild_draw2"})

    stack_draws = {"draw1": 1}  # noqa: RUF012

    def build_effects(self) -> dict[str, Effect]:
        return {
            **{str(n): no_effect for n in range(1, 10)},
            "skip": skip,
            "reverse": reverse,
            "draw1": draw_and_skip(1),  # PP-3
            "wild": no_effect,
            "wild_dip": dip,
            "wild_draw2": challengeable_draw(2),
        }

    def uno_with_play(self, face: str) -> bool:
        # After a dip the hand is back to its size; UNO is said with the pass instead.
        return face != "wild_dip"

    def guilty(self, rnd: Round, seat: int) -> bool:
        """PP-5: a Wild Draw 2 is illegal while holding any other card that could have been played."""
        cards = self.cards
        top_face = cards[rnd.prev_top].face
        colour = rnd.prev_colour
        return any(
            cards[c].colour is None or cards[c].colour == colour or cards[c].face == top_face
            for c in rnd.hands[seat]
        )


def dip(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """PP-4: draw one card, then pass one card to the next player (who keeps their turn)."""
    if last:  # C-13: void as a last card
        return
    rnd.draw(seat, 1, "dip")
    rnd.ask(Pending(PASS, seat))
