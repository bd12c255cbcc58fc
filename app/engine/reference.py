"""The legal actions written plainly from RULES.md: the reference the fast listing is proven equal to.

``reference_legal_actions(rnd, seat)`` lists what ``seat`` may do now the way a person would from the rules:
every card of the hand asked the rules' questions in turn, every ``Action`` made anew, nothing kept between
calls.  It asks the same rule objects the fast path does — each card's ``CardRule`` in the round's rule
table (the colour it declares, the opponent it names, the hand it leaves), the stacking family's
``answers``, the UNO! house rules (``RoundState.calls``), the edition (C-6's voluntary draw, AW-6) and the
house-rule families' own questions (HR-10 … HR-15, HR-33) — but none of the fast path's kept tables: not
``Round``'s kept listings, not ``plays.py``'s plays per card, seat and top card, not the rule table's
``options``, ``twins``, ``turn_plays`` or ``seat_plays``, not the stacking family's ``answering``.

``reference_batches(rnd, seat)`` lists HR-8's batches one by one, every order of their cards apart; the
engine describes them compactly instead (``batch_offer.py``'s ``BatchOffer``, one per group of the hand).

Nothing in play calls this module: it is documentation that runs.  tests/engine/test_reference.py plays
random rounds of every edition under random house rules and asserts at every step, for every seat, that
``legal_actions`` gives exactly this list (in this order: views carry it, and bots pick from it by
position) and that the batch offers stand for exactly these batches (docs/ENGINE.md, "The reference
listing").
"""

from __future__ import annotations

from itertools import permutations

from .actions import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOUR,
    CHOOSE_TARGET,
    DECLARE_UNO,
    DRAW,
    KEEP,
    PASS_CARD,
    PLAY,
    PLAY_DRAWN,
    SPECIAL_DRAW,
    Action,
)
from .card_rules import HandAfter
from .cards import COLOURS, NUMBERS
from .pending import CHALLENGE as CHALLENGE_DECISION
from .pending import COLOUR, DRAWN, PASS, SPECIAL, STACK, TARGET, TURN, Pending
from .plays import at_limit, may_keep, restricted_last
from .state import RoundState
from .uno import may_catch, may_declare


def reference_legal_actions(rnd: RoundState, seat: int) -> list[Action]:
    """Everything ``seat`` may do now but HR-8's batches: the pending decision's actions if it is ``seat``'s
    (or a jump-in on another seat's turn), then the UNO! calls open to it."""
    pending = rnd.pending
    # C-13: a finished round takes no more actions, nor does a dead one (HR-13: nothing pending); D-12: no
    # action comes from a seat the table does not have; HR-30: nor from a seat out of the match.
    if rnd.winner is not None or pending is None or not 0 <= seat < rnd.n or seat in rnd.out:
        return []
    actions: list[Action] = []
    if pending.seat == seat:
        actions += _decision(rnd, seat, pending)
    elif pending.kind == TURN and rnd.book.jump_in:
        actions += _jump_ins(rnd, seat)
    actions += _uno_calls(rnd, seat)
    return actions


# ---------------------------------------------------------------------- the decision the round waits for


def _decision(rnd: RoundState, seat: int, pending: Pending) -> list[Action]:
    """What the pending decision, ``seat``'s own, takes (``pending.DECISION_KINDS``)."""
    kind = pending.kind
    if kind == TURN:
        return _turn(rnd, seat)
    if kind == DRAWN:
        # C-6: the card just drawn may be played at once, that card only, if it matches (C-5); otherwise, or
        # by choice, it is kept.  HR-32 offers this decision for an unplayable card too: then only keep.
        # HR-11: a playable one must be played, but a big Draw a challenge would find guilty may be kept.
        assert pending.card is not None
        playable = rnd.playable(pending.card)
        out = _ways_to_play(rnd, PLAY_DRAWN, seat, pending.card) if playable else []
        if not playable or may_keep(rnd, seat, pending.card):
            out.append(Action(KEEP))
        return out
    if kind == SPECIAL:
        # AW-6: the card of the special draw must be played at once.
        assert pending.card is not None
        return _ways_to_play(rnd, PLAY_DRAWN, seat, pending.card)
    if kind == CHALLENGE_DECISION:
        # CL-6, PP-6: accept the big Draw's penalty or challenge it; HX-3: or answer it, which forfeits the
        # challenge.
        return [Action(ACCEPT), Action(CHALLENGE), *_answers(rnd, seat)]
    if kind == STACK:
        # §6.1, HX-3: accept the total T, or answer it as the stacking family allows (HR-1 … HR-4).
        return [Action(ACCEPT), *_answers(rnd, seat)]
    if kind == COLOUR:
        # CL-2, PP-2 (a wild first card), MK-5 (an Item Box with nothing to flip), MK-10 (Bob-omb).
        return [Action(CHOOSE_COLOUR, colour=colour) for colour in COLOURS]
    if kind == TARGET:
        # MK-8 (Green Shell), AW-4 (a first Targeted Draw Two or Forced Swap): any opponent still in (HR-30).
        return [Action(CHOOSE_TARGET, target=target) for target in rnd.opponents(seat)]
    if kind == PASS:
        # PP-4: pass any card of the hand (the one just drawn included) to the next seat; a face-down one
        # cannot be passed (HR-33).  C-11: a pass that leaves one card may say UNO!, not under HR-17, HR-18.
        says_uno = len(rnd.hands[seat]) == 2 and rnd.calls.with_play
        out = []
        for card in rnd.face_up(seat):
            out.append(Action(PASS_CARD, card))
            if says_uno:
                out.append(Action(PASS_CARD, card, uno=True))
        return out
    raise AssertionError(f"no rule lists the actions of a {kind!r} decision")


def _turn(rnd: RoundState, seat: int) -> list[Action]:
    """A ``turn``: every card of the hand that matches, in hand order, then the draw."""
    plays: list[Action] = []
    for card in rnd.face_up(seat):  # HR-33: a face-down card cannot be played
        if rnd.playable(card):  # C-5 (AW-1: in All Wild every card matches)
            plays += _ways_to_play(rnd, PLAY, seat, card)
    # HR-10's "holds a playable card": one the engine would accept now, an illegal big Draw too (only a
    # challenge punishes it), but neither a face-down card nor a last card HR-15 restricts.
    holds_a_play = any(rnd.playable(card) and not restricted_last(rnd, seat, card)
                       for card in rnd.face_up(seat))
    return plays + _turn_draws(rnd, seat, holds_a_play)


def _turn_draws(rnd: RoundState, seat: int, holds_a_play: bool) -> list[Action]:
    """The draw a ``turn`` offers, if any."""
    if at_limit(rnd, seat):
        # HR-12: at the hand limit no draw on one's turn, AW-6's neither (with nothing to play, the turn has
        # already passed by itself: drawing.pass_stuck).
        return []
    if rnd.variant.voluntary_draw:
        # C-6: a draw instead of a play, even holding a playable card — but not under HR-10.
        return [Action(DRAW)] if not (holds_a_play and rnd.book.forced_play) else []
    # All Wild: no voluntary draw (AW-5), but the special draw when allowed (AW-6); and HR-15: a seat whose
    # only card is a restricted last card draws one, and its turn ends.
    if rnd.variant.special_draw_allowed(rnd, seat):
        return [Action(SPECIAL_DRAW)]
    return [] if holds_a_play else [Action(DRAW)]


def _answers(rnd: RoundState, seat: int) -> list[Action]:
    """The plays that answer the pending penalty T (§6.1, HR-1 … HR-4: what the round's stacking family
    ``answers``), in hand order; never with a face-down card (HR-33)."""
    out: list[Action] = []
    for card in rnd.face_up(seat):
        if rnd.rules.stacking.answers(rnd, card):
            out += _ways_to_play(rnd, PLAY, seat, card)
    return out


def _jump_ins(rnd: RoundState, seat: int) -> list[Action]:
    """§6 Jump-In, while another seat owes a plain turn (§6.1, HX-12): an exact duplicate, colour and face,
    of the top card, never a wild, never a face-down card (HR-33)."""
    top = rnd.cards[rnd.discard[-1]]
    out: list[Action] = []
    for card in rnd.face_up(seat):
        mine = rnd.cards[card]
        if mine.colour is not None and mine.colour == top.colour and mine.face == top.face:
            out += _ways_to_play(rnd, PLAY, seat, card)
    return out


def _ways_to_play(rnd: RoundState, kind: str, seat: int, card: int) -> list[Action]:
    """Every way ``seat`` may play ``card`` as ``kind`` (a play, or a drawn card's play): at each opponent it
    may name, in each colour it may declare, with UNO! said too when the play leaves one card."""
    last = len(rnd.hands[seat]) == 1  # the card empties the hand (C-13)
    if last and restricted_last(rnd, seat, card):  # HR-14, HR-15: it may not be the card that goes out
        return []
    rule = rnd.rules.by_card[card]  # the card's rule under these house rules (Seven-O's 7 and 0: HR-6, HR-7)
    # C-7: a colour-choosing wild declares one of the four colours with the play.
    colours: list[str | None] = list(COLOURS) if rule.needs_colour else [None]
    # AW-2's Forced Swap and Targeted Draw Two and Seven-O's 7 (HR-7 ``chosen``) name an opponent still in the
    # match (HR-30); an Item Box only as the last card, whose Green Shell can ask no one later (MK-8, C-13).
    targets: list[int | None] = list(rnd.opponents(seat)) if rule.needs_target(last) else [None]
    out: list[Action] = []
    for target in targets:
        # C-11, D-11: UNO! may be said with the play that leaves its player one card, counted once the play
        # is done, a swap or a passing of hands included (``cards_left``); never with an action under HR-17
        # or HR-18 (``calls.with_play``).  A last card leaves none.
        says_uno = rnd.calls.with_play and not last and rnd.cards_left(rule, seat, target, last) == 1
        for colour in colours:
            out.append(Action(kind, card, colour, target))
            if says_uno:
                out.append(Action(kind, card, colour, target, True))
    return out


# ---------------------------------------------------------------------- UNO! calls


def _uno_calls(rnd: RoundState, seat: int) -> list[Action]:
    """C-11, C-12: open to every seat, whoever's decision is pending."""
    out: list[Action] = []
    # Declare while exposed, or on one's own turn holding two cards, before playing (``may_declare``); the
    # second is an early way HR-17 and HR-18 take away.  (HR-18 exposes no one, so no declaration at all.)
    if may_declare(rnd, seat):
        out.append(Action(DECLARE_UNO))
    # Catch any exposed seat but oneself — not one's partner (HR-27) — lowest seat first.
    for target in sorted(rnd.exposed):
        if may_catch(rnd, seat, target):
            out.append(Action(CATCH, target=target))
    return out


# ---------------------------------------------------------------------- HR-8's batches


def reference_batches(rnd: RoundState, seat: int, most: int | None = None) -> list[Action]:
    """HR-8: every batch ``seat`` may play now, each order of its cards apart, in no particular order.

    ``most``: only the batches of at most that many cards (HR-8 sets no bound, and a hand that hoards one
    number makes hundreds of thousands: eight 7s, 8 × 7! × e orders)."""
    pending = rnd.pending
    # Only under ``multi_play``, on one's own plain turn, in a round still played, by a seat still in.
    if (rnd.book.batches is None or rnd.winner is not None or pending is None or pending.kind != TURN
            or pending.seat != seat or seat in rnd.out):
        return []
    cards = rnd.cards
    usable = rnd.face_up(seat)  # HR-33: a face-down card joins no batch
    out: list[Action] = []
    for lead in usable:
        face = cards[lead].face
        if face not in NUMBERS or not rnd.playable(lead):  # a number card, legal by C-5
            continue
        # The other cards of that number, any colour.
        mates = [card for card in usable if card != lead and cards[card].face == face]
        longest = len(mates) if most is None else min(len(mates), most - 1)
        for count in range(1, longest + 1):
            for more in permutations(mates, count):  # laid in this order
                out += _batch_plays(rnd, seat, lead, more)
    return out


def _batch_plays(rnd: RoundState, seat: int, lead: int, more: tuple[int, ...]) -> list[Action]:
    """The ways to lay ``lead`` then ``more``: only the last card acts (HR-8, HX-13), so it decides whether
    the batch names an opponent (Seven-O's 7, HR-7 ``chosen``) and what hand it leaves.  (HR-15 never
    forbids a batch: it ends on a number card, which no ``finish_with`` restricts.)"""
    rule = rnd.rules.by_card[more[-1]]
    laid = 1 + len(more)
    empties = laid == len(rnd.hands[seat])  # the batch goes out (C-13): a last 7 or 0 does nothing (HX-5)
    targets: list[int | None] = list(rnd.opponents(seat)) if rule.needs_target(empties) else [None]
    out: list[Action] = []
    for target in targets:
        if empties:
            left = 0
        elif rule.hand_after is HandAfter.ONE_LESS:
            left = len(rnd.hands[seat]) - laid  # every card laid leaves the hand
        else:  # a 7 or 0 last (HX-13): the hand it leaves its player is another seat's (D-11)
            left = rnd.cards_left(rule, seat, target, False)
        out.append(Action(PLAY, lead, None, target, False, more))
        if left == 1 and rnd.calls.with_play:  # C-11 for the whole batch: one turn action, one UNO! (HR-8)
            out.append(Action(PLAY, lead, None, target, True, more))
    return out
