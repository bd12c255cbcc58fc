"""What every edition shares, and the hooks an edition overrides.

An edition is a ``Variant``: its deck table, hand size, seat range and target score, a
``CardRule`` per face (the card's effect and what its play takes: a colour, a target, how
many cards it leaves), the continuations of the follow-up decisions its cards ask for (by
``Reason``), and its first-card rule.  A card's rule therefore lives in its edition's module —
or, when it is more than an effect, in a module of its own that the edition's table wires to its
face (``challenge.py``, ``item_box.py``, ``dip.py``; docs/ENGINE.md, "Rule → module").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..actions import Action
from ..card_rules import CardRule
from ..cards import CardType, DeckTable, Face, expand
from ..penalty_cards import PenaltyCards
from ..pending import COLOUR, Pending, PendingKind, Reason
from ..state import Continuation, RoundState, SpecialDraw
from . import challenge


def first_card_coloured(rnd: RoundState, seat: int, pending: Pending, action: Action) -> None:
    """A wild first card's colour is chosen (CL-2, PP-2): that player plays first."""
    rnd.give_turn(seat)


class Variant:
    key: str = ""
    title: str = ""
    table: DeckTable = ()
    hand_size = 7
    min_seats = 2
    max_seats = 10
    target = 500
    voluntary_draw = True  # C-6; All Wild says no (AW-5)
    special_draw: ClassVar[SpecialDraw | None] = None  # All Wild's exception to AW-5 (AW-6)
    dealer_by_draw = True  # C-2: the highest number drawn deals; an edition without numbers draws lots
    redraw_first: frozenset[Face] = frozenset()  # first cards that go back into the pile
    penalty_cards: ClassVar[PenaltyCards]  # its small and big Draw, Skip and Reverse (RULES.md §7)
    # What follows each follow-up decision the edition's cards ask for, by the decision's reason (a
    # decision asked with no reason, the challenge, by its kind).
    continuations: ClassVar[Mapping[Reason | PendingKind, Continuation]] = {
        Reason.FIRST_CARD: first_card_coloured,
    }

    def __init__(self) -> None:
        self.cards: tuple[CardType, ...] = expand(self.table)
        self.card_json: tuple[dict[str, Any], ...] = tuple(self._card_json(i, c)
                                                           for i, c in enumerate(self.cards))
        # Its rules as its sheet states them; the house rules' edits make the tables a table plays by
        # (house/table.py).  What it cannot play (HX-1) is declared with the options and read by its key
        # (house/options.py, ``refused_house_rules``).
        self.rules: dict[Face, CardRule] = self.card_rules()
        self._by_name: dict[str, list[int]] = {}
        for card, ct in enumerate(self.cards):
            self._by_name.setdefault(ct.name, []).append(card)

    def card_rules(self) -> dict[Face, CardRule]:
        """The rule of every face in the deck."""
        raise NotImplementedError

    def continuation(self, reason: Reason | PendingKind | None) -> Continuation:
        """What follows a decision asked for ``reason``; an edition that never asks it has none."""
        found = self.continuations.get(reason) if reason is not None else None
        if found is None:
            raise LookupError(f"{self.title} has no follow-up for a decision asked for {reason!r}")
        return found

    def _card_json(self, card: int, ct: CardType) -> dict[str, Any]:
        return {"id": card, "name": ct.name, "colour": ct.colour, "face": ct.face.value, "value": ct.value}

    def card_ids(self, name: str) -> tuple[int, ...]:
        """The ids of every card named ``name`` (``"red 5"``, ``"wild_draw4"``) in this deck."""
        found = self._by_name.get(name)
        if not found:
            raise KeyError(f"no {name!r} in the {self.key} deck")
        return tuple(found)

    def special_draw_allowed(self, rnd: RoundState, seat: int) -> bool:
        """The edition's ``special_draw`` (AW-6): only cards of its face in hand, the next player on its
        count, and a card to draw.  (Face-down cards, HR-33, are not looked at: their faces must not show
        in what may be done.)"""
        rule = self.special_draw
        if rule is None:
            return False
        cards = self.cards
        return (
            len(rnd.hands[rnd.next_seat(seat)]) == rule.next_holds
            and all(cards[c].face == rule.hand_of for c in rnd.face_up(seat))
            and rnd.can_draw()
        )

    def guilty_now(self, rnd: RoundState, seat: int, card: int) -> bool:
        """Would ``card``, played by ``seat`` now, be a big Draw a challenge finds guilty (CL-5, MK-4, PP-5)?
        (HR-11 asks: house/drawing.py.)"""
        return challenge.guilty_now(rnd, self.penalty_cards.big, self.penalty_cards.big_guilt, seat, card)

    # The start of a round.
    def start(self, rnd: RoundState) -> None:
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

    def first_card(self, rnd: RoundState, card: int) -> None:
        """CL-2 / MK-3 / PP-2: the flipped card's action as the sheets of the coloured editions say."""
        face = self.cards[card].face
        dealer = rnd.dealer
        first = rnd.next_seat(dealer)
        if face == Face.SKIP:
            rnd.pass_turn(dealer, skip_next=1)
        elif face == Face.REVERSE:
            rnd.direction = -1
            rnd.emit("reverse", {"direction": -1})
            rnd.give_turn(dealer)
        elif face in (Face.DRAW2, Face.DRAW1):
            rnd.draw(first, 2 if face == Face.DRAW2 else 1, "first_card")
            rnd.pass_turn(dealer, skip_next=1)
        elif self.cards[card].is_wild:
            rnd.ask(Pending(COLOUR, first, reason=Reason.FIRST_CARD))
        else:
            rnd.give_turn(first)
