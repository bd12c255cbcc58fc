"""Rules-engine throughput: random legal rounds per edition, for 2 and 4 players.

    uv run python bench/engine.py [--seconds 2] [--rlcard /path/to/python-with-rlcard [--rlcard-only]]
    uv run python bench/engine.py --house party         # the house_rules figures under another preset
    uv run python bench/engine.py --steps N [--chaos]   # N actions only, to count instructions

Under load, wall-clock figures wander; ``--steps`` plays exactly N actions of the ``house_rules``
match (classic, 4 players, uniform; a preset's options with ``--house PRESET``, ``--chaos`` being
``--house chaos``) and prints nothing, for
valgrind: instructions per action = (I refs at --steps 16000 − at --steps 8000) / 8000.

Policy "uniform": the seat to act picks uniformly among ``legal_actions`` — every action the
rules allow, including voluntary draws, UNO declarations and catches, so rounds run long.

With ``--rlcard``, the same run also measures RLCard's UNO engine (random legal play) and
this engine under the policy that matches RLCard's action set: play a playable card when
there is one (draw only when there is none), always with UNO said, accept penalties.
That is the like-for-like rounds/s comparison.

"house_rules": the cost per action of classic, 4 players, under the ``chaos`` preset's options
(RULES.md HR-34; ``--house PRESET`` for another; what the edition refuses is left out, D-2), against
the same edition without house rules, measured interleaved (``cost_ratio``: house / plain time per
action), two ways:

- ``as_played``: matches the heuristic bots (app/bots) played as a room's bots do (``record``),
  recorded first (the bots' own time is not counted), replayed as a room takes each action: the
  action applied, then every seat's legal actions listed, as each seat's view holds its legal moves
  (the room's engine work per action).
- uniform random play, the seat to act listing its legal actions then picking one.  Under chaos the
  uniform player draws as often as it plays, so with draw until playable and stacking it holds more
  cards than anyone playing to win, and has many more moves (batches, HR-8), and the cost of an
  action grows with them: ``legal_per_action`` is how many legal actions the seat to act had, on
  average, and ``cost_ratio_per_legal_action`` the same ratio per legal action listed (``cost_ratio``
  × plain's ``legal_per_action`` / house's), the cost of the rules themselves with the bigger choice
  taken out.

``--steps N --as-played`` replays the first N actions of the recorded bot match (the recording is
always ``RECORDED`` actions long, so it cancels out of the difference); run it with
``PYTHONHASHSEED=0`` so that both runs record the same match.  The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.modes import mode  # first: it reads --mode, which decides what importing app gives

# isort: split
from app.bots import make_bot, quickest
from app.engine import (
    OVER,
    ROUND,
    VARIANTS,
    Action,
    HouseRules,
    Match,
    MatchConfig,
    action_from_json,
    apply,
    config_of,
    new_match,
    start_next_round,
    view,
)
from app.engine.house import PRESETS
from app.engine.round import Round

Policy = Callable[[Round, int, random.Random], Action]


def uniform(rnd: Round, seat: int, rng: random.Random) -> Action:
    return rng.choice(rnd.legal_actions(seat))


PLAY_KINDS = frozenset({"play", "play_drawn", "choose_colour", "choose_target", "pass_card"})
FALLBACK = ("accept", "draw", "special_draw", "keep")


def rlcard_like(rnd: Round, seat: int, rng: random.Random) -> Action:
    """RLCard's action set: plays (UNO always said), a draw only when nothing is playable.

    ``legal_actions`` lists a seat's plays first, each followed by its UNO twin when it has one.
    """
    legal = rnd.legal_actions(seat)
    n = 0
    while n < len(legal) and legal[n].kind in PLAY_KINDS:
        n += 1
    if n:
        i = rng.randrange(n)
        if not legal[i].uno and i + 1 < n and legal[i + 1].uno and legal[i + 1].card == legal[i].card:
            return legal[i + 1]
        return legal[i]
    for a in legal:
        if a.kind in FALLBACK:
            return a
    return legal[0]


def bench_match(edition: str, seats: int, house: HouseRules | None) -> Match:
    """The one long match (its target out of reach) every figure plays, dealt from a seed of its own."""
    return new_match(MatchConfig(edition, seats, target=10**5, house=house or HouseRules()),
                     seed=f"bench-{edition}-{seats}")[0]


def deal_next(match: Match) -> Match:
    """The next round of ``match``, or a new bench match once it is over (``quick``'s single round)."""
    if match.phase == OVER:
        return bench_match(match.config.edition, match.config.seats, config_of(match).house)
    start_next_round(match)
    return match


def measure(edition: str, seats: int, policy: Policy, seconds: float,
            house: HouseRules | None = None) -> dict[str, float]:
    """Rounds of one long match (dealt one after another), for ``seconds`` of wall time."""
    match = bench_match(edition, seats, house)
    rng = random.Random(7)
    rounds = actions = listed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rnd = match.round
        while match.phase == ROUND:
            assert rnd.pending is not None
            seat = rnd.pending.seat
            listed += len(rnd.legal_actions(seat))  # kept by the round: the policy's call does not redo it
            apply(match, seat, policy(rnd, seat, rng))
            actions += 1
        rounds += 1
        if match.phase != ROUND:
            match = deal_next(match)
    elapsed = time.perf_counter() - start
    return {"rounds_per_s": round(rounds / elapsed, 1), "actions_per_s": round(actions / elapsed),
            "actions_per_round": round(actions / rounds, 1), "legal_per_action": round(listed / actions, 2)}


def steps(count: int, house: HouseRules | None) -> None:
    """Exactly ``count`` actions of ``measure``'s match, for an instruction counter."""
    match = bench_match("classic", 4, house)
    rng = random.Random(7)
    done = 0
    while done < count:
        rnd = match.round
        while match.phase == ROUND and done < count:
            assert rnd.pending is not None
            seat = rnd.pending.seat
            apply(match, seat, uniform(rnd, seat, rng))
            done += 1
        if match.phase != ROUND:
            match = deal_next(match)


# A bot-played match's actions, each (seat, action); None where the round ended and the next was dealt
# (``deal_next``: in a new match, when that one was over).
Recording = list[tuple[int, Action] | None]
RECORDED = 20_000  # actions recorded per match for ``as_played``
# The recorded table's bots by seat: every level plays, so every kind of move a room sees is there.
TABLE = ("normal", "easy", "hard", "normal")


def record(house: HouseRules | None, count: int = RECORDED) -> tuple[Recording, dict[str, float]]:
    """``count`` actions of a classic 4-player match played by bots as a room's bots play (``bot_moves``),
    one of each level and a second normal one (``TABLE``): each step every seat's bot picks on its own view,
    and the pick with the shortest human-like pause is taken (a declaration's reflex beats a turn's think, so
    an exposed seat declares between turns, HR-17; the easy bot's forgotten UNO!s are caught after a person's
    pause; the hard bot batches, HR-8).  Also the hand the acting seat held and the legal actions it had,
    on average."""
    match = bench_match("classic", 4, house)
    seats = range(match.config.seats)
    bots = {seat: make_bot(level) for seat, level in zip(seats, TABLE, strict=True)}
    rng = random.Random(7)
    steps: Recording = []
    held = listed = done = 0
    while done < count:
        if match.phase != ROUND:
            match = deal_next(match)
            steps.append(None)
            continue
        rnd = match.round
        best = quickest(((s, view(match, s)) for s in seats), rng, bots=bots)
        assert best is not None  # the seat that owes a decision always has one
        _, seat, chosen = best
        held += len(rnd.hands[seat])
        listed += len(rnd.legal_actions(seat)) + len(rnd.batch_offers(seat))
        action = action_from_json(chosen)
        apply(match, seat, action)
        steps.append((seat, action))
        done += 1
    return steps, {"hand_per_action": round(held / count, 2), "legal_per_action": round(listed / count, 2)}


def replay(house: HouseRules | None, steps: Recording, count: int | None = None) -> int:
    """``steps`` played again (the first ``count`` actions) as a room takes them: after each action, and
    after each deal, every seat's legal actions are listed for its view.  Returns the actions played."""
    match = bench_match("classic", 4, house)
    seats = range(match.config.seats)
    done = 0
    for step in steps:
        if match.phase == ROUND:  # the views of the state the step finds
            rnd = match.round
            for s in seats:
                rnd.legal_actions(s)
                rnd.batch_offers(s)  # HR-8: a view lists them after the actions
        if step is None:
            match = deal_next(match)
        elif done == count:
            break
        else:
            apply(match, *step)
            done += 1
    return done


def measure_replays(house: HouseRules | None, steps: Recording, seconds: float,
                    play: Callable[[HouseRules | None, Recording], int] = replay) -> float:
    """Actions per second replaying ``steps`` from the start (``play``: ``replay``, or a variant of it that
    returns the actions played), again and again, for ``seconds``."""
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play(house, steps)
    return actions / (time.perf_counter() - start)


def as_played(house: HouseRules, runs: int, seconds: float) -> dict[str, object]:
    """``house`` against no house rules on bot-played matches, replayed as a room takes them, interleaved."""
    plain, plain_play = record(None)
    played, house_play = record(house)
    plain_rates: list[float] = []
    house_rates: list[float] = []
    for _ in range(runs):  # interleaved, so both see the same machine load
        plain_rates.append(measure_replays(None, plain, seconds))
        house_rates.append(measure_replays(house, played, seconds))
    plain_rate, house_rate = statistics.median(plain_rates), statistics.median(house_rates)
    return {"plain_actions_per_s": round(plain_rate), "house_actions_per_s": round(house_rate),
            "cost_ratio": round(plain_rate / house_rate, 2), "plain": plain_play, "house": house_play}


def median_of(runs: int, fn: Callable[[], dict[str, float]]) -> dict[str, float]:
    results = [fn() for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}


def versus_rlcard(interpreter: str, runs: int, seconds: float) -> dict[str, float]:
    """Classic 2-player rounds/s under RLCard's action set, against RLCard's own, interleaved."""
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):  # interleaved, so both see the same machine load
        ours.append(measure("classic", 2, rlcard_like, seconds)["rounds_per_s"])
        proc = subprocess.run([interpreter, str(Path(__file__).with_name("rlcard_uno.py")),
                               "--seconds", str(seconds)], capture_output=True, text=True, check=True)
        theirs.append(json.loads(proc.stdout.strip().splitlines()[-1])["rounds_per_s"])
    comparison = {
        "engine_rounds_per_s": statistics.median(ours),
        "rlcard_rounds_per_s": statistics.median(theirs),
        "ratio": round(statistics.median(ours) / statistics.median(theirs), 2),
    }
    print(f"classic 2p, RLCard's action set: {comparison}", file=sys.stderr)
    return comparison


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per measurement")
    parser.add_argument("--runs", type=int, default=3, help="measurements per figure (the median is kept)")
    parser.add_argument("--rlcard", help="a Python interpreter that has rlcard installed")
    parser.add_argument("--rlcard-only", action="store_true", help="with --rlcard: that comparison alone")
    parser.add_argument("--steps", type=int, help="play exactly this many actions of the house_rules match, no output")
    parser.add_argument("--house", choices=sorted(PRESETS), help="the preset of the house_rules figures "
                        "(default chaos); with --steps, play under its options")
    parser.add_argument("--chaos", action="store_const", const="chaos", dest="house", help="--house chaos")
    parser.add_argument("--as-played", action="store_true", help="with --steps: replay the bots' match")
    args = parser.parse_args()
    # What the edition refuses is dropped from a preset (D-2), as for a room's.
    house_rules = HouseRules.from_json({"preset": args.house or "chaos"}, VARIANTS["classic"])
    if args.steps is not None:
        rules = house_rules if args.house else None
        if args.as_played:
            assert args.steps <= RECORDED, f"--as-played replays at most {RECORDED} actions"
            replay(rules, record(rules)[0], args.steps)
        else:
            steps(args.steps, rules)
        return

    if args.rlcard and args.rlcard_only:
        print(json.dumps({"mode": mode(), "vs_rlcard_classic_2p": versus_rlcard(args.rlcard, args.runs, args.seconds)}))
        return
    out: dict[str, object] = {}
    for edition in VARIANTS:
        out[edition] = {}
        for seats in (2, 4):
            figures = median_of(args.runs, partial(measure, edition, seats, uniform, args.seconds))
            out[edition][f"{seats}p"] = figures  # type: ignore[index]
            print(f"{edition} {seats}p uniform: {figures}", file=sys.stderr)
    plain_runs: list[dict[str, float]] = []
    house_runs: list[dict[str, float]] = []
    for _ in range(args.runs):  # interleaved, so both see the same machine load
        plain_runs.append(measure("classic", 4, uniform, args.seconds))
        house_runs.append(measure("classic", 4, uniform, args.seconds, house_rules))
    plain_rate = statistics.median(r["actions_per_s"] for r in plain_runs)
    house_rate = statistics.median(r["actions_per_s"] for r in house_runs)
    plain_legal = statistics.median(r["legal_per_action"] for r in plain_runs)
    house_legal = statistics.median(r["legal_per_action"] for r in house_runs)
    house = {"preset": args.house or "chaos", "options": house_rules.enabled,
             "plain_actions_per_s": plain_rate, "house_actions_per_s": house_rate,
             "cost_ratio": round(plain_rate / house_rate, 2),
             "plain_legal_per_action": plain_legal, "house_legal_per_action": house_legal,
             "cost_ratio_per_legal_action": round(plain_rate * plain_legal / (house_rate * house_legal), 2)}
    print(f"classic 4p uniform, house rules played: {house}", file=sys.stderr)
    house["as_played"] = as_played(house_rules, args.runs, args.seconds)
    print(f"classic 4p as the bots play, as a room takes it: {house['as_played']}", file=sys.stderr)
    out["house_rules"] = house
    if args.rlcard:
        out["vs_rlcard_classic_2p"] = versus_rlcard(args.rlcard, args.runs, args.seconds)
    print(json.dumps({"mode": mode(), **out}))


if __name__ == "__main__":
    main()
