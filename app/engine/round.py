"""One round of play: the state, the turn machinery shared by every edition, and ``apply``.

The round is mutated in place by ``apply`` (the room actor owns it exclusively), but only
after the action has been found in ``legal_actions``: an illegal action raises
``IllegalAction`` and changes nothing.  All randomness comes from ``self.rng``, seeded
from the round's seed, so (variant, seats, dealer, seed, layout, actions) determine it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from . import actions as A
from .actions import Action
from .cards import COLOURS
from .errors import IllegalAction
from .events import Event
from .house import HouseRules

if TYPE_CHECKING:
    from .variants.base import Variant

# What the round is waiting for (``Pending.kind``).
TURN = "turn"  # the current player plays or draws
DRAWN = "drawn"  # after a voluntary draw of a playable card: play it or keep it (C-6)
SPECIAL = "special"  # All Wild special draw: the drawn card must be played (AW-6)
CHALLENGE = "challenge"  # accept or challenge a Wild Draw Four / Wild Draw 2
COLOUR = "colour"  # declare a colour (Bob-omb, a wild first card, a flip-less Item Box)
TARGET = "target"  # choose an opponent (Green Shell, a first Targeted Draw Two / Forced Swap)
PASS = "pass"  # Dip Into The Deck: pass one card to the next player
STACK = "stack"  # house rule: answer a Draw card with the same Draw card, or take the total
# Decisions that finish the same player's play; they do not close anyone's catch window (C-11).
FOLLOW_UPS = frozenset({COLOUR, TARGET, PASS})

DECISION_KINDS: dict[str, frozenset[str]] = {
    TURN: frozenset({A.PLAY, A.DRAW, A.SPECIAL_DRAW}),
    DRAWN: frozenset({A.PLAY_DRAWN, A.KEEP}),
    SPECIAL: frozenset({A.PLAY_DRAWN}),
    CHALLENGE: frozenset({A.ACCEPT, A.CHALLENGE}),
    COLOUR: frozenset({A.CHOOSE_COLOUR}),
    TARGET: frozenset({A.CHOOSE_TARGET}),
    PASS: frozenset({A.PASS_CARD}),
    STACK: frozenset({A.PLAY, A.ACCEPT}),
}
DECISION_WORDS = {
    TURN: "play a card or draw",
    DRAWN: "play the card you drew or keep it",
    SPECIAL: "play the card you drew",
    CHALLENGE: "accept the penalty or challenge",
    COLOUR: "choose a colour",
    TARGET: "choose an opponent",
    PASS: "choose a card to pass",
    STACK: "take the penalty or answer it with the same card",
}


# Actions without fields are built once: legal_actions runs on every step.
DECLARE = Action(A.DECLARE_UNO)
DRAW_ONE = Action(A.DRAW)
KEEP_IT = Action(A.KEEP)
ACCEPT_IT = Action(A.ACCEPT)
CHALLENGE_IT = Action(A.CHALLENGE)
SPECIAL_DRAW_IT = Action(A.SPECIAL_DRAW)
CATCHES = tuple(Action(A.CATCH, target=t) for t in range(16))


class Pending(NamedTuple):
    kind: str
    seat: int
    card: int | None = None  # the drawn card (DRAWN, SPECIAL)
    reason: str | None = None  # why a colour or target is asked for
    # CHALLENGE only — ``guilty`` and ``evidence`` are secret until a challenge reveals them.
    challenged: int | None = None
    penalty: int = 0
    guilty: bool = False
    evidence: tuple[int, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A stacked deck for tests: explicit hands, first discard and top of the draw pile.

    Cards are named like ``"red 5"``, ``"blue draw2"``, ``"wild_draw4"``.  ``draw`` lists
    the draw pile from the top down; every card not named goes below it, shuffled.
    ``top`` is the card flipped to start the discard pile (its first-card rule applies);
    when None the top of the draw pile is flipped as usual.
    """

    hands: Sequence[Sequence[str]]
    top: str | None = None
    draw: Sequence[str] = field(default_factory=tuple)


class Round:
    __slots__ = (
        "_cache",
        "_cache_seat",
        "_cache_version",
        "_touched",
        "_turns",
        "cards",
        "colour",
        "current",
        "dealer",
        "declared",
        "direction",
        "discard",
        "draw_pile",
        "effects",
        "events",
        "exposed",
        "hands",
        "house",
        "n",
        "owed",
        "pending",
        "points",
        "predeclared",
        "prev_colour",
        "prev_top",
        "resolved",
        "reveal",
        "rng",
        "seed",
        "stack",
        "variant",
        "version",
        "winner",
    )

    def __init__(self, variant: Variant, seats: int, dealer: int, seed: int | str,
                 layout: Layout | None = None, house: HouseRules | None = None) -> None:
        self.variant = variant
        self.house = house if house is not None else HouseRules()
        self.effects = variant.effects_with(self.house)
        self.cards = variant.cards
        self.n = seats
        self.dealer = dealer
        self.seed = seed
        self.rng = random.Random(seed)
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.draw_pile: list[int] = []  # the top of the pile is the end of the list
        self.discard: list[int] = []  # the top card is the end of the list
        self.colour: str | None = None  # the colour to match (declared after a wild)
        self.direction = 1
        self.current = (dealer + 1) % seats
        self.pending: Pending | None = Pending(TURN, self.current)
        self.exposed: set[int] = set()  # one card, no UNO said, catch window open (C-11)
        self.declared: set[int] = set()  # one card, UNO said
        self.predeclared: int | None = None  # said UNO with two cards, just before playing
        self.resolved: dict[int, tuple[str, int]] = {}  # last UNO outcome per seat: (how, by whom)
        self.owed = [0] * seats  # turns each seat must still lose (skips, All Wild double skip)
        self.reveal: tuple[int, int, tuple[int, ...]] | None = None  # (challenger, challenged, hand)
        self.winner: int | None = None
        self.points = 0
        self.stack = 0  # house rule stacking: the penalty piled up so far
        self.prev_top = -1
        self.prev_colour: str | None = None
        self.events: list[Event] = []
        self.version = 0
        # legal_actions is asked twice per action (by the player, then by apply): keep the last answer.
        self._cache_version = -1
        self._cache_seat = -1
        self._cache: list[Action] = []
        self._turns = tuple(Pending(TURN, s) for s in range(seats))
        # Seats whose hand changed during the current action -> their size before it (-1: swapped).
        self._touched: dict[int, int] = {}
        self._deal(layout)
        variant.start(self)

    # ------------------------------------------------------------------ setup

    def _deal(self, layout: Layout | None) -> None:
        ids = list(range(len(self.cards)))
        if layout is None:
            self.rng.shuffle(ids)
            for _ in range(self.variant.hand_size):
                for i in range(1, self.n + 1):
                    self.hands[(self.dealer + i) % self.n].append(ids.pop())
            self.draw_pile = ids
            return
        if len(layout.hands) != self.n:
            raise ValueError(f"layout has {len(layout.hands)} hands for {self.n} seats")
        by_name: dict[str, list[int]] = {}
        for cid in ids:
            by_name.setdefault(self.cards[cid].name, []).append(cid)

        def take(name: str) -> int:
            left = by_name.get(name)
            if not left:
                raise ValueError(f"no (more) {name!r} in the {self.variant.key} deck")
            return left.pop(0)

        self.hands = [[take(name) for name in hand] for hand in layout.hands]
        top = take(layout.top) if layout.top is not None else None
        named_draw = [take(name) for name in layout.draw]
        rest = [cid for left in by_name.values() for cid in left]
        rest.sort()
        self.rng.shuffle(rest)
        self.draw_pile = rest + named_draw[::-1]
        if top is not None:
            # The named first card is flipped before anything else: it sits on the pile's top.
            self.draw_pile.append(top)

    # ------------------------------------------------------------------ helpers for variants

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    @property
    def top(self) -> int:
        return self.discard[-1]

    def emit(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        self.events.append(Event(kind, data, to))

    def card_json(self, card: int) -> dict[str, Any]:
        return self.variant.card_json[card]

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
        self.rng.shuffle(self.draw_pile)
        self.discard = [top]
        self.emit("reshuffle", {"cards": len(self.draw_pile)})
        return True

    def draw(self, seat: int, count: int, reason: str) -> list[int]:
        """Seat draws up to ``count`` cards; draws the piles cannot supply are skipped (C-8)."""
        got: list[int] = []
        self._touched.setdefault(seat, len(self.hands[seat]))
        pile = self.draw_pile
        for _ in range(count):
            if not pile:
                if not self._reshuffle():
                    break
                pile = self.draw_pile
            got.append(pile.pop())
        self.hands[seat].extend(got)
        self.emit("draw", {"seat": seat, "count": len(got), "reason": reason})
        if got:
            self.emit("drew", {"seat": seat, "cards": [self.variant.card_json[c] for c in got]}, (seat,))
        return got

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def give_turn(self, seat: int) -> None:
        self.current = seat
        self.pending = self._turns[seat]
        self.predeclared = None

    def pass_turn(self, from_seat: int, skip_next: int = 0) -> None:
        """Play passes on from ``from_seat``; seats owing lost turns are skipped over (C-9)."""
        nxt = self.next_seat(from_seat)
        if skip_next:
            self.owed[nxt] += skip_next
        owed = self.owed
        while owed[nxt]:
            owed[nxt] -= 1
            self.emit("skipped", {"seat": nxt})
            nxt = self.next_seat(nxt)
        self.give_turn(nxt)

    def ask(self, pending: Pending) -> None:
        self.current = pending.seat
        self.pending = pending

    def rotate_hands(self) -> None:
        """Every hand moves on to the next seat in the direction of play (Seven-O's 0)."""
        moved: list[list[int]] = [[] for _ in range(self.n)]
        for s, hand in enumerate(self.hands):
            moved[self.next_seat(s)] = hand
        self.hands = moved
        for s in range(self.n):
            self._touched[s] = -1

    def swap_hands(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        self._touched[a] = self._touched[b] = -1  # both now hold a hand they must declare anew

    def playable(self, card: int) -> bool:
        """C-5: matches the colour to match, the top card's number or symbol, or is wild."""
        ct = self.cards[card]
        return ct.colour is None or ct.colour == self.colour or ct.face == self.cards[self.discard[-1]].face

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly what ``seat`` may do now, in a stable order."""
        if self._cache_version == self.version and self._cache_seat == seat:
            return self._cache
        out: list[Action] = []
        p = self.pending
        if self.winner is None and p is not None and 0 <= seat < self.n:
            if p.seat == seat:
                self._decision_actions(p, out)
            elif p.kind == TURN and self.house.jump_in:
                self._jump_in_actions(seat, out)
            exposed = self.exposed
            if seat in exposed or (
                p.kind == TURN and p.seat == seat and len(self.hands[seat]) == 2 and self.predeclared != seat
            ):
                out.append(DECLARE)
            if exposed:
                out.extend(CATCHES[t] for t in sorted(exposed) if t != seat)
        self._cache_version = self.version
        self._cache_seat = seat
        self._cache = out
        return out

    def _decision_actions(self, p: Pending, out: list[Action]) -> None:
        kind, seat = p.kind, p.seat
        hand = self.hands[seat]
        if kind == TURN:
            cards = self.cards
            colour = self.colour
            top_face = cards[self.discard[-1]].face
            for card in hand:
                ct = cards[card]
                if ct.colour is None or ct.colour == colour or ct.face == top_face:  # C-5, as playable()
                    self._play_options(A.PLAY, seat, card, out)
            if self.variant.voluntary_draw:
                out.append(DRAW_ONE)
            elif self.variant.special_draw_allowed(self, seat):
                out.append(SPECIAL_DRAW_IT)
        elif kind == DRAWN:
            assert p.card is not None
            self._play_options(A.PLAY_DRAWN, seat, p.card, out)
            out.append(KEEP_IT)
        elif kind == SPECIAL:
            assert p.card is not None
            self._play_options(A.PLAY_DRAWN, seat, p.card, out)
        elif kind == CHALLENGE:
            out.append(ACCEPT_IT)
            out.append(CHALLENGE_IT)
            if self.house.stacking:
                self._stack_actions(seat, out)
        elif kind == STACK:
            out.append(ACCEPT_IT)
            self._stack_actions(seat, out)
        elif kind == COLOUR:
            out.extend(Action(A.CHOOSE_COLOUR, colour=c) for c in COLOURS)
        elif kind == TARGET:
            out.extend(Action(A.CHOOSE_TARGET, target=t) for t in self.opponents(seat))
        elif kind == PASS:
            uno = (False, True) if len(hand) == 2 else (False,)
            out.extend(Action(A.PASS_CARD, card=c, uno=u) for c in hand for u in uno)

    def _stack_actions(self, seat: int, out: list[Action]) -> None:
        """House rule stacking: the same Draw card answers a Draw card."""
        face = self.cards[self.discard[-1]].face
        for card in self.hands[seat]:
            if self.cards[card].face == face:
                self._play_options(A.PLAY, seat, card, out)

    def _jump_in_actions(self, seat: int, out: list[Action]) -> None:
        """House rule Jump-In: an exact duplicate of the top card, out of turn (not a wild)."""
        top = self.cards[self.discard[-1]]
        if top.colour is None:
            return
        for card in self.hands[seat]:
            if self.cards[card] == top:
                self._play_options(A.PLAY, seat, card, out)

    def needs_target(self, face: str, last: bool) -> bool:
        return (face == "7" and self.house.seven_o) or self.variant.needs_target(face, last)

    def _hand_after(self, face: str, seat: int, target: int, last: bool) -> int:
        """How many cards the player holds after a play that moves hands around."""
        if last:
            return 0
        if self.variant.swaps(face) or (face == "7" and self.house.seven_o):
            return len(self.hands[target])
        return len(self.hands[seat]) - 1

    def _play_options(self, kind: str, seat: int, card: int, out: list[Action]) -> None:
        variant = self.variant
        face = self.cards[card].face
        hand_len = len(self.hands[seat])
        if face not in variant.target_faces and not (self.house.seven_o and face in ("0", "7")):
            plain, with_uno = variant.options[kind]
            out.extend(with_uno[card] if hand_len == 2 else plain[card])
            return
        last = hand_len == 1
        colours: Sequence[str | None] = COLOURS if variant.needs_colour(face) else (None,)
        if face == "0":  # Seven-O: every hand moves on, so you receive the previous seat's
            keep = 0 if last else len(self.hands[self.next_seat(seat, -1)])
            for c in colours:
                out.append(Action(kind, card, c))
                if keep == 1:
                    out.append(Action(kind, card, c, None, True))
            return
        if not self.needs_target(face, last):
            for c in colours:
                out.append(Action(kind, card, c))
                if hand_len == 2:
                    out.append(Action(kind, card, c, None, True))
            return
        for t in self.opponents(seat):
            # The hand a Forced Swap leaves you with is the target's (AW-2).
            left = self._hand_after(face, seat, t, last)
            for c in colours:
                out.append(Action(kind, card, c, t))
                if left == 1:
                    out.append(Action(kind, card, c, t, True))

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise self._diagnose(seat, action)
        self.events = []
        kind = action.kind
        if kind == A.DECLARE_UNO:
            self._declare(seat)
        elif kind == A.CATCH:
            assert action.target is not None
            self._catch(seat, action.target)
        else:
            assert self.pending is not None
            self._touched = {}
            protected = action.uno or self.predeclared == seat
            if self.pending.kind not in FOLLOW_UPS:
                # The next turn action ends every catch window that was open (C-11).
                self.exposed.clear()
            self.reveal = None
            self._HANDLERS[kind](self, seat, action)
            if self.winner is None:
                self._update_uno(seat, protected)
        self.version += 1
        return self.events

    def _update_uno(self, actor: int, protected: bool) -> None:
        """C-12: exposure arises whenever a hand comes to hold one card, and ends when it doesn't."""
        for s, before in self._touched.items():
            if len(self.hands[s]) != 1:
                if s in self.declared or s in self.exposed:
                    self.exposed.discard(s)
                    self.declared.discard(s)
            elif before != 1:
                self.resolved.pop(s, None)
                if s == actor and protected:
                    self.exposed.discard(s)
                    self.declared.add(s)
                    self.emit("uno", {"seat": s, "with_play": True})
                else:
                    self.declared.discard(s)
                    self.exposed.add(s)
                    self.emit("exposed", {"seat": s})

    def _declare(self, seat: int) -> None:
        if seat in self.exposed:
            self.exposed.remove(seat)
            self.declared.add(seat)
            self.resolved[seat] = ("declared", seat)
            self.emit("uno", {"seat": seat, "with_play": False})
        else:
            self.predeclared = seat
            self.emit("uno", {"seat": seat, "early": True})

    def _catch(self, seat: int, target: int) -> None:
        self.exposed.remove(target)
        self.resolved[target] = ("caught", seat)
        self.emit("caught", {"seat": target, "by": seat})
        self.draw(target, 2, "caught")

    # Handlers for the turn and decision actions.

    def _play(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        hand = self.hands[seat]
        self._touched.setdefault(seat, len(hand))
        hand.remove(card)
        p = self.pending
        if p is not None and p.kind == TURN and p.seat != seat:  # Jump-In: the turn jumps to this seat
            self.emit("jump_in", {"seat": seat, "skipped": p.seat})
            self.current = seat
        self._put_down(seat, card, action)

    def _play_drawn(self, seat: int, action: Action) -> None:
        self._play(seat, action)

    def _put_down(self, seat: int, card: int, action: Action) -> None:
        self.prev_top = self.discard[-1]
        self.prev_colour = self.colour
        self.discard.append(card)
        ct = self.cards[card]
        self.colour = ct.colour if ct.colour is not None else action.colour
        data: dict[str, Any] = {"seat": seat, "card": self.variant.card_json[card]}
        if action.colour is not None:
            data["colour"] = action.colour
        if action.target is not None:
            data["target"] = action.target
        self.emit("play", data)
        last = not self.hands[seat]
        self.effects[ct.face](self, seat, card, action, last)
        if last:
            self._finish(seat)

    def _draw(self, seat: int, action: Action) -> None:
        got = self.draw(seat, 1, "turn")
        while self.house.draw_until_playable and got and not self.playable(got[0]):
            got = self.draw(seat, 1, "turn")
        if got and self.playable(got[0]):
            self.ask(Pending(DRAWN, seat, card=got[0]))
        else:
            self.pass_turn(seat)

    def _keep(self, seat: int, action: Action) -> None:
        self.emit("keep", {"seat": seat})
        self.pass_turn(seat)

    def _special_draw(self, seat: int, action: Action) -> None:
        got = self.draw(seat, 1, "special")
        self.ask(Pending(SPECIAL, seat, card=got[0]))

    def _accept(self, seat: int, action: Action) -> None:
        p = self.pending
        assert p is not None
        self.emit("accept", {"seat": seat})
        self.stack = 0
        self.draw(seat, p.penalty, "penalty")
        self.pass_turn(seat)

    def _challenge(self, seat: int, action: Action) -> None:
        p = self.pending
        assert p is not None and p.challenged is not None
        self.reveal = (seat, p.challenged, p.evidence)
        self.emit("hand_revealed", {"seat": p.challenged,
                                    "cards": [self.variant.card_json[c] for c in p.evidence]}, (seat,))
        self.emit("challenge", {"seat": seat, "against": p.challenged, "guilty": p.guilty})
        self.stack = 0
        if p.guilty:
            self.draw(p.challenged, p.penalty, "challenge_lost")
            self.give_turn(seat)
        else:
            self.draw(seat, p.penalty + 2, "challenge_lost")
            self.pass_turn(seat)

    def _choose_colour(self, seat: int, action: Action) -> None:
        p = self.pending
        assert p is not None
        self.colour = action.colour
        self.emit("colour", {"seat": seat, "colour": action.colour, "reason": p.reason})
        self.variant.after_choice(self, seat, p, action)

    def _choose_target(self, seat: int, action: Action) -> None:
        p = self.pending
        assert p is not None
        self.variant.after_choice(self, seat, p, action)

    def _pass_card(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        to = self.next_seat(seat)
        self._touched.setdefault(seat, len(self.hands[seat]))
        self._touched.setdefault(to, len(self.hands[to]))
        self.hands[seat].remove(card)
        self.hands[to].append(card)
        self.emit("pass", {"seat": seat, "to": to})
        self.emit("passed", {"seat": seat, "to": to, "card": self.variant.card_json[card]}, (seat, to))
        self.pass_turn(seat)

    _HANDLERS: ClassVar[dict[str, Callable[[Round, int, Action], None]]] = {
        A.PLAY: _play,
        A.PLAY_DRAWN: _play_drawn,
        A.DRAW: _draw,
        A.KEEP: _keep,
        A.SPECIAL_DRAW: _special_draw,
        A.ACCEPT: _accept,
        A.CHALLENGE: _challenge,
        A.CHOOSE_COLOUR: _choose_colour,
        A.CHOOSE_TARGET: _choose_target,
        A.PASS_CARD: _pass_card,
    }

    def _finish(self, winner: int) -> None:
        """C-13 / C-14: the round ends; the winner scores what is left in the other hands."""
        self.winner = winner
        self.pending = None
        self.exposed.clear()
        self.declared.clear()
        values = self.cards
        left = {s: [self.variant.card_json[c] for c in hand] for s, hand in enumerate(self.hands) if s != winner}
        self.points = sum(values[c].value for s, hand in enumerate(self.hands) if s != winner for c in hand)
        self.emit("round_over", {"winner": winner, "points": self.points, "hands": left})

    # ------------------------------------------------------------------ errors

    def _diagnose(self, seat: int, action: Action) -> IllegalAction:
        """Say precisely why ``action`` is not among the legal actions of ``seat``."""
        if not 0 <= seat < self.n:
            return IllegalAction("bad_seat", f"There is no seat {seat}.")
        if self.winner is not None or self.pending is None:
            return IllegalAction("round_over", "The round is over.")
        kind = action.kind
        if kind in A.UNO_KINDS:
            return self._diagnose_uno(seat, action)
        p = self.pending
        if p.seat != seat:
            return IllegalAction("not_your_turn", f"Waiting for seat {p.seat} to {DECISION_WORDS[p.kind]}.")
        if kind not in DECISION_KINDS[p.kind]:
            return IllegalAction("wrong_action", f"Now you must {DECISION_WORDS[p.kind]}.")
        if kind == A.DRAW and not self.variant.voluntary_draw:
            return IllegalAction("must_play", "In this edition you must play a card; you may not draw.")
        if kind == A.SPECIAL_DRAW:
            return IllegalAction("special_draw_not_allowed",
                                 "The special draw needs a hand of plain Wilds and a next player on one card.")
        card = action.card
        hand = self.hands[seat]
        if kind in (A.PLAY, A.PASS_CARD) and card not in hand:
            return IllegalAction("card_not_in_hand", "That card is not in your hand.")
        if kind == A.PLAY_DRAWN and card != p.card:
            return IllegalAction("not_drawn_card", "You may only play the card you just drew.")
        if kind == A.PLAY and card is not None and not self.playable(card):
            return IllegalAction("card_not_playable", "That card does not match the colour, number or symbol.")
        if kind in (A.PLAY, A.PLAY_DRAWN) and card is not None:
            face = self.cards[card].face
            if self.variant.needs_colour(face) and action.colour is None:
                return IllegalAction("colour_required", "Declare a colour with this card.")
            if action.colour is not None and not self.variant.needs_colour(face):
                return IllegalAction("colour_not_allowed", "This card does not take a colour.")
            if action.colour is not None and action.colour not in COLOURS:
                return IllegalAction("bad_colour", f"Colours are {', '.join(COLOURS)}.")
            last = len(hand) == 1
            if self.needs_target(face, last):
                if action.target is None:
                    return IllegalAction("target_required", "Choose an opponent for this card.")
                if action.target == seat or not 0 <= action.target < self.n:
                    return IllegalAction("bad_target", "Choose one of your opponents.")
            elif action.target is not None:
                return IllegalAction("target_not_allowed", "This card does not take a target.")
        if kind == A.CHOOSE_COLOUR and action.colour not in COLOURS:
            return IllegalAction("bad_colour", f"Colours are {', '.join(COLOURS)}.")
        if kind == A.CHOOSE_TARGET:
            return IllegalAction("bad_target", "Choose one of your opponents.")
        if action.uno:
            return IllegalAction("uno_not_allowed", "UNO can only be said with a play that leaves you one card.")
        return IllegalAction("illegal_action", "That is not allowed now.")

    def _diagnose_uno(self, seat: int, action: Action) -> IllegalAction:
        target = seat if action.kind == A.DECLARE_UNO else action.target
        if action.kind == A.CATCH:
            if target is None or not 0 <= target < self.n:
                return IllegalAction("bad_target", "Say whom you catch.")
            if target == seat:
                return IllegalAction("cannot_catch_self", "You cannot catch yourself; declare UNO instead.")
        assert target is not None
        if target in self.resolved:
            how, by = self.resolved[target]
            if how == "declared":
                first = f"seat {target} declared UNO first"
            else:
                first = f"seat {by} caught seat {target} first"
            return IllegalAction("too_late", f"Too late: {first}.")
        if action.kind == A.DECLARE_UNO:
            if self.predeclared == seat:
                return IllegalAction("already_declared", "You have already said UNO.")
            return IllegalAction("nothing_to_declare", "You can say UNO when you hold one card, or two on your turn.")
        return IllegalAction("not_exposed", f"Seat {target} cannot be caught now.")

    # ------------------------------------------------------------------ comparison

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the round's future, for replay-equality checks."""
        return (
            self.variant.key, self.n, self.dealer, self.seed, self.rng.getstate(),
            tuple(map(tuple, self.hands)), tuple(self.draw_pile), tuple(self.discard), self.colour,
            self.direction, self.current, self.pending, frozenset(self.exposed), frozenset(self.declared),
            self.predeclared, tuple(sorted(self.resolved.items())), tuple(self.owed), self.reveal,
            self.winner, self.points, self.stack, self.house,
        )
