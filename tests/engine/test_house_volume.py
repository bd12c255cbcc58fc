"""Several cards of one number and the bomb (RULES.md §7.3: HR-8, HR-9; HX-4, HX-5, HX-8, HX-9,
HX-13, D-12)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine import (
    OVER,
    Action,
    Event,
    HouseRules,
    IllegalAction,
    Match,
    MatchConfig,
    apply,
    batch_offers,
    legal_actions,
    new_match,
    offer_plays,
    view,
)
from app.engine.action_json import action_from_json
from app.engine.verify import verify

from .scenario import card, names, top
from .test_house_properties import exported
from .test_house_stacking import house_match


def batch(m: Match, seat: int, first: str, *more: str, **fields: Any) -> list[Event]:
    ids: list[int] = [card(m, seat, first)]
    for name in more:  # two cards of one name: take a different one each time
        ids.append(next(c for c in m.round.hands[seat] if m.round.cards[c].name == name and c not in ids))
    return apply(m, seat, Action("play", ids[0], more=tuple(ids[1:]), **fields))


def refused(m: Match, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)
    return str(err.value.code)


def test_batch_plays_same_number_as_one_play_and_only_the_last_card_acts__HR_8() -> None:
    m = house_match("classic", [["red 5", "blue 5", "green 5", "yellow 9"], ["red 1", "red 2"]], "red 3",
                    multi_play=True)
    events = batch(m, 0, "red 5", "blue 5", "green 5")
    plays = [e for e in events if e.kind == "play"]
    assert len(plays) == 1 and [c["name"] for c in plays[0].data["batch"]] == ["red 5", "blue 5", "green 5"]
    assert top(m) == "green 5" and m.round.colour == "green"  # the last card's colour
    assert names(m, 0) == ["yellow 9"]
    assert [m.round.cards[c].name for c in m.round.discard[-3:]] == ["red 5", "blue 5", "green 5"]
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)


def test_batches_are_offered_per_group_and_any_middle_order_is_the_same_move__HR_8() -> None:
    m = house_match("classic", [["red 5", "blue 5", "green 5", "yellow 5", "red 9"], ["red 1", "red 2"]], "red 3",
                    multi_play=True)
    r5, b5, g5, y5 = (card(m, 0, n) for n in ("red 5", "blue 5", "green 5", "yellow 5"))
    assert not any(a.more for a in legal_actions(m, 0))  # no batch among the actions ...
    offers = batch_offers(m, 0)  # ... but one offer for the group: its cards, who may lead (C-5)
    # Four cards of five laid leave one: UNO may go with those (size 4, no target).
    assert [(o.cards, o.leads, o.targets, o.uno) for o in offers] == [
        ((r5, b5, g5, y5), (r5,), (), ((4, None),))]
    plays = list(offer_plays(offers[0]))
    # Every set of the other fives, in any order; the six that lay all four also with UNO said.
    assert len(plays) == len(set(plays)) == 3 + 3 * 2 + 3 * 2 * 1 + 6
    assert all(offers[0].covers(a) and m.round.refusal(0, a) is None for a in plays)
    assert not offers[0].covers(Action("play", b5, more=(r5,)))  # the blue 5 does not match: it cannot lead
    assert view(m, 0)["table"]["legal"][-1] == {"kind": "batch", "cards": [r5, b5, g5, y5], "leads": [r5],
                                                "uno": [[4, None]]}
    apply(m, 0, Action("play", r5, more=(g5, b5, y5)))  # laid as sent
    assert [m.round.cards[c].name for c in m.round.discard[-4:]] == ["red 5", "green 5", "blue 5", "yellow 5"]


def test_a_hoarding_seat_gets_one_offer_a_group_and_a_small_view__HR_8_HR_7() -> None:
    """8 sevens at a 10-seat Seven-O table, a 7 naming its target (HR-7's ``chosen``): once ~8,000 listed
    batches and half a megabyte of view; now one offer with the 9 targets named once."""
    sevens = [f"{c} 7" for c in ("red", "yellow", "green", "blue") for _ in range(2)]
    others = [[f"{c} {a}", f"{c} {a + 1}"] for a in (1, 3, 5) for c in ("red", "yellow", "green", "blue")]
    m = house_match("classic", [[*sevens, "red 1", "blue 2"], *others[:8], ["green 9"]], "red 9",
                    multi_play=True, seven_o=True)
    (offer,) = batch_offers(m, 0)
    assert len(offer.cards) == 8 and len(offer.leads) == 2 and offer.targets == tuple(range(1, 10))
    assert offer.uno == tuple((size, 9) for size in range(2, 9))  # seat 9 holds one card: a swap leaves one
    legal = view(m, 0)["table"]["legal"]
    assert len(legal) < 60 and len(str(legal)) < 4_000
    r7 = offer.leads[0]
    more = tuple(c for c in offer.cards if c != r7)
    assert m.round.refusal(0, Action("play", r7, target=9, uno=True, more=more[:3])) is None
    assert refused(m, 0, Action("play", r7, target=4, uno=True, more=more[:3])) == "uno_not_allowed"
    assert refused(m, 0, Action("play", r7, more=more)) == "target_required"
    apply(m, 0, Action("play", r7, target=3, more=more))
    assert len(m.round.hands[0]) == 2  # the batch went; the last 7 swapped the two cards left with seat 3's


def test_more_elsewhere_or_with_the_option_off_is_bad_action__HR_8() -> None:
    m = house_match("classic", [["red 5", "blue 5", "yellow 9"], ["red 1", "red 2"]], "red 3")
    assert refused(m, 0, Action("play", card(m, 0, "red 5"), more=(card(m, 0, "blue 5"),))) == "bad_action"
    with pytest.raises(IllegalAction) as err:
        action_from_json({"kind": "draw", "more": [3]})
    assert err.value.code == "bad_action"
    for bad in ({"kind": "play", "card": 1, "more": "2"}, {"kind": "play", "card": 1, "more": [True]},
                {"kind": "play", "more": [2]}, {"kind": "play", "card": 1, "more": list(range(8))}):
        with pytest.raises(IllegalAction):
            action_from_json(bad)
    assert action_from_json({"kind": "play", "card": 1, "more": [2, 3]}).more == (2, 3)
    m = house_match("classic", [["red draw2", "red 1"], ["blue 5", "green 5", "red 2"]], "red 3",
                    multi_play=True, stacking=True)
    apply(m, 0, Action("play", card(m, 0, "red draw2")))
    assert refused(m, 1, Action("play", card(m, 1, "blue 5"), more=(card(m, 1, "green 5"),))) == "bad_action"
    m = house_match("classic", [["red 5", "blue 5", "yellow 9"], ["red 1", "red 2"]], "red 3", multi_play=True)
    assert refused(m, 1, Action("play", card(m, 1, "red 1"), more=(card(m, 1, "red 2"),))) == "bad_action"


def test_a_wrong_batch_is_refused_whole__HR_8__D_12() -> None:
    m = house_match("classic", [["red 5", "blue 5", "blue 6", "yellow 9"], ["red 1", "red 2"]], "red 3",
                    multi_play=True)
    before = m.fingerprint()
    r5, b5, b6 = (card(m, 0, n) for n in ("red 5", "blue 5", "blue 6"))
    assert refused(m, 0, Action("play", r5, more=(b5, b6))) == "card_not_playable"
    assert refused(m, 0, Action("play", b5, more=(r5,))) == "card_not_playable"  # the first card must match (C-5)
    assert refused(m, 0, Action("play", r5, more=(r5,))) == "card_not_playable"
    assert m.fingerprint() == before


def test_a_batch_from_a_seat_the_table_lacks_is_refused_bad_seat__HR_8() -> None:
    m = house_match("classic", [["red 5", "blue 5", "green 5", "yellow 5", "yellow 9"], ["red 1", "red 2"]],
                    "red 3", multi_play=True, misplay_penalty=True)
    before = m.fingerprint()
    r5, b5, g5, y5 = (card(m, 0, n) for n in ("red 5", "blue 5", "green 5", "yellow 5"))
    for seat in (2, 7, -3):  # a batch of 3 or more is put in hand order first: that needs a real seat's hand
        for more in ((b5, g5), (b5, g5, y5), (g5, b5, y5)):
            assert refused(m, seat, Action("play", r5, more=more)) == "bad_seat"
    assert m.fingerprint() == before


def test_a_wrong_batch_is_no_misplay__HR_8__HR_20() -> None:
    m = house_match("classic", [["red 5", "blue 6", "yellow 9"], ["red 1", "red 2"]], "red 3",
                    multi_play=True, misplay_penalty=True)
    assert refused(m, 0, Action("play", card(m, 0, "red 5"), more=(card(m, 0, "blue 6"),))) == "card_not_playable"
    assert len(m.round.hands[0]) == 3


def test_uno_covers_a_batch_that_leaves_one_card__HR_8__HX_4() -> None:
    m = house_match("classic", [["red 5", "blue 5", "yellow 9"], ["red 1", "red 2"]], "red 3", multi_play=True)
    batch(m, 0, "red 5", "blue 5", uno=True)
    assert 0 in m.round.declared and 0 not in m.round.exposed
    m = house_match("classic", [["red 5", "blue 5", "yellow 9"], ["red 1", "red 2"]], "red 3", multi_play=True)
    batch(m, 0, "red 5", "blue 5")
    assert 0 in m.round.exposed  # a catch window, closed by the next turn action
    m = house_match("classic", [["red 5", "blue 5", "green 5", "yellow 9"], ["red 1", "red 2"]], "red 3",
                    multi_play=True)
    assert refused(m, 0, Action("play", card(m, 0, "red 5"), more=(card(m, 0, "blue 5"),), uno=True)) \
        == "uno_not_allowed"


def test_a_seven_in_a_batch_acts_only_as_its_last_card__HR_8__HX_13() -> None:
    m = house_match("classic", [["red 7", "blue 7", "green 1", "green 2"], ["yellow 1"], ["yellow 2", "yellow 3"]],
                    "red 3", multi_play=True, seven_o=True)
    r7, b7 = card(m, 0, "red 7"), card(m, 0, "blue 7")
    assert refused(m, 0, Action("play", r7, more=(b7,))) == "target_required"
    events = apply(m, 0, Action("play", r7, target=2, more=(b7,)))
    assert [e.kind for e in events].count("swap") == 1
    assert names(m, 0) == ["yellow 2", "yellow 3"] and names(m, 2) == ["green 1", "green 2"]


def test_a_batch_of_three_bombs_every_other_seat__HR_9() -> None:
    hands = [["red 5", "blue 5", "green 5", "yellow 9"], ["red 1", "red 2"], ["blue 1", "blue 2"]]
    m = house_match("classic", hands, "red 3", multi_play=True, bomb=True)
    events = batch(m, 0, "red 5", "blue 5", "green 5")
    draws = [(e.data["seat"], e.data["count"], e.data["reason"]) for e in events if e.kind == "draw"]
    assert draws == [(1, 1, "bomb"), (2, 1, "bomb")]  # in turn order from the next seat
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == ("turn", 1)  # nobody loses a turn
    m = house_match("classic", hands, "red 3", multi_play=True, bomb=True)
    events = batch(m, 0, "red 5", "blue 5")
    assert "bomb" not in [e.kind for e in events]


def test_a_winning_batch_bombs_too_and_the_draws_count__HR_9__HX_5() -> None:
    m = house_match("classic", [["red 5", "blue 5", "green 5"], ["red 1"], ["blue 1"]], "red 3", (
        "yellow 9", "yellow 8"), multi_play=True, bomb=True, single_round=True)
    events = batch(m, 0, "red 5", "blue 5", "green 5")
    assert m.round.winner == 0 and "bomb" in [e.kind for e in events]
    assert m.round.points == 1 + 1 + 8 + 9


def test_a_number_an_item_box_flipped_never_joins_a_batch__HR_9__HX_9() -> None:
    m = house_match("mario_kart", [["item_box", "blue 5", "green 5", "yellow 9"], ["red 1", "red 2"]], "red 3",
                    ("red 5",), multi_play=True, bomb=True)
    box = next(a for a in legal_actions(m, 0) if a.card == card(m, 0, "item_box") and not a.uno)
    apply(m, 0, box)  # flips the red 5: a Mushroom, seat 0 plays again, on it
    assert top(m) == "red 5" and m.round.pending is not None and m.round.pending.seat == 0
    events = batch(m, 0, "blue 5", "green 5")
    assert "bomb" not in [e.kind for e in events]  # two cards of its own: no bomb


def test_a_match_with_batches_and_bombs_exports_and_verifies_fair__HR_8__HR_9() -> None:
    rules = HouseRules(multi_play=True, bomb=True, single_round=True)
    for seed in range(40):
        m, _ = new_match(MatchConfig("classic", 3, house=rules), f"batch-{seed}")
        rng = random.Random(seed)
        batches = 0
        while m.phase == "round":
            seat = m.round.pending.seat  # type: ignore[union-attr]
            legal = legal_actions(m, seat)
            big = [a for o in batch_offers(m, seat) for a in offer_plays(o) if len(a.more) >= 2]
            chosen = big[0] if big else next((a for a in legal if a.kind in ("play", "play_drawn")),
                                             rng.choice(legal))
            batches += bool(chosen.more)
            apply(m, seat, chosen)
        if batches:
            assert m.phase == OVER
            assert verify(exported(m, {1: f"batch-{seed}"})) == ["round 1: fair"]
            return
    raise AssertionError("no deal gave a batch of three")

