"""Every frame one publish sends, checked against the differ as an oracle (C-16).

``Streams.publish`` diffs the public view once per change and each seat's own keys alone
(app/rooms/overlay.py), falling back to a whole diff (one memo for the room) where a seat's
view is not an overlay of the last publish's.  Random rounds of every edition, under house
rules that change the views' shape (HR-31 open hands, HR-26 teams, HR-28 seat shuffles, HR-29
elimination, seven-o's swapped hands, HR-2 cross-stacking, HR-32 no hints: no ``legal``,
HR-33 blind draws: ``face_down``, and the ``chaos`` preset), are played through a room actor
with every seat and a spectator connected.  For each of them, every patch must be exactly
``make_patch(view before, view after)`` run alone — the same ops in the same order — must turn
the previous view (through JSON, as a client holds it) into the new one, and the frame audit
(tests/frame_audit.py ``FrameAudit``) must find no card shown where it is hidden.  The card
shapes (``game.card_rules``), and how a turn's draw goes and what a card may answer
(``game.turn_draw``, ``game.penalty_answers``), come with the snapshot, the same for every seat and
the spectator, and no patch carries them again.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import Settings
from app.engine import VARIANTS, legal_actions
from app.engine.card_shapes import card_shapes, penalty_answers, turn_draw
from app.engine.house.table import rule_table
from app.rooms.commands import command_adapter
from app.rooms.diff import make_patch
from app.rooms.inbox import Command
from app.rooms.memory_store import InMemoryStore
from app.rooms.registry import RoomRegistry
from app.rooms.room_state import PLAYING, RoomState, hash_token
from app.rooms.room_views import seat_views
from tests.frame_audit import FrameAudit

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
HOUSE: tuple[dict[str, Any], ...] = ({}, {"reveal_hands_at": 2}, {"team_play": True}, {"shuffle_seats": True},
         {"elimination": "cards"}, {"seven_o": True}, {"stacking": True, "cross_stack": "both"},
         {"no_hints": True}, {"blind_draw": True}, {"preset": "chaos"})

# The parts of a view that never change during a match (HR-32's client reads them): diffed once.
TABLE_WIDE = ("/game/card_rules", "/game/turn_draw", "/game/penalty_answers")


class Keeper:
    """A socket that keeps the view its frames build, as a client does."""

    def __init__(self) -> None:
        self.view: Any = None
        self.patches = 0

    def offer(self, text: str) -> bool:
        frame = json.loads(text)
        if frame["type"] == "snapshot":
            self.view = frame["view"]
        elif frame["type"] == "patch":
            self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            self.patches += 1
        return True

    def close(self, code: int, reason: str) -> None:
        pass


class Oracle:
    """The room's frame observer: each patch against ``make_patch`` of the stream's last view alone."""

    def __init__(self) -> None:
        self.audit = FrameAudit()
        self.last: dict[int | None, dict[str, Any]] = {}
        self.wrong: list[str] = []

    def __call__(self, code: str, seat: int | None, text: str, state: RoomState,
                 view: dict[str, Any] | None, screen: bool = False) -> None:
        self.audit(code, seat, text, state, view, screen)
        frame = json.loads(text)
        if view is None:
            return
        if frame["type"] == "patch" and any(op["path"].startswith(TABLE_WIDE) for op in frame["ops"]):
            self.wrong.append(f"seat {seat} seq {frame['seq']}: the table's rules sent again")
        if frame["type"] == "patch" and seat in self.last:
            want = json.loads(json.dumps(make_patch(self.last[seat], view)))
            if frame["ops"] != want:
                self.wrong.append(f"seat {seat} seq {frame['seq']}")
        self.last[seat] = view


async def send(actor: Any, outlet: Keeper, token: str, kind: str, cid: str, payload: dict[str, Any]) -> None:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    body = command_adapter.validate_python({"type": kind, "id": cid, **payload})
    actor.tell(Command(outlet, hash_token(token), body, done))
    await done


async def play(seed: int, edition: str, house: dict[str, Any], seats: int, moves: int) -> None:
    if house.get("team_play"):
        seats = 4  # HR-26: teams of two
    conf = Settings(_env_file=None, between_rounds_seconds=3600, database_url="memory://")  # type: ignore[call-arg]
    oracle = Oracle()
    registry = RoomRegistry(conf, InMemoryStore(), oracle)
    await registry.start()
    try:
        actor = await registry.create(edition, public=False, max_seats=seats, target=None, name=None,
                                      house_rules=house)
        joined = [await actor.join(f"p{i}") for i in range(seats)]
        outlets = [Keeper() for _ in joined]
        for seat, outlet in zip(joined, outlets, strict=True):
            await actor.attach(outlet, seat["token"], None)
        watcher = Keeper()
        await actor.attach(watcher, None, None)
        await send(actor, outlets[0], joined[0]["token"], "start", "s", {})
        rng = random.Random(seed)
        for n in range(moves):
            st = actor.state
            if st.status != PLAYING:
                for i, seat in enumerate(joined):
                    await send(actor, outlets[i], seat["token"], "ready", f"r{n}", {"ready": True})
                if actor.state.status != PLAYING:
                    break
                continue
            assert st.match is not None
            options = [(s, a) for s in range(seats) for a in legal_actions(st.match, s)]
            seat_no, action = rng.choice(options)
            await send(actor, outlets[seat_no], joined[seat_no]["token"], "action", f"a{n}",
                       {"action": action.to_json()})
        everyone: list[int | None] = [*range(seats), None]
        now = seat_views(actor.state, everyone)
        match = actor.state.match
        assert match is not None
        for who, outlet in zip(everyone, [*outlets, watcher], strict=True):
            # Through JSON, where True is not 1: what the client holds is the view, exactly.
            assert outlet.view == json.loads(json.dumps(now[who])), f"seat {who}"
            variant = VARIANTS[edition]
            table = rule_table(variant, actor.state.house)
            assert outlet.view["game"]["card_rules"] == card_shapes(variant, table), f"seat {who}"
            assert outlet.view["game"]["penalty_answers"] == penalty_answers(table), f"seat {who}"
            assert outlet.view["game"]["turn_draw"] == turn_draw(variant, match.round.book), f"seat {who}"
        assert sum(o.patches for o in outlets) > 0
        await actor.stop()
    finally:
        await registry.stop()
        FrameAudit.all.remove(oracle.audit)
    assert not oracle.wrong, oracle.wrong[:5]
    assert not oracle.audit.violations, oracle.audit.violations[:5]
    assert not oracle.audit.stale, oracle.audit.stale[:5]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(EDITIONS), st.sampled_from(HOUSE), st.integers(2, 4),
       st.integers(1, 80))
def test_every_publish_patches_as_the_differ_alone_would__C_16(seed: int, edition: str, house: dict[str, Any],
                                                               seats: int, moves: int) -> None:
    asyncio.run(play(seed, edition, house, seats, moves))
