"""Teams of two in a room (RULES.md §7.9: HR-26, HR-27): a room too small for teams is refused
at creation, a start with a count teams cannot be made of is refused, and the view marks
partners and team totals."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings
from app.engine import HouseRules
from app.rooms.errors import RoomError
from app.rooms.options import RoomOptions
from app.rooms.play import start_match
from app.rooms.races import Races
from app.rooms.room_state import PLAYING, WAITING, Player, RoomState
from app.rooms.room_views import view_for

DEFAULTS: dict[str, Any] = {"_env_file": None}  # the defaults, whatever the environment says


def room(players: int) -> RoomState:
    settings = Settings(**DEFAULTS)
    st = RoomState.open("TEAM2345", RoomOptions("classic", 6, house=HouseRules(team_play=True)), settings)
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(players)]
    return st


@pytest.mark.parametrize("max_seats", [2, 3])
def test_a_room_of_fewer_than_four_seats_is_refused_bad_teams__HR_26(max_seats: int) -> None:
    with pytest.raises(RoomError) as refused:
        RoomOptions.parse(Settings(**DEFAULTS), "classic", public=False, max_seats=max_seats, target=None,
                          house_rules={"team_play": True})
    assert refused.value.code == "bad_teams" and refused.value.status == 422
    assert RoomOptions.parse(Settings(**DEFAULTS), "classic", public=False, max_seats=5, target=None,
                             house_rules={"team_play": True}).house.team_play


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_start_with_an_odd_count_or_fewer_than_four_is_refused_bad_teams__HR_26(players: int) -> None:
    st = room(players)
    with pytest.raises(RoomError) as refused:
        start_match(st, Races(st))
    assert refused.value.code == "bad_teams" and st.status == WAITING and st.match is None


def test_the_view_marks_partners_and_team_totals__HR_26__HR_27() -> None:
    st = room(6)
    start_match(st, Races(st))
    assert st.status == PLAYING
    game = view_for(st, None)["game"]
    assert game["teams"] == [[0, 3], [1, 4], [2, 5]] and game["team_scores"] == [0, 0, 0]
