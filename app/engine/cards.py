"""Cards and the deck of each edition, as data.

A deck is a table of (card type, count) rows, so that correcting a count the rule
sheets got wrong (RULES.md AW-1, PP-1) is a one-line change.  Within a round every
physical card has an integer id: its index in the edition's expanded deck.  Ids are
only ever shown to a seat that can see the card's face, so they leak nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(10))

# Mario Kart items, fixed by the card's colour (MK-2); every wild carries a Bob-omb.
ITEMS: dict[str | None, str] = {
    "red": "mushroom",
    "yellow": "banana_peel",
    "green": "green_shell",
    "blue": "lightning",
    None: "bob_omb",
}


@dataclass(frozen=True, slots=True)
class CardType:
    colour: str | None  # None for wild cards
    face: str  # "0".."9", "skip", "reverse", "draw2", "wild", "wild_draw4", ...
    value: int  # points it is worth in an opponent's hand at the end of a round

    @property
    def name(self) -> str:
        return f"{self.colour} {self.face}" if self.colour else self.face

    @property
    def is_wild(self) -> bool:
        return self.colour is None


DeckTable = tuple[tuple[CardType, int], ...]


def _coloured(face: str, value: int, count: int) -> DeckTable:
    return tuple((CardType(c, face, value), count) for c in COLOURS)


def _classic_like_colours() -> DeckTable:
    """One 0, two each of 1-9, two Skip, two Reverse, two Draw Two per colour (CL-1, MK-1)."""
    rows: list[tuple[CardType, int]] = []
    for colour in COLOURS:
        rows.append((CardType(colour, "0", 0), 1))
        rows.extend((CardType(colour, str(n), n), 2) for n in range(1, 10))
        rows.extend((CardType(colour, face, 20), 2) for face in ("skip", "reverse", "draw2"))
    return tuple(rows)


# CL-1: 108 cards.
CLASSIC_DECK: DeckTable = (
    *_classic_like_colours(),
    (CardType(None, "wild", 50), 4),
    (CardType(None, "wild_draw4", 50), 4),
)

# MK-1: 112 cards, no plain Wild.
MARIO_KART_DECK: DeckTable = (
    *_classic_like_colours(),
    (CardType(None, "wild_draw4", 50), 4),
    (CardType(None, "item_box", 50), 8),
)

# AW-1: 112 cards, all wild.  The split is the one published breakdown we found.
ALL_WILD_DECK: DeckTable = (
    (CardType(None, "wild", 20), 54),
    (CardType(None, "wild_reverse", 50), 14),
    (CardType(None, "wild_skip", 50), 14),
    (CardType(None, "wild_draw2", 50), 10),
    (CardType(None, "wild_draw4", 50), 6),
    (CardType(None, "wild_skip2", 50), 6),
    (CardType(None, "wild_targeted_draw2", 50), 4),
    (CardType(None, "wild_forced_swap", 50), 4),
)

# PP-1: 52 cards; the sheet names three wilds for 51 — we take two plain Wilds.
POCKET_PIZZA_DECK: DeckTable = (
    *(row for n in range(1, 10) for row in _coloured(str(n), n, 1)),
    *_coloured("draw1", 20, 1),
    *_coloured("skip", 20, 1),
    *_coloured("reverse", 20, 1),
    (CardType(None, "wild", 50), 2),
    (CardType(None, "wild_dip", 50), 1),
    (CardType(None, "wild_draw2", 50), 1),
)


def expand(table: DeckTable) -> tuple[CardType, ...]:
    """The deck as one CardType per physical card; a card's id is its index here."""
    return tuple(card for card, count in table for _ in range(count))
