"""Scenario tests for UNO All Wild's first card, its must-play turn, its special draw and its
scoring (RULES.md §4, AW-4 .. AW-7), on stacked decks; the deck and the cards' effects are in
test_all_wild.py."""

from __future__ import annotations

import pytest

from app.engine import VARIANTS, Action, IllegalAction, legal_actions, view
from app.engine.round import SPECIAL, TARGET

from .scenario import act, drawn_by, kinds, make, names, play, top
from .test_all_wild import AW, sizes, turn_of, wilds

# ---------------------------------------------------------------- AW-4 first card


@pytest.mark.parametrize(
    ("first", "current", "direction", "draws"),
    [
        ("wild", 0, 1, [0, 0, 0, 0]),
        ("wild_skip", 1, 1, [0, 0, 0, 0]),
        ("wild_skip2", 2, 1, [0, 0, 0, 0]),
        ("wild_reverse", 3, -1, [0, 0, 0, 0]),
        ("wild_draw2", 1, 1, [2, 0, 0, 0]),
        ("wild_draw4", 1, 1, [4, 0, 0, 0]),
    ],
)
def test_first_card_acts_as_if_the_dealer_played_it__AW_4(
        first: str, current: int, direction: int, draws: list[int]) -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3), wilds(3)], first)  # dealer 3, first player 0
    assert turn_of(m) == current
    assert m.round.direction == direction
    assert sizes(m) == [3 + d for d in draws]
    assert m.round.owed == [0, 0, 0, 0]
    play(m, current, "wild")
    assert turn_of(m) == (current + direction) % 4


def test_first_double_skip_with_three_players_lets_the_dealer_play__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_skip2")
    assert turn_of(m) == 2
    play(m, 2, "wild")
    assert turn_of(m) == 0


def test_first_double_skip_with_two_players_gives_the_dealer_two_turns__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3)], "wild_skip2")
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 0


def test_first_reverse_dealer_plays_counter_clockwise__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_reverse", dealer=1)
    assert turn_of(m) == 1 and m.round.direction == -1
    play(m, 1, "wild")
    assert turn_of(m) == 0


def test_first_targeted_draw_two_dealer_chooses_target_who_keeps_turn__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_targeted_draw2", ["wild_skip", "wild_draw4"])
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (TARGET, 2, "first_targeted")
    assert legal_actions(m, 2) == [Action("choose_target", target=0), Action("choose_target", target=1)]
    assert kinds(m, 0) == set()
    assert view(m, 0)["table"]["pending"] == {"kind": "target", "seat": 2, "reason": "first_targeted"}
    ev = act(m, 2, "choose_target", target=0)
    assert drawn_by(ev, 0) == 2
    assert sorted(names(m, 0)) == ["wild", "wild", "wild", "wild_draw4", "wild_skip"]
    assert turn_of(m) == 0  # the first player draws and still plays


def test_first_targeted_draw_two_on_another_seat__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_targeted_draw2")
    ev = act(m, 2, "choose_target", target=1)
    assert drawn_by(ev, 1) == 2 and drawn_by(ev, 0) == 0
    assert turn_of(m) == 0


def test_first_forced_swap_dealer_chooses_whom_to_swap_with__AW_4() -> None:
    m = make(AW, [["wild_skip", "wild_draw2"], wilds(4), ["wild_reverse", "wild", "wild"]], "wild_forced_swap")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (TARGET, 2, "first_swap")
    ev = act(m, 2, "choose_target", target=0)
    assert any(e.kind == "swap" for e in ev)
    assert sorted(names(m, 2)) == ["wild_draw2", "wild_skip"]
    assert sorted(names(m, 0)) == ["wild", "wild", "wild_reverse"]
    assert names(m, 1) == wilds(4)
    assert turn_of(m) == 0


# ---------------------------------------------------------------- AW-5 must play


def test_no_voluntary_draw__AW_5() -> None:
    m = make(AW, [["wild_skip", "wild"], wilds(3), wilds(3)], "wild")
    assert "draw" not in kinds(m, 0)
    assert kinds(m, 0) == {"play", "declare_uno"}
    assert all(a.kind != "draw" for s in range(3) for a in legal_actions(m, s))
    before = m.round.fingerprint()
    with pytest.raises(IllegalAction):
        act(m, 0, "draw")
    assert m.round.fingerprint() == before  # refused, nothing changed
    assert "draw" not in [a["kind"] for a in view(m, 0)["table"]["legal"]]


def test_refused_draw_says_why__AW_5() -> None:
    """AW-5 / AW-6: a refused draw or special draw gives its own error code."""
    m = make(AW, [["wild_skip", "wild"], wilds(3), wilds(3)], "wild")
    with pytest.raises(IllegalAction) as err:
        act(m, 0, "draw")
    assert err.value.code == "must_play"
    with pytest.raises(IllegalAction) as err:
        act(m, 0, "special_draw")
    assert err.value.code == "special_draw_not_allowed"


# ---------------------------------------------------------------- AW-6 special draw


def test_special_draw_offered_with_only_plain_wilds_and_next_on_one_card__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild_draw2"])
    assert "special_draw" in kinds(m, 0)
    assert "draw" not in kinds(m, 0)
    ev = act(m, 0, "special_draw")
    assert drawn_by(ev, 0) == 1
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == (SPECIAL, 0)
    assert p.card is not None and m.round.cards[p.card].name == "wild_draw2"
    # The drawn card must be played: nothing else is offered, not even keeping it.
    assert legal_actions(m, 0) == [Action("play_drawn", p.card)]
    assert view(m, 0)["table"]["drawn"]["name"] == "wild_draw2"
    for kind in ("keep", "draw"):
        with pytest.raises(IllegalAction):
            act(m, 0, kind)
    with pytest.raises(IllegalAction):
        play(m, 0, "wild")
    ev = act(m, 0, "play_drawn", card=p.card)
    assert drawn_by(ev, 1) == 2  # the action happens
    assert turn_of(m) == 2
    assert sizes(m) == [3, 3, 3]


def test_special_draw_of_a_plain_wild_is_bad_luck__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild"])
    ev = act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.kind == SPECIAL and p.card is not None
    ev = act(m, 0, "play_drawn", card=p.card)
    assert not any(e.kind == "draw" for e in ev)
    assert turn_of(m) == 1
    assert sizes(m) == [3, 1, 3]


def test_special_draw_of_a_targeted_card_takes_a_target__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild_targeted_draw2"])
    act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.card is not None
    assert legal_actions(m, 0) == [Action("play_drawn", p.card, None, t) for t in (1, 2)]
    ev = act(m, 0, "play_drawn", card=p.card, target=1)
    assert drawn_by(ev, 1) == 2
    assert turn_of(m) == 1


@pytest.mark.parametrize(
    "hands",
    [
        [["wild", "wild", "wild_skip"], ["wild"], wilds(3)],  # holds an action card
        [wilds(3), wilds(2), ["wild"]],  # the *previous* player is on one card
        [wilds(3), wilds(2), wilds(3)],  # nobody on one card
    ],
)
def test_special_draw_not_offered_otherwise__AW_6(hands: list[list[str]]) -> None:
    m = make(AW, hands, "wild")
    assert "special_draw" not in kinds(m, 0)
    with pytest.raises(IllegalAction):
        act(m, 0, "special_draw")
    assert turn_of(m) == 0 and sizes(m) == [len(h) for h in hands]


def test_special_draw_looks_at_the_next_player_in_the_current_direction__AW_6() -> None:
    hands = [wilds(3), wilds(3), ["wild"]]
    m = make(AW, hands, "wild", dealer=2)
    assert turn_of(m) == 0
    assert "special_draw" not in kinds(m, 0)  # clockwise, seat 1 (three cards) is next
    m = make(AW, hands, "wild_reverse", dealer=0)
    assert turn_of(m) == 0 and m.round.direction == -1
    assert "special_draw" in kinds(m, 0)  # counter-clockwise, seat 2 (one card) is next


def test_special_draw_with_one_card_in_hand_may_say_uno_with_the_play__AW_6() -> None:
    m = make(AW, [["wild"], ["wild"], wilds(3)], "wild", ["wild_skip"])
    act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.card is not None
    assert Action("play_drawn", p.card, None, None, True) in legal_actions(m, 0)
    act(m, 0, "play_drawn", card=p.card, uno=True)
    assert m.round.declared == {0}
    assert turn_of(m) == 2  # seat 1 skipped


# ---------------------------------------------------------------- AW-7 values


def test_card_values__AW_7() -> None:
    for ct in VARIANTS[AW].cards:
        assert ct.value == (20 if ct.face == "wild" else 50)


def test_round_scoring_uses_all_wild_values__AW_7() -> None:
    m = make(AW, [["wild"], ["wild", "wild_skip"], ["wild_forced_swap", "wild", "wild_draw4"]], "wild")
    play(m, 0, "wild")
    assert m.round.winner == 0
    assert m.round.points == 20 + 50 + 50 + 20 + 50
    assert m.scores == [190, 0, 0]
    assert top(m) == "wild"
