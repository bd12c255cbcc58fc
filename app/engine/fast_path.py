"""The fast path: the legal actions as the engine lists them, with every device that makes it quick.

``legal_actions`` runs for every seat after every action (a room builds each seat's view with its legal
moves, and ``Round.apply`` accepts nothing it did not list), so it is written for speed.  ``reference.py``
says the same thing plainly, with nothing kept; ``tests/engine/test_reference.py`` proves the two equal
(the same list in the same order, and the batch offers standing for exactly ``reference_batches``) at every
step of random rounds of every edition under random valid house-rule sets.  The rules' questions are asked
elsewhere (``plays.py``'s questions to the rulebook, the rule table's ``CardRule``s, ``uno.may_declare``,
the edition's draws); this module lists their answers quickly.  Each device, what it keeps, when it is
forgotten, and why that is safe:

- ``KeptListing``, the base of ``round.Round``: each seat's listing (``legal_actions``) and HR-8 batch
  offers (``batch_offers``) while the round does not change.  A room asks every seat's for its views
  after each action, then ``Round.apply`` asks the mover's again.  ``apply`` reads ``_listed``, judges a
  batch by the kept offers' ``covers`` and clears both after every action it takes or penalises (HR-20)
  inline, not by calls here: two method calls per action cost some 2 % more instructions.
  Forgotten by ``moved``, which whatever else changes a round calls (``match.py``'s blitz end, tests
  that stack a round).  Safe: a listing is a function of the round's state, which changes only there.
- ``turn_plays``: per card id, its plays on a turn, kept in the rule table (``RuleTable.turn_plays``) per
  colour to match, top card's face and hand size (a last card HR-15 may restrict, any other, UNO said
  with it from two cards): C-5 and the card's options are looked up once per card, the hand walked once.
  Never forgotten: the key is all an entry depends on, and a rule table never changes once built.
- ``play_options``' seat plays: a card's plays that name opponents (a target, a swap), kept per kind,
  card, seat, seats and eliminated seats in ``RuleTable.seat_plays`` while no hand holds one card (then
  UNO may go with them, and they are made anew).  Never forgotten, for the same reason.
- ``card_plays`` and ``opponents``: one card's actions at some targets in each colour it needs, and a
  seat's opponents, kept by ``lru_cache``: pure functions of their arguments.
- Within ``legal_actions``: the jump-in candidates (the top card's ``twins``) and a penalty's answers
  (``answering``) met with one ``isdisjoint`` per hand before the hand is walked; ``uno.may_catch``
  inlined; the actions without fields built once.

Kept where their data is built, and why:

- ``RuleTable.options`` (a card's plays when they never change), ``twins`` (Jump-In) and ``numbers``
  (HR-8), built with each table in ``card_rules.py``, and the slots ``turn_plays`` and ``seat_plays`` that
  this module fills: each round holds its table, so ``card_rules.py`` sits below ``state.py``, and this
  module reads the round; the table cannot call in here without an import cycle.  They live and die
  with the table, fixed for its life (the two slots only grow, keyed as above).
- ``Stacking.answering`` (per kind and colour, ``house/stacking.py``) and HR-8's offers per group of a
  hand (``BatchOffer``, ``house/volume.py``): hooks of the house families, and the core imports nothing
  of ``house/``; this module asks them through the round's ``Rulebook``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from . import actions as A
from .actions import Action
from .batch_offer import BatchOffer
from .card_rules import HandAfter, RuleTable, Target, TurnPlays
from .cards import COLOURS, Face
from .layout import Layout
from .pending import COLOUR, DRAWN, PASS, PENALTY_KINDS, SPECIAL, TARGET, TURN, Pending
from .plays import may_keep
from .rulebook import Rulebook
from .state import Edition, RoundState
from .uno import CATCHES, DECLARE, may_declare

# Actions without fields are built once: legal_actions runs on every step.
DRAW_ONE = Action(A.DRAW)
SPECIAL_DRAW_IT = Action(A.SPECIAL_DRAW)
KEEP_IT = Action(A.KEEP)
# The field-less actions of the decisions that owe a penalty, in the order listed (pending.PENALTY_KINDS);
# the cards that answer it follow them.
PENALTY_ACTIONS = {kind: tuple(Action(k) for k in kinds) for kind, kinds in PENALTY_KINDS.items()}
CHOOSE_COLOURS = tuple(Action(A.CHOOSE_COLOUR, colour=c) for c in COLOURS)
NO_TARGET: tuple[int | None, ...] = (None,)
NO_ONE: tuple[int | None, ...] = ()
# ``turn_plays``' choice of options: a last card HR-15 may restrict (every play made by ``play_options``), the
# plain ones (a last card's too, when nothing is restricted), UNO said too (two cards held).
LAST_CARD, PLAIN, WITH_UNO = 0, 1, 2


# ---------------------------------------------------------------------- the kept listing


class KeptListing(RoundState):
    """A round that keeps each seat's legal actions and batch offers until it changes (``moved``)."""

    __slots__ = ("_listed", "_offered")

    def __init__(self, variant: Edition, seats: int, dealer: int, seed: int | str,
                 layout: Layout | None, book: Rulebook,
                 out: frozenset[int] = frozenset(), order: Sequence[int] | None = None) -> None:
        super().__init__(variant, seats, dealer, seed, layout, book, out, order)
        # Per seat, its legal_actions while nothing changes (``moved`` forgets them): a room asks every
        # seat's for its views after each action, and then apply asks the mover's again.
        self._listed: dict[int, list[Action]] = {}
        self._offered: dict[int, list[BatchOffer]] = {}  # per seat, its batch_offers (HR-8), kept alike

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly what ``seat`` may do now, in a stable order."""
        listed = self._listed.get(seat)
        if listed is None:
            listed = self._listed[seat] = legal_actions(self, seat)
        return listed

    def batch_offers(self, seat: int) -> list[BatchOffer]:
        """HR-8: the batches ``seat`` may play now, one offer per group of its hand (house/volume.py); the
        batches are in no ``legal_actions`` list."""
        offered = self._offered.get(seat)
        if offered is None:
            batches = self.book.batches
            offered = self._offered[seat] = [] if batches is None else batches.offers(self, seat)
        return offered

    def moved(self) -> None:
        """The round has changed: every seat's legal actions and batch offers are to be listed anew."""
        self._listed.clear()
        self._offered.clear()


# ---------------------------------------------------------------------- the listing


def legal_actions(rnd: RoundState, seat: int) -> list[Action]:
    """Exactly what ``seat`` may do now, in a stable order (the decision's, then UNO's)."""
    p = rnd.pending
    if rnd.winner is not None or p is None or not 0 <= seat < rnd.n or seat in rnd.out:
        return []
    kind, waits_for = p.kind, p.seat  # a Pending's fields are read once: NamedTuple attributes are slow
    if waits_for == seat:
        out = turn_actions(rnd, seat) if kind == TURN else _decision_actions(rnd, seat, p)
    else:
        out = []
        if kind == TURN and rnd.book.jump_in:
            twins = rnd.rules.twins[rnd.discard[-1]]  # jumps_in's cards, asked of the whole hand in C
            hand = rnd.hands[seat]
            if not twins.isdisjoint(hand):
                down = rnd.face_down.by_seat[seat]
                for card in hand:
                    if card in twins and card not in down:  # HX-12: never a face-down card
                        play_options(rnd, A.PLAY, seat, card, out)
    # UNO! calls (C-11).  Only an exposed seat or the one owing the decision may declare: the others are not
    # asked (this runs for every seat on every step, and a call costs more than the test).
    exposed = rnd.exposed
    if (waits_for == seat or seat in exposed) and may_declare(rnd, seat):
        out.append(DECLARE)
    # The catches: uno.py's may_catch, inlined (mostly no one is exposed).
    if exposed:
        teams = rnd.book.teams  # HR-27: not one's partner
        out.extend(CATCHES[t] for t in sorted(exposed)
                   if t != seat and (teams is None or not teams.partners(seat, t)))
    return out


def _decision_actions(rnd: RoundState, seat: int, p: Pending) -> list[Action]:
    """Any decision but a ``turn`` (the decision's part of ``legal_actions``)."""
    out: list[Action] = []
    kind = p.kind
    hand = rnd.hands[seat]
    if kind == DRAWN:
        card = p.card
        assert card is not None
        playable = rnd.playable(card)  # legality.may_play; not always, under HR-32 (house/information.py)
        if playable:
            play_options(rnd, A.PLAY_DRAWN, seat, card, out)
        if not playable or may_keep(rnd, seat, card):  # HR-11
            out.append(KEEP_IT)
    elif kind == SPECIAL:
        assert p.card is not None
        play_options(rnd, A.PLAY_DRAWN, seat, p.card, out)
    elif kind in PENALTY_ACTIONS:  # a penalty pending: take it (or challenge it), or answer it
        out.extend(PENALTY_ACTIONS[kind])
        _stack_answers(rnd, seat, out)
    elif kind == COLOUR:
        out.extend(CHOOSE_COLOURS)
    elif kind == TARGET:
        out.extend(Action(A.CHOOSE_TARGET, target=t) for t in rnd.opponents(seat))
    elif kind == PASS:
        uno = (False, True) if len(hand) == 2 and rnd.calls.with_play else (False,)
        out.extend(Action(A.PASS_CARD, card=c, uno=u) for c in rnd.face_up(seat) for u in uno)
    return out


def _stack_answers(rnd: RoundState, seat: int, out: list[Action]) -> None:
    down = rnd.face_down.by_seat[seat]  # HR-33: a face-down card answers nothing
    answer_ids = rnd.rules.stacking.answering(rnd)  # every answer to this penalty, judged at once
    hand = rnd.hands[seat]
    if answer_ids.isdisjoint(hand):  # asked in C: with no answer held, the hand is not walked
        return
    for card in hand:
        if card in answer_ids and card not in down:
            play_options(rnd, A.PLAY, seat, card, out)


# ---------------------------------------------------------------------- a hand's plays, kept per table


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
           WITH_UNO if held == 2 and rnd.calls.with_play
           else LAST_CARD if held == 1 and book.no_last else PLAIN)
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
    # HR-12: no draw at all (with nothing to play, the turn ends at once).
    if limit is not None and held >= limit:
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
        # No UNO is said with it (no hand is left with one card): its plays depend on the seat and
        # table alone.
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
        if after is HandAfter.TARGETS:
            # A swap leaves the target's hand: UNO at a one-card target, seldom any.
            if 1 in map(len, hands):
                uno = tuple([t for t in targets if t is not None and len(hands[t]) == 1])
        elif after is HandAfter.PREVIOUS_SEATS and targets is NO_TARGET:
            # Seven-O's 0: the previous seat's hand.
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
