"""Drawing and forced play (RULES.md §7.4: HR-10, HR-11; HX-2)."""

from __future__ import annotations

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions

from .scenario import act, card, play
from .test_house_stacking import house_match


def refused(m: object, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)  # type: ignore[arg-type]
    return str(err.value.code)


def test_forced_play_refuses_a_draw_while_a_card_can_be_played__HR_10() -> None:
    m = house_match("classic", [["red 5", "blue 7"], ["green 1", "green 2"]], "red 9", forced_play=True)
    assert Action("draw") not in legal_actions(m, 0)
    assert refused(m, 0, Action("draw")) == "must_play"
    assert len(m.round.hands[0]) == 2


def test_forced_play_counts_an_illegal_big_draw_as_playable__HR_10() -> None:
    """Only a challenge punishes an illegal Wild Draw Four: holding one means playing, not drawing."""
    m = house_match("classic", [["wild_draw4", "red 5"], ["green 1", "green 2"]], "blue 9", forced_play=True)
    assert refused(m, 0, Action("draw")) == "must_play"


def test_forced_play_draws_when_nothing_can_be_played_and_may_accept_a_penalty__HR_10() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["red draw2", "green 2", "green 3"]], "red 9", ("green 4",),
                    forced_play=True)
    act(m, 0, "draw")
    assert m.round.pending is not None and m.round.pending.kind == "turn" and m.round.pending.seat == 1
    m = house_match("classic", [["red draw2", "red 1", "red 2"], ["red 5", "green 2"], ["green 1", "green 3"]],
                    "red 9", forced_play=True, stacking=True)
    play(m, 0, "red draw2")
    act(m, 1, "accept")  # T may always be accepted


def test_forced_play_with_draw_until_playable_runs_until_a_playable_card__HX_2() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("green 4", "red 3"),
                    forced_play=True, draw_until_playable=True)
    act(m, 0, "draw")
    p = m.round.pending
    assert p is not None and p.kind == "drawn" and len(m.round.hands[0]) == 4


def test_play_what_you_draw_refuses_to_keep_a_playable_card__HR_11() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    must_play_drawn=True)
    act(m, 0, "draw")
    assert {a.kind for a in legal_actions(m, 0)} == {"play_drawn"}
    assert refused(m, 0, Action("keep")) == "must_play"
    apply(m, 0, Action("play_drawn", card(m, 0, "red 3")))
    assert m.round.cards[m.round.discard[-1]].name == "red 3"


def test_play_what_you_draw_may_keep_a_guilty_big_draw_unless_nothing_is_challenged__HR_11() -> None:
    m = house_match("classic", [["red 7", "blue 8"], ["green 1", "green 2"]], "yellow 9", ("wild_draw4",),
                    must_play_drawn=True)
    act(m, 0, "draw")  # yellow is to be matched and none is held: innocent, so it must be played
    assert "keep" not in {a.kind for a in legal_actions(m, 0)}
    m = house_match("classic", [["red 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("wild_draw4",),
                    must_play_drawn=True)
    act(m, 0, "draw")  # a red card is held: a challenge would find it guilty, so it may be kept
    assert "keep" in {a.kind for a in legal_actions(m, 0)}
    m = house_match("classic", [["red 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("wild_draw4",),
                    must_play_drawn=True, no_challenge=True)
    act(m, 0, "draw")  # HR-21: nothing is challenged, so nothing is guilty
    assert "keep" not in {a.kind for a in legal_actions(m, 0)}


def test_play_what_you_draw_with_draw_until_playable_plays_the_card_that_ends_it__HX_2() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("green 4", "red 3"),
                    must_play_drawn=True, draw_until_playable=True)
    act(m, 0, "draw")
    assert {a.kind for a in legal_actions(m, 0)} == {"play_drawn"}


def test_the_item_box_is_a_colour_card_in_the_guilty_test__HX_9() -> None:
    m = house_match("mario_kart", [["item_box", "blue 8"], ["green 1", "green 2"]], "red 9", ("wild_draw4",),
                    must_play_drawn=True)
    act(m, 0, "draw")  # MK-4: an Item Box in hand makes the Wild Draw Four guilty: it may be kept
    assert "keep" in {a.kind for a in legal_actions(m, 0)}
