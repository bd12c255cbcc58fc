"""Property tests under random valid sets of the house rules the engine plays (RULES.md §7).

Random rounds in every edition, under random option sets (``house_sets.py``: every option the
engine plays but the misplay penalty, which has its own — HR-1 … HR-19, HR-21 … HR-24, HR-26 …
HR-33 — with §6's; a dead round, HR-13, scores nothing), keep the engine's invariants: the
deck's 108/112/52 cards conserved, no view showing another seat's cards but every view showing
HR-31's open hands (HX-15), face-down cards never shown, to their holder neither (HR-33), the
pending decision always a seat's, turns only over seats still in, totals as the scoring options
say; and a finished match exports and verifies as fair.  The bots choose only legal actions under
them.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bots import choose_action
from app.engine import (
    OVER,
    VARIANTS,
    HouseRules,
    Match,
    MatchConfig,
    action_from_json,
    apply,
    legal_actions,
    new_match,
    view,
)
from app.engine import start_next_round as next_round
from app.engine.audit import commitment, export_document
from app.engine.house.teams import team_of
from app.engine.verify import verify

from .house_sets import house_sets, random_house, seats_for
from .test_properties import check_conservation, play_round

DECK_SIZES = {"classic": 108, "mario_kart": 112, "all_wild": 112, "pocket_pizza": 52}


def editions_and_rules() -> st.SearchStrategy[tuple[str, int, HouseRules]]:
    def for_edition(edition: str) -> st.SearchStrategy[tuple[str, int, HouseRules]]:
        v = VARIANTS[edition]
        return st.tuples(st.just(edition), st.integers(v.min_seats, v.max_seats), house_sets(edition))

    return st.sampled_from(list(VARIANTS)).flatmap(for_edition)


def exported(match: Match, secrets: dict[int, str]) -> dict[str, object]:
    rounds = [{"number": n, "commitment": commitment(s), "secret": s} for n, s in sorted(secrets.items())]
    actions = [{"seq": i, "round": e.round, "seat": e.seat, "action": e.action.to_json(), "at": None}
               for i, e in enumerate(match.log, start=1)]
    config = json.loads(json.dumps(match.config.to_json()))
    return export_document(config, [f"p{s}" for s in range(match.config.seats)], rounds, actions)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(editions_and_rules(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_random_matches_under_house_rules_keep_the_invariants_and_verify__HX_3__HX_5__HX_14__HR_27__HR_30__HR_31(
        edition_seats_rules: tuple[str, int, HouseRules], seed: int, policy: int) -> None:
    edition, seats, rules = edition_seats_rules
    seats = seats_for(rules, seats)
    match, _ = new_match(MatchConfig(edition, seats, target=60, house=rules), str(seed))
    assert len(match.round.cards) == DECK_SIZES[edition]
    rng = random.Random(policy)
    secrets = {1: str(seed)}
    totals = [0] * seats
    for number in range(1, 4):
        check_conservation(match)
        play_round(match, rng, views=number == 1)
        rnd = match.round
        winner = rnd.winner
        if rnd.void:  # HR-13: a dead round scores nothing
            assert rules.hand_limit is not None and winner is None and match.scores == totals
            secrets[number + 1] = f"{seed}-{number + 1}"
            next_round(match, secrets[number + 1])
            continue
        assert winner is not None
        values = [sum(rnd.cards[c].value for c in hand) for hand in rnd.hands]
        factor = 2 if rules.double_score else 1  # HR-22, applied last (HX-14)
        before = list(totals)
        for seat in range(seats):
            if rules.scoring == "penalty":  # HR-23
                totals[seat] += 0 if seat == winner else values[seat] * factor
            elif seat == winner:  # C-14; HR-27: the partner's hand scores for nobody
                side = team_of(rules, seats, winner)
                totals[seat] += sum(v for s, v in enumerate(values) if s not in side) * factor
        assert match.scores == totals
        # The round's points are what its seats were credited (HR-27: never the partner's hand).
        assert rnd.points == sum(totals) - sum(before) == sum(match.history[-1].gained)
        # HR-29, HR-30: one seat out per round, never the winner; the seats already out hold nothing.
        assert len(match.out) == (number if rules.elimination != "off" else 0)
        assert winner not in rnd.out and all(rnd.hands[s] == [] for s in rnd.out)
        if rules.elimination != "off" and len(match.out) == seats - 1:
            assert match.phase == OVER and match.winner not in match.out
        if match.phase == OVER:
            break
        secrets[number + 1] = f"{seed}-{number + 1}"
        next_round(match, secrets[number + 1])
    if match.phase != OVER:
        return  # the export is of finished matches only; the invariants held all along
    assert verify(exported(match, secrets)) == [f"round {n}: fair" for n in sorted(secrets)]


@pytest.mark.slow
def test_bots_only_choose_legal_actions_under_random_house_rules__HX_8() -> None:
    """Away seats' bots may use every option, but only legal actions; they answer penalties."""
    kinds: Counter[str] = Counter()
    for edition in VARIANTS:
        rng = random.Random(edition)
        for game in range(12):
            rules = random_house(rng, edition, on=0.6)
            seats = seats_for(rules, rng.randint(2, min(5, VARIANTS[edition].max_seats)))
            match, _ = new_match(MatchConfig(edition, seats, house=rules), f"bots-{game}")
            for _ in range(3000):
                if match.phase != "round":
                    break
                seat = rng.randrange(seats)
                chosen = choose_action(json.loads(json.dumps(view(match, seat))), rng)
                if chosen is None:
                    continue
                action = action_from_json(chosen)
                assert action in legal_actions(match, seat), (edition, rules.enabled, chosen)
                p = match.round.pending
                if p is not None and p.kind in ("stack", "challenge") and p.seat == seat and action.kind == "play":
                    kinds["answer"] += 1
                apply(match, seat, action)
                kinds[action.kind] += 1
    assert kinds["answer"] > 20 and kinds["accept"] > 20
