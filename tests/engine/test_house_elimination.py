"""Elimination (RULES.md §7.10: HR-29, HR-30; D-12)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from app.engine import (
    BETWEEN,
    OVER,
    Action,
    HouseRules,
    IllegalAction,
    Layout,
    Match,
    MatchConfig,
    Round,
    apply,
    legal_actions,
    new_match,
    start_next_round,
    view,
)
from app.engine.house import elimination

from .scenario import card, play

# Seat 0 skips seat 1, seat 2 plays its red 1, seat 0 goes out: seat 1 is left with three cards worth
# 5 + 6 + 20 = 31, seat 2 with two worth 3 + 50 = 53.
HANDS = [["red skip", "red 6"], ["blue 5", "blue 6", "blue skip"], ["red 1", "green 3", "wild"]]


def go_out(elimination: str = "cards", **rules: object) -> Match:
    config = MatchConfig("classic", 3, None, HouseRules.from_json({"elimination": elimination, **rules}))
    match, _ = new_match(config, 0, dealer=2, layout=Layout(HANDS, "red 9"))
    play(match, 0, "red skip", uno=True)
    play(match, 2, "red 1")
    play(match, 0, "red 6")
    return match


def with_out(match: Match, out: Sequence[int], hands: Sequence[Sequence[str]], top: str, dealer: int) -> Match:
    """``match`` playing a stacked round in which ``out`` are eliminated (their hands given empty)."""
    match.out = list(out)
    match.round = Round(match.variant, match.config.seats, dealer, "stacked", Layout(hands, top),
                        match.round.book, frozenset(out))
    return match


def fresh(seats: int, **rules: object) -> Match:
    config = MatchConfig("classic", seats, None, HouseRules.from_json({"elimination": "cards", **rules}))
    return new_match(config, 0, dealer=0)[0]


def test_the_seat_with_most_cards_is_out__HR_29() -> None:
    m = go_out("cards")
    assert m.out == [1] and m.phase == BETWEEN and m.scores == [84, 0, 0]  # scores are still kept
    assert view(m, None)["eliminated"] == [1]


def test_the_seat_with_the_highest_hand_value_is_out__HR_29() -> None:
    m = go_out("points")
    assert m.out == [2]


def test_ties_go_to_the_other_measure_then_against_the_higher_seat__HR_29() -> None:
    house = HouseRules(elimination="cards")
    assert elimination.loser(house, 0, [0, 3, 3], [0, 10, 20], ()) == 2  # equal cards: higher value is out
    assert elimination.loser(house, 0, [0, 3, 3], [0, 20, 20], ()) == 2  # both equal: the higher seat
    assert elimination.loser(HouseRules(elimination="points"), 0, [0, 4, 3], [0, 20, 20], ()) == 1
    assert elimination.loser(house, 0, [0, 9, 3, 2], [0, 50, 5, 5], (1,)) == 2  # seats out are not counted
    assert elimination.loser(HouseRules(), 0, [0, 9, 3], [0, 9, 3], ()) is None


def test_the_target_never_ends_an_elimination_match__HR_29() -> None:
    config = MatchConfig("classic", 3, 10, HouseRules(elimination="cards"))
    match, _ = new_match(config, 0, dealer=2, layout=Layout(HANDS, "red 9"))
    play(match, 0, "red skip", uno=True)
    play(match, 2, "red 1")
    play(match, 0, "red 6")
    assert match.scores[0] >= 10 and match.phase == BETWEEN and match.winner is None


def test_the_eliminated_seat_is_dealt_nothing_and_the_deal_passes_over_it__HR_30() -> None:
    m = go_out("cards")  # seat 1 is out; seat 2 dealt round 1
    start_next_round(m)
    assert m.dealer == 0  # the deal passes from seat 2 to seat 0
    assert m.round.hands[1] == [] and len(m.round.hands[0]) == len(m.round.hands[2]) == 7
    assert m.round.current == 2  # seat 0 dealt: seat 1 is passed over
    assert legal_actions(m, 1) == []
    with pytest.raises(IllegalAction) as refused:
        apply(m, 1, Action("draw"))
    assert refused.value.code == "eliminated"
    assert view(m, 1)["table"]["hand"] == [] and view(m, 1)["table"]["legal"] == []


def test_turns_pass_over_an_eliminated_seat__HR_30() -> None:
    m = with_out(fresh(4), [1], [["red 5", "red 6"], [], ["red 7", "red 8"], ["red 2", "red 3"]], "red 9", 3)
    assert m.round.current == 0
    play(m, 0, "red 5")
    assert m.round.current == 2
    play(m, 2, "red 7")
    play(m, 3, "red 2")
    assert m.round.current == 0


def test_two_players_left_make_a_reverse_a_skip__HR_30() -> None:
    # C-10 counts the seats still in: with seat 1 out, three seats hold two players.
    m = with_out(fresh(3), [1], [["red reverse", "red 6"], [], ["blue 7", "blue 8"]], "red 9", 2)
    play(m, 0, "red reverse")
    assert m.round.current == 0


def test_the_zero_passes_hands_over_an_eliminated_seat__HR_30__HX_13() -> None:
    m = with_out(fresh(3, seven_o=True), [1], [["red 0", "red 6", "red 1"], [], ["blue 7", "blue 8"]], "red 9", 2)
    play(m, 0, "red 0")
    r = m.round
    assert r.hands[1] == [] and len(r.hands[2]) == 2 and len(r.hands[0]) == 2
    assert r.cards[r.hands[2][0]].name in ("red 6", "red 1")  # seat 0's hand went to seat 2


def test_naming_an_eliminated_seat_as_a_target_is_bad_target__HR_30__HX_13__D_12() -> None:
    m = with_out(fresh(3, seven_o=True), [1], [["red 7", "red 6", "red 1"], [], ["blue 7", "blue 8"]], "red 9", 2)
    assert {a.target for a in legal_actions(m, 0) if a.kind == "play" and a.card == card(m, 0, "red 7")} == {2}
    with pytest.raises(IllegalAction) as refused:
        apply(m, 0, Action("play", card(m, 0, "red 7"), target=1))
    assert refused.value.code == "bad_target"
    with pytest.raises(IllegalAction) as refused:
        apply(m, 0, Action("catch", target=1))
    assert refused.value.code == "bad_target"


def play_out(match: Match, rng: random.Random) -> None:
    """Play the match to its end, each decision by a random legal action."""
    for _ in range(20_000):
        if match.phase == OVER:
            return
        if match.phase == BETWEEN:
            start_next_round(match)
            continue
        seat = match.round.current
        apply(match, seat, rng.choice(legal_actions(match, seat)))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_last_seat_in_wins_after_at_most_n_minus_one_rounds__HR_29(seats: int) -> None:
    for seed in range(3):
        config = MatchConfig("classic", seats, 1, HouseRules(elimination="points"))
        match, _ = new_match(config, seed)
        play_out(match, random.Random(seed))
        assert len(match.history) == seats - 1 and len(match.out) == seats - 1
        assert match.winner is not None and match.winner not in match.out
        assert all(r.winner not in match.out[: i] for i, r in enumerate(match.history))
