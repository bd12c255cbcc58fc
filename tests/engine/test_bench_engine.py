"""``bench/engine.py``'s house-rules figures as played: the bots' recorded matches replay exactly, as a room
takes them, under the ``chaos`` preset (RULES.md HR-34) and without house rules."""

from __future__ import annotations

from app.engine import VARIANTS, HouseRules
from app.engine.house import AVAILABLE, PRESETS
from tests.bench_scripts import load


def test_bot_matches_replay_action_for_action__HR_34() -> None:
    engine = load("engine")
    chaos = HouseRules.from_json({k: v for k, v in PRESETS["chaos"].items() if k in AVAILABLE}, VARIANTS["classic"])
    for house in (None, chaos):
        steps, played = engine.record(house, 400)
        actions = [s for s in steps if s is not None]
        assert len(actions) == 400 and None in steps  # at least one round ended and the next was dealt
        assert engine.replay(house, steps) == 400  # each recorded action is accepted again (apply refuses others)
        assert engine.replay(house, steps, 150) == 150
        assert played["hand_per_action"] > 1 and played["legal_per_action"] >= 1
    assert any(a.more for _, a in actions)  # the bots batch under chaos (HR-8)
