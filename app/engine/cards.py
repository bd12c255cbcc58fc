"""Cards and the deck of each edition, as data.

A deck is a table of (card type, count) rows, so that correcting a count the rule
sheets got wrong (RULES.md AW-1, PP-1) is a one-line change.  Within a round every
physical card has an integer id: its index in the edition's expanded deck.  Ids are
only ever shown to a seat that can see the card's face, so they leak nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")


class Face(StrEnum):
    """Every card face of the four editions.  A member equals its string, as in JSON."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW1 = "draw1"  # Pocket Pizza
    DRAW2 = "draw2"
    WILD = "wild"
    WILD_DRAW4 = "wild_draw4"
    ITEM_BOX = "item_box"  # Mario Kart
    WILD_REVERSE = "wild_reverse"  # All Wild ...
    WILD_SKIP = "wild_skip"
    WILD_SKIP2 = "wild_skip2"
    WILD_DRAW2 = "wild_draw2"  # ... and Pocket Pizza
    WILD_TARGETED_DRAW2 = "wild_targeted_draw2"
    WILD_FORCED_SWAP = "wild_forced_swap"
    WILD_DIP = "wild_dip"  # Pocket Pizza


NUMBERS: tuple[Face, ...] = tuple(Face(str(n)) for n in range(10))

@dataclass(frozen=True, slots=True)
class CardType:
    colour: str | None  # None for wild cards
    face: Face
    value: int  # points it is worth in an opponent's hand at the end of a round

    @property
    def name(self) -> str:
        """``"red 5"``, ``"wild_draw4"``: how layouts, card ids and views name the card (a plain str)."""
        return f"{self.colour} {self.face.value}" if self.colour else self.face.value

    @property
    def is_wild(self) -> bool:
        return self.colour is None


DeckTable = tuple[tuple[CardType, int], ...]


def _coloured(face: Face, value: int, count: int) -> DeckTable:
    return tuple((CardType(c, face, value), count) for c in COLOURS)


def _classic_like_colours() -> DeckTable:
    """One 0, two each of 1-9, two Skip, two Reverse, two Draw Two per colour (CL-1, MK-1)."""
    rows: list[tuple[CardType, int]] = []
    for colour in COLOURS:
        rows.append((CardType(colour, Face.ZERO, 0), 1))
        rows.extend((CardType(colour, NUMBERS[n], n), 2) for n in range(1, 10))
        rows.extend((CardType(colour, face, 20), 2) for face in (Face.SKIP, Face.REVERSE, Face.DRAW2))
    return tuple(rows)


# CL-1: 108 cards.
CLASSIC_DECK: DeckTable = (
    *_classic_like_colours(),
    (CardType(None, Face.WILD, 50), 4),
    (CardType(None, Face.WILD_DRAW4, 50), 4),
)

# MK-1: 112 cards, no plain Wild.
MARIO_KART_DECK: DeckTable = (
    *_classic_like_colours(),
    (CardType(None, Face.WILD_DRAW4, 50), 4),
    (CardType(None, Face.ITEM_BOX, 50), 8),
)

# AW-1: 112 cards, all wild.  The split is the one published breakdown we found.
ALL_WILD_DECK: DeckTable = (
    (CardType(None, Face.WILD, 20), 54),
    (CardType(None, Face.WILD_REVERSE, 50), 14),
    (CardType(None, Face.WILD_SKIP, 50), 14),
    (CardType(None, Face.WILD_DRAW2, 50), 10),
    (CardType(None, Face.WILD_DRAW4, 50), 6),
    (CardType(None, Face.WILD_SKIP2, 50), 6),
    (CardType(None, Face.WILD_TARGETED_DRAW2, 50), 4),
    (CardType(None, Face.WILD_FORCED_SWAP, 50), 4),
)

# PP-1: 52 cards; the sheet names three wilds for 51 — we take two plain Wilds.
POCKET_PIZZA_DECK: DeckTable = (
    *(row for n in range(1, 10) for row in _coloured(NUMBERS[n], n, 1)),
    *_coloured(Face.DRAW1, 20, 1),
    *_coloured(Face.SKIP, 20, 1),
    *_coloured(Face.REVERSE, 20, 1),
    (CardType(None, Face.WILD, 50), 2),
    (CardType(None, Face.WILD_DIP, 50), 1),
    (CardType(None, Face.WILD_DRAW2, 50), 1),
)


def expand(table: DeckTable) -> tuple[CardType, ...]:
    """The deck as one CardType per physical card; a card's id is its index here."""
    return tuple(card for card, count in table for _ in range(count))
