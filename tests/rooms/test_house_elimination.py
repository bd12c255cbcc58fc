"""An elimination match in a room (RULES.md §7.10: HR-29, HR-30): the view shows who is out,
the log says it, an eliminated seat's actions are refused, and a restart rebuilds it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.bots import choose_action
from app.config import Settings
from app.engine import Action, HouseRules, IllegalAction, action_from_json, legal_actions
from app.rooms import records as rec
from app.rooms.memory_store import InMemoryStore
from app.rooms.options import RoomOptions
from app.rooms.play import act, next_round, start_match
from app.rooms.races import Races
from app.rooms.restore import restore_state
from app.rooms.room_state import BETWEEN, OVER, Player, RoomState
from app.rooms.room_views import view_for


def test_a_room_shows_the_eliminated_seat_and_refuses_its_actions__HR_29__HR_30() -> None:
    defaults: dict[str, Any] = {"_env_file": None}
    settings = Settings(**defaults)
    options = RoomOptions("classic", 3, house=HouseRules(elimination="cards"))
    st = RoomState.open("ROOM3456", options, settings)
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(3)]
    races, store, rng = Races(st), InMemoryStore(), random.Random(7)
    records: list[rec.Record] = [
        rec.RoomOpened(st.code, "t", "classic", True, 3, None, {"house_rules": options.house.to_json()}),
        rec.SeatsChanged(st.code, tuple(rec.SeatInfo(p.seat, p.name, p.token_hash) for p in st.players)),
        *start_match(st, races)]
    m = st.match
    assert m is not None
    assert view_for(st, None)["game"]["eliminated"] == []
    for rounds in (1, 2):
        while st.status not in (BETWEEN, OVER):
            seat = m.round.pending.seat if m.round.pending else 0
            records += act(st, races, settings, st.players[seat], rng.choice(legal_actions(m, seat)))
        assert len(m.out) == rounds
        assert view_for(st, None)["game"]["eliminated"] == m.out
        assert [e["seat"] for e in st.log if e["kind"] == "eliminated"][-1] == m.out[-1]
        if st.status == OVER:
            break
        records += next_round(st, races)
        gone = m.out[0]
        assert view_for(st, gone)["game"]["table"]["hand"] == []
        with pytest.raises(IllegalAction) as refused:
            act(st, races, settings, st.players[gone], Action("draw"))
        assert refused.value.code == "eliminated"
    assert st.status == OVER and m.winner is not None and m.winner not in m.out
    asyncio.run(store.write(*records))
    stored = asyncio.run(store.load_room(st.code))
    assert stored is not None
    again = restore_state(stored, settings)
    assert again.match is not None and again.match.fingerprint() == m.fingerprint()


def test_bots_play_an_elimination_match_out_and_never_act_for_a_seat_out__HR_30__HX_8() -> None:
    defaults: dict[str, Any] = {"_env_file": None}
    settings = Settings(**defaults)
    st = RoomState.open("ROOM4567", RoomOptions("classic", 4, house=HouseRules(elimination="points")), settings)
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(4)]
    races, rng = Races(st), random.Random(3)
    start_match(st, races)
    m = st.match
    assert m is not None
    for _ in range(20_000):
        if st.status == OVER:
            break
        if st.status == BETWEEN:
            next_round(st, races)
            continue
        for seat in range(4):
            chosen = choose_action(view_for(st, seat)["game"], rng)
            if seat in m.out:
                assert chosen is None  # a seat out has nothing to do, so its bot does nothing
            elif chosen is not None and action_from_json(chosen) in legal_actions(m, seat):
                act(st, races, settings, st.players[seat], action_from_json(chosen))
                break
    assert st.status == OVER and len(m.out) == 3 and m.winner not in m.out
