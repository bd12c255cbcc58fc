"""A round's state and the moves every rule is made of; what a card's rule is.

``RoundState`` holds the piles, hands and turn order, and the primitive moves effects are
written with (draw, pass the turn, ask a question, swap hands).  It knows nothing of any
edition: an edition reaches it through the ``Edition`` protocol and the ``CardRule`` of
each face, both defined here so that every module above can name them without importing
each other (the engine's imports form no cycle).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from .actions import PLAY, PLAY_DRAWN, Action
from .cards import COLOURS, NUMBERS, CardType, Face
from .events import Event
from .house import HouseRules
from .house.calls import UnoCalls
from .house.face_down import FaceDown
from .layout import Layout
from .pending import TURN, Pending, Reason
from .shuffling import shuffle

# (round, seat that played, card id, the play action, was it the seat's last card)
Effect = Callable[["RoundState", int, int, Action, bool], None]
# What follows a colour, target or pass decision: (round, seat that decided, the decision, the action).
Continuation = Callable[["RoundState", int, Pending, Action], None]
# Would a big Draw be an illegal play (CL-5, MK-4, PP-5)?  (round, the hand it is played from — without
# it —, the colour then to match, the card then on top.)  Judged at the play, or before one (HR-11).
Guilt = Callable[["RoundState", Sequence[int], "str | None", int], bool]


# ``new_event(Event, (kind, data, to))`` makes an Event without its Python-level ``__new__`` (made on every step).
new_event = tuple.__new__


class PenaltyAnswers(Protocol):
    """What may answer a pending penalty (STACK, CHALLENGE): the stacking family (house/stacking.py)."""

    def answers(self, rnd: RoundState, card: int) -> bool:
        """Does ``card`` answer the penalty pending now?"""

    def answering(self, rnd: RoundState) -> frozenset[int]:
        """Every card id that ``answers`` now, found at once (``legal_actions`` lists their plays)."""


class NoAnswers:
    """Without the stacking family nothing answers a penalty (§1-5)."""

    def answers(self, rnd: RoundState, card: int) -> bool:
        return False

    def answering(self, rnd: RoundState) -> frozenset[int]:
        return frozenset()


class Target(Enum):
    """Does playing the card name an opponent (``Action.target``)?"""

    NEVER = 0
    ALWAYS = 1  # Forced Swap, Targeted Draw Two, Seven-O's 7
    WITH_LAST_CARD = 2  # an Item Box: its Green Shell can ask no one later (C-13)


class HandAfter(Enum):
    """How many cards the player holds once the card has done its work (if it was not their last)."""

    ONE_LESS = 0  # the usual
    SAME = 1  # Dip Into The Deck: draw one, pass one on
    TARGETS = 2  # a swap: the target's hand (AW-2, Seven-O's 7)
    PREVIOUS_SEATS = 3  # Seven-O's 0: every hand moves on, you receive the previous seat's
    NEXT_SEATS = 4  # a 7 that swaps with the next seat (HR-7): you receive the next seat's hand


@dataclass(frozen=True, slots=True)
class CardRule:
    """Everything the engine needs to know about one face: its effect and what its play takes."""

    effect: Effect
    needs_colour: bool = False  # the player declares a colour with the play (C-7)
    target: Target = Target.NEVER
    hand_after: HandAfter = HandAfter.ONE_LESS

    def needs_target(self, last: bool) -> bool:
        return self.target is Target.ALWAYS or (last and self.target is Target.WITH_LAST_CARD)

    @property
    def uno_with_play(self) -> bool:
        """May UNO be said with this card's play from a two-card hand?  (Not with a dip: the
        hand is back to two; UNO goes with the pass.)"""
        return self.hand_after is HandAfter.ONE_LESS

    @property
    def fixed_options(self) -> bool:
        """Are the ways to play the card the same whatever the other hands hold?"""
        return self.target is Target.NEVER and self.hand_after in (HandAfter.ONE_LESS, HandAfter.SAME)

    def cards_left(self, rnd: RoundState, seat: int, target: int | None, last: bool) -> int:
        """How many cards ``seat`` holds after playing the card at ``target`` (UNO is said at one)."""
        if last:
            return 0
        after = self.hand_after
        if after is HandAfter.TARGETS:
            assert target is not None
            return len(rnd.hands[target])
        if after is HandAfter.PREVIOUS_SEATS:
            return len(rnd.hands[rnd.next_seat(seat, -1)])
        if after is HandAfter.NEXT_SEATS:
            return len(rnd.hands[rnd.next_seat(seat)])
        if after is HandAfter.SAME:
            return len(rnd.hands[seat])
        return len(rnd.hands[seat]) - 1


# Per card id: every way to play it, and the same with UNO said too (for a two-card hand);
# None for a card without ``fixed_options``.
CardOptions = tuple[tuple[tuple[Action, ...] | None, ...], tuple[tuple[Action, ...] | None, ...]]
# Per card id, its plays on a turn (plays.turn_plays).
TurnPlays = tuple[tuple[Action, ...] | None, ...]


class RuleTable:
    """The rules of an edition's faces under some house rules, looked up by card id.

    The plays of cards with ``fixed_options`` are built once here: ``legal_actions`` is
    the engine's hot path.  (``options[kind][0][card]`` is None for the other cards.)
    """

    __slots__ = ("by_card", "cards", "numbers", "options", "rules", "seat_plays", "stacking", "turn_plays",
                 "twins")

    def __init__(self, cards: Sequence[CardType], rules: Mapping[Face, CardRule],
                 stacking: PenaltyAnswers | None = None) -> None:
        self.rules = dict(rules)
        self.cards = tuple(cards)
        # What may answer a pending penalty (STACK, CHALLENGE): nothing, unless a house rule says so.
        self.stacking: PenaltyAnswers = stacking if stacking is not None else NoAnswers()
        self.by_card: tuple[CardRule, ...] = tuple(rules[ct.face] for ct in cards)
        self.options: dict[str, CardOptions] = {kind: self._options(kind) for kind in (PLAY, PLAY_DRAWN)}
        # HR-8 (house/volume.py) batches cards of one number: each card's number (None: not a number card).
        self.numbers: tuple[Face | None, ...] = tuple(ct.face if ct.face in NUMBERS else None for ct in cards)
        # Per card, the other cards exactly like it (none for a wild): what may jump in on it (legality.jumps_in).
        kinds = [(ct.colour, ct.face) if ct.colour is not None else None for ct in self.cards]
        self.twins = tuple(frozenset(d for d, k in enumerate(kinds) if k == mine and d != c) if mine else frozenset()
                           for c, mine in enumerate(kinds))
        # (kind, card, seat, seats, out) -> a card's plays that depend on other hands, while no UNO goes with them.
        self.seat_plays: dict[tuple[str, int, int, int, frozenset[int]], tuple[Action, ...]] = {}
        # (colour to match, top card's face, which options) -> each card's plays on a turn: plays.turn_plays.
        self.turn_plays: dict[tuple[str | None, Face, int], TurnPlays] = {}

    def _options(self, kind: str) -> CardOptions:
        plain: list[tuple[Action, ...] | None] = []
        with_uno: list[tuple[Action, ...] | None] = []
        for card, rule in enumerate(self.by_card):
            colours = COLOURS if rule.needs_colour else (None,)
            if not rule.fixed_options:
                plain.append(None)
                with_uno.append(None)
                continue
            plain.append(tuple(Action(kind, card, c) for c in colours))
            if rule.uno_with_play:
                with_uno.append(tuple(Action(kind, card, c, None, uno) for c in colours for uno in (False, True)))
            else:
                with_uno.append(plain[-1])
        return tuple(plain), tuple(with_uno)


class Edition(Protocol):
    """What the round asks of an edition (``variants.base.Variant`` is one)."""

    @property
    def key(self) -> str: ...
    @property
    def cards(self) -> tuple[CardType, ...]: ...
    @property
    def card_json(self) -> tuple[dict[str, Any], ...]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def voluntary_draw(self) -> bool: ...

    def rules_for(self, house: HouseRules) -> RuleTable: ...
    def continuation(self, reason: Reason | None) -> Continuation: ...
    def special_draw_allowed(self, rnd: RoundState, seat: int) -> bool: ...
    def guilty_now(self, rnd: RoundState, seat: int, card: int) -> bool: ...
    def start(self, rnd: RoundState) -> None: ...


# The plain turn of each seat, for tables of up to 16 (Pending is immutable: every round shares them).
TURNS = tuple(tuple(Pending(TURN, s) for s in range(seats)) for seats in range(17))


class RoundState:
    __slots__ = (
        "_turns", "calls", "cards", "colour", "current", "dealer", "declared", "direction", "discard", "draw_pile",
        "events", "exposed", "face_down", "hands", "house", "n", "out", "owed", "pending", "place", "points",
        "predeclared", "prev_colour", "prev_top", "resolved", "reveal", "ring", "rng", "rules", "seed", "touched",
        "variant", "winner",
    )

    def __init__(self, variant: Edition, seats: int, dealer: int, seed: int | str,
                 layout: Layout | None = None, house: HouseRules | None = None,
                 out: frozenset[int] = frozenset(), order: Sequence[int] | None = None) -> None:
        self.variant = variant
        self.house = house if house is not None else HouseRules()
        self.rules = variant.rules_for(self.house)
        self.calls = UnoCalls.of(self.house)  # C-11 as the UNO! house rules have it (house/calls.py)
        self.face_down = FaceDown(seats, self.house.blind_draw)  # HR-33: cards drawn face down, by seat
        self.cards = variant.cards
        self.n = seats
        # ``ring``: who plays after whom (None: every seat by number) — seats out (HR-30) left out, HR-28's order.
        self.out, self.ring, self.place = out, None, {}
        if out or order is not None:
            self.ring = tuple(s for s in (order if order is not None else range(seats)) if s not in out)
            self.place = {s: i for i, s in enumerate(self.ring)}
        self.dealer = dealer
        self.seed = seed
        self.rng = random.Random(seed)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.draw_pile: list[int] = []  # the top of the pile is the end of the list
        self.discard: list[int] = []  # the top card is the end of the list
        self.colour: str | None = None  # the colour to match (declared after a wild)
        self.direction = 1
        self.current = self.next_seat(dealer)
        self._turns = TURNS[seats] if seats < len(TURNS) else tuple(Pending(TURN, s) for s in range(seats))
        self.pending: Pending | None = self._turns[self.current]
        self.exposed: set[int] = set()  # one card, no UNO said, catch window open (C-11)
        self.declared: set[int] = set()  # one card, UNO said
        self.predeclared: int | None = None  # said UNO with two cards, just before playing
        self.resolved: dict[int, tuple[str, int]] = {}  # last UNO outcome per seat: (how, by whom)
        self.owed = [0] * seats  # turns each seat must still lose (skips, All Wild double skip)
        self.reveal: tuple[int, int, tuple[int, ...]] | None = None  # (challenger, challenged, hand)
        self.winner: int | None = None
        self.points = 0
        self.prev_top = -1
        self.prev_colour: str | None = None
        self.events: list[Event] = []
        # Seats whose hand changed during the current action -> their size before it (-1: swapped):
        # the UNO window (uno.py) looks at exactly these once the action is done.
        self.touched: dict[int, int] = {}
        self._deal(layout)

    def _deal(self, layout: Layout | None) -> None:
        ids = list(range(len(self.cards)))
        if layout is None:
            shuffle(self.rng, ids)
            order = [self.next_seat(self.dealer, i) for i in range(1, self.players + 1)]
            size, players = self.variant.hand_size, len(order)
            # One card at a time from the top (the end), round the table: the p-th seat dealt to gets every
            # players-th card from the p-th one down.  (A deck too small would be short: never one of ours.)
            assert size * players <= len(ids)
            for p, s in enumerate(order):
                self.hands[s] = ids[-1 - p::-players][:size]
            del ids[len(ids) - size * players:]
            self.draw_pile = ids
            return
        self.hands, self.draw_pile = layout.deal(self.cards, self.n, self.rng, self.variant.key)

    # ------------------------------------------------------------------ questions

    def next_seat(self, seat: int, steps: int = 1) -> int:
        ring = self.ring
        if ring is None:
            return (seat + self.direction * steps) % self.n
        return ring[(self.place[seat] + self.direction * steps) % len(ring)]

    @property
    def players(self) -> int:  # the seats still in the match: C-10's "two players" counts these (HR-30)
        return self.n - len(self.out)

    @property
    def top(self) -> int:
        return self.discard[-1]

    def card_json(self, card: int) -> dict[str, Any]:
        return self.variant.card_json[card]

    def playable(self, card: int) -> bool:
        """C-5: matches the colour to match, the top card's number or symbol, or is wild."""
        ct = self.cards[card]
        return ct.colour is None or ct.colour == self.colour or ct.face == self.cards[self.discard[-1]].face

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat and s not in self.out]

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    # ------------------------------------------------------------------ moves

    def emit(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        self.events.append(new_event(Event, (kind, data, to)))

    def flip(self) -> int | None:
        """Turn the draw pile's top card onto the discard pile (refilling the pile per C-8)."""
        if not self.draw_pile and not self._reshuffle():
            return None
        card = self.draw_pile.pop()
        self.discard.append(card)
        return card

    def _reshuffle(self) -> bool:
        """C-8: the discard pile but its top card becomes the new draw pile."""
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        self.draw_pile = self.discard
        shuffle(self.rng, self.draw_pile)
        self.discard = [top]
        self.emit("reshuffle", {"cards": len(self.draw_pile)})
        return True

    def draw(self, seat: int, count: int, reason: str) -> list[int]:
        """Seat draws up to ``count`` cards; draws the piles cannot supply are skipped (C-8)."""
        hand = self.hands[seat]
        self.touched.setdefault(seat, len(hand))
        pile = self.draw_pile
        if 0 < count <= len(pile):  # the usual: the pile holds them all, taken from its top (its end)
            got = pile[:-count - 1:-1]
            del pile[-count:]
        else:
            got = []
            for _ in range(count):
                if not pile:
                    if not self._reshuffle():
                        break
                    pile = self.draw_pile
                got.append(pile.pop())
        hand.extend(got)
        events = self.events
        events.append(new_event(Event, ("draw", {"seat": seat, "count": len(got), "reason": reason}, None)))
        if got:
            # Seen by the drawer, or by no one when drawn face down (HR-33): kept for the export all the same.
            record = self.face_down
            card_json = self.variant.card_json
            cards = [card_json[got[0]]] if len(got) == 1 else [card_json[c] for c in got]  # one card: the usual
            events.append(new_event(Event, ("drew", {"seat": seat, "cards": cards},
                                            record.drawn(seat, got, reason) if record.on else (seat,))))
        return got

    def give_turn(self, seat: int) -> None:
        self.current = seat
        self.pending = self._turns[seat]
        self.predeclared = None

    def pass_turn(self, from_seat: int, skip_next: int = 0) -> None:
        """Play passes on from ``from_seat``; seats owing lost turns are skipped over (C-9)."""
        ring = self.ring  # next_seat, inlined: every turn passes here
        nxt = (from_seat + self.direction) % self.n if ring is None else self.next_seat(from_seat)
        owed = self.owed
        if skip_next:
            owed[nxt] += skip_next
        while owed[nxt]:
            owed[nxt] -= 1
            self.emit("skipped", {"seat": nxt})
            nxt = self.next_seat(nxt)
        self.current = nxt  # give_turn, inlined
        self.pending = self._turns[nxt]
        self.predeclared = None

    def ask(self, pending: Pending) -> None:
        self.current = pending.seat
        self.pending = pending

    def take_from_hand(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        self.touched.setdefault(seat, len(hand))
        hand.remove(card)

    def give_card(self, seat: int, to: int, card: int) -> None:
        """One card goes from ``seat``'s hand to ``to``'s (Dip Into The Deck's pass)."""
        self.take_from_hand(seat, card)
        self.touched.setdefault(to, len(self.hands[to]))
        self.hands[to].append(card)

    def rotate_hands(self) -> None:
        """Every hand moves on to the next seat in the direction of play (Seven-O's 0)."""
        moved: list[list[int]] = [[] for _ in range(self.n)]
        for s, hand in enumerate(self.hands):
            if s not in self.out:
                moved[self.next_seat(s)] = hand
        self.hands = moved
        for s in range(self.n):
            if s not in self.out:
                self.touched[s] = -1

    def swap_hands(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self.touched[a] = self.touched[b] = -1  # both now hold a hand they must declare anew
