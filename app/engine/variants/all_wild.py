"""UNO All Wild (RULES.md §4): no colours, no numbers, every card wild."""

from __future__ import annotations

from typing import ClassVar

from ..actions import PLAY, Action
from ..card_rules import CardRule, HandAfter, Target
from ..cards import ALL_WILD_DECK, Face
from ..penalty_cards import PenaltyCards
from ..pending import TARGET, Pending, PendingKind, Reason
from ..state import Continuation, RoundState, SpecialDraw
from .base import Variant
from .effects import draw_and_skip, no_effect, reverse, skip, swap_with_target


def skip_two(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """AW-2: the next two opponents' turns are lost (two players: the opponent loses two)."""
    if last:
        return
    owed: list[int] = []
    s = seat
    while len(owed) < 2:
        s = rnd.next_seat(s)
        if s != seat:
            owed.append(s)
    for s in owed:
        rnd.owed[s] += 1
    rnd.pass_turn(seat)


def targeted_draw2(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """AW-2: the chosen opponent draws 2 and keeps their turn."""
    assert action.target is not None
    rnd.draw(action.target, 2, "targeted_draw2")
    if not last:
        rnd.pass_turn(seat)


def first_targeted(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """AW-4: the dealer named the victim of a first Targeted Draw Two; the dealer's left plays."""
    assert action.target is not None
    rnd.draw(action.target, 2, "targeted_draw2")
    rnd.give_turn(rnd.next_seat(seat))


def first_swap(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """AW-4: the dealer swaps hands with the player named for a first Forced Swap; the dealer's left plays."""
    assert action.target is not None
    rnd.swap_hands(seat, action.target)
    rnd.emit("swap", {"seat": seat, "target": action.target})
    rnd.give_turn(rnd.next_seat(seat))


class AllWild(Variant):
    key = "all_wild"
    title = "UNO All Wild"
    table = ALL_WILD_DECK
    voluntary_draw = False  # AW-5
    special_draw: ClassVar[SpecialDraw | None] = SpecialDraw(Face.WILD, 1)  # AW-6: plain Wilds, next on one
    dealer_by_draw = False  # C-2: no numbers to draw
    # AW-3: nothing is challenged.
    penalty_cards: ClassVar = PenaltyCards(Face.WILD_DRAW2, 2, Face.WILD_DRAW4, 4, Face.WILD_SKIP,
                                           Face.WILD_REVERSE, None, colourless=True)
    continuations: ClassVar[dict[Reason | PendingKind, Continuation]] = {
        **Variant.continuations,
        Reason.FIRST_TARGETED: first_targeted,
        Reason.FIRST_SWAP: first_swap,
    }

    def card_rules(self) -> dict[Face, CardRule]:
        return {
            Face.WILD: CardRule(no_effect),
            Face.WILD_REVERSE: CardRule(reverse),
            Face.WILD_SKIP: CardRule(skip),
            Face.WILD_DRAW2: CardRule(draw_and_skip(2)),
            Face.WILD_DRAW4: CardRule(draw_and_skip(4)),
            Face.WILD_SKIP2: CardRule(skip_two),
            Face.WILD_TARGETED_DRAW2: CardRule(targeted_draw2, target=Target.ALWAYS),
            # The hand a Forced Swap leaves you with is the target's: UNO goes by it (AW-2).
            Face.WILD_FORCED_SWAP: CardRule(swap_with_target, target=Target.ALWAYS,
                                            hand_after=HandAfter.TARGETS),
        }

    def first_card(self, rnd: RoundState, card: int) -> None:
        """AW-4: the first card acts as if the dealer had played it."""
        face = self.cards[card].face
        dealer = rnd.dealer
        if face == Face.WILD_REVERSE:
            rnd.direction = -1
            rnd.emit("reverse", {"direction": -1})
            rnd.give_turn(dealer)
        elif face == Face.WILD_TARGETED_DRAW2:
            rnd.ask(Pending(TARGET, dealer, reason=Reason.FIRST_TARGETED))
        elif face == Face.WILD_FORCED_SWAP:
            rnd.ask(Pending(TARGET, dealer, reason=Reason.FIRST_SWAP))
        elif face == Face.WILD:
            rnd.give_turn(rnd.next_seat(dealer))
        else:  # skip, double skip, draw two, draw four: as played by the dealer
            self.rules[face].effect(rnd, dealer, card, Action(PLAY, card), False)
