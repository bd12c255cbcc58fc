"""Ratings per edition: openskill's Plackett-Luce model (Weng-Lin), one player a team, the
match's places as ranks (equal places tie).  Each rated match keeps every player's rating before
and after it, so the whole table can be worked out again from the history (``recompute``).
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


def rate(before: Mapping[str, Rating], places: Mapping[str, int]) -> dict[str, Rating]:
    """Everyone's rating after one match: ``before`` by player, ``places`` (1 = first) by player."""
    players = sorted(places)
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma, name=p)] for p in players]
    after = MODEL.rate(teams, ranks=[places[p] for p in players])
    return {p: Rating(team[0].mu, team[0].sigma) for p, team in zip(players, after, strict=True)}


class RatedMatch(NamedTuple):
    match_id: str
    edition: str
    places: dict[str, int]  # by player


def recompute(matches: Iterable[RatedMatch]) -> dict[tuple[str, str], tuple[Rating, int]]:
    """Every (player, edition)'s rating and rated-match count after these matches, in order."""
    table: dict[tuple[str, str], tuple[Rating, int]] = {}
    for match in matches:
        before = {p: table.get((p, match.edition), (initial(), 0))[0] for p in match.places}
        for p, rating in rate(before, match.places).items():
            table[(p, match.edition)] = (rating, table.get((p, match.edition), (initial(), 0))[1] + 1)
    return table
