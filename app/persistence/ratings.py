"""Ratings per edition: openskill's Plackett-Luce model (Weng-Lin), the match's places as ranks
(equal places tie).  Each player is an openskill team of their own, except partners under HR-26:
the counted players of one side are rated as one team (of two), so they rise or fall together.
Each rated match keeps every player's rating before and after it, so the whole table can be
worked out again from the history (``recompute``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


class Rating(NamedTuple):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: mu - 3 sigma, low while a rating is still uncertain."""
        return self.mu - 3 * self.sigma


def initial() -> Rating:
    fresh = MODEL.rating()
    return Rating(fresh.mu, fresh.sigma)


def rate(before: Mapping[str, Rating], places: Mapping[str, int],
         sides: Mapping[str, int] | None = None) -> dict[str, Rating]:
    """Everyone's rating after one match: ``before`` by player, ``places`` (1 = first) by player,
    ``sides`` (by player, under HR-26) the side each played on — players of one side are one team."""
    players = sorted(places)
    keys: dict[object, list[str]] = {}
    for p in players:
        keys.setdefault(sides[p] if sides is not None and p in sides else ("own", p), []).append(p)
    groups = list(keys.values())
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma, name=p) for p in group]
             for group in groups]
    after = MODEL.rate(teams, ranks=[places[group[0]] for group in groups])
    return {p: Rating(r.mu, r.sigma) for group, team in zip(groups, after, strict=True)
            for p, r in zip(group, team, strict=True)}


class RatedMatch(NamedTuple):
    match_id: str
    edition: str
    places: dict[str, int]  # by player
    sides: dict[str, int] | None = None  # by player, under HR-26: partners are one team


def recompute(matches: Iterable[RatedMatch]) -> dict[tuple[str, str], tuple[Rating, int]]:
    """Every (player, edition)'s rating and rated-match count after these matches, in order."""
    table: dict[tuple[str, str], tuple[Rating, int]] = {}
    for match in matches:
        before = {p: table.get((p, match.edition), (initial(), 0))[0] for p in match.places}
        for p, rating in rate(before, match.places, match.sides).items():
            table[(p, match.edition)] = (rating, table.get((p, match.edition), (initial(), 0))[1] + 1)
    return table
