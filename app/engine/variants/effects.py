"""Card effects more than one edition (or house rule) uses.

An effect is a plain function of the round, called once the card lies on the discard pile:
(round, seat that played, card id, the play action, was it the seat's last card).  A last
card's effect must not hand anyone a turn: the round ends right after it (C-13).
"""

from __future__ import annotations

from ..actions import Action
from ..card_rules import Effect
from ..state import RoundState


def no_effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    if not last:
        rnd.pass_turn(seat)


def skip(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """C-9: the next player loses their turn."""
    if not last:
        rnd.pass_turn(seat, skip_next=1)


def reverse(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """C-1 / C-10: flip the direction; with two players it acts as a Skip."""
    rnd.direction = -rnd.direction
    rnd.emit("reverse", {"direction": rnd.direction})
    if not last:
        rnd.pass_turn(seat, skip_next=1 if rnd.players == 2 else 0)


def draw_and_skip(count: int) -> Effect:
    """C-9: the next player draws ``count`` and loses their turn (the draw survives C-13)."""

    def effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
        rnd.draw(rnd.next_seat(seat), count, "card")
        if not last:
            rnd.pass_turn(seat, skip_next=1)

    return effect


def swap_with_target(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """Forced Swap (AW-2) and Seven-O's 7: swap hands with the chosen player; nobody loses a turn.

    Void as a last card (C-13).
    """
    if last:
        return
    assert action.target is not None
    rnd.swap_hands(seat, action.target)
    rnd.emit("swap", {"seat": seat, "target": action.target})
    rnd.pass_turn(seat)
