"""What a card's rule is, and an edition's rule table: every face's rule, looked up by card id.

A ``CardRule`` says what one face does (its effect) and what its play takes (a colour, a
target, how many cards are left in the hand); a ``RuleTable`` holds an edition's rules under
some house rules, with the plays that can be listed before any round is dealt.  Each
edition's tables are built once (``house/table.py``); each round holds the one its house rules ask
for (``RoundState.rules``).

The round holds its table (``state.py`` imports this module), so this module cannot import the
round back (the engine's imports form no cycle): where an effect or a penalty's answer takes the
round, its type here is ``Any``.  Every effect and answer is itself written for
``state.RoundState`` and checked as such; what this module reads of a rule or a table names no
round.  (A type parameter for the round would say more, but mypyc cannot compile a generic
dataclass, and ``CardRule`` is one: ``house/stacking.py`` edits rules with ``replace``.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from .actions import PLAY, PLAY_DRAWN, Action
from .cards import COLOURS, NUMBERS, CardType, Face
from .pending import DrawKind

# (round, seat that played, card id, the play action, was it the seat's last card); the round is a
# ``state.RoundState``, which this module cannot name (above).
Effect = Callable[[Any, int, int, Action, bool], None]


class PenaltyAnswers(Protocol):
    """What may answer a pending penalty (STACK, CHALLENGE): the stacking family
    (house/stacking.py)."""

    def answers(self, rnd: Any, card: int) -> bool:
        """Does ``card`` answer the penalty pending now?"""

    def answering(self, rnd: Any) -> frozenset[int]:
        """Every card id that ``answers`` now, found at once (``legal_actions`` lists their
        plays)."""

    def open_to(self, kind: DrawKind) -> bool:
        """May any card answer a penalty of this kind at this table (HX-3)?  (A view tells it to all:
        ``card_shapes.penalty_answers``.)"""


class NoAnswers:
    """Without the stacking family nothing answers a penalty (§1-5)."""

    def answers(self, rnd: Any, card: int) -> bool:
        return False

    def answering(self, rnd: Any) -> frozenset[int]:
        return frozenset()

    def open_to(self, kind: DrawKind) -> bool:
        return False


class Target(Enum):
    """Does playing the card name an opponent (``Action.target``)?"""

    NEVER = 0
    ALWAYS = 1  # Forced Swap, Targeted Draw Two, Seven-O's 7
    WITH_LAST_CARD = 2  # an Item Box: its Green Shell can ask no one later (C-13)


class HandAfter(Enum):
    """How many cards the player holds once the card has done its work (if it was not their
    last)."""

    ONE_LESS = 0  # the usual
    SAME = 1  # Dip Into The Deck: draw one, pass one on
    TARGETS = 2  # a swap: the target's hand (AW-2, Seven-O's 7)
    PREVIOUS_SEATS = 3  # Seven-O's 0: every hand moves on, you receive the previous seat's
    NEXT_SEATS = 4  # a 7 that swaps with the next seat (HR-7): you receive the next seat's hand


@dataclass(frozen=True, slots=True)
class CardRule:
    """Everything the engine needs to know about one face: its effect and what its play takes.

    (How many cards its play leaves in a hand asks the round: ``RoundState.cards_left``.)
    """

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
        return (self.target is Target.NEVER
                and self.hand_after in (HandAfter.ONE_LESS, HandAfter.SAME))


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

    __slots__ = ("by_card", "cards", "numbers", "options", "rules", "seat_plays", "stacking",
                 "turn_plays", "twins")

    def __init__(self, cards: Sequence[CardType], rules: Mapping[Face, CardRule],
                 stacking: PenaltyAnswers | None = None) -> None:
        self.rules = dict(rules)
        self.cards = tuple(cards)
        # What may answer a pending penalty (STACK, CHALLENGE): nothing, unless a house rule says
        # so.
        self.stacking: PenaltyAnswers = stacking if stacking is not None else NoAnswers()
        self.by_card: tuple[CardRule, ...] = tuple(rules[ct.face] for ct in cards)
        self.options: dict[str, CardOptions] = {
            kind: self._options(kind) for kind in (PLAY, PLAY_DRAWN)}
        # HR-8 (house/volume.py) batches cards of one number: each card's number (None: not a
        # number card).
        self.numbers: tuple[Face | None, ...] = tuple(
            ct.face if ct.face in NUMBERS else None for ct in cards)
        # Per card, the other cards exactly like it (none for a wild): what may jump in on it
        # (legality.jumps_in).
        kinds = [(ct.colour, ct.face) if ct.colour is not None else None for ct in self.cards]
        self.twins = tuple(
            frozenset(d for d, k in enumerate(kinds) if k == mine and d != c) if mine
            else frozenset()
            for c, mine in enumerate(kinds))
        # (kind, card, seat, seats, out) -> a card's plays that depend on other hands, while no UNO
        # goes with them.
        self.seat_plays: dict[tuple[str, int, int, int, frozenset[int]], tuple[Action, ...]] = {}
        # (colour to match, top card's face, which options) -> each card's plays on a turn:
        # plays.turn_plays.
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
                with_uno.append(tuple(Action(kind, card, c, None, uno)
                                      for c in colours for uno in (False, True)))
            else:
                with_uno.append(plain[-1])
        return tuple(plain), tuple(with_uno)
