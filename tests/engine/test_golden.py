"""Golden games: fixed (seed, policy) rounds per edition whose outcome is pinned.

The policy is the benchmark's: the seat to act picks uniformly among its legal actions,
from ``random.Random(seed)``.  Any change to the rules, the deal or the order of legal
actions changes these outcomes — if that change was meant, update the table.
"""

from __future__ import annotations

import pytest

from app.engine import config_of, replay
from bench.policies import uniform_round

# (edition, seats, seed, first dealer, round winner, points, actions)
GOLDEN = [
    ("classic", 2, 1, 1, 0, 115, 2777),
    ("classic", 3, 2, 1, 1, 144, 862),
    ("classic", 4, 3, 3, 1, 119, 686),
    ("mario_kart", 2, 1, 1, 0, 93, 913),
    ("mario_kart", 3, 2, 1, 1, 161, 2228),
    ("mario_kart", 4, 3, 3, 0, 225, 782),
    ("all_wild", 2, 1, 0, 0, 400, 10),
    ("all_wild", 3, 2, 2, 2, 210, 19),
    ("all_wild", 4, 3, 1, 3, 1070, 20),
    ("pocket_pizza", 2, 1, 1, 1, 73, 680),
    ("pocket_pizza", 3, 2, 1, 0, 57, 1239),
    ("pocket_pizza", 4, 3, 2, 0, 128, 815),
]


@pytest.mark.parametrize(("edition", "seats", "seed", "dealer", "winner", "points", "actions"), GOLDEN)
def test_golden_game(edition: str, seats: int, seed: int, dealer: int, winner: int, points: int,
                     actions: int) -> None:
    match, played = uniform_round(edition, seats, seed)
    assert (match.dealer, match.round.winner, match.round.points, played) == (dealer, winner, points, actions)
    assert match.scores[winner] == points
    assert replay(config_of(match), seed, match.log).fingerprint() == match.fingerprint()
