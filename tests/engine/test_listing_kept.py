"""The round keeps every seat's legal actions until it changes (``Round.legal_actions``): a room lists each
seat's for its view after every action, and ``apply`` asks the mover's again.  A kept listing must never
outlive the state it was made for, whichever seat asked first, under any house rules (RULES.md §6, §7).
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from app.engine import ROUND, VARIANTS, Action, MatchConfig, apply, fast_path, new_match, offer_plays
from app.engine.actions import BLITZ_EXPIRY, CLOCK_SEAT
from app.engine.house import HouseRules, volume
from app.engine.house.table import rule_table

from .house_sets import random_match
from .scenario import card
from .test_house_stacking import house_match


@pytest.mark.parametrize("edition", list(VARIANTS))
def test_every_seat_listing_is_fresh_after_every_change(edition: str) -> None:
    rng = random.Random(f"kept-{edition}")
    compared = 0
    for game in range(6):
        match = random_match(rng, edition, f"kept-{game}")
        rnd, seats = match.round, match.config.seats
        for _ in range(200):
            if match.phase != ROUND:
                break
            kept, offered = {}, {}
            for seat in rng.sample(range(seats), seats):  # asked in any order, as views are built
                kept[seat] = rnd.legal_actions(seat)
                offered[seat] = rnd.batch_offers(seat)
                assert kept[seat] == fast_path.legal_actions(rnd, seat)
                assert offered[seat] == volume.batch_offers(rnd, seat)  # HR-8's offers, kept alike
            assert all(rnd.legal_actions(s) is kept[s] for s in kept)  # unchanged round: the same lists
            assert all(rnd.batch_offers(s) is offered[s] for s in offered)
            mover = rnd.pending.seat if rnd.pending is not None else 0
            batches = [a for o in offered[mover] for a in islice(offer_plays(o), 20)]
            choices = kept[mover] + batches or [a for s in kept for a in kept[s]]
            if not choices:
                break
            action = rng.choice(choices)
            mine = action in kept[mover] or action in batches
            seat = mover if mine else next(s for s in kept if action in kept[s])
            apply(match, seat, action)
            for s in range(seats):  # after the change, nothing kept from before is given out
                assert rnd.legal_actions(s) == fast_path.legal_actions(rnd, s)
                assert rnd.batch_offers(s) == volume.batch_offers(rnd, s)
                compared += 1
    assert compared > 200


def test_a_jump_in_is_offered_exactly_on_a_twin_of_the_top_card() -> None:
    """Jump-In (RULES.md §6.1): the off-turn listing finds candidates with ``RuleTable.twins``; they are exactly
    the cards ``jumps_in`` accepts — an exact duplicate of a coloured top card, never a wild."""
    house = HouseRules(jump_in=True)
    for edition, variant in VARIANTS.items():
        table = rule_table(variant, house)
        cards = variant.cards
        for top, twins in enumerate(table.twins):
            alike = {c for c, ct in enumerate(cards) if c != top and ct == cards[top] and ct.colour is not None}
            assert twins == alike, (edition, cards[top])
        assert all(not table.twins[c] for c, ct in enumerate(cards) if ct.colour is None)
    classic = rule_table(VARIANTS["classic"], house)
    assert sum(map(bool, classic.twins)) == 96  # two of each coloured card but the 0s


def test_a_blitz_expiry_forgets_the_kept_listings__HR_25() -> None:
    """HR-25: the clock ends the round outside ``Round.apply``; no listing kept from before survives it."""
    match, _ = new_match(MatchConfig("classic", 4, house=HouseRules(blitz_seconds=300)), "blitz-kept")
    rnd = match.round
    before = [rnd.legal_actions(s) for s in range(4)]
    assert any(before)
    apply(match, CLOCK_SEAT, Action(BLITZ_EXPIRY))
    assert rnd.winner is not None
    assert [rnd.legal_actions(s) for s in range(4)] == [[], [], [], []]


def test_a_misplay_forgets_the_kept_listings__HR_20() -> None:
    """HR-20: a misplay changes the round (a penalty card drawn) without any listed action being taken."""
    m = house_match("classic", [["blue 5", "red 1", "red 2"], ["green 1", "green 2"]], "red 9",
                    misplay_penalty=True)
    before = [m.round.legal_actions(s) for s in range(2)]
    apply(m, 0, Action("play", card(m, 0, "blue 5")))
    assert len(m.round.hands[0]) == 4
    after = [m.round.legal_actions(s) for s in range(2)]
    assert after == [fast_path.legal_actions(m.round, s) for s in range(2)]
    assert after[0] != before[0]  # the penalty card is one more card to play
