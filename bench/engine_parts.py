"""Where the engine's time per action goes as played: classic, 4 players, without house rules and under a preset.

    uv run python bench/engine_parts.py [--house chaos] [--runs 5]

It replays ``bench/engine.py``'s bot-played recordings (``record``) as a room takes them and times each part
of the engine's work, with the collector off as the server runs (app/gc_policy.py).  Per action:

A listing is a seat's legal actions and its batch offers (HR-8, ``batch_offers``), as its view holds them.

- ``apply``: the action applied;
- ``mover``: the listing of the seat owing a decision, the first made on its state, as a room makes it;
- ``mover_again``: the same listing made again at once, its data now in the processor's caches;
- ``others``: the other seats' listings.

Per listing at a plain turn: ``turn`` and ``turn_again`` as above, and ``turn_no_batches`` and
``turn_no_batches_again``, the same state's listings with HR-8's batches left out (``multi_play`` off for
those calls; a separate replay, so that the first is a first listing too).

So ``mover`` − ``mover_again`` is what the state's data being out of the processor's caches costs, and
``turn`` − ``turn_no_batches`` what listing the batches costs.  Figures are ns, the timer's own cost taken
off, the median over ``--runs`` runs (each a replay of the whole recording, plain and house interleaved).
The timing itself disturbs the caches (the listings made twice), so the cost ratio of the whole is measured
as ``bench/engine.py``'s ``as_played`` does, untimed replays for ``--seconds`` each, interleaved:
``cost_ratio`` (house time per action over plain), and ``cost_ratio_no_batches_listed``, the same with every
listing made without batches but where the next action is one (``replay_listing_no_batches``).  The last line
printed is JSON.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine import ROUND, VARIANTS, HouseRules, apply
from app.engine.house import PRESETS
from app.engine.house.rulebook import assemble
from app.engine.pending import TURN
from bench.engine import Recording, bench_match, deal_next, measure_replays, record

Figures = dict[str, float]


def timer_cost(samples: int = 100_000) -> float:
    """What one ``perf_counter_ns`` pair costs with nothing between (taken off every timed part)."""
    clock = time.perf_counter_ns
    spent = 0
    for _ in range(samples):
        t0 = clock()
        spent += clock() - t0
    return spent / samples


def parts(house: HouseRules | None, steps: Recording, overhead: float) -> Figures:
    """One replay of ``steps``, each part of each action timed."""
    clock = time.perf_counter_ns
    match = bench_match("classic", 4, house)
    seats = range(match.config.seats)
    spent = {"apply": 0, "mover": 0, "mover_again": 0, "others": 0, "turn": 0, "turn_again": 0}
    actions = turns = 0
    for step in steps:
        if match.phase == ROUND:
            rnd = match.round
            p = rnd.pending
            assert p is not None
            t0 = clock()
            rnd.legal_actions(p.seat)
            rnd.batch_offers(p.seat)
            t1 = clock()
            for s in seats:
                if s != p.seat:
                    rnd.legal_actions(s)
                    rnd.batch_offers(s)
            t2 = clock()
            rnd.moved()  # the next call lists the mover's anew, its state's data now in cache
            t3 = clock()
            rnd.legal_actions(p.seat)
            rnd.batch_offers(p.seat)
            t4 = clock()
            spent["mover"] += t1 - t0
            spent["others"] += t2 - t1
            spent["mover_again"] += t4 - t3
            if p.kind == TURN:
                spent["turn"] += t1 - t0
                spent["turn_again"] += t4 - t3
                turns += 1
        if step is None:
            match = deal_next(match)
            continue
        t0 = clock()
        apply(match, *step)
        spent["apply"] += clock() - t0
        actions += 1
    figures = {k: v / actions - overhead for k, v in spent.items() if not k.startswith("turn")}
    figures.update({k: spent[k] / turns - overhead for k in ("turn", "turn_again")})
    return figures


def turn_without_batches(house: HouseRules, steps: Recording, overhead: float) -> Figures:
    """Per plain turn, the seat to act's listing with ``multi_play`` off for that call (HR-8's batches left
    out), first and again, on a replay of its own."""
    clock = time.perf_counter_ns
    without = dataclasses.replace(house, multi_play=False, bomb=False)
    match = bench_match("classic", 4, house)
    with_book, without_book = match.round.book, assemble(without, match.variant, match.config.seats)
    first = again = turns = 0
    for step in steps:
        if match.phase == ROUND:
            rnd = match.round
            p = rnd.pending
            assert p is not None
            if p.kind == TURN:
                rnd.book = without_book
                t0 = clock()
                rnd.legal_actions(p.seat)
                rnd.batch_offers(p.seat)
                t1 = clock()
                rnd.moved()
                t2 = clock()
                rnd.legal_actions(p.seat)
                rnd.batch_offers(p.seat)
                t3 = clock()
                first += t1 - t0
                again += t3 - t2
                rnd.book = with_book
                rnd.moved()  # apply lists the real actions
                turns += 1
        if step is None:
            match = deal_next(match)
        else:
            apply(match, *step)
    return {"turn_no_batches": first / turns - overhead, "turn_no_batches_again": again / turns - overhead}


def replay_listing_no_batches(house: HouseRules | None, steps: Recording) -> int:
    """``replay`` (bench/engine.py) with every listing made with ``multi_play`` off, but where the next action is
    a batch (``apply`` accepts only what was listed): the engine's cost if a turn's listing held no batches, were
    a batch offered after its lead card, say.  Returns the actions played."""
    assert house is not None  # ``measure_replays`` passes the house rules it measures
    without = dataclasses.replace(house, multi_play=False, bomb=False)
    match = bench_match("classic", 4, house)
    with_book, without_book = match.round.book, assemble(without, match.variant, match.config.seats)
    seats = range(match.config.seats)
    done = 0
    for step in steps:
        if match.phase == ROUND:
            rnd = match.round
            if step is None or not step[1].more:
                rnd.book = without_book
            for s in seats:
                rnd.legal_actions(s)
                rnd.batch_offers(s)
            rnd.book = with_book
        if step is None:
            match = deal_next(match)
        else:
            apply(match, *step)
            done += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--house", choices=sorted(PRESETS), default="chaos", help="the preset (default chaos)")
    parser.add_argument("--runs", type=int, default=5, help="replays per figure (the median is kept)")
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per cost-ratio measurement")
    args = parser.parse_args()
    # What the edition refuses is dropped from a preset (D-2), as for a room's.
    house = HouseRules.from_json({"preset": args.house}, VARIANTS["classic"])
    plain_steps, _ = record(None)
    house_steps, _ = record(house)
    gc.collect()
    gc.disable()  # as the server runs
    overhead = timer_cost()
    plain_runs: list[Figures] = []
    house_runs: list[Figures] = []
    for _ in range(args.runs):  # interleaved, so both see the same machine load
        plain_runs.append(parts(None, plain_steps, overhead))
        figures = parts(house, house_steps, overhead)
        figures.update(turn_without_batches(house, house_steps, overhead))
        house_runs.append(figures)
    plain = {k: round(statistics.median(r[k] for r in plain_runs)) for k in plain_runs[0]}
    played = {k: round(statistics.median(r[k] for r in house_runs)) for k in house_runs[0]}
    rates: dict[str, list[float]] = {"plain": [], "house": [], "no_batches_listed": []}
    for _ in range(args.runs):
        rates["plain"].append(measure_replays(None, plain_steps, args.seconds))
        rates["house"].append(measure_replays(house, house_steps, args.seconds))
        rates["no_batches_listed"].append(measure_replays(house, house_steps, args.seconds, replay_listing_no_batches))
    plain_rate, house_rate, unbatched_rate = (statistics.median(rates[k]) for k in rates)
    out = {"preset": args.house, "timer_ns": round(overhead), "plain": plain, "house": played,
           "cost_ratio": round(plain_rate / house_rate, 2),
           "cost_ratio_no_batches_listed": round(plain_rate / unbatched_rate, 2)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
