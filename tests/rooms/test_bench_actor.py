"""``bench/actor.py --house PRESET``: every edition's room is opened under the preset's options that
edition plays (RULES.md HR-34), and both runs of a pair take their actions."""

from __future__ import annotations

import asyncio

import pytest

from app.engine import VARIANTS, HouseRules
from app.engine.house import PRESETS
from tests.bench_scripts import load


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_edition_plays_a_preset_in_the_room_bench__HR_34(preset: str) -> None:
    actor = load("actor")
    for edition in actor.EDITIONS:
        options = actor.preset_for(edition, preset)
        assert options.items() <= PRESETS[preset].items()
        HouseRules.from_json(options, VARIANTS[edition])  # what the room accepts: refused options left out
    figures = actor.with_and_without(80, 0, actor.EDITIONS, preset)
    assert figures["plain_us_per_action"] > 0 and figures["house_us_per_action"] > 0
    assert figures["cost_ratio"] == figures["house_us_per_action"] / figures["plain_us_per_action"]


def test_the_bench_rooms_are_timed_with_the_preset_on() -> None:
    actor = load("actor")
    plain = asyncio.run(actor.run(200, 0, editions=("classic",)))
    chaos = asyncio.run(actor.run(200, 0, editions=("classic",), preset="chaos"))
    # The same seed's moves differ once house rules change the legal moves, and views carry them.
    assert chaos["chars_per_frame"] != plain["chars_per_frame"]
