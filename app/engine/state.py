"""A round's state and the moves every rule is made of; what the round asks of an edition.

``RoundState`` holds the piles, hands and turn order, and the primitive moves effects are
written with (draw, pass the turn, ask a question, swap hands).  It knows nothing of any
edition: an edition reaches it through the ``Edition`` protocol, defined here, and the rule
table it builds (``card_rules.py``: a ``CardRule`` per face), so that every module above can
name them without importing each other (the engine's imports form no cycle).  Nor does it know
the house rules: the round holds its table's ``Rulebook`` (``rulebook.py``), the hooks they plug in,
and takes its rule table, UNO! calls and face-down record from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from .actions import Action
from .card_rules import CardRule, HandAfter
from .cards import CardType, Face
from .events import Event
from .face_down import FaceDown
from .layout import Layout
from .pending import TURN, Pending, PendingKind, Reason
from .rulebook import Rulebook
from .shuffling import shuffle

# What follows a colour, target, pass or challenge decision: (round, seat that decided, the decision,
# the action).
Continuation = Callable[["RoundState", int, Pending, Action], None]


# ``new_event(Event, (kind, data, to))`` makes an Event without its Python-level ``__new__``
# (made on every step).
new_event = tuple.__new__


class SpecialDraw(NamedTuple):
    """An edition's exception to a turn that must play (AW-6): a seat whose face-up cards are all of the face
    ``hand_of`` while the next seat holds ``next_holds`` cards may draw one, and must play it.  Data, so that
    the rule judged (``Variant.special_draw_allowed``) and the rule a view tells (``card_shapes.turn_draw``)
    are one."""

    hand_of: Face
    next_holds: int


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
    @property
    def special_draw(self) -> SpecialDraw | None: ...

    def continuation(self, reason: Reason | PendingKind | None) -> Continuation: ...
    def special_draw_allowed(self, rnd: RoundState, seat: int) -> bool: ...
    def guilty_now(self, rnd: RoundState, seat: int, card: int) -> bool: ...
    def start(self, rnd: RoundState) -> None: ...


# The plain turn of each seat, for tables of up to 16 (Pending is immutable: every round shares
# them).
TURNS = tuple(tuple(Pending(TURN, s) for s in range(seats)) for seats in range(17))


class RoundState:
    __slots__ = (
        "_turns", "book", "calls", "cards", "colour", "current", "dealer", "declared", "direction",
        "discard", "draw_pile", "events", "exposed", "face_down", "hands", "n", "out",
        "owed", "pending", "place", "points", "predeclared", "prev_colour", "prev_top", "resolved",
        "reveal", "ring", "rng", "rules", "seed", "touched", "variant", "winner",
    )

    def __init__(self, variant: Edition, seats: int, dealer: int, seed: int | str,
                 layout: Layout | None, book: Rulebook,
                 out: frozenset[int] = frozenset(), order: Sequence[int] | None = None) -> None:
        self.variant = variant
        # The table's house rules, as the hooks the core asks (rulebook.py; assembled by house/rulebook.py).
        self.book = book
        self.rules = book.table
        # C-11 as the UNO! house rules have it (house/calls.py)
        self.calls = book.calls
        # HR-33: cards drawn face down, by seat
        self.face_down = FaceDown(seats, book.blind_draw)
        self.cards = variant.cards
        self.n = seats
        # ``ring``: who plays after whom (None: every seat by number) — seats out (HR-30) left out,
        # HR-28's order.
        self.out, self.ring, self.place = out, None, {}
        if out or order is not None:
            seated = order if order is not None else range(seats)
            self.ring = tuple(s for s in seated if s not in out)
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
        self._turns = (TURNS[seats] if seats < len(TURNS)
                       else tuple(Pending(TURN, s) for s in range(seats)))
        self.pending: Pending | None = self._turns[self.current]
        self.exposed: set[int] = set()  # one card, no UNO said, catch window open (C-11)
        self.declared: set[int] = set()  # one card, UNO said
        self.predeclared: int | None = None  # said UNO with two cards, just before playing
        self.resolved: dict[int, tuple[str, int]] = {}  # last UNO outcome per seat: (how, by whom)
        self.owed = [0] * seats  # turns each seat must still lose (skips, All Wild double skip)
        # (challenger, challenged, hand)
        self.reveal: tuple[int, int, tuple[int, ...]] | None = None
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
            # One card at a time from the top (the end), round the table: the p-th seat dealt to
            # gets every players-th card from the p-th one down.  (A deck too small would be short:
            # never one of ours.)
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
    def players(self) -> int:
        """The seats still in the match: C-10's "two players" counts these (HR-30)."""
        return self.n - len(self.out)

    @property
    def top(self) -> int:
        return self.discard[-1]

    def card_json(self, card: int) -> dict[str, Any]:
        return self.variant.card_json[card]

    def playable(self, card: int) -> bool:
        """C-5: matches the colour to match, the top card's number or symbol, or is wild."""
        ct = self.cards[card]
        return (ct.colour is None or ct.colour == self.colour
                or ct.face == self.cards[self.discard[-1]].face)

    def face_up(self, seat: int) -> Sequence[int]:
        """``seat``'s cards but the face-down ones (HR-33): what it may play, pass or answer with."""
        down = self.face_down.by_seat[seat]
        hand = self.hands[seat]
        return [c for c in hand if c not in down] if down else hand

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat and s not in self.out]

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def cards_left(self, rule: CardRule, seat: int, target: int | None, last: bool) -> int:
        """How many cards ``seat`` holds after playing a card of ``rule`` at ``target`` (UNO is
        said at one)."""
        if last:
            return 0
        after = rule.hand_after
        if after is HandAfter.TARGETS:
            assert target is not None
            return len(self.hands[target])
        if after is HandAfter.PREVIOUS_SEATS:
            return len(self.hands[self.next_seat(seat, -1)])
        if after is HandAfter.NEXT_SEATS:
            return len(self.hands[self.next_seat(seat)])
        if after is HandAfter.SAME:
            return len(self.hands[seat])
        return len(self.hands[seat]) - 1

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
        # The usual: the pile holds them all, taken from its top (its end).
        if 0 < count <= len(pile):
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
        drawn = {"seat": seat, "count": len(got), "reason": reason}
        events.append(new_event(Event, ("draw", drawn, None)))
        if got:
            # Seen by the drawer, or by no one when drawn face down (HR-33): kept for the export all
            # the same.
            record = self.face_down
            card_json = self.variant.card_json
            # One card: the usual.
            cards = [card_json[got[0]]] if len(got) == 1 else [card_json[c] for c in got]
            seen_by = record.drawn(seat, got, reason) if record.on else (seat,)
            events.append(new_event(Event, ("drew", {"seat": seat, "cards": cards}, seen_by)))
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


    def swap_hands(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self.touched[a] = self.touched[b] = -1  # both now hold a hand they must declare anew
