"""The pure parts of players' memory: places, the rating update (against openskill's own
computation), working ratings out again, and how a typed code is read."""

from __future__ import annotations

from openskill.models import PlackettLuce

from app.persistence.match_figures import placements
from app.persistence.players import CODE_ALPHABET, normal_code
from app.persistence.ratings import RatedMatch, Rating, initial, rate, recompute


def test_the_winner_is_first_and_equal_totals_share_a_place() -> None:
    assert placements([500, 120, 120, 40], winner=0) == [1, 2, 2, 4]
    assert placements([0, 80, 80], winner=1) == [3, 1, 2]  # the winner first, even on equal points
    assert placements([7, 7], winner=None) == [1, 1]


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
