"""UNO Mario Kart (RULES.md §3): every card carries an item; the Wild Item Box fires one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..actions import Action
from ..card_rules import CardRule, Target
from ..cards import ITEMS, MARIO_KART_DECK, NUMBERS, Face
from ..house.stacking import PenaltyCards
from ..pending import COLOUR, TARGET, Pending, Reason
from ..state import Continuation, RoundState
from .base import Variant
from .effects import challengeable_draw, draw_and_skip, no_effect, reverse, skip


def draw4_guilty(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """MK-4: as CL-5, and an Item Box in hand counts as a card of the colour."""
    cards = rnd.cards
    return any(cards[c].colour == colour or cards[c].face == Face.ITEM_BOX for c in hand)


def item_box(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """MK-5..MK-10: flip the draw pile's top card; its item fires, its own action does not."""
    flipped = rnd.flip()
    if flipped is None:  # nothing to flip even after C-8: a plain wild
        if not last:
            rnd.ask(Pending(COLOUR, seat, reason=Reason.PLAIN_WILD))
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
            rnd.ask(Pending(TARGET, seat, reason=Reason.GREEN_SHELL))
    elif item == "lightning":  # MK-9
        victim = rnd.next_seat(seat)
        while victim != seat:
            rnd.draw(victim, 1, "lightning")
            victim = rnd.next_seat(victim)
        if not last:
            rnd.give_turn(seat)
    elif not last:  # MK-10 Bob-omb
        rnd.draw(seat, 2, "bob_omb")
        rnd.ask(Pending(COLOUR, seat, reason=Reason.BOB_OMB))


def green_shell_hits(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """MK-8: the chosen opponent draws one; the Item Box player's turn is over."""
    assert action.target is not None
    rnd.draw(action.target, 1, "green_shell")
    rnd.pass_turn(seat)


def turn_over(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """The colour after a Bob-omb (MK-10) or a flip-less Item Box is chosen: the turn is over."""
    rnd.pass_turn(seat)


class MarioKart(Variant):
    key = "mario_kart"
    title = "UNO Mario Kart"
    table = MARIO_KART_DECK
    has_items = True
    redraw_first = frozenset({Face.WILD_DRAW4})  # MK-3
    penalty_cards: ClassVar = PenaltyCards(Face.DRAW2, 2, Face.WILD_DRAW4, 4, Face.SKIP, Face.REVERSE, draw4_guilty)
    continuations: ClassVar[dict[Reason, Continuation]] = {
        **Variant.continuations,
        Reason.GREEN_SHELL: green_shell_hits,
        Reason.BOB_OMB: turn_over,
        Reason.PLAIN_WILD: turn_over,
    }

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            **{n: CardRule(no_effect) for n in NUMBERS},
            Face.SKIP: CardRule(skip),
            Face.REVERSE: CardRule(reverse),
            Face.DRAW2: CardRule(draw_and_skip(2)),
            Face.WILD_DRAW4: CardRule(challengeable_draw(4, draw4_guilty), needs_colour=True),
            # The Item Box takes its colour from the flip.  Played as a last card, it cannot ask
            # its player (whose hand is empty) anything later, so the Green Shell's victim is
            # named with the play itself (C-13).
            Face.ITEM_BOX: CardRule(item_box, target=Target.WITH_LAST_CARD),
        }
