"""``bench/actor.py --house PRESET``: every edition's room is opened under the preset (RULES.md HR-34; the
room drops what the edition refuses, D-2), and both runs of a pair take their actions."""

from __future__ import annotations

import asyncio

import pytest

from app.engine.house import PRESETS
from tests.bench_scripts import load


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_edition_plays_a_preset_in_the_room_bench__HR_34(preset: str) -> None:
    actor = load("actor")
    figures = actor.with_and_without(80, 0, actor.EDITIONS, preset)  # every edition's room opens under it
    assert figures["plain_us_per_action"] > 0 and figures["house_us_per_action"] > 0
    assert figures["cost_ratio"] == figures["house_us_per_action"] / figures["plain_us_per_action"]


def test_the_bench_rooms_are_timed_with_the_preset_on() -> None:
    actor = load("actor")
    plain = asyncio.run(actor.run(200, 0, editions=("classic",)))
    chaos = asyncio.run(actor.run(200, 0, editions=("classic",), preset="chaos"))
    # The same seed's moves differ once house rules change the legal moves, and views carry them.
    assert chaos["chars_per_frame"] != plain["chars_per_frame"]
