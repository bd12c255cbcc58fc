"""Bot seats have a level: chosen by the host when adding one, shown on the seat, stored with it."""

from __future__ import annotations

from typing import Any

import pytest

from app.bots import LEVELS
from app.config import Settings
from app.rooms import records as rec
from app.rooms import seating
from app.rooms.errors import RoomError
from app.rooms.options import RoomOptions
from app.rooms.restore import restore_state
from app.rooms.room_state import RoomState
from app.rooms.room_views import seat_views


def settings() -> Settings:
    values: dict[str, Any] = {"_env_file": None}  # no .env: the defaults
    return Settings(**values)


def waiting_room() -> tuple[RoomState, Any]:
    st = RoomState.open("LEVEL234", RoomOptions("classic", 4), settings())
    host, _ = seating.join(st, settings(), "Ana")
    return st, host


def test_the_host_adds_bots_of_each_level_and_the_seat_shows_it() -> None:
    st, host = waiting_room()
    for level in LEVELS:
        seating.add_bot(st, host, level)
    players = seat_views(st, [0])[0]["players"]
    assert [(p["bot"], p["level"]) for p in players] == [(False, None), (True, "easy"), (True, "normal"),
                                                         (True, "hard")]
    assert [e.get("level") for e in st.log if e["kind"] == "bot_added"] == list(LEVELS)


def test_a_bot_added_without_a_level_plays_normal() -> None:
    st, host = waiting_room()
    assert seating.add_bot(st, host).level == "normal"


@pytest.mark.parametrize("level", ["expert", "", "HARD"])
def test_an_unknown_level_is_refused_and_changes_nothing(level: str) -> None:
    st, host = waiting_room()
    before = (list(st.players), len(st.log))
    with pytest.raises(RoomError) as refused:
        seating.add_bot(st, host, level)
    assert refused.value.code == "bad_bot_level" and refused.value.params["levels"] == list(LEVELS)
    assert (list(st.players), len(st.log)) == before


def test_a_restored_room_keeps_each_bots_level() -> None:
    """A bot stored before levels existed (no level) comes back at normal, as it played then."""
    st, host = waiting_room()
    seating.add_bot(st, host, "hard")
    seating.add_bot(st, host, "easy")
    seats = [*seating.seats_record(st).seats, rec.SeatInfo(3, "Bot 9", "x", True, None)]
    stored = rec.StoredRoom(st.code, "t", "classic", True, 4, None, {}, "waiting", 0, seats, None)
    again = restore_state(stored, settings())
    assert [(p.bot, p.level) for p in again.players] == [(False, None), (True, "hard"), (True, "easy"),
                                                         (True, "normal")]
