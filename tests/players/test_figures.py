"""The pure parts of players' memory: places, the rating update (against openskill's own
computation), working ratings out again, and how a typed code is read."""

from __future__ import annotations

from openskill.models import PlackettLuce

from app.engine.house import HouseRules
from app.engine.house.results import match_result
from app.persistence.players import CODE_ALPHABET, normal_code
from app.persistence.ratings import RatedMatch, Rating, initial, rate, recompute


def placements(totals: list[int], winner: int | None) -> list[int]:
    return match_result(HouseRules(), totals, winner).places


def test_the_winner_is_first_and_equal_totals_share_a_place() -> None:
    assert placements([500, 120, 120, 40], winner=0) == [1, 2, 2, 4]
    assert placements([0, 80, 80], winner=1) == [3, 1, 2]  # the winner first, even on equal points
    assert placements([7, 7], winner=None) == [1, 1]


def test_partners_share_their_teams_total_place_and_win__HR_26_HX_14() -> None:
    """The seat that went out last may hold 0 of its team's points: the team wins, both partners."""
    result = match_result(HouseRules(team_play=True), [0, 30, 162, 10], winner=0)
    assert result.sides == [[0, 2], [1, 3]] and result.totals == [162, 40]
    assert result.winners == [0, 2] and result.places == [1, 2, 1, 2]
    assert [result.total_of(s) for s in range(4)] == [162, 40, 162, 40]


def test_partners_are_rated_as_one_openskill_team_of_two__HR_26() -> None:
    model = PlackettLuce()
    before = {"a": Rating(30.0, 5.0), "b": initial(), "c": Rating(20.0, 7.0), "d": initial()}
    after = rate(before, {"a": 1, "b": 2, "c": 1, "d": 2}, sides={"a": 0, "c": 0, "b": 1, "d": 1})
    expected = model.rate([[model.rating(mu=30.0, sigma=5.0), model.rating(mu=20.0, sigma=7.0)],
                           [model.rating(), model.rating()]], ranks=[1, 2])
    for pid, got in zip("acbd", [*expected[0], *expected[1]], strict=True):
        assert abs(after[pid].mu - got.mu) < 1e-9 and abs(after[pid].sigma - got.sigma) < 1e-9
    assert after["a"].mu > before["a"].mu and after["c"].mu > before["c"].mu  # both partners rise
    assert after["b"].mu == after["d"].mu < before["b"].mu  # and both fall together
    places, sides = {"a": 1, "b": 2, "c": 1, "d": 2}, {"a": 0, "c": 0, "b": 1, "d": 1}
    fresh = rate({p: initial() for p in places}, places, sides)
    table = recompute([RatedMatch("m", "classic", places, sides)])
    assert table[("c", "classic")] == (fresh["c"], 1) and fresh["a"] == fresh["c"]  # equal partners move as one


def test_a_rating_update_is_openskills_own() -> None:
    model = PlackettLuce()
    before = {"a": Rating(30.0, 5.0), "b": initial(), "c": Rating(20.0, 7.0)}
    places = {"a": 2, "b": 1, "c": 2}
    after = rate(before, places)
    expected = model.rate([[model.rating(mu=30.0, sigma=5.0)], [model.rating()], [model.rating(mu=20.0, sigma=7.0)]],
                          ranks=[2, 1, 2])
    for pid, team in zip("abc", expected, strict=True):
        assert abs(after[pid].mu - team[0].mu) < 1e-9 and abs(after[pid].sigma - team[0].sigma) < 1e-9
    assert after["b"].mu > before["b"].mu and after["a"].ordinal == after["a"].mu - 3 * after["a"].sigma


def test_ratings_worked_out_again_follow_the_matches_in_order() -> None:
    matches = [RatedMatch("m1", "classic", {"a": 1, "b": 2}), RatedMatch("m2", "classic", {"a": 2, "b": 1, "c": 3}),
               RatedMatch("m3", "all_wild", {"a": 1, "c": 2})]
    table = recompute(matches)
    first = rate({"a": initial(), "b": initial()}, {"a": 1, "b": 2})
    second = rate({"a": first["a"], "b": first["b"], "c": initial()}, {"a": 2, "b": 1, "c": 3})
    assert table[("a", "classic")] == (second["a"], 2) and table[("c", "classic")] == (second["c"], 1)
    assert table[("a", "all_wild")][1] == 1  # each edition apart


def test_a_code_is_read_as_typed() -> None:
    assert normal_code("abcd-efgh") == "ABCDEFGH"
    assert normal_code(" O1IL 2345 ") == "01112345"  # O for 0, I and L for 1
    assert set(normal_code("0123456789ABCDEFGHJKMNPQRSTVWXYZ")) <= set(CODE_ALPHABET)
