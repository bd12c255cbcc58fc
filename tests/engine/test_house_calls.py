"""UNO! calls under the house rules (RULES.md §7.6: HR-16 … HR-19; HX-4, D-3, D-11)."""

from __future__ import annotations

import pytest

from app.engine import Action, IllegalAction, apply, legal_actions

from .scenario import act, card, drawn_by, play
from .test_house_stacking import house_match

HANDS = [["red 5", "red 6"], ["blue 5", "blue 6", "blue 7"], ["green 1", "green 2", "green 3"]]


def refused(m: object, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)  # type: ignore[arg-type]
    return str(err.value.code)


@pytest.mark.parametrize("penalty", [2, 4, 6])
def test_a_caught_seat_draws_the_catch_penalty__HR_16(penalty: int) -> None:
    m = house_match("classic", HANDS, "red 9", uno_penalty=penalty)
    play(m, 0, "red 5")
    events = act(m, 1, "catch", target=0)
    assert drawn_by(events, 0) == penalty and len(m.round.hands[0]) == 1 + penalty


def test_strict_uno_takes_the_early_ways_away__HR_17() -> None:
    m = house_match("classic", HANDS, "red 9", strict_uno=True)
    red5 = card(m, 0, "red 5")
    assert Action("declare_uno") not in legal_actions(m, 0)  # not with two cards on one's turn
    assert refused(m, 0, Action("declare_uno")) == "uno_not_allowed"
    assert not any(a.uno for a in legal_actions(m, 0))
    assert refused(m, 0, Action("play", red5, uno=True)) == "uno_not_allowed"
    assert len(m.round.hands[0]) == 2  # nothing changed
    play(m, 0, "red 5")
    assert m.round.exposed == {0}  # every hand that drops to one card is catchable ...
    act(m, 0, "declare_uno")  # ... until its own declaration arrives
    assert m.round.declared == {0} and refused(m, 1, Action("catch", target=0)) == "too_late"


def test_strict_uno_does_not_lengthen_the_window__HR_17__D_3() -> None:
    m = house_match("classic", HANDS, "red 9", strict_uno=True)
    play(m, 0, "red 5")
    play(m, 1, "blue 5")  # the next turn action closes the window
    assert m.round.exposed == set() and refused(m, 2, Action("catch", target=0)) == "not_exposed"


def test_no_uno_exposes_no_one_and_refuses_every_call__HR_18() -> None:
    m = house_match("classic", HANDS, "red 9", silent_uno=True)
    red5 = card(m, 0, "red 5")
    assert refused(m, 0, Action("play", red5, uno=True)) == "uno_not_allowed"
    events = play(m, 0, "red 5")
    assert m.round.exposed == set() and not any(e.kind in ("exposed", "uno") for e in events)
    assert refused(m, 1, Action("catch", target=0)) == "uno_not_allowed"
    assert refused(m, 0, Action("declare_uno")) == "uno_not_allowed"
    assert not any(a.kind in ("declare_uno", "catch") for s in range(3) for a in legal_actions(m, s))


def test_a_late_catch_stays_valid_while_the_target_is_exposed__HR_19() -> None:
    m = house_match("classic", HANDS, "red 9", late_catch=True)
    play(m, 0, "red 5")
    play(m, 1, "blue 5")
    assert m.round.exposed == {0}  # a turn action did not close it
    events = act(m, 2, "catch", target=0)
    assert drawn_by(events, 0) == 2


def test_a_late_catch_ends_when_the_hand_no_longer_holds_one_card__HR_19__HX_4() -> None:
    m = house_match("classic", [["red 5", "red 6"], ["blue 5", "blue 6", "blue 7"], ["red draw2", "green 2"]],
                    "red 9", late_catch=True)
    play(m, 0, "red 5")
    act(m, 1, "draw")
    if m.round.pending is not None and m.round.pending.kind == "drawn":
        act(m, 1, "keep")
    play(m, 2, "red draw2")  # seat 0 draws two: no longer one card, no longer exposed
    assert 0 not in m.round.exposed and refused(m, 1, Action("catch", target=0)) == "not_exposed"


def test_uno_with_a_play_covers_the_hand_after_ones_own_swap__D_11() -> None:
    hands = [["red 7", "red 1"], ["blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", seven_o=True)
    play(m, 0, "red 7", target=1, uno=True)  # the swap leaves seat 0 the one card of seat 1
    assert m.round.declared == {0}
    assert m.round.exposed == {1}  # a one-card hand received from someone else's play: exposed (§6.1)
