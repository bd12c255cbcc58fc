"""What a seat may do now, judged one action at a time: the precise refusal of anything not allowed.

``refusal`` judges one action: None when it is legal, otherwise the ``IllegalAction`` that says why.
The listing of every allowed action, ``legal_actions``, is the engine's hot path and lives with its
speed devices in fast_path.py; both are built from the same questions — whose decision it is
(``DECISION_KINDS``), ``may_play``, ``answers``, ``jumps_in``, the card's ``CardRule`` and the UNO
window's ``may_declare`` / ``may_catch`` — and ``refusal(rnd, seat, a) is None`` exactly when
``a in legal_actions(rnd, seat)`` (tests/engine/test_legality.py checks it over random games).
"""

from __future__ import annotations

from . import actions as A
from .actions import Action
from .batch_offer import NO_BATCH
from .cards import COLOURS
from .errors import IllegalAction, Refusal
from .fast_path import SPECIAL_DRAW_IT
from .pending import (
    DECISION_KINDS,
    DECISION_WORDS,
    DRAWN,
    STACK,
    TURN,
)
from .plays import at_limit, may_keep, restricted_last
from .state import RoundState
from .uno import uno_refusal

# The actions that use a card of one's hand, which a face-down one (HR-33) cannot be.
FACE_UP_KINDS = frozenset({A.PLAY, A.PLAY_DRAWN, A.PASS_CARD})


# ---------------------------------------------------------------------- the shared questions


def may_play(rnd: RoundState, card: int) -> bool:
    """C-5 on one's turn (``RoundState.playable``)."""
    return rnd.playable(card)


def answers(rnd: RoundState, card: int) -> bool:
    """Does the card answer the penalty pending now?  Only the stacking family (house/stacking.py)
    allows answers: the rule table carries it."""
    return rnd.rules.stacking.answers(rnd, card)


def jumps_in(rnd: RoundState, card: int) -> bool:
    """House rule Jump-In: an exact duplicate of the top card, out of turn (not a wild): one of its twins."""
    return card in rnd.rules.twins[rnd.discard[-1]]


def may_special_draw(rnd: RoundState, seat: int) -> bool:
    return not rnd.variant.voluntary_draw and rnd.variant.special_draw_allowed(rnd, seat)


# ---------------------------------------------------------------------- refusal


def refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """None if ``seat`` may take ``action`` now; otherwise the precise reason it may not."""
    if action.kind == A.BLITZ_EXPIRY:  # HR-25: no seat's action, whoever sends it (match.apply agrees)
        return IllegalAction(Refusal.BAD_ACTION, A.BLITZ_BY_CLOCK_ONLY)
    if not 0 <= seat < rnd.n:
        return IllegalAction(Refusal.BAD_SEAT, f"There is no seat {seat}.")
    if seat in rnd.out:
        return IllegalAction(Refusal.ELIMINATED, "You are out of the match; you can watch and chat.")
    p = rnd.pending
    if rnd.winner is not None or p is None:
        return IllegalAction(Refusal.ROUND_OVER, "The round is over.")
    kind = action.kind
    if action.more:
        return _batch_refusal(rnd, seat, action)
    if kind in A.UNO_KINDS:
        return uno_refusal(rnd, seat, action)
    card = action.card
    hand = rnd.hands[seat]
    if kind in FACE_UP_KINDS and card in rnd.face_down.by_seat[seat]:  # before anything its face would decide
        return IllegalAction(Refusal.CARD_FACE_DOWN, "That card is face down: it can be played or passed "
                             "only once it turns up, on your next turn.")
    if p.seat != seat:
        if kind == A.PLAY and rnd.book.jump_in and card in hand and jumps_in(rnd, card):
            if p.kind != TURN:  # D-12: a jump-in lands only on a plain turn (§6.1)
                return IllegalAction(Refusal.WRONG_ACTION,
                                     "A jump-in is only allowed while a player owes a plain turn.",
                                     decision=str(p.kind))
            refused = _option_refusal(rnd, seat, action)
            if refused is None or refused.code == Refusal.FINISH_RESTRICTED:
                return refused
        return IllegalAction(Refusal.NOT_YOUR_TURN, f"Waiting for seat {p.seat} to {DECISION_WORDS[p.kind]}.",
                             seat=p.seat, decision=str(p.kind))
    if kind not in DECISION_KINDS[p.kind]:
        if kind == A.PLAY and p.draw_kind is not None and card in hand:  # a penalty T a card may answer
            return _option_refusal(rnd, seat, action) if answers(rnd, card) else _no_answer()
        return IllegalAction(Refusal.WRONG_ACTION, f"Now you must {DECISION_WORDS[p.kind]}.",
                             decision=str(p.kind))
    if kind in (A.DRAW, A.SPECIAL_DRAW) and at_limit(rnd, seat):
        return IllegalAction(Refusal.HAND_LIMIT, f"Hand limit: with {rnd.book.hand_limit} cards or more "
                             "you may not draw on your turn.")
    holds_a_play = kind == A.DRAW and any(may_play(rnd, c) and not restricted_last(rnd, seat, c)
                                          for c in rnd.face_up(seat))  # HR-10: a face-down card is no play
    if kind == A.DRAW and not rnd.variant.voluntary_draw and (
            holds_a_play or rnd.variant.special_draw_allowed(rnd, seat)):
        return IllegalAction(Refusal.MUST_PLAY, "In this edition you must play a card; you may not draw.")
    if kind == A.DRAW and holds_a_play and rnd.book.forced_play:
        return IllegalAction(Refusal.MUST_PLAY, "Forced play: you hold a card you can play, so play it.")
    if kind == A.KEEP and p.card is not None and may_play(rnd, p.card) and not may_keep(rnd, seat, p.card):
        return IllegalAction(Refusal.MUST_PLAY,
                             "Play what you draw: the card you drew can be played, so play it.")
    if kind == A.SPECIAL_DRAW:
        if action == SPECIAL_DRAW_IT and may_special_draw(rnd, seat):
            return None
        return IllegalAction(Refusal.SPECIAL_DRAW_NOT_ALLOWED,
                             "The special draw needs a hand of plain Wilds and a next player on one card.")
    if kind == A.CHOOSE_TARGET:
        if action == Action(A.CHOOSE_TARGET, target=action.target) and action.target in rnd.opponents(seat):
            return None
        return IllegalAction(Refusal.BAD_TARGET, "Choose one of your opponents.")
    if kind in (A.PLAY, A.PASS_CARD) and card not in hand:
        return IllegalAction(Refusal.CARD_NOT_IN_HAND, "That card is not in your hand.")
    if kind == A.PLAY_DRAWN and card != p.card:
        return IllegalAction(Refusal.NOT_DRAWN_CARD, "You may only play the card you just drew.")
    if kind == A.PLAY_DRAWN and p.kind == DRAWN and card is not None and not may_play(rnd, card):  # HR-32
        return IllegalAction(Refusal.CARD_NOT_PLAYABLE, "The card you drew does not match: keep it.")
    # C-5 is for a turn; what answers a penalty (STACK) is the stacking family's test, below.
    if kind == A.PLAY and card is not None and p.kind == TURN and not may_play(rnd, card):
        return IllegalAction(Refusal.CARD_NOT_PLAYABLE,
                             "That card does not match the colour, number or symbol.")
    if kind in (A.PLAY, A.PLAY_DRAWN):
        assert card is not None
        if p.kind == STACK and not answers(rnd, card):
            return _no_answer()
        return _option_refusal(rnd, seat, action)
    elif kind == A.CHOOSE_COLOUR:
        if action.colour not in COLOURS:
            return IllegalAction(Refusal.BAD_COLOUR, f"Colours are {', '.join(COLOURS)}.")
        if action == Action(A.CHOOSE_COLOUR, colour=action.colour):
            return None
    elif kind == A.PASS_CARD:
        if action == Action(A.PASS_CARD, card, uno=action.uno) and (
                not action.uno or (len(hand) == 2 and rnd.calls.with_play)):
            return None
    elif action == Action(kind):  # draw, keep, accept, challenge: nothing to add
        return None
    if action.uno:
        if not rnd.calls.with_play:
            return no_uno_with_actions(rnd)
        return IllegalAction(Refusal.UNO_NOT_ALLOWED,
                             "UNO can only be said with a play that leaves you one card.")
    return IllegalAction(Refusal.ILLEGAL_ACTION, "That is not allowed now.")


def _batch_refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """HR-8: a play with ``more`` is judged whole by the table's ``Batches`` hook (house/volume.py); without
    one it is no action at all."""
    batches = rnd.book.batches
    if batches is None:
        return IllegalAction(Refusal.BAD_ACTION, NO_BATCH)
    return batches.refusal(rnd, seat, action)


def no_uno_with_actions(rnd: RoundState) -> IllegalAction:
    """HR-17, HR-18: ``uno: true`` is refused on every action."""
    if rnd.calls.exposes:
        return IllegalAction(Refusal.UNO_NOT_ALLOWED,
                             "Strict UNO!: declare only once you hold one card, on its own.")
    return IllegalAction(Refusal.UNO_NOT_ALLOWED, "No UNO! is said or caught at this table.")


def _no_answer() -> IllegalAction:
    """D-12: a card that does not answer the pending penalty."""
    return IllegalAction(Refusal.CARD_NOT_PLAYABLE, "That card does not answer the penalty: take it, or "
                         "answer with a card the house rules allow.")


def _option_refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """Is ``action`` one of ``play_options`` for its card (held by ``seat``)?  Else why not."""
    card = action.card
    assert card is not None
    rule = rnd.rules.by_card[card]
    colour, target = action.colour, action.target
    if rule.needs_colour and colour is None:
        return IllegalAction(Refusal.COLOUR_REQUIRED, "Declare a colour with this card.")
    if colour is not None and not rule.needs_colour:
        return IllegalAction(Refusal.COLOUR_NOT_ALLOWED, "This card does not take a colour.")
    if colour is not None and colour not in COLOURS:
        return IllegalAction(Refusal.BAD_COLOUR, f"Colours are {', '.join(COLOURS)}.")
    last = len(rnd.hands[seat]) == 1
    if last and restricted_last(rnd, seat, card):
        return IllegalAction(Refusal.FINISH_RESTRICTED, "The house rules do not let you go out on this card.")
    if rule.needs_target(last):
        if target is None:
            return IllegalAction(Refusal.TARGET_REQUIRED, "Choose an opponent for this card.")
        if target == seat or not 0 <= target < rnd.n or target in rnd.out:  # D-12: an eliminated seat too
            return IllegalAction(Refusal.BAD_TARGET, "Choose one of your opponents still in the match.")
    elif target is not None:
        return IllegalAction(Refusal.TARGET_NOT_ALLOWED, "This card does not take a target.")
    if action.uno and not rnd.calls.with_play:
        return no_uno_with_actions(rnd)
    if action.uno and rnd.cards_left(rule, seat, target, last) != 1:
        return IllegalAction(Refusal.UNO_NOT_ALLOWED,
                             "UNO can only be said with a play that leaves you one card.")
    return None
