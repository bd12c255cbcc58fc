"""The engine's fast listing equals the plain reference listing (app/engine/reference.py) at every step.

Random rounds of every edition under random valid house-rule sets (``house_sets.py``: every option the
engine plays, with HR-20's misplay penalty drawn apart and its misplays made too), over several rounds so
that new dealers and eliminated seats (HR-29, HR-30) come in.  At every step, for every seat asked in a
random order (the round keeps each listing until it changes, so who asks first must not matter):

- ``legal_actions`` is exactly ``reference_legal_actions``, the same list in the same order — C-5, C-6,
  C-7, C-11, AW-5, AW-6, §6.1's Jump-In and stacking, HR-10, HR-11, HR-12, HR-15, HR-17, HR-18, HR-27,
  HR-32, HR-33, HX-3, HX-12 — so neither the round's kept listings (which ``apply`` reads) nor
  ``fast_path.py``'s tables per card, seat and top card, nor the rule table's ``twins`` and the stacking
  family's ``answering``, change what a seat is offered;
- the batch offers (HR-8, HX-13) stand for exactly ``reference_batches``: ``offer_plays`` gives each
  once, and ``BatchOffer.covers`` — what ``apply`` accepts a batch by — takes each, and takes a batch
  changed from one (UNO! said or not, another target, its cards in another order) exactly when the
  reference lists it.

The moves are chosen from the reference listing, so ``apply`` accepts every action the reference lists.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    BETWEEN,
    ROUND,
    Action,
    BatchOffer,
    HouseRules,
    Match,
    MatchConfig,
    apply,
    batch_offers,
    config_of,
    legal_actions,
    new_match,
    offer_plays,
    start_next_round,
)
from app.engine.pending import TURN
from app.engine.reference import reference_batches, reference_legal_actions

from .house_sets import seats_for
from .test_house_properties import editions_and_rules

# A group of more cards than this makes too many batches to list them all: only the short ones are compared.
WHOLE_GROUP = 5
SHORT_BATCH = 4
# How keen the random player is to play rather than draw: keen ends rounds soon; reluctant grows the hands,
# and with them batches (HR-8), jump-ins (§6), face-down cards (HR-33) and hand limits (HR-12).
KEEN = st.sampled_from([0.75, 0.3])


def check_batches(match: Match, seat: int, rng: random.Random) -> list[Action]:
    """HR-8: the offers stand for the reference's batches, no more, no fewer; the batches compared."""
    offers = batch_offers(match, seat)
    most = None if max((len(o.cards) for o in offers), default=0) <= WHOLE_GROUP else SHORT_BATCH
    reference = reference_batches(match.round, seat, most)
    offered = [a for o in offers for a in offer_plays(o, most)]
    assert len(set(offered)) == len(offered) and len(set(reference)) == len(reference)
    listed = set(reference)
    assert set(offered) == listed, (seat, offers, listed ^ set(offered))
    for batch in rng.sample(reference, min(len(reference), 12)):
        assert covered(offers, batch), (seat, batch, offers)
        targets = [None, *range(match.config.seats)]
        for near in (batch._replace(uno=not batch.uno), batch._replace(target=rng.choice(targets)),
                     batch._replace(more=tuple(reversed(batch.more)))):
            assert covered(offers, near) == (near in listed), (seat, near, offers)
    return reference


def covered(offers: list[BatchOffer], action: Action) -> bool:
    return any(o.covers(action) for o in offers)


def misplay(match: Match, seat: int) -> Action | None:
    """HR-20: a face-up card of ``seat``'s hand that does not match, played on its own turn."""
    rnd = match.round
    down = rnd.face_down.by_seat[seat]
    wrong = [c for c in rnd.hands[seat] if c not in down and not rnd.playable(c)]
    return Action("play", wrong[0]) if wrong else None


def play_and_compare(match: Match, rng: random.Random, steps: int, rounds: int, keen: float) -> int:
    """Random moves chosen from the reference listing, a play with probability ``keen`` when there is one (the
    rest: any action, a draw as likely as not, so hands grow); the listings compared before each.  Returns how
    many seat listings were compared."""
    compared = 0
    seats = match.config.seats
    played = 1
    for _ in range(steps):
        if match.phase == BETWEEN and played < rounds:
            start_next_round(match)
            played += 1
        if match.phase != ROUND:
            break
        rnd = match.round
        listed: dict[int, list[Action]] = {}
        batches: dict[int, list[Action]] = {}
        for seat in rng.sample(range(-1, seats + 1), seats + 2):  # and two seats the table does not have
            listed[seat] = reference_legal_actions(rnd, seat)
            assert legal_actions(match, seat) == listed[seat], (seat, rnd.pending)
            batches[seat] = check_batches(match, seat, rng)
            compared += 1
        p = rnd.pending
        assert p is not None
        if config_of(match).house.misplay_penalty and p.kind == TURN and rng.random() < 0.05:
            wrong = misplay(match, p.seat)
            if wrong is not None:
                assert any(e.kind == "misplay" for e in apply(match, p.seat, wrong))
                continue
        # Mostly the seat the round waits for; sometimes anyone (UNO! calls and catches race the turn).
        seat = p.seat if rng.random() < 0.8 else rng.randrange(seats)
        choices = listed[seat] + rng.sample(batches[seat], min(len(batches[seat]), 8))
        if not choices:
            continue
        plays = [a for a in choices if a.kind in ("play", "play_drawn")]
        apply(match, seat, rng.choice(plays if plays and rng.random() < keen else choices))
    return compared


def a_match_lists_as_the_reference(edition_seats_rules: tuple[str, int, HouseRules], seed: int, policy: int,
                                   misplays: bool, keen: float, steps: int, rounds: int) -> None:
    edition, seats, rules = edition_seats_rules
    rules = replace(rules, misplay_penalty=misplays)
    match, _ = new_match(MatchConfig(edition, seats_for(rules, seats), house=rules), str(seed))
    assert play_and_compare(match, random.Random(policy), steps, rounds, keen) > 0


@settings(max_examples=100, deadline=None)
@given(editions_and_rules(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.booleans(), KEEN)
def test_legal_actions_and_batch_offers_equal_the_reference__C_5__C_6__C_7__C_11__HR_8__HR_10__HR_33__HX_3(
        edition_seats_rules: tuple[str, int, HouseRules], seed: int, policy: int, misplays: bool,
        keen: float) -> None:
    a_match_lists_as_the_reference(edition_seats_rules, seed, policy, misplays, keen, steps=400, rounds=1)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(editions_and_rules(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.booleans(), KEEN)
def test_whole_matches_list_as_the_reference__C_5__C_6__C_7__C_11__HR_8__HR_10__HR_30__HR_33__HX_3(
        edition_seats_rules: tuple[str, int, HouseRules], seed: int, policy: int, misplays: bool,
        keen: float) -> None:
    a_match_lists_as_the_reference(edition_seats_rules, seed, policy, misplays, keen, steps=3000, rounds=3)
