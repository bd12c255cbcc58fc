"""Property tests: random legal play in every edition keeps the engine's invariants.

Over random seeds, seat counts and random legal play (by any seat, so UNO declarations
and catches race the turn actions):
- cards are conserved at every step (hands + draw pile + discard = the deck, no duplicates);
- an action is applied exactly when it is in ``legal_actions``; a refused one changes nothing;
- every round terminates, and the winner's points are the values left in the other hands;
- no view ever shows a seat another seat's cards (C-16), but every view shows an open hand (HR-31, HX-15);
  face-down cards (HR-33) are never shown, their holder included, but counted in its view;
- replaying the log from the seed gives an identical match.
All of it with random combinations of house rules too (RULES.md §6).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    COLOURS,
    OVER,
    ROUND,
    VARIANTS,
    Action,
    HouseRules,
    IllegalAction,
    Match,
    MatchConfig,
    apply,
    config_of,
    legal_actions,
    new_match,
    replay,
    start_next_round,
    view,
)
from app.engine.house.information import is_open
from app.engine.house.teams import team_of

MAX_STEPS = 20_000
ID = re.compile(r'"(?:id|card)": (\d+)')


def editions_with_seats() -> st.SearchStrategy[tuple[str, int]]:
    return st.sampled_from(list(VARIANTS)).flatmap(
        lambda e: st.tuples(st.just(e), st.integers(VARIANTS[e].min_seats, VARIANTS[e].max_seats))
    )


HOUSE_RULES = st.builds(HouseRules, stacking=st.booleans(), seven_o=st.booleans(), jump_in=st.booleans(),
                        draw_until_playable=st.booleans())
MATCH_ENDINGS = st.sampled_from([HouseRules(), HouseRules(single_round=True), HouseRules(rounds=3)])


def check_conservation(match: Match) -> None:
    rnd = match.round
    every = [c for h in rnd.hands for c in h] + rnd.draw_pile + rnd.discard
    assert sorted(every) == list(range(len(rnd.cards)))


def check_views(match: Match) -> None:
    """No seat's view names a card another seat holds privately (C-16)."""
    rnd = match.round
    if rnd.winner is not None:
        return  # the round's result shows every hand to everyone, by design (C-14)
    for seat in [None, *range(rnd.n)]:
        text = json.dumps(view(match, seat))
        shown = {int(x) for x in ID.findall(text)}
        revealed = set(rnd.reveal[2]) if rnd.reveal is not None and rnd.reveal[0] == seat else set()
        for other in range(rnd.n):
            hidden = rnd.face_down.by_seat[other]  # HR-33: face down for all, its holder too (D-13)
            assert not shown & hidden, f"seat {seat} sees seat {other}'s face-down cards {shown & hidden}"
            if is_open(rnd, other):  # HR-31, HX-15: face up for all, spectators too
                assert set(rnd.hands[other]) - hidden <= shown, f"seat {seat} misses seat {other}'s open hand"
            elif other != seat:
                leaked = (shown & set(rnd.hands[other])) - revealed
                assert not leaked, f"seat {seat} sees cards {leaked} of seat {other}"
            else:  # HR-33, HX-15: face-down cards are hidden from their holder too, and counted
                down = rnd.face_down.by_seat[seat]
                assert not shown & down, f"seat {seat} sees its face-down cards {shown & down}"
                assert view(match, seat)["table"].get("face_down", 0) == len(down)


def random_illegal(rng: random.Random, match: Match, seat: int) -> Action:
    rnd = match.round
    kind = rng.choice(["play", "draw", "keep", "accept", "challenge", "choose_colour", "choose_target",
                       "pass_card", "special_draw", "declare_uno", "catch", "play_drawn"])
    card = rng.choice([None, rng.randrange(len(rnd.cards) + 5), *rnd.hands[rng.randrange(rnd.n)][:3]])
    colour = rng.choice([None, "purple", *COLOURS])
    target = rng.choice([None, -1, seat, rng.randrange(rnd.n + 2)])
    return Action(kind, card, colour, target, rng.random() < 0.2)


def play_round(match: Match, rng: random.Random, *, views: bool) -> None:
    """Random legal play by any seat that may act, checking invariants after every action."""
    rnd = match.round
    for _ in range(MAX_STEPS):
        if match.phase != ROUND:
            break
        assert rnd.pending is not None
        assert rnd.pending.seat not in rnd.out  # HR-30: only seats still in are asked anything
        # Mostly the seat that must act; sometimes anyone (UNO declarations and catches race).
        seat = rnd.pending.seat if rng.random() < 0.8 else rng.randrange(rnd.n)
        legal = legal_actions(match, seat)
        probe = random_illegal(rng, match, seat)
        if probe not in legal:
            before = match.fingerprint()
            try:
                apply(match, seat, probe)
            except IllegalAction as err:
                assert err.code and err.message
            else:  # pragma: no cover - the assertion below explains
                raise AssertionError(f"{probe} was applied but is not legal")
            assert match.fingerprint() == before
        if seat == rnd.pending.seat and match.phase == ROUND:
            assert legal, "the seat that must act always has something to do"
        if not legal:
            continue
        # Lean towards playing, so that rounds end in reasonable time; every action stays possible.
        plays = [a for a in legal if a.kind in ("play", "play_drawn")]
        apply(match, seat, rng.choice(plays if plays and rng.random() < 0.75 else legal))
        check_conservation(match)
        if views:
            check_views(match)
    else:
        raise AssertionError("round did not terminate")
    assert rnd.winner is not None
    house = config_of(match).house
    side = team_of(house, match.config.seats, rnd.winner)  # HR-27: the partner's hand scores for nobody
    mine = house.team_play and house.scoring == "winner"
    values = sum(rnd.cards[c].value for s, h in enumerate(rnd.hands) if s not in (side if mine else {rnd.winner})
                 for c in h)
    assert rnd.points == values * (2 if house.double_score else 1)  # HR-22, last (HX-14)
    assert rnd.hands[rnd.winner] == []


ROUNDS = (editions_with_seats(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1),
          st.one_of(st.just(HouseRules()), HOUSE_RULES))


def a_round_keeps_every_invariant(edition_seats: tuple[str, int], seed: int, policy: int, house: HouseRules) -> None:
    edition, seats = edition_seats
    match, _ = new_match(MatchConfig(edition, seats, house=house), seed)
    check_conservation(match)
    play_round(match, random.Random(policy), views=True)
    again = replay(config_of(match), seed, match.log)
    assert again.fingerprint() == match.fingerprint()


@pytest.mark.slow  # a long property run; the quick subset has the short one below
@settings(max_examples=250, deadline=None)
@given(*ROUNDS)
def test_random_rounds_keep_every_invariant(edition_seats: tuple[str, int], seed: int, policy: int,
                                            house: HouseRules) -> None:
    a_round_keeps_every_invariant(edition_seats, seed, policy, house)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(*ROUNDS)
def test_a_few_random_rounds_keep_every_invariant(edition_seats: tuple[str, int], seed: int, policy: int,
                                                  house: HouseRules) -> None:
    a_round_keeps_every_invariant(edition_seats, seed, policy, house)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(editions_with_seats(), st.integers(0, 2**32 - 1), MATCH_ENDINGS)
def test_random_matches_score_to_the_target_and_replay(edition_seats: tuple[str, int], seed: int,
                                                       ending: HouseRules) -> None:
    edition, seats = edition_seats
    match, _ = new_match(MatchConfig(edition, seats, target=150, house=ending), seed)
    rng = random.Random(seed)
    totals = [0] * seats
    for _ in range(200):
        play_round(match, rng, views=False)
        assert match.round.winner is not None
        totals[match.round.winner] += match.round.points
        assert match.scores == totals
        if match.phase == OVER:
            break
        start_next_round(match)
    assert match.phase == OVER and match.winner is not None
    if ending.single_round:
        assert match.round_no == 1 and match.winner == match.round.winner
    elif ending.rounds:
        assert match.round_no == 3 and match.scores[match.winner] == max(match.scores)
    else:
        assert match.scores[match.winner] >= 150
        assert sum(s >= 150 for s in match.scores) == 1
    again = replay(config_of(match), seed, match.log)
    assert again.fingerprint() == match.fingerprint()


@settings(max_examples=30, deadline=None)
@given(editions_with_seats(), HOUSE_RULES, st.one_of(st.none(), st.integers(1, 1000)))
def test_match_config_round_trips_through_json(edition_seats: tuple[str, int], house: HouseRules,
                                               target: int | None) -> None:
    config = MatchConfig(edition_seats[0], edition_seats[1], target, house)
    assert MatchConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
