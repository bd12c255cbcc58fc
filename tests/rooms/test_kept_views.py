"""Views kept between changes: the match's built once per change, the logs while their entries stand.

``room_views.seat_views`` hands out the same objects while what they show is unchanged, so the
differ passes them by identity.  Whatever it keeps must equal what a fresh build makes, after
every kind of change a room goes through (moves of every edition, rounds and matches that
end, chat, a late UNO! call), and the bots must decide on what their seat is shown (C-16).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import Settings
from app.engine import VARIANTS, IllegalAction, legal_actions, view
from app.engine.view_parts import ViewParts
from app.rooms import play
from app.rooms.diff import make_patch
from app.rooms.races import Races
from app.rooms.room_state import BETWEEN, OVER, PLAYING, Player, RoomState
from app.rooms.room_views import game_views, seat_views

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")


def room(edition: str, seats: int) -> tuple[RoomState, Races]:
    variant = VARIANTS[edition]
    seats = min(max(seats, variant.min_seats), variant.max_seats)
    st = RoomState(code="KEPTVIEW", edition=edition, public=False, max_seats=seats, target=60, name="kept")
    for seat in range(seats):
        st.players.append(Player(f"p{seat}", f"{seat:064x}", seat, connected=seat != seats - 1))
    races = Races(st)
    play.start_match(st, races)
    return st, races


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(EDITIONS), st.integers(2, 4), st.integers(1, 120))
def test_kept_views_equal_fresh_ones_after_every_change__C_16(seed: int, edition: str, seats: int,
                                                                steps: int) -> None:
    rng = random.Random(seed)
    st, races = room(edition, seats)
    seats = len(st.players)
    conf = Settings(_env_file=None, database_url="memory://")  # type: ignore[call-arg]
    everyone: list[int | None] = [*range(seats), None]
    before = seat_views(st, everyone)
    for step in range(steps):
        if st.status == BETWEEN:
            play.next_round(st, races)
        elif st.status == OVER:
            break
        elif rng.random() < 0.1:
            st.add_chat(rng.randrange(seats), f"line {step}")
        else:
            assert st.status == PLAYING and st.match is not None
            moves = [(s, a) for s in range(seats) for a in legal_actions(st.match, s)]
            seat, action = rng.choice(moves)
            try:
                play.act(st, races, conf, st.players[seat], action)
            except IllegalAction as err:  # a call at a settled race: refused, named, and on the receipt
                assert err.code == "too_late" and err.params["target"] in races.open
        after = seat_views(st, everyone)
        assert after == seat_views(st, everyone, ViewParts()), f"step {step}"
        for who in everyone:
            # The bots' view is the engine's own view of that seat.
            if st.match is not None and who is not None:
                assert game_views(st, (who,))[who] == view(st.match, who)
            # The kept parts diff to the new view exactly as fresh ones would.
            fresh = seat_views(st, [who], ViewParts())[who]
            assert make_patch(before[who], after[who]) == make_patch(before[who], fresh)
        for seat in range(seats):
            if st.private.get(seat) is not None and before[seat]["private"] == after[seat]["private"]:
                assert before[seat]["private"] is after[seat]["private"]  # unchanged: kept, not rebuilt
        before = after


def test_a_seat_away_gets_no_view_built_until_asked() -> None:
    st, _ = room("classic", 3)
    built = game_views(st, [0, None])
    assert st.match is not None
    key = (st.match.round_no, len(st.match.log), st.match.phase)
    kept: dict[int | None, object] = st.parts.get("games", key, dict, owner=st.match)
    assert 2 not in kept and 0 in kept and 1 in kept  # seat 2 never connected and no bot plays it
    assert built[0] == view(st.match, 0)
    assert game_views(st, [2])[2] == view(st.match, 2)  # asked for (a timeout, say): built then
