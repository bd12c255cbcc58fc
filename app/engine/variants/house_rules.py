"""House rules that change what cards do (RULES.md §6): stacking and Seven-O.

They are applied to an edition's card rules as a table edit (``with_house``), so the
round asks every card the same questions whatever the options; Jump-In and
draw-until-playable change who may play and how a draw ends, in ``legality.py`` and
``turns.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..actions import Action
from ..cards import Face
from ..house import HouseRules
from ..pending import STACK, Pending
from ..state import CardRule, Effect, HandAfter, RoundState, Target
from .effects import swap_with_target


def stacking_draw(count: int) -> Effect:
    """Stacking: the next player answers with the same Draw card or takes the whole pile-up."""

    def effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
        rnd.stack += count
        victim = rnd.next_seat(seat)
        if last:
            total, rnd.stack = rnd.stack, 0
            rnd.draw(victim, total, "card")
            return
        rnd.ask(Pending(STACK, victim, penalty=rnd.stack))

    return effect


def pass_hands_on(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """Seven-O: a 0 passes every hand to the next player in the direction of play."""
    if last:
        return
    rnd.rotate_hands()
    rnd.emit("hands_passed", {"seat": seat, "direction": rnd.direction})
    rnd.pass_turn(seat)


# Seven-O: a 7 names the player to swap with; a 0 leaves you the previous seat's hand.
SEVEN = CardRule(swap_with_target, target=Target.ALWAYS, hand_after=HandAfter.TARGETS)
ZERO = CardRule(pass_hands_on, hand_after=HandAfter.PREVIOUS_SEATS)


def with_house(rules: Mapping[Face, CardRule], house: HouseRules,
               stack_draws: Mapping[Face, int]) -> dict[Face, CardRule]:
    """An edition's card rules with the house rules that change card effects switched on.

    ``stack_draws``: the edition's unchallengeable Draw faces and what each makes one draw.
    """
    out = dict(rules)
    if house.stacking:
        for face, count in stack_draws.items():
            out[face] = replace(out[face], effect=stacking_draw(count))
    if house.seven_o:
        if Face.SEVEN in out:
            out[Face.SEVEN] = replace(SEVEN, needs_colour=out[Face.SEVEN].needs_colour)
        if Face.ZERO in out:
            out[Face.ZERO] = replace(ZERO, needs_colour=out[Face.ZERO].needs_colour)
    return out
