"""A stacked deck for tests (``Layout``): the hands, first card and draw pile a round is dealt from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


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
