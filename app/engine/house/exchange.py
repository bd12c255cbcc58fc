"""The hand-exchange family (RULES.md §6 Seven-O, §7.2): a 7 swaps hands, a 0 passes every hand
to the next seat in the direction of play; HR-6 says which of them exchange (``seven_o_cards``),
HR-7 whom a 7 swaps with (``seven_target``).

- HR-6: ``seven`` — only a 7 swaps, a 0 is a plain number; ``zero`` — only a 0 passes hands.
- HR-7: ``next`` — the 7's player swaps with the next seat in the current direction (a jumped-in
  7: the seat next to the jumper); the play names no one, and a ``target`` is refused
  ``target_not_allowed``.  A received one-card hand is exposed anew (§6.1), a ``uno: true`` with
  the play covers the hand its player ends up with (D-11).
- A 7 or 0 turned as the first card is a plain number (§6.1, HX-6), and one played as the last
  card does nothing (HX-5): first cards never run a played card's effect, and a last card's
  exchange is void.

Hook: the rule table (``Rulebook.table``): ``edit`` gives the 7 and the 0 their effects, targets and
``HandAfter`` there (``table.py``), which the round, the listing and the views' card shapes read.

HR-6 and HR-7 are declared here, as the fields of ``ExchangeOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``); §6's ``seven_o``, which this module plays too,
in ``room.py``.  What it reads of a table's house rules is typed ``ExchangeReads``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from ..actions import Action
from ..card_rules import CardRule, HandAfter, Target
from ..cards import Face
from ..state import RoundState
from ..variants.effects import swap_with_target
from .declare import ALL_WILD, POCKET_PIZZA, Conflict, Family, declared, played_by
from .room import RoomOptions

EXCHANGE = Family("exchange")  # §7.2


@declared
@dataclass(frozen=True)
class ExchangeOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    seven_o_cards: str = EXCHANGE.choice("both", "seven", "zero", rules=("HR-6",), needs=("seven_o",),
                                         refused_by={ALL_WILD: ("seven", "zero"), POCKET_PIZZA: "zero"})
    seven_target: str = EXCHANGE.choice("chosen", "next", rules=("HR-7",), needs=("seven_o",),
                                        conflicts=(Conflict("seven_o_cards", ("zero",)),),
                                        refused_by={ALL_WILD: "next"})


class ExchangeReads(Protocol):
    """What the family reads of a table's house rules: §6's ``seven_o`` and its own options (a protocol:
    ``HouseRules``, which holds both, sits above this module)."""

    @property
    def seven_o(self) -> bool: ...
    @property
    def seven_o_cards(self) -> str: ...
    @property
    def seven_target(self) -> str: ...


# The options this module plays, in the order of ``HouseRules``' fields.
OPTIONS: tuple[str, ...] = (*played_by(RoomOptions, "exchange"), *played_by(ExchangeOptions, "exchange"))


def pass_hands_on(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """Seven-O: a 0 passes every hand to the next player in the direction of play (void as a last card)."""
    if last:
        return
    rotate_hands(rnd)
    rnd.emit("hands_passed", {"seat": seat, "direction": rnd.direction})
    rnd.pass_turn(seat)


def rotate_hands(rnd: RoundState) -> None:
    """Every hand of a seat still in moves on to the next seat in the direction of play, each holder to
    declare its new hand anew (C-11)."""
    moved: list[list[int]] = [[] for _ in range(rnd.n)]
    for s, hand in enumerate(rnd.hands):
        if s not in rnd.out:
            moved[rnd.next_seat(s)] = hand
    rnd.hands = moved
    for s in range(rnd.n):
        if s not in rnd.out:
            rnd.touched[s] = -1


def swap_with_next(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """HR-7 ``next``: the 7's player swaps hands with the next seat (void as a last card)."""
    if last:
        return
    target = rnd.next_seat(seat)
    rnd.swap_hands(seat, target)
    rnd.emit("swap", {"seat": seat, "target": target})
    rnd.pass_turn(seat)


# A 7 names the player to swap with (or swaps with the next seat); a 0 leaves you the previous seat's hand.
SEVEN = CardRule(swap_with_target, target=Target.ALWAYS, hand_after=HandAfter.TARGETS)
SEVEN_NEXT = CardRule(swap_with_next, hand_after=HandAfter.NEXT_SEATS)
ZERO = CardRule(pass_hands_on, hand_after=HandAfter.PREVIOUS_SEATS)


def edit(rules: dict[Face, CardRule], house: ExchangeReads) -> None:
    """Give the edition's 7 and 0 (where it has them) their Seven-O rules."""
    if not house.seven_o:
        return
    seven = SEVEN_NEXT if house.seven_target == "next" else SEVEN
    exchanging = {"both": ((Face.SEVEN, seven), (Face.ZERO, ZERO)), "seven": ((Face.SEVEN, seven),),
                  "zero": ((Face.ZERO, ZERO),)}[house.seven_o_cards]
    for face, rule in exchanging:
        if face in rules:
            rules[face] = replace(rule, needs_colour=rules[face].needs_colour)
