"""Seeded play policies shared by the benchmarks and the golden-game tests."""

from __future__ import annotations

import random

from app.engine import ROUND, Match, MatchConfig, apply, new_match


def play_uniform_round(match: Match, rng: random.Random) -> int:
    """Play the current round out, the seat to act choosing uniformly among its legal actions.

    Returns the number of actions applied.
    """
    rnd = match.round
    actions = 0
    while match.phase == ROUND:
        assert rnd.pending is not None
        seat = rnd.pending.seat
        apply(match, seat, rng.choice(rnd.legal_actions(seat)))
        actions += 1
    return actions


def uniform_round(edition: str, seats: int, seed: int) -> tuple[Match, int]:
    match, _ = new_match(MatchConfig(edition, seats), seed)
    return match, play_uniform_round(match, random.Random(seed))
