"""Blitz at the room (RULES.md §7.8 HR-25; HX-8, HX-14, D-8): the match clock's deadline starts at
round 1's deal, is stored with the match and shown to everyone, survives a restore, and its expiry
(a message in the room's inbox, told when the room's clock reaches the deadline: a clock the tests
move, ``ManualClock``) ends the match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.bots import choose_action
from app.config import Settings
from app.engine import HouseRules, action_from_json, legal_actions
from app.engine.actions import CLOCK_SEAT
from app.rooms import records as rec
from app.rooms.automation import Automation
from app.rooms.blitz import expire
from app.rooms.clock import ManualClock
from app.rooms.inbox import BlitzExpired
from app.rooms.memory_store import InMemoryStore
from app.rooms.options import RoomOptions
from app.rooms.outcome import Outcome
from app.rooms.play import act, start_match
from app.rooms.races import Races
from app.rooms.restore import restore_state
from app.rooms.room_state import BETWEEN, OVER, PLAYING, Player, RoomState
from app.rooms.room_views import view_for
from tests.live import Client, LiveServer, seat_players, start_game, sync

from .test_players_away import fast_settings, new_room


@pytest.fixture(scope="module")
def clocked() -> Iterator[LiveServer]:
    """A server whose rooms' time moves only when the test says: five minutes pass at once."""
    server = LiveServer(fast_settings(), clock=ManualClock()).start()
    yield server
    server.stop()


def settings() -> Settings:
    defaults: dict[str, Any] = {"_env_file": None}
    return Settings(**defaults)


def blitz_room(**rules: object) -> tuple[RoomState, Races, list[rec.Record]]:
    options = RoomOptions("classic", 3, house=HouseRules.from_json({"blitz_seconds": 300, **rules}))
    st = RoomState.open("BLITZ234", options, settings(), ManualClock())
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(3)]
    races = Races(st)
    records: list[rec.Record] = [
        rec.RoomOpened(st.code, "t", "classic", True, 3, None, {"house_rules": options.house.to_json()}),
        rec.SeatsChanged(st.code, tuple(rec.SeatInfo(p.seat, p.name, p.token_hash) for p in st.players))]
    return st, races, records


def restored(st: RoomState, records: list[rec.Record]) -> RoomState:
    store = InMemoryStore()
    asyncio.run(store.write(*records))
    stored = asyncio.run(store.load_room(st.code))
    assert stored is not None
    return restore_state(stored, settings(), st.clock)


def play_some(st: RoomState, races: Races, records: list[rec.Record], moves: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    m = st.match
    assert m is not None
    for _ in range(moves):
        if st.status != PLAYING:
            return
        seat = m.round.pending.seat if m.round.pending else 0
        records += act(st, races, settings(), st.players[seat], rng.choice(legal_actions(m, seat)))


def test_the_deadline_starts_at_the_deal_is_stored_shown_to_all_and_restored__HR_25() -> None:
    st, races, records = blitz_room()
    records += start_match(st, races)
    assert st.blitz_deadline == st.clock.wall() + 300  # the deal's time + 300 s (kept to the millisecond)
    started = next(r for r in records if isinstance(r, rec.MatchStarted))
    assert started.blitz_deadline == st.blitz_deadline
    for seat in (0, 2, None):  # seats and spectators alike
        assert view_for(st, seat)["room"]["blitz_deadline"] == st.blitz_deadline
    play_some(st, races, records, 6)
    assert isinstance(st.clock, ManualClock)
    st.clock.advance(60)  # the room was down for a minute
    again = restored(st, records)
    assert again.blitz_deadline == st.blitz_deadline  # the clock ran on: the same wall-clock deadline
    assert view_for(again, None)["room"]["blitz_deadline"] == st.blitz_deadline
    plain, _, _ = blitz_room(blitz_seconds=None)
    start_match(plain, Races(plain))
    assert plain.blitz_deadline is None and view_for(plain, 0)["room"]["blitz_deadline"] is None


def test_the_expiry_mid_round_ends_the_match_stored_and_restored__HR_25__HX_14() -> None:
    st, races, records = blitz_room(rounds=5)
    records += start_match(st, races)
    play_some(st, races, records, 8)
    m = st.match
    assert m is not None and st.status == PLAYING
    sizes = [len(h) for h in m.round.hands]
    done = expire(st, settings())
    assert [type(r).__name__ for r in done] == ["ActionApplied", "RoundFinished", "MatchFinished"]
    logged = done[0]
    assert isinstance(logged, rec.ActionApplied) and logged.seat == CLOCK_SEAT
    assert logged.action == {"kind": "blitz_expiry"}
    assert st.status == OVER and m.winner is not None and st.next_round_at is None
    entry = next(e for e in st.log if e["kind"] == "blitz_expiry")
    assert entry["hand_sizes"] == sizes and sizes[entry["seat"]] == min(sizes)
    records += done
    again = restored(st, records)
    assert again.status == OVER and again.match is not None and again.match.fingerprint() == m.fingerprint()


def test_the_expiry_between_rounds_ends_the_match_at_once__D_8() -> None:
    st, races, records = blitz_room(rounds=5)
    records += start_match(st, races)
    m = st.match
    assert m is not None
    play_some(st, races, records, 5000)
    assert st.status == BETWEEN and st.next_round_at is not None
    done = expire(st, settings())
    assert [type(r).__name__ for r in done] == ["ActionApplied", "MatchFinished"]
    assert st.status == OVER and st.next_round_at is None and len(m.history) == 1
    assert m.winner == m.standings()[0]  # not an elimination match: the totals decide
    records += done
    again = restored(st, records)
    assert again.status == OVER and again.match is not None and again.match.winner == m.winner
    secrets = [e for e in again.log if e["kind"] == "secret"]
    assert len(secrets) == 1  # the round's secret is revealed once, not again for the expiry


def test_bots_play_a_blitz_match_to_its_end__HR_25__HX_8() -> None:
    st, races, _ = blitz_room(preset="quick")
    assert st.house.blitz_seconds == 300 and st.house.single_round  # the quick preset keeps its blitz
    start_match(st, races)
    m = st.match
    assert m is not None
    rng = random.Random(2)
    for _ in range(5000):
        if st.status == OVER:
            break
        for seat in range(3):
            chosen = choose_action(view_for(st, seat)["game"], rng)
            if chosen is not None and action_from_json(chosen) in legal_actions(m, seat):
                act(st, races, settings(), st.players[seat], action_from_json(chosen))
                break
    assert st.status == OVER and m.winner is not None  # bots never send the clock's action, and finish


def test_a_live_room_shows_the_clock_and_its_expiry_ends_the_match__HR_25(clocked: LiveServer) -> None:
    server = clocked

    async def main() -> None:
        room = await new_room(server, "classic", 2, target=None, house_rules={"preset": "quick"})
        code = room["code"]
        a, b = await seat_players(server, code, 2)
        watcher = Client(server, code)
        await watcher.connect()
        await watcher.recv()
        await start_game([a, b])
        await sync([a, b])
        await watcher.drain(0.2)
        deadline = a.view["room"]["blitz_deadline"]
        assert deadline == pytest.approx(server.clock.wall() + 300, abs=0.001)
        assert b.view["room"]["blitz_deadline"] == deadline == watcher.view["room"]["blitz_deadline"]
        assert a.view["room"]["house_rules"]["blitz_seconds"] == 300
        server.advance(299)
        await sync([a, b])
        assert a.status == "playing", "the match clock has a second left"
        server.advance(1)  # five minutes have passed
        while a.status != "over":  # the expiry's frames (a read that times out fails the test)
            await a.recv()
        await sync([a, b])

        async def stale() -> None:
            actor = server.registry.get(code)
            actor.tell(BlitzExpired(actor.state.match_no))  # a second one is stale: the match is over

        loop = server.registry.loop
        assert loop is not None
        asyncio.run_coroutine_threadsafe(stale(), loop).result(5)
        await sync([a, b])
        assert a.status == "over" and b.status == "over"
        kinds = [e["kind"] for e in a.view["log"]]
        assert kinds.count("blitz_expiry") == 1 and "final" in kinds
        assert a.view["summary"]["final"] is True
        for c in (a, b, watcher):
            await c.close()

    asyncio.run(main())


def test_the_room_plans_the_expiry_once_per_match_and_never_after_it__HR_25() -> None:
    """A deadline already past (the room was down when it ran out) is told at once; a match that is
    over cancels it."""
    st, races, _ = blitz_room()
    start_match(st, races)
    told: list[object] = []

    automation = Automation(st, settings(), told.append)
    assert st.blitz_deadline is not None and isinstance(st.clock, ManualClock)
    st.blitz_deadline = st.clock.wall() - 5
    automation.plan(Outcome())
    assert automation.blitz.key == st.match_no
    st.clock.advance(0)  # due already
    assert [m for m in told if isinstance(m, BlitzExpired)] == [BlitzExpired(st.match_no)]
    expire(st, settings())
    automation.plan(Outcome())
    assert automation.blitz.key is None and automation.blitz.handle is None  # over: no clock
    automation.cancel()
