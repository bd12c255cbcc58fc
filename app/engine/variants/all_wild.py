"""UNO All Wild (RULES.md §4): no colours, no numbers, every card wild."""

from __future__ import annotations

from ..actions import Action
from ..cards import ALL_WILD_DECK
from ..round import TARGET, Pending, Round
from .base import Effect, Variant, draw_and_skip, no_effect, reverse, skip, swap_with_target

ACTION_FACES = frozenset(
    {"wild_reverse", "wild_skip", "wild_draw2", "wild_draw4", "wild_skip2", "wild_targeted_draw2",
     "wild_forced_swap"}
)


class AllWild(Variant):
    key = "all_wild"
    title = "UNO All Wild"
    table = ALL_WILD_DECK
    voluntary_draw = False  # AW-5
    target_faces = frozenset({"wild_targeted_draw2", "wild_forced_swap"})

    stack_draws = {"wild_draw2": 2, "wild_draw4": 4}  # noqa: RUF012

    def build_effects(self) -> dict[str, Effect]:
        return {
            "wild": no_effect,
            "wild_reverse": reverse,
            "wild_skip": skip,
            "wild_draw2": draw_and_skip(2),
            "wild_draw4": draw_and_skip(4),
            "wild_skip2": skip_two,
            "wild_targeted_draw2": targeted_draw2,
            "wild_forced_swap": swap_with_target,
        }

    def needs_target(self, face: str, last: bool) -> bool:
        return face in ("wild_targeted_draw2", "wild_forced_swap")

    def swaps(self, face: str) -> bool:
        return face == "wild_forced_swap"

    def special_draw_allowed(self, rnd: Round, seat: int) -> bool:
        """AW-6: only plain Wilds in hand, the next player on one card, and a card to draw."""
        cards = self.cards
        return (
            len(rnd.hands[rnd.next_seat(seat)]) == 1
            and all(cards[c].face == "wild" for c in rnd.hands[seat])
            and rnd.can_draw()
        )

    def first_card(self, rnd: Round, card: int) -> None:
        """AW-4: the first card acts as if the dealer had played it."""
        face = self.cards[card].face
        dealer = rnd.dealer
        if face == "wild_reverse":
            rnd.direction = -1
            rnd.emit("reverse", {"direction": -1})
            rnd.give_turn(dealer)
        elif face in ("wild_targeted_draw2", "wild_forced_swap"):
            reason = "first_targeted" if face == "wild_targeted_draw2" else "first_swap"
            rnd.ask(Pending(TARGET, dealer, reason=reason))
        elif face == "wild":
            rnd.give_turn(rnd.next_seat(dealer))
        else:  # skip, double skip, draw two, draw four
            self.effects[face](rnd, dealer, card, Action("play", card), False)


def skip_two(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
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


def targeted_draw2(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """AW-2: the chosen opponent draws 2 and keeps their turn."""
    assert action.target is not None
    rnd.draw(action.target, 2, "targeted_draw2")
    if not last:
        rnd.pass_turn(seat)
