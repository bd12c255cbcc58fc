"""Classic UNO (RULES.md §2)."""

from __future__ import annotations

from ..cards import CLASSIC_DECK, NUMBERS
from ..round import Round
from .base import Effect, Variant, challengeable_draw, draw_and_skip, no_effect, reverse, skip


class Classic(Variant):
    key = "classic"
    title = "Classic UNO"
    table = CLASSIC_DECK
    redraw_first = frozenset({"wild_draw4"})  # CL-2
    colour_faces = frozenset({"wild", "wild_draw4"})  # CL-4, CL-5

    stack_draws = {"draw2": 2}  # noqa: RUF012

    def build_effects(self) -> dict[str, Effect]:
        return {
            **{n: no_effect for n in NUMBERS},
            "skip": skip,
            "reverse": reverse,
            "draw2": draw_and_skip(2),
            "wild": no_effect,
            "wild_draw4": challengeable_draw(4),
        }

    def guilty(self, rnd: Round, seat: int) -> bool:
        """CL-5: a Wild Draw Four is illegal while holding a card of the colour it replaced."""
        colour = rnd.prev_colour
        cards = self.cards
        return any(cards[c].colour == colour for c in rnd.hands[seat])
