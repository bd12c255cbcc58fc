"""What a finished match says about each seat, worked out by playing it again through the engine:
its place, points, rounds won, UNO! catches made and suffered, and challenges won.

Places, totals, wins and the rounds won are the side's (``app/engine/house/results.py``, the
one source the table and the match page read too): under HR-26/27 both partners are credited
with their team's total, place and rounds, and win or lose together; catches and challenges
stay each seat's own.

The stored rows (matches, rounds, actions) are the only input, so the figures of any stored
match can be worked out again at any time, by any node, with the same result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.engine.audit import rebuild_finished
from app.engine.house.results import match_result, sides_of


@dataclass
class SeatFigures:
    seat: int
    side: int = 0  # the index of its side: its own, or its team's under HR-26 (rated as one)
    placement: int = 0  # 1 = the winner's side; equal totals share a place
    won: bool = False
    points: int = 0  # the final total: its side's (its team's under HR-26)
    rounds: int = 0
    rounds_won: int = 0
    round_points: int = 0
    catches_made: int = 0
    catches_suffered: int = 0
    challenges_won: int = 0  # a challenge made that found the card illegal, or one survived


def figures(export: Mapping[str, Any]) -> list[SeatFigures]:
    """Per seat, from what ``read_export`` returns for a finished match (``Mismatch`` if its log
    does not replay)."""
    config, played, derived = rebuild_finished(export["config"], export["rounds"], export["actions"])
    house = config.house
    seats = [SeatFigures(seat) for seat in range(len(played.scores))]
    sides, side_of = sides_of(house, len(seats))
    for part in derived:
        for f in seats:
            f.rounds += 1
        winner, points = part.get("winner"), part.get("points") or 0
        if isinstance(winner, int):
            for seat in sides[side_of[winner]]:  # HR-27: the round is its winner's team's
                seats[seat].rounds_won += 1
                seats[seat].round_points += points
        for logged in part["actions"]:
            for event in logged["events"]:
                kind, data = event.get("kind"), event.get("data") or {}
                if kind == "caught":
                    seats[data["by"]].catches_made += 1
                    seats[data["seat"]].catches_suffered += 1
                elif kind == "challenge":
                    seats[data["seat"] if data.get("guilty") else data["against"]].challenges_won += 1
    result = match_result(house, played.scores, played.winner)
    for f in seats:
        f.placement, f.points = result.places[f.seat], result.total_of(f.seat)
        f.won = f.seat in result.winners
        f.side = result.side_of[f.seat]
    return seats
