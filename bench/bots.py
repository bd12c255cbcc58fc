"""Heuristic bot against a uniform-random player: 1-vs-1 matches to the target score.

    uv run python bench/bots.py [--matches 2500] [--editions classic,all_wild]

Each match is played to the edition's target score (500; 250 in Pocket Pizza).  The bot
takes seat 0 in even-numbered matches and seat 1 in odd ones, and every match has its own
seed.  Both players act only through what their seat may do:

* the bot answers ``choose_action(view(match, seat), rng)``;
* the random player picks uniformly among ``legal_actions(match, seat)`` on its turn; off
  its turn (when only UNO calls are open to it) it picks uniformly among those calls and
  "do nothing", so it neither always nor never catches.

Every step, both seats (in random order, as racing messages would arrive) get the chance
to make UNO calls, then the seat that owes a decision (``round.pending.seat``) acts.
The last line printed is JSON: win rate and matches per edition.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots.heuristic import choose_action
from app.engine import (
    BETWEEN,
    OVER,
    VARIANTS,
    Action,
    Match,
    MatchConfig,
    action_from_json,
    apply,
    new_match,
    start_next_round,
    view,
)

Move = Callable[[Match, int, random.Random], "Action | None"]
MAX_STEPS = 500_000  # per match; a guard against a policy bug looping forever


def bot_move(match: Match, seat: int, rng: random.Random) -> Action | None:
    chosen = choose_action(view(match, seat), rng)
    return None if chosen is None else action_from_json(chosen)


def random_move(match: Match, seat: int, rng: random.Random) -> Action | None:
    legal = match.round.legal_actions(seat)
    if not legal:
        return None
    assert match.round.pending is not None
    if match.round.pending.seat == seat:
        return rng.choice(legal)
    return rng.choice([*legal, None])  # off turn: an UNO call, or let it pass


def greedy_move(match: Match, seat: int, rng: random.Random) -> Action | None:
    """A sparring partner stronger than uniform: any playable card (UNO always said), never a
    voluntary draw, every UNO call made at once, every penalty accepted."""
    legal = match.round.legal_actions(seat)
    for kind in ("declare_uno", "catch"):
        for a in legal:
            if a.kind == kind and (kind == "catch" or seat in match.round.exposed):
                return a
    pending = match.round.pending
    if pending is None or pending.seat != seat:
        return None
    decisions = [a for a in legal if a.kind not in ("declare_uno", "catch")]
    plays = [a for a in decisions if a.kind in ("play", "play_drawn", "pass_card")]
    if plays:
        said = [a for a in plays if a.uno]
        return rng.choice(said or plays)
    for kind in ("accept", "draw", "special_draw", "keep"):
        for a in decisions:
            if a.kind == kind:
                return a
    return rng.choice(decisions)


OPPONENTS: dict[str, Move] = {"uniform": random_move, "greedy": greedy_move}


def play_match(edition: str, seed: str, bot_seat: int, opponent: str = "uniform") -> tuple[bool, int, int]:
    """Play one match out; (did the bot win, rounds, actions)."""
    match, _ = new_match(MatchConfig(edition, 2), seed)
    rng = random.Random(seed)
    moves: dict[int, Move] = {bot_seat: bot_move, 1 - bot_seat: OPPONENTS[opponent]}
    actions = 0
    while match.phase != OVER:
        if match.phase == BETWEEN:
            start_next_round(match)
            continue
        actions += step(match, moves, rng)
        if actions > MAX_STEPS:
            raise RuntimeError(f"{edition} match {seed!r} did not finish in {MAX_STEPS} actions")
    return match.winner == bot_seat, match.round_no, actions


def step(match: Match, moves: dict[int, Move], rng: random.Random) -> int:
    """UNO calls from both seats in random order, then the pending decision.  Actions applied."""
    applied = 0
    seats = [0, 1]
    rng.shuffle(seats)
    for seat in seats:
        if match.phase != "round":
            return applied
        pending = match.round.pending
        if pending is not None and pending.seat == seat:
            continue
        action = moves[seat](match, seat, rng)
        if action is not None:
            apply(match, seat, action)
            applied += 1
    if match.phase == "round":
        pending = match.round.pending
        assert pending is not None
        action = moves[pending.seat](match, pending.seat, rng)
        assert action is not None, "the seat that owes a decision always has one"
        apply(match, pending.seat, action)
        applied += 1
    return applied


def run(edition: str, matches: int, opponent: str = "uniform") -> dict[str, float]:
    won = rounds = actions = 0
    start = time.perf_counter()
    for i in range(matches):
        w, r, a = play_match(edition, f"bots-{edition}-{i}", bot_seat=i % 2, opponent=opponent)
        won += w
        rounds += r
        actions += a
    return {"win_rate": won / matches, "rounds": rounds / matches, "actions": actions / matches,
            "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2500, help="matches per edition (default 2500)")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="uniform",
                        help="uniform (the reported benchmark) or greedy (a stronger sparring partner)")
    parser.add_argument("--editions", default=",".join(VARIANTS), help="comma-separated editions")
    args = parser.parse_args()
    editions = [e for e in args.editions.split(",") if e]
    win_rate: dict[str, float] = {}
    played: dict[str, int] = {}
    for edition in editions:
        r = run(edition, args.matches, args.opponent)
        win_rate[edition] = round(r["win_rate"], 3)
        played[edition] = args.matches
        print(f"{edition:13} bot wins {r['win_rate']:6.1%} of {args.matches} matches; "
              f"{r['rounds']:.1f} rounds and {r['actions']:.0f} actions a match; {r['seconds']:.1f}s", flush=True)
    print(json.dumps({"win_rate": win_rate, "matches": played}))


if __name__ == "__main__":
    main()
