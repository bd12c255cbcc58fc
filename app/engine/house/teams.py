"""Team play (RULES.md §7.9): HR-26 teams of two and HR-27 team rounds.

HR-26 (``team_play``): partners sit opposite — with N seated at the start (4, 6, 8 or 10), the
k-th and the (k + N/2)-th, by position in seat order (D-9); the engine numbers the seated
0 … N − 1, so team k is seats k and k + N/2.  Fewer than 4 or an odd number is ``bad_teams``
(``check``, asked by ``new_match``; the room refuses a ``max_seats`` below 4 at creation).

HR-27: a round still ends when one player goes out; that player's team scores the hands of the
*other* teams — the partner's hand scores for nobody (``scoring.gains``); under HR-23 each hand
but the winner's adds to its own team.  Target, ``rounds``, ``single_round`` and ties (more
rounds won, then the team with the lower seat) use team totals (``scoring.standings`` and
``champion`` rank ``groups``); a seat's own total is what it gained, its team's the sum of the
two.  C-16 holds between partners, and a catch on one's partner is refused
``cannot_catch_partner`` (``uno.py``).

Hook: ``Rulebook.teams`` (``TeamPlay``, a ``rulebook.Teams``) under ``team_play``: ``uno.py`` and
``legality.py`` ask ``partners``; ``turns.finish`` and ``match.py`` name the winning ``team_of``; the
``scores`` event and the view carry ``groups`` and ``side_totals``.  ``check`` runs when the match's rule
set is assembled (``house/rulebook.py``).

§7.9's options are declared here, as the fields of ``TeamsOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``); HR-28 is played by ``seating.py``.  The
functions below read ``team_play`` alone (``TeamsReads``), so that ``scoring.py`` may hand them what it
reads, which has it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..errors import ConfigError
from ..rulebook import Rulebook, Teams
from .declare import Family, declared, played_by

TEAMS = Family("teams")  # §7.9: played here, HR-28 in seating.py


@declared
@dataclass(frozen=True)
class TeamsOptions:
    """§7.9's options, team play and seating (their declarations: ``declare.py``); ``HouseRules`` is
    composed of them.  ``seating.py`` plays ``shuffle_seats``."""

    team_play: bool = TEAMS.flag(rules=("HR-26", "HR-27"))
    shuffle_seats: bool = TEAMS.flag(rules=("HR-28",), module="seating")


class TeamsReads(Protocol):
    """What the functions below read of a table's house rules: ``team_play`` (``TeamsOptions`` has it, and
    ``HouseRules``, and what ``scoring.py`` reads of them)."""

    @property
    def team_play(self) -> bool: ...


OPTIONS: tuple[str, ...] = played_by(TeamsOptions, "teams")
TEAM_SIZES = (4, 6, 8, 10)


def check(house: TeamsReads, seats: int) -> None:
    """HR-26: teams need an even number of players, at least four."""
    if house.team_play and seats not in TEAM_SIZES:
        raise ConfigError("bad_teams", f"Teams of two need 4, 6, 8 or 10 players, not {seats}.")


def groups(house: TeamsReads, seats: int) -> list[list[int]]:
    """The sides whose totals the match ranks: teams of two, or every seat on its own."""
    if not house.team_play:
        return [[s] for s in range(seats)]
    half = seats // 2
    return [[k, k + half] for k in range(half)]


def partners(house: TeamsReads, seats: int, a: int, b: int) -> bool:
    return house.team_play and a != b and (a - b) % seats == seats // 2


def team_of(house: TeamsReads, seats: int, seat: int) -> set[int]:
    """The seats on ``seat``'s side (itself, and its partner under HR-26)."""
    return {seat, (seat + seats // 2) % seats} if house.team_play else {seat}


class TeamPlay(Teams):
    """The family's hook (``Rulebook.teams``): the teams of a table of ``seats`` under ``team_play``."""

    def __init__(self, house: TeamsReads, seats: int) -> None:
        self.house = house
        self.seats = seats

    def partners(self, a: int, b: int) -> bool:
        return partners(self.house, self.seats, a, b)

    def team_of(self, seat: int) -> set[int]:
        return team_of(self.house, self.seats, seat)

    def groups(self) -> list[list[int]]:
        return groups(self.house, self.seats)


def plug(book: Rulebook, house: TeamsOptions, seats: int) -> None:
    """The family's hook, once HR-26's seats are checked (``bad_teams``)."""
    check(house, seats)
    if house.team_play:
        book.teams = TeamPlay(house, seats)
