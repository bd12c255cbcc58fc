"""The scoring family (RULES.md §7.7: HR-22, HR-23; HX-14)."""

from __future__ import annotations

from app.engine import BETWEEN, OVER, HouseRules, Layout, Match, MatchConfig, new_match

from .scenario import play

# Seat 0 skips seat 1, seat 2 plays its red 1, seat 0 goes out: seat 1 is left with 5 + 20 = 25 points,
# seat 2 with 3 + 50 = 53.
HANDS = [["red skip", "red 6"], ["blue 5", "blue skip"], ["red 1", "green 3", "wild"]]


def go_out(target: int | None = None, **rules: object) -> Match:
    config = MatchConfig("classic", 3, target, HouseRules.from_json(rules))
    match, _ = new_match(config, 0, dealer=2, layout=Layout(HANDS, "red 9"))
    play(match, 0, "red skip", uno=True)
    play(match, 2, "red 1")
    play(match, 0, "red 6")
    return match


def test_the_winner_scores_the_other_hands_by_default__HR_23() -> None:
    m = go_out()
    assert m.scores == [78, 0, 0] and m.history[-1].gained == (78, 0, 0) and m.phase == BETWEEN


def test_double_score_doubles_every_round_score_but_not_the_target__HR_22() -> None:
    m = go_out(target=150, double_score=True)
    # The round's points are what it credited, doubled (HX-14: last), so that the round's line
    # and the total it moved say the same figure.
    assert m.scores == [156, 0, 0] and m.round.points == 156 == m.history[-1].points
    assert m.phase == OVER and m.winner == 0  # 156 reaches the unchanged 150


def test_penalty_scoring_adds_each_hand_to_its_own_total__HR_23() -> None:
    m = go_out(scoring="penalty")
    assert m.scores == [0, 25, 53] and m.phase == BETWEEN
    assert m.standings() == [0, 1, 2]  # the lowest total leads


def test_penalty_scoring_ends_when_a_total_reaches_the_target_and_the_lowest_wins__HR_23() -> None:
    m = go_out(target=50, scoring="penalty")
    assert m.phase == OVER and m.winner == 0  # seat 2 reached 50: the match ends, the lowest total wins


def test_double_score_applies_after_penalty_scoring__HX_14() -> None:
    m = go_out(scoring="penalty", double_score=True)
    assert m.scores == [0, 50, 106]


def test_penalty_scoring_with_fixed_rounds_and_a_single_round__HR_23__HX_14() -> None:
    m = go_out(target=10, scoring="penalty", rounds=2)
    assert m.phase == BETWEEN  # reaching the target does not end a fixed-rounds match
    m = go_out(scoring="penalty", single_round=True)
    assert m.phase == OVER and m.winner == 0
