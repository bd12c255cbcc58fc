"""What every edition shares, and the hooks an edition overrides.

An edition is a ``Variant``: its deck table, hand size, seat range and target score, a table
of card effects keyed by face, and a few small predicates (does this face take a colour? a
target? may a player draw voluntarily?).  Effects are plain functions of the round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..actions import PLAY, PLAY_DRAWN, Action
from ..cards import COLOURS, ITEMS, CardType, DeckTable, expand
from ..house import HouseRules
from ..round import CHALLENGE, COLOUR, STACK, Pending, Round

# (round, seat that played, card id, the play action, was it the seat's last card)
Effect = Callable[[Round, int, int, Action, bool], None]


class Variant:
    key: str = ""
    title: str = ""
    table: DeckTable = ()
    hand_size = 7
    min_seats = 2
    max_seats = 10
    target = 500
    voluntary_draw = True  # C-6; All Wild says no (AW-5)
    has_items = False
    redraw_first: frozenset[str] = frozenset()  # first cards that go back into the pile
    colour_faces: frozenset[str] = frozenset()  # faces whose player declares a colour (C-7)
    target_faces: frozenset[str] = frozenset()  # faces whose player may have to name an opponent
    stack_draws: dict[str, int] = {}  # noqa: RUF012 - read-only: unchallengeable Draw faces that stack

    def __init__(self) -> None:
        self.cards: tuple[CardType, ...] = expand(self.table)
        self.card_json: tuple[dict[str, Any], ...] = tuple(self._card_json(i, c) for i, c in enumerate(self.cards))
        self.effects: dict[str, Effect] = self.build_effects()
        # The play options of every card without a target, built once: legal_actions is the hot path.
        # options[kind] = (without UNO, with UNO as well) per card id.
        self.options: dict[str, tuple[list[tuple[Action, ...]], list[tuple[Action, ...]]]] = {
            kind: self._build_options(kind) for kind in (PLAY, PLAY_DRAWN)
        }

    def effects_with(self, house: HouseRules) -> dict[str, Effect]:
        """The effect table with the house rules that change card effects switched on."""
        if not (house.stacking or house.seven_o):
            return self.effects
        effects = dict(self.effects)
        if house.stacking:
            for face, count in self.stack_draws.items():
                effects[face] = stacking_draw(count)
        if house.seven_o:
            if "7" in effects:
                effects["7"] = swap_with_target
            if "0" in effects:
                effects["0"] = pass_hands_on
        return effects

    def _build_options(self, kind: str) -> tuple[list[tuple[Action, ...]], list[tuple[Action, ...]]]:
        plain: list[tuple[Action, ...]] = []
        with_uno: list[tuple[Action, ...]] = []
        for card, ct in enumerate(self.cards):
            colours = COLOURS if self.needs_colour(ct.face) else (None,)
            plain.append(tuple(Action(kind, card, c) for c in colours))
            if self.uno_with_play(ct.face):
                both = (Action(kind, card, c, None, uno) for c in colours for uno in (False, True))
                with_uno.append(tuple(both))
            else:
                with_uno.append(plain[-1])
        return plain, with_uno

    def _card_json(self, card: int, ct: CardType) -> dict[str, Any]:
        out: dict[str, Any] = {"id": card, "name": ct.name, "colour": ct.colour, "face": ct.face, "value": ct.value}
        if self.has_items:
            out["item"] = ITEMS[ct.colour]
        return out

    def build_effects(self) -> dict[str, Effect]:
        raise NotImplementedError

    # Small predicates the round asks.
    def needs_colour(self, face: str) -> bool:
        return face in self.colour_faces

    def needs_target(self, face: str, last: bool) -> bool:
        return False

    def swaps(self, face: str) -> bool:
        return False

    def uno_with_play(self, face: str) -> bool:
        """May UNO be said together with playing this face from a two-card hand?"""
        return True

    def special_draw_allowed(self, rnd: Round, seat: int) -> bool:
        return False

    def guilty(self, rnd: Round, seat: int) -> bool:
        """Was the Wild Draw card just played by ``seat`` an illegal play?  (Decided at play time.)"""
        return False

    # The start of a round.
    def start(self, rnd: Round) -> None:
        card = rnd.flip()
        assert card is not None, "a fresh deck always has a card to flip"
        while self.cards[card].face in self.redraw_first:
            rnd.emit("first_card_returned", {"card": self.card_json[card]})
            rnd.discard.pop()
            rnd.draw_pile.append(card)
            rnd.rng.shuffle(rnd.draw_pile)
            card = rnd.flip()
            assert card is not None
        rnd.colour = self.cards[card].colour
        rnd.emit("first_card", {"card": self.card_json[card], "dealer": rnd.dealer})
        self.first_card(rnd, card)

    def first_card(self, rnd: Round, card: int) -> None:
        """CL-2 / MK-3 / PP-2: the flipped card's action as the sheets of the coloured editions say."""
        face = self.cards[card].face
        dealer = rnd.dealer
        first = rnd.next_seat(dealer)
        if face == "skip":
            rnd.pass_turn(dealer, skip_next=1)
        elif face == "reverse":
            rnd.direction = -1
            rnd.emit("reverse", {"direction": -1})
            rnd.give_turn(dealer)
        elif face in ("draw2", "draw1"):
            rnd.draw(first, 2 if face == "draw2" else 1, "first_card")
            rnd.pass_turn(dealer, skip_next=1)
        elif self.cards[card].is_wild:
            rnd.ask(Pending(COLOUR, first, reason="first_card"))
        else:
            rnd.give_turn(first)

    def after_choice(self, rnd: Round, seat: int, pending: Pending, action: Action) -> None:
        """Carry on after a colour or opponent was chosen, according to why it was asked."""
        reason = pending.reason
        target = action.target
        if reason == "first_card":
            rnd.give_turn(seat)
        elif reason == "green_shell":
            assert target is not None
            rnd.draw(target, 1, "green_shell")
            rnd.pass_turn(seat)
        elif reason == "first_targeted":
            assert target is not None
            rnd.draw(target, 2, "targeted_draw2")
            rnd.give_turn(rnd.next_seat(seat))
        elif reason == "first_swap":
            assert target is not None
            rnd.swap_hands(seat, target)
            rnd.emit("swap", {"seat": seat, "target": target})
            rnd.give_turn(rnd.next_seat(seat))
        else:  # "bob_omb", "plain_wild": the Item Box player's turn is over
            rnd.pass_turn(seat)


# ---------------------------------------------------------------- effects shared by editions


def no_effect(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    if not last:
        rnd.pass_turn(seat)


def skip(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """C-9: the next player loses their turn."""
    if not last:
        rnd.pass_turn(seat, skip_next=1)


def reverse(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """C-1 / C-10: flip the direction; with two players it acts as a Skip."""
    rnd.direction = -rnd.direction
    rnd.emit("reverse", {"direction": rnd.direction})
    if not last:
        rnd.pass_turn(seat, skip_next=1 if rnd.n == 2 else 0)


def draw_and_skip(count: int) -> Effect:
    """C-9: the next player draws ``count`` and loses their turn (the draw survives C-13)."""

    def effect(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
        rnd.draw(rnd.next_seat(seat), count, "card")
        if not last:
            rnd.pass_turn(seat, skip_next=1)

    return effect


def challengeable_draw(count: int) -> Effect:
    """CL-5/CL-6, PP-5/PP-6: the next player accepts the draw or challenges it."""

    def effect(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
        victim = rnd.next_seat(seat)
        total = count + rnd.stack  # the stack is only ever non-zero under the stacking house rule
        if last:  # C-13: a last card cannot be challenged; its draw still happens
            rnd.stack = 0
            rnd.draw(victim, total, "card")
            return
        if rnd.house.stacking:
            rnd.stack = total
        rnd.ask(Pending(CHALLENGE, victim, challenged=seat, penalty=total,
                        guilty=rnd.variant.guilty(rnd, seat), evidence=tuple(rnd.hands[seat])))

    return effect


# ---------------------------------------------------------------- house rules (RULES.md §6)


def stacking_draw(count: int) -> Effect:
    """Stacking: the next player answers with the same Draw card or takes the whole pile-up."""

    def effect(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
        rnd.stack += count
        victim = rnd.next_seat(seat)
        if last:
            total, rnd.stack = rnd.stack, 0
            rnd.draw(victim, total, "card")
            return
        rnd.ask(Pending(STACK, victim, penalty=rnd.stack))

    return effect


def swap_with_target(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """Forced Swap (AW-2) and Seven-O's 7: swap hands with the chosen player; nobody loses a turn.

    Void as a last card (C-13).
    """
    if last:
        return
    assert action.target is not None
    rnd.swap_hands(seat, action.target)
    rnd.emit("swap", {"seat": seat, "target": action.target})
    rnd.pass_turn(seat)


def pass_hands_on(rnd: Round, seat: int, card: int, action: Action, last: bool) -> None:
    """Seven-O: a 0 passes every hand to the next player in the direction of play."""
    if last:
        return
    rnd.rotate_hands()
    rnd.emit("hands_passed", {"seat": seat, "direction": rnd.direction})
    rnd.pass_turn(seat)
