"""Cached lists of plays, for ``legal_actions`` (legality.py), the engine's hot path.

The ways to play a card whose plays depend on the other hands (a target, a swap, a pass of hands)
are the same whenever the same few facts are: built once per such pattern and kept (``card_plays``),
the listing on every step copies them instead of making each ``Action`` anew.  HR-8's batches are
not listed here: house/volume.py's ``batch_offers`` describes them, and its ``batch_options`` judges one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from . import actions as A
from .actions import Action
from .card_rules import HandAfter, RuleTable, Target, TurnPlays
from .cards import COLOURS, Face
from .state import RoundState

# Actions without fields are built once: legal_actions runs on every step.
DRAW_ONE = Action(A.DRAW)
SPECIAL_DRAW_IT = Action(A.SPECIAL_DRAW)
NO_TARGET: tuple[int | None, ...] = (None,)
NO_ONE: tuple[int | None, ...] = ()
# ``turn_plays``' choice of options: a last card HR-15 may restrict (every play made by ``play_options``), the
# plain ones (a last card's too, when nothing is restricted), UNO said too (two cards held).
LAST_CARD, PLAIN, WITH_UNO = 0, 1, 2


def restricted_last(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-15: would playing ``card`` empty ``seat``'s hand on a card HR-14 forbids (``Rulebook.no_last``)?"""
    return len(rnd.hands[seat]) == 1 and card in rnd.book.no_last


def at_limit(rnd: RoundState, seat: int) -> bool:
    """HR-12: does ``seat`` hold the hand limit or more (so it may not draw on its turn)?"""
    limit = rnd.book.hand_limit
    return limit is not None and len(rnd.hands[seat]) >= limit


def may_keep(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-11: may ``seat`` keep the playable ``card`` it just drew (house/drawing.py's hook)?"""
    keep = rnd.book.may_keep
    return keep is None or keep(rnd, seat, card)


def turn_plays(table: RuleTable, key: tuple[str | None, Face, int]) -> TurnPlays:
    """Per card id, what playing it on a turn offers while ``key`` holds (the colour to match, the top card's
    face, ``LAST_CARD`` / ``PLAIN`` / ``WITH_UNO``): () when C-5 says it does not match, else the rule
    table's options (``RuleTable.options``), or None when its plays depend on the other hands.  Kept in
    ``table.turn_plays``: the hand is walked on every step, C-5 and the options looked up once per card."""
    colour, top_face, which = key
    plain, with_uno = table.options[A.PLAY]
    fixed = (None,) * len(plain) if which == LAST_CARD else with_uno if which == WITH_UNO else plain
    ways = tuple(fixed[card] if ct.colour is None or ct.colour == colour or ct.face == top_face else ()
                 for card, ct in enumerate(table.cards))
    table.turn_plays[key] = ways
    return ways


def turn_actions(rnd: RoundState, seat: int) -> list[Action]:
    """A ``turn``: the plays, then the draw (the decision's part of ``legal_actions``)."""
    hand = rnd.hands[seat]
    table = rnd.rules
    book = rnd.book
    down = rnd.face_down.by_seat[seat]
    held = len(hand)
    key = (rnd.colour, rnd.cards[rnd.discard[-1]].face,
           WITH_UNO if held == 2 and rnd.calls.with_play else LAST_CARD if held == 1 and book.no_last else PLAIN)
    ways = table.turn_plays.get(key) or turn_plays(table, key)
    out: list[Action] = []
    if down:
        _turn_plays_with(rnd, seat, ways, out)
    else:  # the common case: no face-down card
        for card in hand:
            found = ways[card]
            if found:
                out.extend(found)
            elif found is None:
                play_options(rnd, A.PLAY, seat, card, out)
    # The draw: drawing.at_limit and may_draw, inlined.
    limit = book.hand_limit
    if limit is not None and held >= limit:  # HR-12: no draw at all (with nothing to play, the turn ends at once)
        pass
    elif rnd.variant.voluntary_draw:
        if not (out and book.forced_play):  # HR-10
            out.append(DRAW_ONE)
    elif rnd.variant.special_draw_allowed(rnd, seat):  # may_special_draw
        out.append(SPECIAL_DRAW_IT)
    elif not out:  # All Wild, only a restricted last card held (HR-15): draw one, turn over
        out.append(DRAW_ONE)
    return out


def _turn_plays_with(rnd: RoundState, seat: int, plays: TurnPlays, out: list[Action]) -> None:
    """A turn's plays with face-down cards (HR-33): those are not playable, nor counted so for HR-10."""
    down = rnd.face_down.by_seat[seat]
    for card in rnd.hands[seat]:
        ways = plays[card]
        if ways:
            if card not in down:
                out.extend(ways)
        elif ways is None and card not in down:
            play_options(rnd, A.PLAY, seat, card, out)


def play_options(rnd: RoundState, kind: str, seat: int, card: int, out: list[Action]) -> None:
    """Every way ``seat`` may play ``card`` (as ``kind``): colours, targets, UNO said or not."""
    table = rnd.rules
    hand_len = len(rnd.hands[seat])
    if hand_len == 1 and card in rnd.book.no_last:  # HR-15 (restricted_last)
        return
    plain, with_uno = table.options[kind]
    say_uno = rnd.calls.with_play  # not under HR-17 / HR-18
    fixed = with_uno[card] if hand_len == 2 and say_uno else plain[card]
    if fixed is not None:
        out.extend(fixed)
        return
    if hand_len > 2 and not (say_uno and 1 in map(len, rnd.hands)):
        # No UNO is said with it (no hand is left with one card): its plays depend on the seat and table alone.
        key = (kind, card, seat, rnd.n, rnd.out)
        found = table.seat_plays.get(key)
        if found is None:
            found = table.seat_plays[key] = _seat_plays(rnd, kind, seat, card)
        out.extend(found)
        return
    rule = table.by_card[card]
    last = hand_len == 1
    target = rule.target  # rule.needs_target(last), inlined: Seven-O's 7s and 0s come here on most turns
    needs_target = target is Target.ALWAYS or (last and target is Target.WITH_LAST_CARD)
    if last and not needs_target:  # one play per colour, no UNO: quicker made than looked up
        for c in COLOURS if rule.needs_colour else (None,):
            out.append(Action(kind, card, c))
        return
    targets = opponents(rnd.n, seat, rnd.out) if needs_target else NO_TARGET
    uno = NO_ONE  # a last card leaves none
    if say_uno and not last:
        after = rule.hand_after
        hands = rnd.hands
        if after is HandAfter.TARGETS:  # a swap leaves the target's hand: UNO at a one-card target, seldom any
            if 1 in map(len, hands):
                uno = tuple([t for t in targets if t is not None and len(hands[t]) == 1])
        elif after is HandAfter.PREVIOUS_SEATS and targets is NO_TARGET:  # Seven-O's 0: the previous seat's hand
            if 1 in map(len, hands) and len(hands[rnd.next_seat(seat, -1)]) == 1:
                uno = NO_TARGET
        else:
            uno = tuple(t for t in targets if rnd.cards_left(rule, seat, t, last) == 1)
    out.extend(card_plays(kind, card, rule.needs_colour, targets, uno))


def _seat_plays(rnd: RoundState, kind: str, seat: int, card: int) -> tuple[Action, ...]:
    """``card``'s plays (as ``kind``) by ``seat`` when none says UNO: at each opponent when it names one."""
    rule = rnd.rules.by_card[card]
    targets = opponents(rnd.n, seat, rnd.out) if rule.target is Target.ALWAYS else NO_TARGET
    return card_plays(kind, card, rule.needs_colour, targets, NO_ONE)


@lru_cache(maxsize=256)
def opponents(n: int, seat: int, out: frozenset[int]) -> tuple[int, ...]:
    """``RoundState.opponents`` as a tuple, made once per table and seat."""
    return tuple(s for s in range(n) if s != seat and s not in out)


@lru_cache(maxsize=4096)
def card_plays(kind: str, card: int, needs_colour: bool, targets: tuple[int | None, ...],
               uno_targets: tuple[int | None, ...]) -> tuple[Action, ...]:
    """``card`` played as ``kind`` at each of ``targets`` in each colour it needs, with UNO said too at
    ``uno_targets`` (where the play leaves one card)."""
    colours: Sequence[str | None] = COLOURS if needs_colour else (None,)
    out: list[Action] = []
    for t in targets:
        for c in colours:
            out.append(Action(kind, card, c, t))
            if t in uno_targets:
                out.append(Action(kind, card, c, t, True))
    return tuple(out)
