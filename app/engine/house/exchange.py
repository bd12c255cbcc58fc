"""The hand-exchange family (RULES.md §6 Seven-O): a 7 swaps hands with a chosen player, a 0
passes every hand to the next seat in the direction of play.

A 7 or 0 turned as the first card is a plain number (§6.1): first cards never run a played
card's effect.
"""

from __future__ import annotations

from dataclasses import replace

from ..actions import Action
from ..cards import Face
from ..state import CardRule, HandAfter, RoundState, Target
from ..variants.effects import swap_with_target
from .options import HouseRules

OPTIONS = ("seven_o",)


def pass_hands_on(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """Seven-O: a 0 passes every hand to the next player in the direction of play (void as a last card)."""
    if last:
        return
    rnd.rotate_hands()
    rnd.emit("hands_passed", {"seat": seat, "direction": rnd.direction})
    rnd.pass_turn(seat)


# A 7 names the player to swap with; a 0 leaves you the previous seat's hand.
SEVEN = CardRule(swap_with_target, target=Target.ALWAYS, hand_after=HandAfter.TARGETS)
ZERO = CardRule(pass_hands_on, hand_after=HandAfter.PREVIOUS_SEATS)


def edit(rules: dict[Face, CardRule], house: HouseRules) -> None:
    """Give the edition's 7 and 0 (where it has them) their Seven-O rules."""
    if not house.seven_o:
        return
    for face, rule in ((Face.SEVEN, SEVEN), (Face.ZERO, ZERO)):
        if face in rules:
            rules[face] = replace(rule, needs_colour=rules[face].needs_colour)
