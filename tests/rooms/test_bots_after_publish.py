"""The bots' next move is planned after the publish, on the views the publish built.

Plan (before the commit) decides only what the room stores and shows; it builds no view and
picks no move.  The publish builds every present seat's game view once, automated seats'
included, and the bots pick on exactly those (``BotMoves.after_publish``); a room with nobody
to publish to builds them there, once.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from app.config import Settings
from app.rooms import records as rec
from app.rooms.automation import Automation
from app.rooms.clock import ManualClock
from app.rooms.commands import command_adapter
from app.rooms.inbox import BotTurn, Command
from app.rooms.memory_store import InMemoryStore
from app.rooms.outcome import Outcome
from app.rooms.registry import RoomRegistry
from app.rooms.room_state import PLAYING, hash_token
from app.rooms.room_views import game_views, view_for
from tests.rooms.test_bot_catch_pause import exposed_room, settings


def test_plan_picks_no_move_and_the_bots_pick_on_the_views_handed_to_them__C_11() -> None:
    """Ana is exposed (C-11): the bot at seat 2 may catch her.  Plan leaves the move alone; shown
    views where the catch is not on offer, the bot plans nothing; shown the views as built, it
    plans the catch — it acts on what it is handed, not on views of its own."""
    st = exposed_room(0.01)
    told: list[Any] = []
    automation = Automation(st, settings(0.01), told.append)
    automation.plan(Outcome())
    moves = automation.moves
    assert moves.timer.key is None and moves.timer.handle is None, "plan picks no bot move"
    games = game_views(st, (0, 1, 2, None))  # as the publish builds them: every seat present
    assert any(a["kind"] == "catch" for a in games[2]["table"]["legal"])
    shown = dict(games)
    shown[2] = copy.deepcopy(games[2])
    shown[2]["table"]["legal"] = [a for a in shown[2]["table"]["legal"] if a["kind"] != "catch"]
    moves.after_publish(shown)
    assert moves.timer.key is not None and moves.timer.handle is None, "nothing to do in the view shown"
    moves.replan()
    moves.after_publish(games)
    assert isinstance(moves.timer.message, BotTurn)
    assert moves.timer.message.seat == 2 and moves.timer.message.action == {"kind": "catch", "target": 0}
    automation.cancel()


class KeyAtWrite(InMemoryStore):
    """The in-memory store, noting the planned bot move's table at each write of a room's records."""

    def __init__(self) -> None:
        super().__init__()
        self.actor: Any = None
        self.at_write: list[tuple[Any, int]] = []

    async def write(self, *records: rec.Record, room: str | None = None) -> None:
        if self.actor is not None and self.actor.state.match is not None:
            self.at_write.append((self.actor.automation.moves.timer.key, len(self.actor.state.match.log)))
        await super().write(*records, room=room)


class Counting:
    def __init__(self) -> None:
        self.frames: list[str] = []

    def offer(self, text: str) -> bool:
        self.frames.append(text)
        return True

    def close(self, code: int, reason: str) -> None:
        pass


def test_the_bot_move_is_planned_after_the_commit_on_the_table_just_published() -> None:
    """At every write, the planned bot move is still the last table's (nothing planned before the
    commit); once the message is done, it is planned for the table the write stored and the
    person was just shown."""

    async def main() -> None:
        store = KeyAtWrite()
        values: dict[str, Any] = {"_env_file": None, "between_rounds_seconds": 3600,
                                  "database_url": "memory://"}
        registry = RoomRegistry(Settings(**values), store, None, clock=ManualClock())
        await registry.start()
        actor = await registry.create("classic", public=False, max_seats=2, target=None, name=None)
        store.actor = actor
        ana = await actor.join("Ana")
        outlet = Counting()
        await actor.attach(outlet, ana["token"], None)
        await actor.add_bot(ana["token"])
        moves = 0
        while actor.state.status == PLAYING or moves == 0:
            kind = "start" if moves == 0 else "action"
            st = actor.state
            payload: dict[str, Any] = {}
            if kind == "action":
                assert st.match is not None
                pending = st.match.round.pending
                if pending is None or pending.seat != 0:
                    break  # the bot's turn: its move is planned, and nobody advances the clock
                payload = {"action": view_for(st, 0)["game"]["table"]["legal"][0]}
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            body = command_adapter.validate_python({"type": kind, "id": f"m{moves}", **payload})
            actor.tell(Command(outlet, hash_token(ana["token"]), body, done))
            await done
            moves += 1
            m = actor.state.match
            assert m is not None
            assert actor.automation.moves.timer.key == (actor.state.match_no, m.round_no, len(m.log), (1,))
        (first, _), *later = store.at_write  # the start's records, then each of Ana's moves
        assert first is None, "at the start's write no bot move was planned yet"
        for key, log_length in later:
            assert key is not None and key[2] < log_length, "the move planned is still the last table's"
        await registry.stop()

    asyncio.run(main())
