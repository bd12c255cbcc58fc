"""A stacked deck for tests (``Layout``): the hands, first card and draw pile a round is dealt from."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import CardType


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

    def deal(self, cards: Sequence[CardType], seats: int, rng: random.Random,
             edition: str) -> tuple[list[list[int]], list[int]]:
        """The hands and the draw pile (its top at the end) this layout names, from the deck ``cards``."""
        if len(self.hands) != seats:
            raise ValueError(f"layout has {len(self.hands)} hands for {seats} seats")
        by_name: dict[str, list[int]] = {}
        for cid in range(len(cards)):
            by_name.setdefault(cards[cid].name, []).append(cid)

        def take(name: str) -> int:
            left = by_name.get(name)
            if not left:
                raise ValueError(f"no (more) {name!r} in the {edition} deck")
            return left.pop(0)

        hands = [[take(name) for name in hand] for hand in self.hands]
        top = take(self.top) if self.top is not None else None
        named_draw = [take(name) for name in self.draw]
        rest = [cid for left in by_name.values() for cid in left]
        rest.sort()
        rng.shuffle(rest)
        draw_pile = rest + named_draw[::-1]
        if top is not None:
            # The named first card is flipped before anything else: it sits on the pile's top.
            draw_pile.append(top)
        return hands, draw_pile
