"""Finishing restrictions (RULES.md §7.5: HR-14, HR-15; HX-12 for jump-ins)."""

from __future__ import annotations

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions

from .scenario import act, card, play
from .test_house_stacking import house_match

OTHERS = [["green 1", "green 2", "green 3"], ["yellow 1", "yellow 2", "yellow 3"]]


def code(m: object, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)  # type: ignore[arg-type]
    return str(err.value.code)


@pytest.mark.parametrize(("finish_with", "last", "allowed"), [
    ("no_draw", "red draw2", False), ("no_draw", "wild", True), ("no_draw", "red skip", True),
    ("no_wild", "wild", False), ("no_wild", "wild_draw4", False), ("no_wild", "red draw2", True),
    ("no_draw_or_wild", "red draw2", False), ("no_draw_or_wild", "wild", False), ("no_draw_or_wild", "red 5", True),
    ("number", "red skip", False), ("number", "red reverse", False), ("number", "red 5", True),
    ("any", "wild_draw4", True),
])
def test_the_card_that_empties_a_hand_is_limited__HR_14(finish_with: str, last: str, allowed: bool) -> None:
    m = house_match("classic", [[last], *OTHERS], "red 9", finish_with=finish_with)
    held = card(m, 0, last)
    colour = "red" if m.round.cards[held].colour is None else None
    assert (Action("play", held, colour) in legal_actions(m, 0)) is allowed
    if not allowed:
        assert code(m, 0, Action("play", held, colour)) == "finish_restricted"


def test_the_item_box_and_the_dip_are_wilds__HR_14() -> None:
    m = house_match("mario_kart", [["item_box"], *OTHERS], "red 9", finish_with="no_wild")
    assert not any(a.kind == "play" for a in legal_actions(m, 0))
    m = house_match("pocket_pizza", [["wild_dip"], *OTHERS], "red 9", finish_with="no_wild")
    assert not any(a.kind == "play" for a in legal_actions(m, 0))


def test_a_seat_holding_only_a_restricted_card_must_draw__HR_15() -> None:
    m = house_match("classic", [["red draw2"], *OTHERS], "red 9", ("blue 4",), finish_with="no_draw",
                    forced_play=True)
    assert {a.kind for a in legal_actions(m, 0)} == {"draw"}  # forced play does not count it as playable
    act(m, 0, "draw")
    assert m.round.pending is not None and m.round.pending.seat == 1


def test_in_all_wild_a_restricted_last_card_draws_one_and_ends_the_turn__HR_15() -> None:
    m = house_match("all_wild", [["wild_draw4"], ["wild", "wild"], ["wild", "wild"]], "wild", ("wild_draw2",),
                    finish_with="no_draw")
    assert {a.kind for a in legal_actions(m, 0)} == {"draw"}
    act(m, 0, "draw")
    rnd = m.round
    assert len(rnd.hands[0]) == 2 and rnd.pending is not None and rnd.pending.kind == "turn"
    assert rnd.pending.seat == 1


def test_a_restricted_last_card_cannot_answer_or_jump_in__HR_15__HX_12() -> None:
    m = house_match("classic", [["red draw2", "red 1", "red 2"], ["blue draw2"], ["green 1", "green 2"]], "red 9",
                    stacking=True, finish_with="no_draw")
    play(m, 0, "red draw2")
    assert {a.kind for a in legal_actions(m, 1)} == {"accept"}
    assert code(m, 1, Action("play", card(m, 1, "blue draw2"))) == "finish_restricted"
    hands = [["red skip", "red 1", "red 2"], ["blue 5", "blue 6"], ["green 5", "green 6"], ["red skip"]]
    m = house_match("classic", hands, "red 9", jump_in=True, finish_with="number")
    play(m, 0, "red skip")  # seat 1 is skipped: seat 2's turn, and seat 3 holds the duplicate
    assert m.round.pending is not None and m.round.pending.seat == 2
    assert not legal_actions(m, 3)
    assert code(m, 3, Action("play", card(m, 3, "red skip"))) == "finish_restricted"
