"""Information (RULES.md §7.11): open hands (HR-31, HX-15) in every view — their face-down cards
(HR-33) as backs for all, the holder included (D-13) — and no hints (HR-32): the engine's part —
every draw on a turn offers ``drawn``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions, view
from app.engine.house.information import hintless, is_open

from .scenario import act, card, play
from .test_house_stacking import house_match


def test_an_unplayable_drawn_card_is_still_offered_and_may_only_be_kept__HR_32() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",), no_hints=True)
    act(m, 0, "draw")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("drawn", 0)
    assert [a.kind for a in legal_actions(m, 0)] == ["keep"]
    with pytest.raises(IllegalAction) as err:
        apply(m, 0, Action("play_drawn", card(m, 0, "yellow 3")))
    assert err.value.code == "card_not_playable"
    act(m, 0, "keep")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_without_no_hints_an_unplayable_draw_ends_the_turn__HR_32() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",))
    act(m, 0, "draw")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_play_what_you_draw_keeps_an_unplayable_card_under_no_hints__HR_32__HR_11() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",),
                    no_hints=True, must_play_drawn=True)
    act(m, 0, "draw")
    assert [a.kind for a in legal_actions(m, 0)] == ["keep"]
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    no_hints=True, must_play_drawn=True)
    act(m, 0, "draw")
    assert {a.kind for a in legal_actions(m, 0)} == {"play_drawn"}  # a playable one must still be played


def test_hintless_drops_only_the_legal_list__HR_32() -> None:
    game: dict[str, Any] = {"seat": 0, "table": {"hand": [1], "legal": [{"kind": "draw"}], "top": 3}}
    assert hintless(game) == {"seat": 0, "table": {"hand": [1], "top": 3}}
    assert game["table"]["legal"] == [{"kind": "draw"}]  # the view itself is untouched (bots use it)
    assert hintless({"seat": None, "table": {"top": 3}}) == {"seat": None, "table": {"top": 3}}


# --------------------------------------------------------------------------- HR-31 open hands

def open_ids(m: Any, seat: int | None) -> list[list[int] | None]:
    hands = view(m, seat)["table"]["open_hands"]
    return [None if h is None else [c["id"] for c in h] for h in hands]


def test_a_hand_of_up_to_n_cards_is_open_to_every_seat_and_spectator__HR_31__HX_15() -> None:
    # Seat 0 holds 3 cards, seat 1 two, seat 2 four: with reveal_hands_at 2 only seat 1's is open.
    m = house_match("classic", [["blue 7", "blue 8", "red 1"], ["green 1", "green 2"],
                                ["yellow 1", "yellow 2", "yellow 3", "yellow 4"]], "red 9", reveal_hands_at=2)
    hands = m.round.hands
    for seat in (0, 1, 2, None):
        assert open_ids(m, seat) == [None, list(hands[1]), None]
        assert view(m, seat)["table"]["hand_sizes"] == [3, 2, 4]
    assert is_open(m.round, 1) and not is_open(m.round, 0) and not is_open(m.round, 2)
    # Seat 0 plays a card: now at 2, its hand opens for all.
    play(m, 0, "red 1")
    for seat in (1, 2, None):
        assert open_ids(m, seat)[0] == list(m.round.hands[0])
    assert "hand" not in view(m, None)["table"]  # the spectator still has no hand of its own


def test_a_hand_closes_again_above_n_cards_and_the_threshold_is_inclusive__HR_31__HX_15() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2", "green 3"]], "red 9",
                    ("yellow 3",), reveal_hands_at=2)
    assert open_ids(m, 1)[0] == list(m.round.hands[0])
    act(m, 0, "draw")  # 3 cards now: hidden again from seat 1 and the spectators
    if m.round.pending is not None and m.round.pending.kind == "drawn":
        act(m, 0, "keep")
    assert len(m.round.hands[0]) == 3
    for seat in (1, None):
        text = json.dumps(view(m, seat))
        assert open_ids(m, seat) == [None, None]
        assert not any(f'"id": {c}' in text for c in m.round.hands[0])
    # At 1 only: a two-card hand stays hidden.
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1"]], "red 9", reveal_hands_at=1)
    assert open_ids(m, 0) == [None, list(m.round.hands[1])]
    assert open_ids(m, 1)[0] is None


def test_without_the_option_no_hand_is_open__HR_31() -> None:
    m = house_match("classic", [["blue 7"], ["green 1"]], "red 9")
    for seat in (0, 1, None):
        assert "open_hands" not in view(m, seat)["table"]


def test_a_seven_swap_opens_and_closes_hands_by_their_new_sizes__HR_31__HX_13() -> None:
    # Seat 0 (3 cards, one a 7) swaps with seat 1 (5 cards): seat 0 now holds 5, seat 1 two.
    m = house_match("classic", [["red 7", "blue 1", "blue 2"],
                                ["green 1", "green 2", "green 3", "green 4", "green 5"]], "red 9",
                    seven_o=True, reveal_hands_at=3)
    assert open_ids(m, 1)[0] is not None and open_ids(m, 0)[1] is None
    play(m, 0, "red 7", target=1)
    assert [len(h) for h in m.round.hands] == [5, 2]
    for seat in (0, 1, None):
        assert open_ids(m, seat) == [None, list(m.round.hands[1])]


# ----------------------------------------------- HR-31 open hands with HR-33 blind draw (D-13)

def test_an_open_hands_face_down_card_shows_to_all_as_a_back_its_holder_included__D_13__HR_31__HX_15() -> None:
    """D-13: a face-down card (HR-33) inside an open hand (HR-31) shows to every seat and the
    spectators, its holder included, as a face-down card: counted in ``open_face_down``, its face
    in no view at all; the hand's face-up cards stay open to all."""
    m = house_match("classic", [["blue 7"], ["green 1", "green 2", "green 3", "green 4"]], "red 9",
                    ("red 3", "yellow 5"), blind_draw=True, reveal_hands_at=2)
    act(m, 0, "draw")  # seat 0: blue 7 and red 3 face down, an open hand of two
    red3, blue7 = card(m, 0, "red 3"), card(m, 0, "blue 7")
    face = json.dumps(m.round.card_json(red3))
    for seat in (None, 0, 1):
        table = view(m, seat)["table"]
        assert [c["id"] for c in table["open_hands"][0]] == [blue7], seat
        assert table["open_face_down"] == [1, None], seat
        assert face not in json.dumps(view(m, seat)), seat  # the face nowhere, the holder's view included
    assert view(m, 0)["table"]["face_down"] == 1  # still unplayable for its holder


def test_an_open_hands_card_once_turned_up_is_seen_by_all__D_13__HR_31__HR_33() -> None:
    m = house_match("classic", [["blue 7"], ["green 1", "green 2", "green 3", "green 4"]], "red 9",
                    ("red 3", "yellow 5"), blind_draw=True, reveal_hands_at=2)
    act(m, 0, "draw")
    act(m, 1, "draw")  # nothing to play: seat 1's draw ends its turn, and seat 0 owes one
    assert not m.round.face_down.by_seat[0]  # turned up for its holder: now for everyone too
    red3, blue7 = card(m, 0, "red 3"), card(m, 0, "blue 7")
    for seat in (None, 0, 1):
        table = view(m, seat)["table"]
        assert sorted(c["id"] for c in table["open_hands"][0]) == sorted([blue7, red3]), seat
        assert table["open_face_down"][0] == 0, seat


def test_open_hands_without_blind_draw_carry_no_face_down_counts__HR_31__D_13() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2", "green 3"]], "red 9", reveal_hands_at=2)
    table = view(m, 1)["table"]
    assert [c["id"] for c in table["open_hands"][0]] == list(m.round.hands[0]) and "open_face_down" not in table
