"""Pocket Pizza's Wild Dip Into The Deck (RULES.md PP-4), whole.

- PP-4: the card declares the colour (C-7); its player draws one card and passes one card of
  their choice from the hand (possibly the drawn one) to the next player, who keeps their turn.
  The pass is a ``pass`` decision (``Reason.DIP``), answered with ``pass_card``; the card goes to
  the next player with a public ``pass`` event and a private ``passed`` one (giver and receiver
  see the card).
- After the dip the hand is back to its size (``HandAfter.SAME``), so UNO is said with the pass,
  not with the play (docs/ENGINE.md, "Decisions the engine makes"); a pass that leaves one card
  exposes its giver (C-12).
- C-13: played as the last card the dip is void.  A card drawn by a dip comes in face up even
  under HR-33's blind draw (HX-11: ``house/face_down.py``'s ``FACE_UP_DRAWS`` names the draw).

The edition wires it in its table (``variants/pocket_pizza.py``): the card's ``RULE`` and the
continuation of ``Reason.DIP``.
"""

from __future__ import annotations

from ..actions import Action
from ..card_rules import CardRule, HandAfter
from ..pending import PASS, Pending, Reason
from ..state import RoundState


def dip(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
    """PP-4: draw one card, then pass one card to the next player (who keeps their turn)."""
    if last:  # C-13: void as a last card
        return
    rnd.draw(seat, 1, "dip")
    rnd.ask(Pending(PASS, seat, reason=Reason.DIP))


# After a dip the hand is back to its size: UNO is said with the pass instead.
RULE = CardRule(dip, needs_colour=True, hand_after=HandAfter.SAME)


def pass_on(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """PP-4: the chosen card goes to the next player; then it is their turn as usual."""
    card = action.card
    assert card is not None
    to = rnd.next_seat(seat)
    rnd.take_from_hand(seat, card)
    rnd.touched.setdefault(to, len(rnd.hands[to]))  # the UNO window looks at both hands (uno.py)
    rnd.hands[to].append(card)
    rnd.emit("pass", {"seat": seat, "to": to})
    rnd.emit("passed", {"seat": seat, "to": to, "card": rnd.variant.card_json[card]}, (seat, to))
    rnd.pass_turn(seat)
