"""Blitz (RULES.md §7.8: HR-25) and how it meets the rest: HX-4, HX-8, HX-14, D-8, D-13, HR-23,
HR-27, HR-29.

The engine has no clock: the room sends the expiry as one action (``blitz_expiry`` from
``CLOCK_SEAT``), logged like any other, so a match it ends replays, exports and verifies.
"""

from __future__ import annotations

import json
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
    replay,
    start_next_round,
)
from app.engine.actions import BLITZ_EXPIRY, CLOCK_SEAT
from app.engine.audit import commitment, export_document
from app.engine.house import pace
from app.engine.playback import playback
from app.engine.verify import verify

from .scenario import play

EXPIRY = Action(BLITZ_EXPIRY)
# Seat 0 skips seat 1, seat 2 plays its red 1, seat 0 goes out (as in test_house_elimination.py):
# seat 1 is left with 5 + 6 + 20 = 31, seat 2 with 3 + 50 = 53.
HANDS = [["red skip", "red 6"], ["blue 5", "blue 6", "blue skip"], ["red 1", "green 3", "wild"]]


def stacked(seats: int, hands: Sequence[Sequence[str]], **rules: object) -> Match:
    """A blitz match whose round 1 is dealt as given, the last seat dealing (``dealer`` in ``rules`` to change it)."""
    dealer = rules.pop("dealer", seats - 1)
    assert isinstance(dealer, int)
    config = MatchConfig("classic", seats, None, HouseRules.from_json({"blitz_seconds": 300, **rules}))
    match, _ = new_match(config, 0, dealer=dealer, layout=Layout(hands, "red 9"))
    return match


def round_one_won_by_seat_0(**rules: object) -> Match:
    match = stacked(3, HANDS, dealer=2, **rules)
    play(match, 0, "red skip", uno=True)
    play(match, 2, "red 1")
    play(match, 0, "red 6")
    assert match.round.winner == 0
    return match


def deal_stacked(match: Match, hands: Sequence[Sequence[str]], top: str = "red 9") -> None:
    """Round 2 of ``match``, dealt as given (seats already out given empty hands)."""
    start_next_round(match)
    match.round = Round(match.variant, match.config.seats, match.dealer, "stacked", Layout(hands, top),
                        match.round.book, frozenset(match.out))


def kinds(events: Sequence[object]) -> list[str]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


def test_the_expiry_stops_the_round_won_by_the_fewest_cards_and_ends_the_match__HR_25() -> None:
    m = stacked(3, [["red 1", "red 2", "red 3", "red 4"], ["blue 5", "blue 6"], ["green 7", "green 8", "wild"]])
    events = apply(m, CLOCK_SEAT, EXPIRY)
    assert kinds(events) == ["blitz_expiry", "round_over", "scores", "match_over"]
    assert events[0].data == {"seat": 1, "hand_sizes": [4, 2, 3]}
    assert m.round.winner == 1 and m.round.pending is None
    assert m.round.points == 10 + 65  # C-14 as if seat 1 had gone out: the other hands' values
    assert m.scores == [0, 75, 0] and m.phase == OVER and m.winner == 1
    assert m.history[-1].winner == 1 and m.log[-1].seat == CLOCK_SEAT and m.log[-1].action == EXPIRY
    assert legal_actions(m, 0) == []


def test_ties_go_to_the_lower_hand_value_then_the_lower_seat__HR_25() -> None:
    assert pace.fewest_cards([3, 2, 2], [5, 40, 30], ()) == 2  # equal cards: the lower value
    assert pace.fewest_cards([3, 2, 2], [5, 30, 30], ()) == 1  # equal value too: the lower seat
    assert pace.fewest_cards([0, 4, 3], [0, 9, 9], (0,)) == 2  # an eliminated seat (no cards) is no winner
    m = stacked(3, [["red 9", "blue 9"], ["red 1", "wild"], ["blue 1", "green 1"]])
    apply(m, CLOCK_SEAT, EXPIRY)
    assert m.winner == 2  # two cards each: 2 is worth less than 18 and 51


def test_the_pending_penalty_and_catch_windows_lapse__HR_25__HX_4__HX_8() -> None:
    hands = [["red draw2", "red 5"], ["blue 5", "blue 6", "blue 7"], ["green 1", "green 2", "green 3"]]
    m = stacked(3, hands, stacking=True)
    play(m, 0, "red draw2")  # seat 0 holds one card without UNO!: exposed; seat 1 owes a stack of 2
    assert m.round.exposed == {0} and m.round.pending is not None and m.round.pending.kind == "stack"
    events = apply(m, CLOCK_SEAT, EXPIRY)
    assert m.round.pending is None and m.round.exposed == set()
    assert not any(e.kind in ("draw", "caught") for e in events)  # T is never drawn, nobody is caught
    assert m.winner == 0 and m.round.points == 18 + 6  # the hands as they were: T lapsed
    with pytest.raises(IllegalAction) as refused:
        apply(m, 1, Action("catch", target=0))
    assert refused.value.code == "round_over"


def test_only_the_clock_sends_it_and_only_once__HR_25() -> None:
    m = stacked(3, HANDS)
    before = m.fingerprint()
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as refused:
            apply(m, seat, EXPIRY)
        assert refused.value.code == "bad_action"
        assert m.round.refusal(seat, EXPIRY) is not None  # what ``why`` says too
    assert m.fingerprint() == before and all(EXPIRY not in legal_actions(m, s) for s in range(3))
    off, _ = new_match(MatchConfig("classic", 3), 0)
    with pytest.raises(IllegalAction) as refused:
        apply(off, CLOCK_SEAT, EXPIRY)
    assert refused.value.code == "bad_action"  # no blitz, no match clock
    apply(m, CLOCK_SEAT, EXPIRY)
    with pytest.raises(IllegalAction) as refused:
        apply(m, CLOCK_SEAT, EXPIRY)
    assert refused.value.code == "round_over" and len(m.log) == 1


def test_it_ends_a_rounds_match_early_and_the_top_total_wins__HR_25__HX_14() -> None:
    m = round_one_won_by_seat_0(rounds=5)
    assert m.scores == [84, 0, 0] and m.phase == BETWEEN
    deal_stacked(m, [["red 1", "red 2", "red 3", "red 4", "red 5"], ["blue 2"], ["red 1", "green 3"]])
    apply(m, CLOCK_SEAT, EXPIRY)
    assert m.history[-1].winner == 1 and m.scores == [84, 19, 0]  # round 2 is scored as usual ...
    assert m.phase == OVER and m.winner == 0 and len(m.history) == 2  # ... and the best total wins, early


def test_under_single_round_the_stopped_round_decides__HR_25__HX_14() -> None:
    m = stacked(3, [["red 1", "red 2", "red 3"], ["blue 2", "wild"], ["green 4", "green 5", "green 6"]],
                single_round=True)
    apply(m, CLOCK_SEAT, EXPIRY)
    assert m.phase == OVER and m.winner == 1 and m.scores == [0, 21, 0]


def test_under_penalty_scoring_the_lowest_total_wins__HR_25__HR_23() -> None:
    m = round_one_won_by_seat_0(scoring="penalty")
    assert m.scores == [0, 31, 53]
    deal_stacked(m, [["red 1", "red 2", "red 3", "red 4", "red 5"], ["blue 2"], ["red 1", "green 3"]])
    events = apply(m, CLOCK_SEAT, EXPIRY)
    assert m.history[-1].winner == 1  # fewest cards: round 2 counts as seat 1's (D-13) ...
    assert m.scores == [15, 31, 57] and m.winner == 0  # ... but seat 0's total is the lowest
    assert next(e for e in events if e.kind == "scores").data["gained"] == [15, 0, 4]


def test_teams_score_and_win_by_team_totals_doubled_last__HR_25__HR_27__HX_14() -> None:
    hands = [["red 1", "red 2", "red 3"], ["blue 4", "blue 5", "blue 6", "blue 7"], ["green 1", "green 2"],
             ["yellow 9", "yellow 8", "yellow 7"]]
    m = stacked(4, hands, team_play=True, double_score=True)
    events = apply(m, CLOCK_SEAT, EXPIRY)
    # Seat 2 has the fewest cards; its partner is seat 0: it scores seats 1 and 3, doubled last.
    assert m.history[-1].winner == 2 and m.scores == [0, 0, (22 + 24) * 2, 0]
    assert m.winner == 0 and events[-1].data["team"] == [0, 2]  # the team's lower seat is named


def test_elimination_the_stopped_rounds_winner_wins_the_match__HR_25__HR_29() -> None:
    m = round_one_won_by_seat_0(elimination="cards")
    assert m.out == [1] and m.scores == [84, 0, 0]
    deal_stacked(m, [["red 1", "red 2", "red 3"], [], ["blue 2", "blue 3"]])
    apply(m, CLOCK_SEAT, EXPIRY)
    # Seat 1 (out, no cards) is no winner; seat 2 wins the round and so the match, whatever the totals.
    assert m.history[-1].winner == 2 and m.winner == 2 and m.out == [1]  # and nobody else goes out


def test_between_rounds_of_an_elimination_match_the_last_rounds_winner_wins__D_8__HR_29() -> None:
    assert pace.champion(HouseRules(elimination="cards"), [90, 10, 0, 0], [1, 1, 0, 0], 1) == 1
    assert pace.champion(HouseRules(), [90, 10, 0, 0], [1, 1, 0, 0], 1) == 0  # any other match: the totals
    m = round_one_won_by_seat_0(elimination="cards")
    events = apply(m, CLOCK_SEAT, EXPIRY)
    assert kinds(events) == ["blitz_expiry", "match_over"] and events[0].data == {"seat": None}
    assert m.phase == OVER and m.winner == 0 and m.scores == [84, 0, 0] and len(m.history) == 1


def test_between_rounds_of_any_other_match_the_totals_decide__D_8__HR_23() -> None:
    m = round_one_won_by_seat_0(scoring="penalty", rounds=4)
    assert m.scores == [0, 31, 53]
    m.scores = [40, 31, 53]  # as if an earlier round had cost seat 0: the lowest total is seat 1's
    apply(m, CLOCK_SEAT, EXPIRY)
    assert m.phase == OVER and m.winner == 1 and len(m.history) == 1  # nothing more is scored


def exported(match: Match, secrets: dict[int, str]) -> dict[str, object]:
    rounds = [{"number": n, "commitment": commitment(s), "secret": s} for n, s in sorted(secrets.items())]
    actions = [{"seq": i, "round": e.round, "seat": e.seat, "action": e.action.to_json(), "at": None}
               for i, e in enumerate(match.log, start=1)]
    config = json.loads(json.dumps(match.config.to_json()))
    return export_document(config, [f"p{s}" for s in range(match.config.seats)], rounds, actions)


ENDINGS: list[dict[str, object]] = [{"rounds": 3}, {"single_round": True}, {"scoring": "penalty"},
                                    {"elimination": "points"}, {"team_play": True}]


CASES = [(r, False) for r in ENDINGS] + [(r, True) for r in ENDINGS if "single_round" not in r]  # one round: no break


@pytest.mark.parametrize(("rules", "between"), CASES)
def test_a_match_the_clock_ends_replays_exports_and_verifies_fair__HR_25__D_8(
        rules: dict[str, object], between: bool) -> None:
    seats = 4
    config = MatchConfig("classic", seats, None, HouseRules.from_json({"blitz_seconds": 120, **rules}))
    secrets = {1: "first-secret"}
    match, _ = new_match(config, secrets[1])
    rng = random.Random(11)
    played = 0
    while match.phase != OVER:
        if match.phase == BETWEEN:
            if between:
                break
            secrets[match.round_no + 1] = f"secret-{match.round_no + 1}"
            start_next_round(match, secrets[match.round_no + 1])
            continue
        if played == 30 and not between:
            break
        seat = next(s for s in range(seats) if legal_actions(match, s))
        apply(match, seat, rng.choice(legal_actions(match, seat)))
        played += 1
    if match.phase != OVER:
        apply(match, CLOCK_SEAT, EXPIRY)
    assert match.phase == OVER and match.log[-1].action == EXPIRY
    assert replay(config, secrets[1], match.log, secrets=secrets).fingerprint() == match.fingerprint()
    doc = exported(match, secrets)
    assert verify(doc) == [f"round {n}: fair" for n in sorted(secrets)]
    last = doc["rounds"][-1]["actions"][-1]  # type: ignore[index]
    assert last["seat"] == CLOCK_SEAT and last["events"][0]["kind"] == "blitz_expiry"
    shown = playback(doc["config"], doc["players"], [{"number": n, "secret": s} for n, s in secrets.items()],  # type: ignore[arg-type]
                     [{"seq": i, "round": e.round, "seat": e.seat, "action": e.action.to_json()}
                      for i, e in enumerate(match.log, start=1)])
    assert shown["rounds"][-1]["steps"][-1]["events"][0]["kind"] == "blitz_expiry"
    assert shown["winner"] == match.winner
    # A forged expiry on someone's behalf does not verify.
    forged = json.loads(json.dumps(doc))
    forged["rounds"][-1]["actions"][-1]["seat"] = 0
    with pytest.raises(Exception, match="bad_action"):
        verify(forged)

