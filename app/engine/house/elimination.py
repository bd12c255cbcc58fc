"""Elimination (RULES.md §7.10): HR-29 who is out after a round, HR-30 what being out means.

HR-29 (``elimination``: ``cards`` | ``points``): after each scored round, of the seats still in
other than its winner, the one holding the most cards (``cards``) or the highest hand value
(``points``) is out; a tie goes to the other measure, then against the higher seat.  The last
seat in wins the match; the target never ends it (scores are still kept), so a match of N seats
has at most N − 1 scored rounds.  Hook: ``Rulebook.eliminate`` (``Eliminating``) unless the option is
off: ``match.py`` asks its ``loser`` and ``champion`` after each round, and the view carries
``eliminated`` while it is set.

HR-30: an eliminated seat is dealt nothing and passed over by everything that counts seats —
``RoundState.out`` is the set, ``next_seat`` skips it (turns, the deal, Banana Peel, Lightning,
the 0, deflections), ``players`` is C-10's "two players", ``opponents`` leaves it out of every
chosen target (naming it is refused ``bad_target``, D-12) and any action of its own is refused
``eliminated`` (``legality.py``).  It keeps a seat's view with an empty hand, as a spectator's.

Its option is declared here, as the field of ``EliminationOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..rulebook import Elimination, Rulebook
from .declare import Family, declared, played_by

ELIMINATION = Family("elimination")  # §7.10


@declared
@dataclass(frozen=True)
class EliminationOptions:
    """The family's option (its declaration: ``declare.py``); ``HouseRules`` is composed of it."""

    elimination: str = ELIMINATION.choice("off", "cards", "points", rules=("HR-29", "HR-30"),
                                          conflicts=("single_round", "rounds", "team_play"))


OPTIONS: tuple[str, ...] = played_by(EliminationOptions, "elimination")


def loser(house: EliminationOptions, winner: int, sizes: Sequence[int], values: Sequence[int],
          out: Collection[int]) -> int | None:
    """HR-29: the seat a round's end eliminates, or None with the option off."""
    if house.elimination == "off":
        return None
    candidates = [s for s in range(len(sizes)) if s != winner and s not in out]
    if not candidates:
        return None
    if house.elimination == "cards":
        return max(candidates, key=lambda s: (sizes[s], values[s], s))
    return max(candidates, key=lambda s: (values[s], sizes[s], s))


def champion(seats: int, out: Collection[int]) -> int | None:
    """The last seat in, once only one is left."""
    left = [s for s in range(seats) if s not in out]
    return left[0] if len(left) == 1 else None


class Eliminating(Elimination):
    """The family's hook (``Rulebook.eliminate``): ``loser`` and ``champion`` under a table's rule."""

    def __init__(self, house: EliminationOptions) -> None:
        self.house = house

    def loser(self, winner: int, sizes: Sequence[int], values: Sequence[int],
              out: Collection[int]) -> int | None:
        return loser(self.house, winner, sizes, values, out)

    def champion(self, seats: int, out: Collection[int]) -> int | None:
        return champion(seats, out)


def plug(book: Rulebook, house: EliminationOptions) -> None:
    """The family's hook: ``Rulebook.eliminate`` unless ``elimination`` is off."""
    if house.elimination != "off":
        book.eliminate = Eliminating(house)
