"""What a finished match says about each seat, worked out by playing it again through the engine:
its place, points, rounds won, UNO! catches made and suffered, and challenges won.

The stored rows (matches, rounds, actions) are the only input, so the figures of any stored
match can be worked out again at any time, by any node, with the same result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.audit import rebuild_finished


@dataclass
class SeatFigures:
    seat: int
    placement: int = 0  # 1 = the winner; equal totals share a place
    won: bool = False
    points: int = 0  # the final total
    rounds: int = 0
    rounds_won: int = 0
    round_points: int = 0
    catches_made: int = 0
    catches_suffered: int = 0
    challenges_won: int = 0  # a challenge made that found the card illegal, or one survived


def placements(totals: Sequence[int], winner: int | None) -> list[int]:
    """Places by final total (higher is better: points are won), the match's winner first; equal
    totals share a place (1, 2, 2, 4)."""
    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == winner else 1, -totals[seat])

    order = sorted(range(len(totals)), key=key)
    places = [0] * len(totals)
    for i, seat in enumerate(order):
        same = i > 0 and key(order[i - 1]) == key(seat)
        places[seat] = places[order[i - 1]] if same else i + 1
    return places


def figures(export: Mapping[str, Any]) -> list[SeatFigures]:
    """Per seat, from what ``read_export`` returns for a finished match (``Mismatch`` if its log
    does not replay)."""
    _, played, derived = rebuild_finished(export["config"], export["rounds"], export["actions"])
    seats = [SeatFigures(seat) for seat in range(len(played.scores))]
    for part in derived:
        for f in seats:
            f.rounds += 1
        winner, points = part.get("winner"), part.get("points") or 0
        if isinstance(winner, int):
            seats[winner].rounds_won += 1
            seats[winner].round_points += points
        for logged in part["actions"]:
            for event in logged["events"]:
                kind, data = event.get("kind"), event.get("data") or {}
                if kind == "caught":
                    seats[data["by"]].catches_made += 1
                    seats[data["seat"]].catches_suffered += 1
                elif kind == "challenge":
                    seats[data["seat"] if data.get("guilty") else data["against"]].challenges_won += 1
    for f, place in zip(seats, placements(played.scores, played.winner), strict=True):
        f.placement, f.points, f.won = place, played.scores[f.seat], f.seat == played.winner
    return seats
