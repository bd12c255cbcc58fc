"""Bot levels against each other: each level's win rate in 4-seat matches against each other level.

    uv run python bench/bots.py [--matches 200] [--houses classic,party] [--edition classic]

For every pair of levels (``app.bots.LEVELS``) and every house-rules preset, ``--matches``
matches of four seats are played to the edition's target score, two seats at each level sitting
alternately (A B A B); the seats turn by one each match, so each level plays every seat equally
often, and every match has its own seed.  The bots play as a room's bots do
(``rooms/bot_moves.py``): after every action each seat's bot is shown its own seat's view and
picks, and the pick with the shortest human-like pause is applied (``bots.quickest``) — so
UNO! calls, catches and jump-ins race as they do at a table.

``win_rate[house]["A>B"]`` is the share of A-against-B matches won by a seat of level A (0.5:
as strong as each other).  ``overall[house][A]``: A's matches won over all its pairings.  The last
line printed is JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import LEVELS, make_bot, quickest
from app.engine import (
    OVER,
    ROUND,
    HouseRules,
    Match,
    MatchConfig,
    action_from_json,
    apply,
    new_match,
    start_next_round,
    view,
)
from app.engine.house import PRESETS

SEATS = 4
MAX_ACTIONS = 200_000  # per match; a guard against a bot bug looping forever


def play_match(edition: str, house: HouseRules, levels: tuple[str, ...], seed: str) -> tuple[int, int]:
    """Play one match out with ``levels[seat]`` at each seat; (the winning seat, actions)."""
    match: Match = new_match(MatchConfig(edition, len(levels), house=house), seed)[0]
    rng = random.Random(seed)
    bots = {seat: make_bot(level) for seat, level in enumerate(levels)}
    actions = 0
    while match.phase != OVER:
        if match.phase != ROUND:
            start_next_round(match)
            continue
        best = quickest(((s, view(match, s)) for s in bots), rng, bots=bots)
        assert best is not None, "the seat that owes a decision always has one"
        _, seat, chosen = best
        apply(match, seat, action_from_json(chosen))
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"match {seed!r} did not finish in {MAX_ACTIONS} actions")
    assert match.winner is not None
    return match.winner, actions


def pairing(edition: str, house_name: str, first: str, second: str, matches: int) -> dict[str, float]:
    """``matches`` matches of ``first`` against ``second`` (A B A B, turned a seat each match)."""
    house = HouseRules.from_json(dict(PRESETS[house_name]))
    won = actions = 0
    start = time.perf_counter()
    for i in range(matches):
        base = [first, second] * (SEATS // 2)
        shift = i % SEATS
        levels = tuple(base[shift:] + base[:shift])
        winner, n = play_match(edition, house, levels, f"levels-{house_name}-{first}-{second}-{i}")
        won += levels[winner] == first
        actions += n
    return {"win_rate": won / matches, "actions": actions / matches, "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=200, help="matches per pair of levels and preset (200)")
    parser.add_argument("--houses", default="classic,party", help="comma-separated house-rules presets")
    parser.add_argument("--edition", default="classic")
    args = parser.parse_args()
    win_rate: dict[str, dict[str, float]] = {}
    overall: dict[str, dict[str, float]] = {}
    for house_name in [h for h in args.houses.split(",") if h]:
        rates: dict[str, float] = {}
        wins = dict.fromkeys(LEVELS, 0.0)
        for first, second in itertools.combinations(LEVELS, 2):
            r = pairing(args.edition, house_name, first, second, args.matches)
            rates[f"{second}>{first}"] = round(1 - r["win_rate"], 3)
            wins[first] += r["win_rate"] * args.matches
            wins[second] += (1 - r["win_rate"]) * args.matches
            print(f"{house_name:8} {second:6} against {first:6}: wins {1 - r['win_rate']:6.1%} of {args.matches} "
                  f"matches; {r['actions']:.0f} actions a match; {r['seconds']:.1f}s", flush=True)
        win_rate[house_name] = rates
        overall[house_name] = {level: round(w / (args.matches * (len(LEVELS) - 1)), 3) for level, w in wins.items()}
    print(json.dumps({"edition": args.edition, "matches": args.matches, "win_rate": win_rate, "overall": overall}))


if __name__ == "__main__":
    main()
