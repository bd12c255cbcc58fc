"""What a match's figures say about each side and seat: the one source for every reader.

The table's podium and round summary, the match page, the export's readers, the players'
history, stats and ratings all credit a match through ``match_result`` and a round through
``round_sides``, so that a figure shown in one place is the figure shown in every other.

- A *side* is what the match ranks: every seat on its own, or under HR-26 a team of two
  (``teams.groups``).  HX-14: with ``team_play`` every total and tie is a team's.
- HR-27: the round's winner's team scores the other teams' hands; its partner's scores for
  nobody (``scoring.gains``).  A team's total is the sum of its seats' own totals.
- The match's winner is a side: both partners win or lose together, and share their place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..variants import VARIANTS
from .options import HouseRules
from .teams import groups


class MatchResult(NamedTuple):
    sides: list[list[int]]  # the sides the match ranks, each its seats (lowest first)
    side_of: list[int]  # per seat: the index of its side in ``sides``
    totals: list[int]  # per side: its total (a seat's own, or its team's)
    places: list[int]  # per seat: its side's place, 1 = the winner's; equal totals share a place
    winners: list[int]  # the seats credited with the match's win (none while it is played)

    def total_of(self, seat: int) -> int:
        """The total ``seat`` is credited with: its side's."""
        return self.totals[self.side_of[seat]]


def sides_of(house: HouseRules, seats: int) -> tuple[list[list[int]], list[int]]:
    sides = groups(house, seats)
    side_of = [0] * seats
    for i, side in enumerate(sides):
        for seat in side:
            side_of[seat] = i
    return sides, side_of


def match_result(house: HouseRules, scores: Sequence[int], winner: int | None) -> MatchResult:
    """The sides, their totals and places, and who won, from each seat's own total and the seat
    the match named its winner (any seat of the winning side).  Places go by side total —
    highest first, lowest under HR-23 — with the winner's side first whatever its total."""
    sides, side_of = sides_of(house, len(scores))
    totals = [sum(scores[s] for s in side) for side in sides]
    won = side_of[winner] if winner is not None and 0 <= winner < len(scores) else None
    sign = 1 if house.scoring == "penalty" else -1

    def key(i: int) -> tuple[int, int]:
        return (0 if i == won else 1, sign * totals[i])

    order = sorted(range(len(sides)), key=key)
    side_place = [0] * len(sides)
    for n, i in enumerate(order):
        same = n > 0 and key(order[n - 1]) == key(i)
        side_place[i] = side_place[order[n - 1]] if same else n + 1
    places = [side_place[side_of[seat]] for seat in range(len(scores))]
    winners = list(sides[won]) if won is not None else []
    return MatchResult(sides, side_of, totals, places, winners)


def round_sides(house: HouseRules, gained: Sequence[int], winner: int | None) -> tuple[list[int], list[int]]:
    """A round's figures per side: what each side's total gained from it, and the seats of the
    side that won it (its winner's; none for a round nobody won)."""
    sides, side_of = sides_of(house, len(gained))
    per_side = [sum(gained[s] for s in side) for side in sides]
    won = list(sides[side_of[winner]]) if winner is not None and 0 <= winner < len(gained) else []
    return per_side, won


def result_json(house: HouseRules, scores: Sequence[int], winner: int | None) -> dict[str, object]:
    """``match_result`` as the match page and the API give it (JSON): who played together, each
    side's total, each seat's place and the seats that won."""
    result = match_result(house, scores, winner)
    return {"team_play": house.team_play, "sides": result.sides, "side_totals": result.totals,
            "places": result.places, "winners": result.winners}


def credited(config: Mapping[str, Any], totals: Sequence[int], winner: int | None) -> dict[str, object]:
    """``result_json`` for a stored match: its configuration as stored (``MatchConfig.to_json``),
    each seat's own total and the seat stored as its winner."""
    house = HouseRules.from_json(config.get("house"), VARIANTS.get(str(config.get("edition"))))
    return result_json(house, totals, winner)
