"""``bench/engine.py``'s house-rules figures as played: the bots' recorded matches replay exactly, as a room
takes them, under every preset (RULES.md HR-34) and without house rules."""

from __future__ import annotations

import pytest

from app.engine import VARIANTS, HouseRules
from app.engine.house import PRESETS
from tests.bench_scripts import load


@pytest.mark.parametrize("preset", [None, *PRESETS])
def test_bot_matches_replay_action_for_action__HR_34(preset: str | None) -> None:
    engine = load("engine")
    house = None if preset is None else HouseRules.from_json({"preset": preset}, VARIANTS["classic"])
    steps, played = engine.record(house, 1000)
    actions = [s for s in steps if s is not None]
    assert len(actions) == 1000 and None in steps  # at least one round ended and the next was dealt
    assert engine.replay(house, steps) == 1000  # each recorded action is accepted again (apply refuses others)
    assert engine.replay(house, steps, 150) == 150
    assert played["hand_per_action"] > 1 and played["legal_per_action"] >= 1
    if preset in ("chaos", "quick"):
        assert any(a.more for _, a in actions)  # the bots batch (HR-8)


def test_the_bots_act_as_in_a_room__HR_17() -> None:
    """The quickest bot acts, as in a room: under strict UNO! (HR-17) an exposed seat may declare out of turn,
    or (the easy bot forgets now and then) another catch it, after a person's pause."""
    engine = load("engine")
    strict = HouseRules.from_json({"preset": "strict"}, VARIANTS["classic"])
    steps, _ = engine.record(strict, 1000)
    match = engine.bench_match("classic", 4, strict)
    calls = []
    for step in steps:
        if step is None:
            match = engine.deal_next(match)
            continue
        seat, action = step
        if action.kind in ("declare_uno", "catch"):
            pending = match.round.pending
            calls.append((action.kind, pending is not None and pending.seat == seat))
        engine.apply(match, seat, action)
    assert ("declare_uno", False) in calls  # declared between turns, by a seat that owed nothing
    assert any(kind == "catch" for kind, _ in calls)


def test_a_single_round_match_goes_on_in_a_new_match__HR_34() -> None:
    """Under ``quick`` (one round a match) the recording deals a new match where the last one ended."""
    engine = load("engine")
    quick = HouseRules.from_json({"preset": "quick"}, VARIANTS["classic"])
    match = engine.bench_match("classic", 4, quick)
    ended: list[str] = []
    while len(ended) < 2:
        rnd = match.round
        assert rnd.pending is not None
        seat = rnd.pending.seat
        engine.apply(match, seat, rnd.legal_actions(seat)[0])
        if match.phase != engine.ROUND:
            ended.append(match.phase)
            match = engine.deal_next(match)
            assert match.phase == engine.ROUND
    assert ended == [engine.OVER, engine.OVER]


def test_the_parts_bench_lists_each_state_with_and_without_batches__HR_8() -> None:
    """``bench/engine_parts.py`` times every part of each action, and its listings without batches leave the
    round as it was: the recording, batches and all, replays to its end (apply refuses a batch otherwise)."""
    parts = load("engine_parts")
    chaos = HouseRules.from_json({"preset": "chaos"}, VARIANTS["classic"])
    steps, _ = parts.record(chaos, 1000)
    assert any(step is not None and step[1].more for step in steps)
    figures = parts.parts(chaos, steps, 0.0)
    assert set(figures) == {"apply", "mover", "mover_again", "others", "turn", "turn_again"}
    assert all(ns > 0 for ns in figures.values())
    without = parts.turn_without_batches(chaos, steps, 0.0)
    assert set(without) == {"turn_no_batches", "turn_no_batches_again"} and all(ns > 0 for ns in without.values())
    assert parts.replay_listing_no_batches(chaos, steps) == 1000
