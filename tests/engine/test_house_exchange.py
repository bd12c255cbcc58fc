"""The hand-exchange family (RULES.md §7.2: HR-6, HR-7; D-11)."""

from __future__ import annotations

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions

from .scenario import card, names, play
from .test_house_stacking import house_match

HANDS = [["red 7", "red 0", "red 1"], ["blue 5", "blue 6"], ["green 1", "green 2", "green 3", "green 4"]]


def test_seven_only_makes_the_zero_a_plain_number__HR_6() -> None:
    m = house_match("classic", HANDS, "red 9", seven_o=True, seven_o_cards="seven")
    play(m, 0, "red 0")
    assert names(m, 0) == ["red 7", "red 1"] and names(m, 1) == ["blue 5", "blue 6"]  # nothing passed
    m = house_match("classic", HANDS, "red 9", seven_o=True, seven_o_cards="seven")
    play(m, 0, "red 7", target=2)
    assert names(m, 0) == ["green 1", "green 2", "green 3", "green 4"]


def test_zero_only_makes_the_seven_a_plain_number__HR_6() -> None:
    m = house_match("classic", HANDS, "red 9", seven_o=True, seven_o_cards="zero")
    seven = card(m, 0, "red 7")
    assert Action("play", seven) in legal_actions(m, 0)  # no target: it swaps nothing
    play(m, 0, "red 7")
    assert names(m, 0) == ["red 0", "red 1"]
    m = house_match("classic", HANDS, "red 9", seven_o=True, seven_o_cards="zero")
    play(m, 0, "red 0")
    assert names(m, 1) == ["red 7", "red 1"]  # every hand passed on in the direction of play


def test_a_seven_swaps_with_the_next_seat_and_takes_no_target__HR_7() -> None:
    m = house_match("classic", HANDS, "red 9", seven_o=True, seven_target="next")
    seven = card(m, 0, "red 7")
    with pytest.raises(IllegalAction) as err:
        apply(m, 0, Action("play", seven, target=2))
    assert err.value.code == "target_not_allowed"
    play(m, 0, "red 7")
    assert names(m, 0) == ["blue 5", "blue 6"] and names(m, 1) == ["red 0", "red 1"]


def test_a_jumped_in_seven_swaps_with_the_seat_next_to_the_jumper__HR_7() -> None:
    hands = [["red 7", "red 1"], ["blue 5", "blue 6"], ["red 7", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", seven_o=True, seven_target="next", jump_in=True)
    play(m, 0, "red 7")  # swaps with seat 1
    play(m, 2, "red 7")  # seat 2 jumps in on the duplicate: it swaps with seat 0, the next after it
    assert names(m, 2) == ["blue 5", "blue 6"] and names(m, 0) == ["green 2", "green 3"]


def test_uno_with_a_next_seat_swap_covers_the_hand_received__HR_7__D_11() -> None:
    hands = [["red 7", "red 1", "red 2"], ["blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", seven_o=True, seven_target="next")
    seven = card(m, 0, "red 7")
    assert Action("play", seven, uno=True) in legal_actions(m, 0)  # it leaves seat 0 one card: seat 1's
    play(m, 0, "red 7", uno=True)
    assert m.round.declared == {0} and m.round.exposed == set()
