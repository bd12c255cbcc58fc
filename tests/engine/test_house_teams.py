"""Team play (RULES.md §7.9: HR-26 teams of two, HR-27 team rounds; D-9)."""

from __future__ import annotations

import pytest

from app.engine import (
    Action,
    ConfigError,
    HouseRules,
    IllegalAction,
    Layout,
    Match,
    MatchConfig,
    apply,
    config_of,
    legal_actions,
    new_match,
    view,
)
from app.engine.house import results, scoring, teams

from .scenario import play

# Seat 0 goes out on its second card; seats 1, 2 and 3 keep two cards each worth 3, 7 and 11.
HANDS = [["red 5", "red 6"], ["red 7", "blue 1", "blue 2"], ["red 8", "green 3", "green 4"],
         ["red 9", "yellow 5", "yellow 6"]]


def deal(target: int | None = None, **rules: object) -> Match:
    config = MatchConfig("classic", 4, target, HouseRules.from_json({"team_play": True, **rules}))
    return new_match(config, 0, dealer=3, layout=Layout(HANDS, "red 1"))[0]


def go_out(target: int | None = None, **rules: object) -> Match:
    m = deal(target, **rules)
    play(m, 0, "red 5", uno=True)
    play(m, 1, "red 7")
    play(m, 2, "red 8")
    play(m, 3, "red 9")
    play(m, 0, "red 6")
    return m


def test_partners_sit_opposite__HR_26__D_9() -> None:
    on = HouseRules(team_play=True)
    assert teams.groups(on, 4) == [[0, 2], [1, 3]]
    assert teams.groups(on, 6) == [[0, 3], [1, 4], [2, 5]]
    assert teams.partners(on, 10, 2, 7) and not teams.partners(on, 10, 2, 6)
    assert teams.groups(HouseRules(), 3) == [[0], [1], [2]]


@pytest.mark.parametrize("seats", [2, 3, 5, 7])
def test_an_odd_count_or_fewer_than_four_is_bad_teams__HR_26(seats: int) -> None:
    with pytest.raises(ConfigError) as refused:
        new_match(MatchConfig("classic", seats, house=HouseRules(team_play=True)), 0)
    assert refused.value.code == "bad_teams"


def test_the_winner_scores_the_other_teams_hands_not_the_partners__HR_27() -> None:
    m = go_out()
    assert m.scores == [14, 0, 0, 0]  # seats 1 and 3: 3 + 11; the partner's 7 scores for nobody
    game = view(m, 2)
    assert game["teams"] == [[0, 2], [1, 3]] and game["team_scores"] == [14, 0]


def test_penalty_scoring_adds_each_hand_to_its_own_team__HR_27__HR_23() -> None:
    m = go_out(scoring="penalty", double_score=True)
    assert m.scores == [0, 6, 14, 22]
    assert view(m, None)["team_scores"] == [14, 28]
    assert m.standings() == [0, 2, 1, 3]  # the lowest team total leads; partners stand together


def test_the_target_and_ties_use_team_totals__HR_27() -> None:
    on = HouseRules(team_play=True)
    # Seat 0's own 30 + 40 is short of 60 alone, but its team (with seat 2) has 70.
    assert scoring.champion(on, [30, 0, 40, 0], [1, 0, 1, 0], 2, 0, 60) == 0
    assert scoring.champion(HouseRules(), [30, 0, 40, 0], [1, 0, 1, 0], 2, 0, 60) is None
    # Equal team totals: more rounds won, then the team with the lower seat.
    assert scoring.standings(on, [10, 5, 0, 5], [1, 1, 0, 1]) == [1, 3, 0, 2]
    assert scoring.standings(on, [10, 5, 0, 5], [1, 0, 0, 1]) == [0, 2, 1, 3]


def test_the_match_over_event_names_the_winning_team__HR_27() -> None:
    m = deal(target=10)
    play(m, 0, "red 5", uno=True)
    play(m, 1, "red 7")
    play(m, 2, "red 8")
    play(m, 3, "red 9")
    events = play(m, 0, "red 6")
    over = next(e for e in events if e.kind == "match_over")
    assert over.data["winner"] == 0 and over.data["team"] == [0, 2]


def test_a_catch_on_ones_partner_is_refused__HR_27() -> None:
    m = deal()
    play(m, 0, "red 5")  # one card, no UNO!: exposed
    assert not any(a.kind == "catch" for a in legal_actions(m, 2))
    with pytest.raises(IllegalAction) as refused:
        apply(m, 2, Action("catch", target=0))
    assert refused.value.code == "cannot_catch_partner"
    assert Action("catch", target=0) in legal_actions(m, 1)


def test_a_seven_may_swap_with_ones_partner__HR_26__HX_13() -> None:
    config = MatchConfig("classic", 4, None, HouseRules(team_play=True, seven_o=True))
    hands = [["red 7", "red 6", "red 2"], *HANDS[1:]]
    m = new_match(config, 0, dealer=3, layout=Layout(hands, "red 1"))[0]
    assert Action("play", m.card_id("red 7", 0), target=2) in legal_actions(m, 0)
    play(m, 0, "red 7", target=2)
    assert sorted(m.round.cards[c].name for c in m.round.hands[0]) == ["green 3", "green 4", "red 8"]


def test_the_partners_hand_scores_for_nobody_and_the_round_is_worth_what_its_team_gets__HR_27_HX_14() -> None:
    """The round's points (its event, the history, what every reader shows) are what its seats
    were credited: 3 + 11 from the other team, not the partner's 7 — doubled last (HX-14)."""
    for rules, worth in (({}, 14), ({"double_score": True}, 28)):
        m = deal(**rules)
        for seat, name in ((0, "red 5"), (1, "red 7"), (2, "red 8"), (3, "red 9")):
            play(m, seat, name, uno=seat == 0)
        ended = next(e for e in play(m, 0, "red 6") if e.kind == "round_over")
        assert ended.data["points"] == worth == m.history[-1].points == m.round.points
        assert sum(m.history[-1].gained) == worth == sum(m.scores)
        per_side, won = results.round_sides(config_of(m).house, m.history[-1].gained, 0)
        assert per_side == [worth, 0] and won == [0, 2]


def test_the_match_is_won_by_a_team_and_both_partners_are_credited__HR_26_HR_27_HX_14() -> None:
    m = go_out(target=10)
    result = results.match_result(config_of(m).house, m.scores, m.winner)
    assert result.winners == [0, 2] and result.places == [1, 2, 1, 2]
    assert [result.total_of(s) for s in range(4)] == [14, 0, 14, 0]  # the partner's total is the team's
