"""The hand limit and the dead round (RULES.md §7.4: HR-12, HR-13; HX-2, HX-4, HX-14, D-13)."""

from __future__ import annotations

import random

import pytest

from app.engine import (
    OVER,
    Action,
    Event,
    HouseRules,
    IllegalAction,
    Layout,
    Match,
    MatchConfig,
    apply,
    config_of,
    legal_actions,
    new_match,
    replay,
)
from app.engine import start_next_round as next_round
from app.engine.verify import verify

from .scenario import act, names, play
from .test_house_properties import exported
from .test_house_stacking import house_match

# Fifteen cards that match neither red nor a 1: a hand at the limit with nothing to play on a red 1.
BLUES = ["blue 0"] + [f"blue {n}" for n in range(2, 9) for _ in (0, 1)]
YELLOWS = ["yellow 0"] + [f"yellow {n}" for n in range(2, 9) for _ in (0, 1)]


def refused(m: Match, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)
    return str(err.value.code)


def kinds_of(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def test_a_seat_at_the_limit_may_not_draw_and_plays_instead__HR_12() -> None:
    m = house_match("classic", [[*BLUES, "blue 9"], ["green 1", "green 2"]], "blue 9", hand_limit=15)
    assert len(m.round.hands[0]) == 16
    assert Action("draw") not in legal_actions(m, 0)
    assert refused(m, 0, Action("draw")) == "hand_limit"
    assert len(m.round.hands[0]) == 16  # nothing changed
    play(m, 0, "blue 9")
    assert m.round.pending is not None and m.round.pending.seat == 1


def test_below_the_limit_a_seat_draws_as_usual__HR_12() -> None:
    m = house_match("classic", [BLUES[:14], ["green 1", "green 2"]], "red 9", ("red 3",), hand_limit=15)
    act(m, 0, "draw")
    assert len(m.round.hands[0]) == 15


def test_a_stuck_seat_at_the_limit_passes_at_once_undrawn__HR_12__D_13() -> None:
    m = house_match("classic", [["red 1", "red 2"], BLUES, ["green 1", "green 5"]], "red 9", hand_limit=15)
    events = play(m, 0, "red 1")
    passed = [e for e in events if e.kind == "limit_pass"]
    assert [(e.data, e.to) for e in passed] == [({"seat": 1, "limit": 15}, None)]  # public
    assert "passed" not in kinds_of(events)  # RULES.md names it limit_pass: `passed` is the Dip's
    assert len(m.round.hands[1]) == 15  # undrawn
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 2)


def test_penalty_draws_ignore_the_limit__HR_12() -> None:
    m = house_match("classic", [["red draw2", "red 2"], BLUES], "red 9", hand_limit=15)
    play(m, 0, "red draw2")
    assert len(m.round.hands[1]) == 17


def test_draw_until_playable_stops_at_the_limit__HR_12__HX_2() -> None:
    m = house_match("classic", [BLUES[:13], ["green 1", "green 5"]], "red 9",
                    ("yellow 2", "yellow 3", "yellow 4", "red 5"), hand_limit=15, draw_until_playable=True)
    events = act(m, 0, "draw")
    assert len(m.round.hands[0]) == 15 and "red 5" not in names(m, 0)
    assert "limit_pass" not in kinds_of(events)  # a turn that drew ended by the draw, not by the limit
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_all_wild_special_draw_is_refused_at_the_limit__HR_12() -> None:
    m = house_match("all_wild", [["wild"] * 15, ["wild"]], "wild", hand_limit=15)
    assert refused(m, 0, Action("special_draw")) == "hand_limit"
    assert "special_draw" not in {a.kind for a in legal_actions(m, 0)}
    m = house_match("all_wild", [["wild"] * 14, ["wild"]], "wild", hand_limit=15)
    assert "special_draw" in {a.kind for a in legal_actions(m, 0)}  # below the limit AW-6 stands


def test_a_limit_pass_closes_no_catch_window__HR_12__HX_4() -> None:
    m = house_match("classic", [["red 1", "red 2"], BLUES, ["green 1", "green 5"]], "red 9", hand_limit=15)
    play(m, 0, "red 1")  # one card left, UNO! not said; seat 1 passes at once
    assert 0 in m.round.exposed
    events = act(m, 2, "catch", target=0)
    assert "caught" in kinds_of(events)


def dead_round(**rules: object) -> Match:
    """Seat 0 plays its red 1; then neither seat can play nor, at the limit, draw."""
    return house_match("classic", [["red 1", *YELLOWS], BLUES], "red 9", (), hand_limit=15, **rules)


def test_all_seats_passing_in_a_row_void_the_round__HR_13__D_13() -> None:
    m = dead_round()
    events = play(m, 0, "red 1")
    assert kinds_of(events)[-3:] == ["limit_pass", "limit_pass", "dead_round"]
    assert m.phase == "between" and m.round.winner is None and m.round.pending is None
    assert m.history == [] and m.scores == [0, 0]  # no scores
    assert legal_actions(m, 0) == [] and refused(m, 0, Action("draw")) == "round_over"
    events = next_round(m)
    assert m.round_no == 2 and m.dealer == 0 and m.phase == "round"  # the next dealer deals anew


def test_a_void_round_is_not_counted_in_rounds__HR_13__HX_14() -> None:
    m = dead_round(rounds=1)
    play(m, 0, "red 1")
    next_round(m, "second")
    rng = random.Random(7)
    while m.phase == "round":
        seat = m.round.pending.seat  # type: ignore[union-attr]
        legal = legal_actions(m, seat)
        plays = [a for a in legal if a.kind == "play"]
        apply(m, seat, (plays or legal)[0] if rng.random() < 0.9 else rng.choice(legal))
    assert m.phase == OVER and len(m.history) == 1 and m.history[0].number == 2  # the scored round ends it


def test_a_void_round_under_single_round_is_still_the_single_round_and_replays__HR_13__HX_14() -> None:
    m = dead_round(single_round=True)
    play(m, 0, "red 1")
    again = replay(config_of(m), 0, m.log, dealer=1, layout=Layout([["red 1", *YELLOWS], BLUES], "red 9"))
    assert again.fingerprint() == m.fingerprint() and again.phase == "between"
    next_round(m, "again")
    while m.phase == "round":
        seat = m.round.pending.seat  # type: ignore[union-attr]
        legal = legal_actions(m, seat)
        apply(m, seat, next((a for a in legal if a.kind == "play"), legal[0]))
    assert m.phase == OVER and m.winner == m.history[0].winner and m.history[0].number == 2


def test_a_match_with_limit_passes_exports_and_verifies_fair__HR_12() -> None:
    """Seat 1 draws whenever it may, so it reaches the limit and, once, holds nothing to play."""
    m, _ = new_match(MatchConfig("classic", 2, house=HouseRules(hand_limit=15, single_round=True)), "s28")
    passes = 0
    while m.phase == "round":
        seat = m.round.pending.seat  # type: ignore[union-attr]
        legal = legal_actions(m, seat)
        draws = [a for a in legal if a.kind in ("draw", "keep")]
        if seat == 1 and draws:
            chosen = draws[0]
        else:
            chosen = next((a for a in legal if a.kind in ("play", "play_drawn")), legal[0])
        passes += kinds_of(apply(m, seat, chosen)).count("limit_pass")
    assert passes >= 1 and m.phase == OVER
    assert verify(exported(m, {1: "s28"})) == ["round 1: fair"]


def test_a_misplay_draw_that_reaches_the_limit_with_nothing_to_play_ends_the_turn__HR_12__HR_20() -> None:
    m = house_match("classic", [["red 1", *BLUES[:13]], ["green 1", "green 5"]], "yellow 9",
                    ("green 2",), hand_limit=15, misplay_penalty=True)
    events = play(m, 0, "red 1")  # a misplay: shown, kept, one card drawn -> 15 cards, nothing playable
    assert kinds_of(events)[0] == "misplay" and "limit_pass" in kinds_of(events)
    p = m.round.pending
    assert len(m.round.hands[0]) == 15 and p is not None and p.seat == 1
