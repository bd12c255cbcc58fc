"""Finishing restrictions (RULES.md §7.5): HR-14 last-card limits and HR-15 what a restricted
last card means.

HR-14 (``finish_with``) names the cards that may not empty a hand: ``no_draw`` the edition's
Draw cards and a Targeted Draw Two; ``no_wild`` every wild (Wild, Wild Draw Four, Item Box, Dip
Into The Deck, Wild Draw 2); ``no_draw_or_wild`` either; ``number`` anything but a number card.

HR-15: such a card cannot be played as one's last — a play, a drawn card's play, an answer, a
deflection or a jump-in that would end on it is refused ``finish_restricted``.  Hook: ``Rulebook.no_last``,
the ids of the edition's cards that may not be a last card (``plug``), which ``plays.restricted_last``
and the listing ask.  A seat holding only such a card must draw (C-6); in All Wild, where
nothing is drawn on a turn (AW-5), it draws one card and its turn ends (``turns.draw``).

Its option is declared here, as the field of ``FinishingOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import NUMBERS, CardType, Face
from ..rulebook import Rulebook
from .declare import ALL_WILD, Family, declared, played_by

FINISHING = Family("finishing")  # §7.5


@declared
@dataclass(frozen=True)
class FinishingOptions:
    """The family's option (its declaration: ``declare.py``); ``HouseRules`` is composed of it."""

    finish_with: str = FINISHING.choice("any", "no_draw", "no_wild", "no_draw_or_wild", "number",
                                        rules=("HR-14", "HR-15"),
                                        refused_by={ALL_WILD: ("no_wild", "no_draw_or_wild", "number")})


OPTIONS: tuple[str, ...] = played_by(FinishingOptions, "finishing")
NUMBER_FACES = frozenset(NUMBERS)
DRAW_FACES = frozenset({Face.DRAW1, Face.DRAW2, Face.WILD_DRAW2, Face.WILD_DRAW4, Face.WILD_TARGETED_DRAW2})


def restricted(finish_with: str, face: Face, wild: bool) -> bool:
    """HR-14: may a card of this face not be the one that empties a hand?"""
    if finish_with == "any":
        return False
    if finish_with == "number":
        return face not in NUMBER_FACES
    draw = face in DRAW_FACES
    return (draw and finish_with != "no_wild") or (wild and finish_with != "no_draw")


def no_last(finish_with: str, cards: Sequence[CardType]) -> frozenset[int]:
    """HR-14: the ids of the cards of a deck that may not empty a hand."""
    return frozenset(card for card, ct in enumerate(cards)
                     if restricted(finish_with, ct.face, ct.colour is None))


def plug(book: Rulebook, house: FinishingOptions, cards: Sequence[CardType]) -> None:
    """The family's hook: ``Rulebook.no_last``."""
    book.no_last = no_last(house.finish_with, cards)
