"""Mario Kart's items and its Wild Item Box (RULES.md MK-2, MK-5..MK-10), whole.

- MK-2: every card carries an item fixed by its colour (``ITEMS``; every wild a Bob-omb), shown
  on each card of the edition (``item``); items do nothing in normal play.
- MK-5: an Item Box matches any card; played, the draw pile's top card is flipped onto the
  discard pile (its colour is the one to match) and its item fires at once; its own action is not
  performed.  With nothing to flip even after C-8, the Item Box is a plain wild: its player
  declares a colour (a ``colour`` decision, ``Reason.PLAIN_WILD``).
- MK-6 Mushroom: the player takes another turn.  MK-7 Banana Peel: the seat before the player
  draws 2.  MK-8 Green Shell: the player names an opponent (a ``target`` decision,
  ``Reason.GREEN_SHELL``), who draws 1.  MK-9 Lightning: everyone else draws 1, then the player
  takes another turn.  MK-10 Bob-omb: the player draws 2 and declares the colour (a ``colour``
  decision, ``Reason.BOB_OMB``).
- C-13: played as the last card, only the draws it puts on others happen; its player is never
  asked anything later, so a Green Shell's victim is named with the play itself
  (``Target.WITH_LAST_CARD``).

The edition wires it in its table (``variants/mario_kart.py``): the Item Box's ``CardRule``, the
``continuations`` of its three reasons, and the cards' ``item``.  MK-4 (an Item Box held makes a
Wild Draw Four guilty) is the challenge's (``variants/challenge.py``).
"""

from __future__ import annotations

from ..actions import Action
from ..card_rules import CardRule, Target
from ..pending import COLOUR, TARGET, Pending, Reason
from ..state import RoundState

# MK-2: the item each card carries, by its colour; every wild carries a Bob-omb.
ITEMS: dict[str | None, str] = {
    "red": "mushroom",
    "yellow": "banana_peel",
    "green": "green_shell",
    "blue": "lightning",
    None: "bob_omb",
}


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


# The Item Box takes its colour from the flip.  Played as a last card, it cannot ask its player
# (whose hand is empty) anything later, so the Green Shell's victim is named with the play itself
# (C-13).
RULE = CardRule(item_box, target=Target.WITH_LAST_CARD)


def green_shell_hits(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """MK-8: the chosen opponent draws one; the Item Box player's turn is over."""
    assert action.target is not None
    rnd.draw(action.target, 1, "green_shell")
    rnd.pass_turn(seat)


def turn_over(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """The colour after a Bob-omb (MK-10) or a flip-less Item Box is chosen: the turn is over."""
    rnd.pass_turn(seat)
