"""Pace (RULES.md §7.8): HR-24 fast mode and HR-25 blitz, with HX-4, HX-7, HX-8, HX-14, D-8, D-13.

The engine has no clock: the room's turn clock and its bots ask this module how long a turn
lasts and how long a bot pauses.  Fast mode halves both: every deadline is ⌊turn_seconds / 2⌋
seconds, at least 1.  It needs a turn clock (HX-1, checked with the room's options).

HR-25 (``blitz_seconds``): the match clock runs in the room, in wall-clock time, from round 1's
deal; the engine never reads the time.  When it runs out the room applies one action,
``blitz_expiry`` from ``CLOCK_SEAT`` (``match.apply``), taken in arrival order like any other and
logged, so replays, exports and the verifier play it again.  During a round it stops the round
(the pending decision, T and every catch window lapse: it is no turn action, HX-4), won as if gone
out by the seat with the fewest cards (``fewest_cards``), scored as usual (HR-22, HR-23, HR-27);
between rounds nothing is scored (D-8).  Either way the match ends there (``champion``).

Hook: ``Rulebook.blitz`` (``MatchClock``: ``round_winner``, ``champion``) under ``blitz_seconds``, asked by
``match.py``'s ``blitz_expiry``; without it that action is refused ``bad_action``.  Fast mode plugs nothing
into the engine: the rooms ask ``turn_clock_seconds`` and ``bot_pause_factor``.

Its options are declared here, as the fields of ``PaceOptions`` (``declare.py``), one of the classes
``HouseRules`` is composed of (``options.py``).  Who wins a match the clock ended depends on HR-29's
``elimination`` (``elimination.py``) and on what ``scoring.py`` reads, so what the hook reads of a
table's house rules is typed ``PaceReads``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rulebook import Blitz, Rulebook
from .declare import Family, declared, played_by
from .scoring import ScoringReads, standings

PACE = Family("pace")  # §7.8


@declared
@dataclass(frozen=True)
class PaceOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    fast_mode: bool = PACE.flag(rules=("HR-24",), needs_setting="turn_seconds")  # the room's turn clock
    blitz_seconds: int | None = PACE.choice(None, 120, 300, 600, rules=("HR-25",))


class PaceReads(ScoringReads, Protocol):
    """What the match clock's hook reads of a table's house rules: ``blitz_seconds``, HR-29's
    ``elimination`` and (``ScoringReads``) what ranks the seats (a protocol: ``HouseRules``, which holds
    all these families' options, sits above this module)."""

    @property
    def blitz_seconds(self) -> int | None: ...
    @property
    def elimination(self) -> str: ...


OPTIONS: tuple[str, ...] = played_by(PaceOptions, "pace")


def turn_clock_seconds(house: PaceOptions, turn_seconds: int) -> int:
    """How long a seat has for a decision, by the room's ``turn_seconds``."""
    return max(1, turn_seconds // 2) if house.fast_mode else turn_seconds


def bot_pause_factor(house: PaceOptions) -> float:
    """What a bot's usual pause before acting is multiplied by."""
    return 0.5 if house.fast_mode else 1.0


def fewest_cards(sizes: Sequence[int], values: Sequence[int], out: Collection[int]) -> int:
    """HR-25: the seat a stopped round counts as won by: of the seats still in (an eliminated seat
    holds nothing but is no winner, §7.14), the fewest cards, then the lower hand value, then the
    lower seat."""
    return min((s for s in range(len(sizes)) if s not in out), key=lambda s: (sizes[s], values[s], s))


def champion(house: PaceReads, scores: Sequence[int], wins: Sequence[int], last_winner: int | None) -> int:
    """Who wins a match the clock ended: under HR-29 the winner of the round it stopped or, between
    rounds, of the last scored round (D-8); under ``single_round`` that round's winner; otherwise the
    top total (HR-23: the lowest; HR-27: a team's, its lower seat named), ties by more rounds won
    (the stopped round counts as its fewest-cards seat's, D-13), then the lower seat."""
    if last_winner is not None and (house.elimination != "off" or house.single_round):
        return last_winner
    return standings(house, scores, wins)[0]


class MatchClock(Blitz):
    """HR-25's hook (``Rulebook.blitz``): who wins the round the match clock stops, and the match."""

    def __init__(self, house: PaceReads) -> None:
        self.house = house

    def round_winner(self, sizes: Sequence[int], values: Sequence[int], out: Collection[int]) -> int:
        return fewest_cards(sizes, values, out)

    def champion(self, scores: Sequence[int], wins: Sequence[int], last_winner: int | None) -> int:
        return champion(self.house, scores, wins, last_winner)


def plug(book: Rulebook, house: PaceReads) -> None:
    """The family's engine hook: ``Rulebook.blitz`` under ``blitz_seconds`` (the rooms ask the rest)."""
    if house.blitz_seconds is not None:
        book.blitz = MatchClock(house)
