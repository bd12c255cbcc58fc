"""The scoring family (RULES.md §7.7): HR-22 double score and HR-23 penalty scoring, with the
match endings of §6 (``single_round``, ``rounds``), HX-14, and HR-27's team totals (teams.py).

Hook: ``Rulebook.scoring`` (``HouseScoring``, a ``rulebook.Scoring``).  ``match.py`` asks it two things
after each round: what every seat's total gains (``gains``) and who, if anyone, has now won the match
(``champion``); ``standings`` orders the seats as the match ranks them; ``turns.finish`` counts the
round's points from ``gains`` and marks HR-23's ``round_over`` (``penalty``); the ``scores`` event carries
``gained`` (``shows_gains``).  At the defaults they are C-14 and C-15 exactly.

- C-14: the round's winner gains the values left in the other hands.  HR-23 (``penalty``):
  every other seat gains its own hand's value, the winner nothing; the lowest total leads.
- HR-22: every gain is doubled, last of all (HX-14); the target stays.
- The match ends after the round in which a total reaches the target (C-15: the winner's;
  HR-23: anyone's, and the lowest total wins), after ``rounds`` rounds (the best total wins),
  or after the single round (its winner wins).  Ties: more rounds won, then the lower seat.

Its options are declared here, as the fields of ``ScoringOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).  The match's endings are §6's ``single_round``
and ``rounds`` (``room.py``) and the sides HR-26's (``teams.py``), so what this module reads of a
table's house rules is typed ``ScoringReads``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rulebook import Rulebook, Scoring
from .declare import Family, declared, played_by
from .teams import TeamsReads, groups, team_of

SCORING = Family("scoring")  # §7.7


@declared
@dataclass(frozen=True)
class ScoringOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    double_score: bool = SCORING.flag(rules=("HR-22",))
    scoring: str = SCORING.choice("winner", "penalty", rules=("HR-23",))


class ScoringReads(TeamsReads, Protocol):
    """What the family reads of a table's house rules: its own options, §6's ``single_round`` and
    ``rounds``, and (``TeamsReads``) HR-26's ``team_play`` (a protocol: ``HouseRules``, which holds all
    three families' options, sits above this module)."""

    @property
    def double_score(self) -> bool: ...
    @property
    def scoring(self) -> str: ...
    @property
    def single_round(self) -> bool: ...
    @property
    def rounds(self) -> int | None: ...


OPTIONS: tuple[str, ...] = played_by(ScoringOptions, "scoring")


def gains(house: ScoringReads, winner: int, hand_values: Sequence[int]) -> list[int]:
    """What each seat's total gains from a round its ``winner`` went out of (C-14, HR-22, HR-23, HR-27)."""
    if house.scoring == "penalty":
        out = [0 if seat == winner else value for seat, value in enumerate(hand_values)]
    else:
        side = team_of(house, len(hand_values), winner)  # HR-27: the partner's hand scores for nobody
        points = sum(v for seat, v in enumerate(hand_values) if seat not in side)
        out = [points if seat == winner else 0 for seat in range(len(hand_values))]
    factor = 2 if house.double_score else 1
    return [g * factor for g in out]


def round_points(house: ScoringReads, winner: int, hand_values: Sequence[int]) -> int:
    """The round's points: what the seats' totals gain from it together (``gains``), HR-22's doubling
    included.  Under C-14 and HR-27 that is what the winner (its team) is credited — never the
    partner's hand; under HR-23 what the others' hands add to their own totals.  The round's
    ``points`` everywhere (its event, the match's history, the stored round, the summary) is this."""
    return sum(gains(house, winner, hand_values))


def standings(house: ScoringReads, scores: Sequence[int], wins: Sequence[int]) -> list[int]:
    """The seats, best first: by total (highest, or lowest under HR-23), then rounds won, then seat.

    Under HR-27 the sides are teams: a team's total and wins are its two seats', and a team's
    seats stand together (the lower first)."""
    sign = 1 if house.scoring == "penalty" else -1
    sides = groups(house, len(scores))
    totals = [sum(scores[s] for s in side) for side in sides]
    won = [sum(wins[s] for s in side) for side in sides]
    order = sorted(range(len(sides)), key=lambda i: (sign * totals[i], -won[i], i))
    return [s for i in order for s in sides[i]]


def side_totals(house: ScoringReads, scores: Sequence[int]) -> list[int]:
    """Each side's total: a seat's own, or under HR-27 its team's, per side in seat order."""
    return [sum(scores[s] for s in side) for side in groups(house, len(scores))]


def ranks_by_wins(house: ScoringReads) -> bool:
    """Does ``champion`` look at the rounds won (through ``standings``)?  Only then need they be counted."""
    return not house.single_round and (house.rounds is not None or house.scoring == "penalty")


def champion(house: ScoringReads, scores: Sequence[int], wins: Sequence[int], rounds_played: int,
             round_winner: int, target: int) -> int | None:
    """Who has won the match after this round, if anyone (``wins`` is read only when ``ranks_by_wins``)."""
    if house.single_round:
        return round_winner
    if house.rounds is not None:
        return standings(house, scores, wins)[0] if rounds_played >= house.rounds else None
    if house.scoring == "penalty":
        return standings(house, scores, wins)[0] if max(side_totals(house, scores)) >= target else None
    side = team_of(house, len(scores), round_winner)
    return round_winner if sum(scores[s] for s in side) >= target else None  # C-15 (HR-27: the team's)


class HouseScoring(Scoring):
    """The family's hook (``Rulebook.scoring``): the functions above, under a table's house rules."""

    def __init__(self, house: ScoringReads) -> None:
        self.house = house
        self.penalty = house.scoring == "penalty"  # HR-23: a round's points are the others' own
        self.shows_gains = house.double_score or house.scoring != "winner"

    def gains(self, winner: int, hand_values: Sequence[int]) -> list[int]:
        return gains(self.house, winner, hand_values)

    def standings(self, scores: Sequence[int], wins: Sequence[int]) -> list[int]:
        return standings(self.house, scores, wins)

    def ranks_by_wins(self) -> bool:
        return ranks_by_wins(self.house)

    def champion(self, scores: Sequence[int], wins: Sequence[int], rounds_played: int, round_winner: int,
                 target: int) -> int | None:
        return champion(self.house, scores, wins, rounds_played, round_winner, target)


def plug(book: Rulebook, house: ScoringReads) -> None:
    """The family's hook: ``Rulebook.scoring`` (C-14, C-15 with HR-22, HR-23, HR-27's totals and §6's
    endings)."""
    book.scoring = HouseScoring(house)
