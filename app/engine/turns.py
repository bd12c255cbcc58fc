"""The turn and decision actions every edition shares, and the end of a round.

One handler per action kind (``HANDLERS``); what a card does is its ``CardRule.effect``,
and what follows a colour, target, pass or challenge decision is the edition's continuation
for the decision's reason (a challenge's: for its kind, ``variants/challenge.py``) — nothing
here knows any edition's cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import actions as A
from .actions import Action
from .events import Event
from .pending import DRAWN, SPECIAL, TURN, Pending
from .state import RoundState, new_event


def play(rnd: RoundState, seat: int, action: Action) -> None:
    card, more = action[1], action[5]  # action.card, action.more: by index, as NamedTuple attributes are slow
    assert card is not None
    hand = rnd.hands[seat]
    rnd.touched.setdefault(seat, len(hand))  # as take_from_hand, inlined: every play comes here
    if more:  # HR-8: a batch (only a table with batches accepts one); only its last card acts
        batches = rnd.book.batches
        assert batches is not None
        batches.lay(rnd, seat, action)
        put_down(rnd, seat, more[-1], action, batch=(card, *more))
        return
    hand.remove(card)
    p = rnd.pending
    if p is not None and p.seat != seat and p.kind == TURN:  # Jump-In: the turn jumps to this seat
        rnd.emit("jump_in", {"seat": seat, "skipped": p.seat})
        rnd.current = seat
    put_down(rnd, seat, card, action)


def put_down(rnd: RoundState, seat: int, card: int, action: Action, batch: tuple[int, ...] = ()) -> None:
    discard = rnd.discard
    rnd.prev_top = discard[-len(batch)] if batch else discard[-1]  # the card the play (or batch) went on
    rnd.prev_colour = rnd.colour
    discard.append(card)
    _, _, colour, target, _, _ = action
    ct_colour = rnd.cards[card].colour
    rnd.colour = ct_colour if ct_colour is not None else colour
    card_json = rnd.variant.card_json
    data: dict[str, Any] = {"seat": seat, "card": card_json[card]}
    if colour is not None:
        data["colour"] = colour
    if target is not None:
        data["target"] = target
    if batch:  # HR-8: every card laid, in order; ``card`` is the last, the one that acts
        data["batch"] = [card_json[c] for c in batch]
    rnd.events.append(new_event(Event, ("play", data, None)))  # rnd.emit, inlined: every play comes here
    if batch:
        batches = rnd.book.batches
        assert batches is not None
        batches.bomb(rnd, seat, len(batch))  # HR-9
    last = not rnd.hands[seat]
    rnd.rules.by_card[card].effect(rnd, seat, card, action, last)
    if last:
        finish(rnd, seat)


def draw(rnd: RoundState, seat: int, action: Action) -> None:
    got = rnd.draw(seat, 1, "turn")
    # The draw_until_playable house rule: the draw goes on until a playable card comes, or the
    # hand limit (HR-12) is reached.
    book = rnd.book
    if book.draw_until_playable:  # rnd.playable and at_limit, inlined: a draw takes several cards here
        cards, limit, hand = rnd.cards, book.hand_limit, rnd.hands[seat]
        # A reshuffle keeps the top card, and no draw changes the colour.
        top_face = cards[rnd.discard[-1]].face
        while got:
            ct = cards[got[0]]
            if ct.colour is None or ct.colour == rnd.colour or ct.face == top_face:
                break
            if limit is not None and len(hand) >= limit:
                break
            got = rnd.draw(seat, 1, "turn")
    # All Wild draws on a turn only when a restricted last card is all it holds (HR-15): the turn ends.
    # C-6: a playable card drawn is offered; HR-32: even an unplayable one; HR-33: none, the draw ends the
    # turn (HX-2).
    if got and rnd.variant.voluntary_draw and not book.blind_draw and (book.no_hints or rnd.playable(got[0])):
        rnd.ask(drawn_decision(seat, got[0]))
    else:
        rnd.pass_turn(seat)


def drawn_decision(seat: int, card: int) -> Pending:
    """``Pending(DRAWN, seat, card=card)``, made once per seat and card (a NamedTuple's ``__new__``
    is slow)."""
    found = _DRAWN.get((seat, card))
    if found is None:
        found = _DRAWN[seat, card] = Pending(DRAWN, seat, card=card)
    return found


_DRAWN: dict[tuple[int, int], Pending] = {}


def keep(rnd: RoundState, seat: int, action: Action) -> None:
    rnd.emit("keep", {"seat": seat})
    rnd.pass_turn(seat)


def special_draw(rnd: RoundState, seat: int, action: Action) -> None:
    got = rnd.draw(seat, 1, "special")
    rnd.ask(Pending(SPECIAL, seat, card=got[0]))


def accept(rnd: RoundState, seat: int, action: Action) -> None:
    p = rnd.pending
    assert p is not None
    rnd.emit("accept", {"seat": seat})
    rnd.draw(seat, p.penalty, "penalty")
    rnd.pass_turn(seat)


def choose_colour(rnd: RoundState, seat: int, action: Action) -> None:
    p = rnd.pending
    assert p is not None and p.reason is not None
    rnd.colour = action.colour
    rnd.emit("colour", {"seat": seat, "colour": action.colour, "reason": p.reason.value})
    rnd.variant.continuation(p.reason)(rnd, seat, p, action)


def follow_up(rnd: RoundState, seat: int, action: Action) -> None:
    """A target chosen, a card to pass chosen, a challenge made: the edition that asked carries on
    (a decision asked with no reason, the challenge, is continued by its kind)."""
    p = rnd.pending
    assert p is not None
    rnd.variant.continuation(p.reason if p.reason is not None else p.kind)(rnd, seat, p, action)


HANDLERS: dict[str, Callable[[RoundState, int, Action], None]] = {
    A.PLAY: play,
    A.PLAY_DRAWN: play,
    A.DRAW: draw,
    A.KEEP: keep,
    A.SPECIAL_DRAW: special_draw,
    A.ACCEPT: accept,
    A.CHALLENGE: follow_up,
    A.CHOOSE_COLOUR: choose_colour,
    A.CHOOSE_TARGET: follow_up,
    A.PASS_CARD: follow_up,
}


def finish(rnd: RoundState, winner: int) -> None:
    """C-13 / C-14: the round ends; the winner scores what is left in the other hands — under
    HR-27 its team scores the other teams' hands, and the round's points are what its seats'
    totals gain together (``Rulebook.scoring``'s ``gains``: the one figure every reader shows for
    the round)."""
    rnd.winner = winner
    rnd.pending = None
    rnd.exposed.clear()
    rnd.declared.clear()
    values = rnd.cards
    card_json = rnd.variant.card_json
    left = {s: [card_json[c] for c in hand] for s, hand in enumerate(rnd.hands) if s != winner}
    book = rnd.book
    scoring = book.scoring
    rnd.points = sum(scoring.gains(winner, [sum(values[c].value for c in hand) for hand in rnd.hands]))
    over: dict[str, Any] = {"winner": winner, "points": rnd.points, "hands": left}
    if book.teams is not None:  # HR-27: the points are the team's, so the log names it
        over["team"] = sorted(book.teams.team_of(winner))
    if scoring.penalty:  # HR-23: the points are the others' own, not the winner's
        over["penalty"] = True
    rnd.emit("round_over", over)
