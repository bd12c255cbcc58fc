"""The challenge of a big Draw (RULES.md CL-5, CL-6; MK-4; PP-5, PP-6), whole: what makes the
play illegal in each edition, the decision it opens, and what a challenge does.

- The big Draw (Classic's and Mario Kart's Wild Draw Four, Pocket Pizza's Wild Draw 2) puts its
  penalty on the next seat, which owes a ``challenge`` decision: ``accept`` (draw the penalty,
  lose the turn: the turn handlers' ``accept``, shared with the stacking family's ``stack``) or
  ``challenge``.  As a last card it cannot be challenged: its draw happens at once (C-13).
- Guilt is judged when the card is played, against the hand it was played from, the colour and
  top card it replaced (``prev_colour``, ``prev_top``), and kept secret in the decision with
  that hand as its evidence (docs/ENGINE.md, "Decisions the engine makes"). Each edition's test
  is here: CL-5 a card of the colour; MK-4 that, or an Item Box; PP-5 any other playable card.
- A challenge shows the challenger the evidence (a private ``hand_revealed`` event and the
  view's ``revealed``), then settles: guilty, the challenged seat draws the penalty and the
  challenger plays; innocent, the challenger draws it plus 2 and loses the turn (CL-6, PP-6).

The editions wire it in their tables (``variants/classic.py``, ``mario_kart.py``,
``pocket_pizza.py``): the big Draw's ``CardRule`` takes ``draw``, its guilt goes in the edition's
``PenaltyCards`` (the stacking family asks a challenge for an answering big Draw with ``ask``,
house/stacking.py), and its ``continuations`` register ``resolve`` for the ``challenge``
decision (a decision asked with no reason is continued by its kind).  HR-11 asks ``guilty_now``
(through ``Variant.guilty_now``); under HR-33 the challenger sees face-down evidence by count
only (D-5, ``FaceDown.shown``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..card_rules import Effect
from ..cards import Face
from ..penalty_cards import Guilt
from ..pending import CHALLENGE, DrawKind, Pending
from ..state import RoundState


def colour_held(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """CL-5: a Wild Draw Four is illegal while holding a card of the colour it replaced."""
    cards = rnd.cards
    return any(cards[c].colour == colour for c in hand)


def colour_or_item_box_held(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """MK-4: as CL-5, and an Item Box in hand counts as a card of the colour."""
    cards = rnd.cards
    return any(cards[c].colour == colour or cards[c].face == Face.ITEM_BOX for c in hand)


def other_play_held(rnd: RoundState, hand: Sequence[int], colour: str | None, top: int) -> bool:
    """PP-5: a Wild Draw 2 is illegal while holding any other card that could have been played."""
    cards = rnd.cards
    top_face = cards[top].face
    return any(cards[c].colour is None or cards[c].colour == colour or cards[c].face == top_face
               for c in hand)


def ask(rnd: RoundState, seat: int, victim: int, penalty: int, guilty: bool,
        draw_kind: DrawKind | None = None) -> None:
    """``victim`` owes the challenge of the big Draw ``seat`` just played: accept ``penalty`` or
    challenge; the hand it was played from is the evidence."""
    rnd.ask(Pending(CHALLENGE, victim, challenged=seat, penalty=penalty, guilty=guilty,
                    evidence=tuple(rnd.hands[seat]), draw_kind=draw_kind))


def draw(count: int, guilty: Guilt) -> Effect:
    """The big Draw's effect (CL-5/CL-6, MK-4, PP-5/PP-6): the next player accepts the draw or
    challenges it.  ``guilty`` is the edition's test, run against the hand it was played from."""

    def effect(rnd: RoundState, seat: int, card: int, action: Action, last: bool) -> None:
        victim = rnd.next_seat(seat)
        if last:  # C-13: a last card cannot be challenged; its draw still happens
            rnd.draw(victim, count, "card")
            return
        ask(rnd, seat, victim, count, guilty(rnd, rnd.face_up(seat), rnd.prev_colour, rnd.prev_top))  # D-5

    return effect


def guilty_now(rnd: RoundState, big: Face, guilt: Guilt | None, seat: int, card: int) -> bool:
    """Would ``card``, played by ``seat`` now, be the edition's big Draw (``big``) a challenge finds
    guilty?  (HR-11 lets such a card be kept: ``Variant.guilty_now``.)"""
    if guilt is None or rnd.cards[card].face != big:
        return False
    return guilt(rnd, [c for c in rnd.hands[seat] if c != card], rnd.colour, rnd.discard[-1])


def resolve(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """CL-6, PP-6: ``seat`` challenged: it sees the evidence, and the guilty one draws."""
    challenged = pending.challenged
    assert challenged is not None
    evidence = rnd.face_down.shown(challenged, pending.evidence)  # D-5: face-down cards by count only
    rnd.reveal = (seat, challenged, evidence)
    data: dict[str, Any] = {"seat": challenged, "cards": [rnd.variant.card_json[c] for c in evidence]}
    if rnd.face_down.on:
        data["face_down"] = rnd.face_down.in_reveal
    rnd.emit("hand_revealed", data, (seat,))
    rnd.emit("challenge", {"seat": seat, "against": challenged, "guilty": pending.guilty})
    if pending.guilty:
        rnd.draw(challenged, pending.penalty, "challenge_lost")
        rnd.give_turn(seat)
    else:
        rnd.draw(seat, pending.penalty + 2, "challenge_lost")
        rnd.pass_turn(seat)
