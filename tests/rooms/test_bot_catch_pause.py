"""A bot's catch (C-11) waits a person's reaction time, so the people at the table win the race.

The room plans a bot's move as a timer after the publish (``BotMoves.timer``); these tests read the pause
off the room's clock, one the test moves (``ManualClock``), so nothing sleeps.  The race itself
stays settled by arrival (C-12): a person's catch that arrives first is applied, and the bot's planned catch,
tagged with a table that has changed, is stale.
"""

from __future__ import annotations

from typing import Any

from app.bots import CATCH_PAUSE_S
from app.bots.hard import Hard
from app.bots.normal import Normal
from app.config import Settings
from app.engine import HouseRules, MatchConfig, new_match
from app.engine.layout import Layout
from app.rooms.automation import Automation
from app.rooms.clock import ManualClock, ManualTimer
from app.rooms.inbox import BotTurn
from app.rooms.options import RoomOptions
from app.rooms.outcome import Outcome
from app.rooms.room_state import PLAYING, Player, RoomState
from tests.engine.scenario import play


def settings(scale: float) -> Settings:
    values: dict[str, Any] = {"_env_file": None, "bot_delay_scale": scale}  # no .env: the defaults
    return Settings(**values)


def exposed_room(scale: float, fast: bool = False, level: str = "normal") -> RoomState:
    """Ana (seat 0) has just played down to one card without UNO!; Bo (seat 1, a person) owes the
    next turn, so the only thing the bot at seat 2 may do is catch Ana."""
    house = HouseRules.from_json({"fast_mode": fast})
    options = RoomOptions("classic", 3, house=house, turn_seconds=60 if fast else None)
    st = RoomState.open("CATCH234", options, settings(scale), ManualClock())
    st.players = [Player("Ana", "h0", 0, connected=True), Player("Bo", "h1", 1, connected=True),
                  Player("Bot 1", "h2", 2, bot=True, auto=True, level=level)]
    match, _ = new_match(MatchConfig("classic", 3, None, house), 0, dealer=2,
                         layout=Layout([["red 1", "red 2"], ["blue 4", "blue 5"], ["green 6", "green 7"]], "red 5"))
    play(match, 0, "red 1")  # no UNO! said: Ana is exposed
    st.match, st.status, st.match_no = match, PLAYING, 1
    return st


def planned(st: RoomState, scale: float) -> tuple[float, list[Any], Automation]:
    """The bot's planned pause (seconds from now, on the room's clock, which stands still here)
    and what it plans to send."""
    told: list[Any] = []
    automation = Automation(st, settings(scale), told.append)
    automation.plan(Outcome())
    automation.moves.after_publish(None)  # no socket, so no publish built the views: built for the bot
    timer, clock = automation.moves.timer.handle, st.clock
    assert isinstance(timer, ManualTimer) and isinstance(clock, ManualClock), "the bot has a move to plan"
    pause = timer.due - clock.monotonic()
    clock.advance(pause - 0.001)
    assert automation.moves.timer.message not in told, "nothing is told before the pause is over"
    clock.advance(0.001)
    assert automation.moves.timer.message in told, "told once it is due"
    automation.cancel()
    return pause, told, automation


def test_a_bots_catch_waits_longer_than_a_person_needs__C_11() -> None:
    """Even under a scale that makes every other pause near zero (the tests' 0.01), a catch's
    pause is drawn from ``CATCH_PAUSE_S`` (1.5 s to 3 s) and jittered."""
    pauses = set()
    for _ in range(12):
        pause, told, _ = planned(exposed_room(0.01), 0.01)
        message = told[-1]
        assert isinstance(message, BotTurn) and message.seat == 2
        assert message.action == {"kind": "catch", "target": 0}
        assert CATCH_PAUSE_S[0] - 0.05 <= pause <= CATCH_PAUSE_S[1] + 0.05
        pauses.add(round(pause, 2))
    assert len(pauses) > 3, "the pause is jittered, not a fixed delay a person could learn"


def test_fast_mode_does_not_shorten_a_catch__HR_24() -> None:
    """Fast mode halves the bots' pauses (HR-24) but not the catch's floor."""
    for _ in range(6):
        pause, told, _ = planned(exposed_room(1.0, fast=True), 1.0)
        assert told[-1].action["kind"] == "catch"
        assert pause >= CATCH_PAUSE_S[0] - 0.05


def test_a_longer_scale_lengthens_a_catch_too() -> None:
    """An operator who slows the bots (``UNO_BOT_DELAY_SCALE`` above 1) slows their catches as well."""
    pause, _, _ = planned(exposed_room(3.0), 3.0)
    assert pause >= 3 * CATCH_PAUSE_S[0] - 0.05


def test_each_bot_seat_plays_at_its_level_and_an_away_person_at_normal() -> None:
    st = exposed_room(0.01, level="hard")
    st.players[1].connected, st.players[1].auto = False, True  # Bo away past the grace
    _, _, automation = planned(st, 0.01)
    bots = automation.moves.players((1, 2))
    assert isinstance(bots[2], Hard) and isinstance(bots[1], Normal)
    assert automation.moves.players((1, 2))[2] is bots[2], "a hard bot keeps its memory through the round"
