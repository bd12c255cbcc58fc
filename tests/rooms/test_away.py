"""The tally of what a bot did for an away seat (app/rooms/away.py), told when its player returns."""

from __future__ import annotations

from app.config import Settings
from app.rooms.away import ROUNDS_TOLD, AwayTally
from app.rooms.options import RoomOptions
from app.rooms.room_state import Player, RoomState


def test_cards_played_drawn_penalties_swaps_and_rounds_are_counted_for_the_seat_only() -> None:
    tally = AwayTally()
    for entry in [
        {"kind": "round_start", "round": 3},
        {"kind": "play", "seat": 1, "card": {"id": 5}},
        {"kind": "play", "seat": 1, "card": {"id": 7}, "batch": [{"id": 6}, {"id": 7}]},  # HR-8: two cards
        {"kind": "play", "seat": 0, "card": {"id": 9}},  # someone else's
        {"kind": "draw", "seat": 1, "count": 1, "reason": "turn"},
        {"kind": "draw", "seat": 1, "count": 4, "reason": "card"},  # a Wild Draw Four
        {"kind": "draw", "seat": 1, "count": 2, "reason": "caught"},
        {"kind": "caught", "seat": 1, "by": 2},
        {"kind": "draw", "seat": 2, "count": 2, "reason": "card"},
        {"kind": "swap", "seat": 1, "target": 2},  # the bot played a 7 for the seat
        {"kind": "swap", "seat": 0, "target": 1},  # someone swapped with it
        {"kind": "swap", "seat": 0, "target": 2},  # not its hand
        {"kind": "hands_passed", "seat": 0, "direction": 1},
        {"kind": "round_over", "winner": 0, "points": 56},
        {"kind": "match_over", "winner": 0},
        {"kind": "host", "seat": 2},
    ]:
        tally.fold(entry, 1)
    assert tally.summary() == {
        "played": 3, "drew": 1, "penalty": 6, "caught": 1, "passed": 1,
        "swaps": [{"by": 1, "with": 2}, {"by": 0, "with": 0}],
        "rounds": [{"round": 3, "winner": 0, "points": 56}], "matches": [0], "host": 2,
    }


def test_nothing_done_is_an_empty_summary_and_only_the_latest_rounds_are_listed() -> None:
    assert AwayTally().summary() == {}
    tally = AwayTally()
    for r in range(ROUNDS_TOLD + 2):
        tally.fold({"kind": "round_start", "round": r + 1}, 0)
        tally.fold({"kind": "round_over", "winner": 1, "points": 10}, 0)
    told = tally.summary()
    assert told["earlier_rounds"] == 2 and len(told["rounds"]) == ROUNDS_TOLD
    assert told["rounds"][-1]["round"] == ROUNDS_TOLD + 2


def test_the_room_tallies_public_entries_for_away_seats_beyond_its_kept_log() -> None:
    st = RoomState.open("ABCD", RoomOptions("classic", 2, None, False, ""), Settings(_env_file=None))  # type: ignore[call-arg]
    st.players = [Player("Ana", "x", 0), Player("Bo", "y", 1, away=AwayTally())]
    for _ in range(st.event_log_kept + 10):  # more than the log keeps
        st.note("play", seat=1, card={"id": 1})
    assert len(st.log) == st.event_log_kept
    assert st.players[1].away is not None and st.players[1].away.played == st.event_log_kept + 10
    assert st.players[0].away is None
