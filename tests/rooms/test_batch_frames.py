"""Frames stay small under a hoarding seat (RULES.md HR-8): a hand of many cards of one number makes
thousands of batches, and ``legal`` offers them per group (one ``batch`` entry), so no patch to any
seat passes 64 KB and no snapshot 256 KB.

A real room actor (the room's own views, differ and encoder, every seat and a spectator connected,
the frame audit watching every frame) deals a stacked deck — the one place the test steps in: the
room's deal gets a ``Layout``, as the engine's tests stack theirs — and then plays: the hoarder's
batches drawn from its offers, everyone else's moves from their legal actions.
"""

from __future__ import annotations

import asyncio
import json
import random
from itertools import islice
from typing import Any

import pytest

from app.config import Settings
from app.engine import HouseRules, MatchConfig, batch_offers, legal_actions, new_match, offer_plays
from app.engine.cards import COLOURS
from app.engine.layout import Layout
from app.engine.match import Match
from app.rooms import play as room_play
from app.rooms.memory_store import InMemoryStore
from app.rooms.registry import RoomRegistry
from app.rooms.room_state import PLAYING, RoomState
from tests.frame_audit import FrameAudit
from tests.rooms.test_publish_patches import Keeper, Oracle, send

PATCH_MAX = 64 * 1024
SNAPSHOT_MAX = 256 * 1024
RULES = {"seven_o": True, "multi_play": True, "bomb": True}  # HR-7's default: a 7 names its target


def sevens() -> Layout:
    """Seat 0 of 10 holds all eight 7s and two more on a red 9 (the red 7s lead)."""
    hands = [[f"{c} 7" for c in COLOURS for _ in range(2)] + ["red 1", "blue 2"]]
    hands += [[f"{c} {a}", f"{c} {a + 1}"] for a in (1, 3, 5) for c in COLOURS][:9]
    return Layout(hands, "red 9")


def hoard() -> Layout:
    """Seat 0 of 3 holds 100 of the deck's 108 cards: every number, twice over in each colour."""
    deck = [f"{c} {n}" for c in COLOURS for n in range(10) for _ in range(1 if n == 0 else 2)]
    deck += [f"{c} {f}" for c in COLOURS for f in ("skip", "reverse", "draw2") for _ in range(2)]
    deck += ["wild"] * 4 + ["wild_draw4"] * 4
    deck.remove("red 5")
    others = [deck.pop(), deck.pop()], [deck.pop(), deck.pop()]
    return Layout([deck[:100], *others], "red 5")


class Sizes(Oracle):
    """The frame oracle (every patch as the differ alone makes it, the frame audit), and each frame's size."""

    def __init__(self) -> None:
        super().__init__()
        self.largest: dict[str, int] = {"snapshot": 0, "patch": 0}

    def __call__(self, code: str, seat: int | None, text: str, state: RoomState,
                 view: dict[str, Any] | None, screen: bool = False) -> None:
        super().__call__(code, seat, text, state, view, screen)
        kind = text[text.index('"type":"') + 8:].split('"', 1)[0]
        if kind in self.largest:
            self.largest[kind] = max(self.largest[kind], len(text.encode()))


def choose(rng: random.Random, match: Match, seats: int) -> tuple[int, dict[str, Any]]:
    """The hoarder (seat 0) batches when it may (a random batch of its offers); anyone, any legal move."""
    batches = [a for o in batch_offers(match, 0) for a in offer_plays(o) if len(a.more) >= 2][:500]
    if batches:
        return 0, rng.choice(batches).to_json()
    seat, action = rng.choice([(s, a) for s in range(seats) for a in legal_actions(match, s)])
    return seat, action.to_json()


async def hoarding_room(layout: Layout, seats: int, moves: int) -> tuple[Sizes, int]:
    conf = Settings(_env_file=None, between_rounds_seconds=3600,  # type: ignore[call-arg]
                    database_url="memory://")
    oracle = Sizes()
    registry = RoomRegistry(conf, InMemoryStore(), oracle)
    await registry.start()
    try:
        actor = await registry.create("classic", public=False, max_seats=seats, target=None, name=None,
                                      house_rules=RULES)
        joined = [await actor.join(f"p{i}") for i in range(seats)]
        outlets = [Keeper() for _ in joined]
        for seat, outlet in zip(joined, outlets, strict=True):
            await actor.attach(outlet, seat["token"], None)
        await actor.attach(Keeper(), None, None)
        await send(actor, outlets[0], joined[0]["token"], "start", "s", {})  # the deal: a patch to each seat
        st = actor.state
        assert st.match is not None
        offered = sum(1 for o in batch_offers(st.match, 0) for _ in islice(offer_plays(o), 5_000))
        again = Keeper()
        await actor.attach(again, joined[0]["token"], None)  # the hoarder's snapshot
        assert again.view is not None and again.view["game"]["table"]["hand_sizes"][0] >= 10
        rng = random.Random(seats)
        for n in range(moves):
            if st.status != PLAYING:
                break
            mover, action = choose(rng, st.match, seats)
            await send(actor, outlets[mover], joined[mover]["token"], "action", f"a{n}", {"action": action})
        await actor.stop()
    finally:
        await registry.stop()
        FrameAudit.all.remove(oracle.audit)
    return oracle, offered


@pytest.mark.parametrize(("layout", "seats"), [
    pytest.param(sevens(), 10, id="eight_sevens"),
    pytest.param(hoard(), 3, id="hundred_cards", marks=pytest.mark.slow),  # ~15 s: every frame audited
])
def test_a_hoarding_seat_gets_no_frame_over_the_bounds__HR_8(layout: Layout, seats: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def stacked(config: MatchConfig, seed: str) -> tuple[Match, list[Any]]:
        return new_match(config, seed, dealer=seats - 1, layout=layout)

    monkeypatch.setattr(room_play, "new_match", stacked)
    oracle, offered = asyncio.run(hoarding_room(layout, seats, 30))
    assert offered > 4_000  # batches (each order apart) the offers stand for: thousands, in a few entries
    assert 0 < oracle.largest["snapshot"] <= SNAPSHOT_MAX, oracle.largest
    assert 0 < oracle.largest["patch"] <= PATCH_MAX, oracle.largest
    assert not oracle.wrong, oracle.wrong[:5]
    assert not oracle.audit.violations, oracle.audit.violations[:5]
    assert not oracle.audit.stale, oracle.audit.stale[:5]


def test_the_hoarders_batches_spelled_out_weigh_a_megabyte__HR_8() -> None:
    """What the offers save: the eight 7s' batches, each spelled out as the listing once held them."""
    match, _ = new_match(MatchConfig("classic", 10, None, HouseRules.from_json(RULES)), 0, dealer=9,
                         layout=sevens())
    (offer,) = batch_offers(match, 0)
    spelled = [a.to_json() for a in offer_plays(offer)]
    assert len(json.dumps(spelled)) > 1_000_000 > 100 * len(json.dumps(offer.to_json()))
