"""UNO Mario Kart (RULES.md §3): every card carries an item; the Wild Item Box fires one."""

from __future__ import annotations

from ..actions import Action
from ..cards import ITEMS, MARIO_KART_DECK, NUMBERS
from ..round import COLOUR, TARGET, Pending, Round
from .base import Effect, Variant, challengeable_draw, draw_and_skip, no_effect, reverse, skip


class MarioKart(Variant):
    key = "mario_kart"
    title = "UNO Mario Kart"
    table = MARIO_KART_DECK
    has_items = True
    redraw_first = frozenset({"wild_draw4"})  # MK-3
    colour_faces = frozenset({"wild_draw4"})  # the Item Box takes its colour from the flip
    target_faces = frozenset({"item_box"})

    stack_draws = {"draw2": 2}  # noqa: RUF012

    def build_effects(self) -> dict[str, Effect]:
        return {
            **{n: no_effect for n in NUMBERS},
            "skip": skip,
            "reverse": reverse,
            "draw2": draw_and_skip(2),
            "wild_draw4": challengeable_draw(4),
            "item_box": item_box,
        }

    def needs_target(self, face: str, last: bool) -> bool:
        # A last-card Item Box cannot ask its player (whose hand is empty) anything later, so
        # the Green Shell's victim is named with the play itself (C-13).
        return last and face == "item_box"

    def guilty(self, rnd: Round, seat: int) -> bool:
        """MK-4: as CL-5, and an Item Box in hand counts as a card of the colour."""
        colour = rnd.prev_colour
        cards = self.cards
        return any(cards[c].colour == colour or cards[c].face == "item_box" for c in rnd.hands[seat])


def item_box(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """MK-5..MK-10: flip the draw pile's top card; its item fires, its own action does not."""
    flipped = rnd.flip()
    if flipped is None:  # nothing to flip even after C-8: a plain wild
        if not last:
            rnd.ask(Pending(COLOUR, seat, reason="plain_wild"))
        return
    colour = rnd.cards[flipped].colour
    rnd.colour = colour
    item = ITEMS[colour]
    rnd.emit("item", {"seat": seat, "card": rnd.card_json(flipped), "item": item})
    if item == "mushroom":  # MK-6
        if not last:
            rnd.give_turn(seat)
    elif item == "banana_peel":  # MK-7
        rnd.draw(rnd.next_seat(seat, -1), 2, "banana_peel")
        if not last:
            rnd.pass_turn(seat)
    elif item == "green_shell":  # MK-8
        if last:
            assert action.target is not None
            rnd.draw(action.target, 1, "green_shell")
        else:
            rnd.ask(Pending(TARGET, seat, reason="green_shell"))
    elif item == "lightning":  # MK-9
        victim = rnd.next_seat(seat)
        while victim != seat:
            rnd.draw(victim, 1, "lightning")
            victim = rnd.next_seat(victim)
        if not last:
            rnd.give_turn(seat)
    elif not last:  # MK-10 Bob-omb
        rnd.draw(seat, 2, "bob_omb")
        rnd.ask(Pending(COLOUR, seat, reason="bob_omb"))
