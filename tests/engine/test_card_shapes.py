"""The card shapes a view carries (``card_rules``, app/engine/card_shapes.py) are what the engine's own
``CardRule`` of each face answers, under the room's house rules: a client reading them (HR-32's
no-hints table) offers the colours, targets and UNO! calls the engine would judge."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine import VARIANTS, HouseRules, Match, MatchConfig, Variant, new_match, view, views
from app.engine.card_rules import CardRule
from app.engine.card_shapes import PLAIN, card_shapes
from app.engine.house.table import rule_table
from app.engine.state import RoundState
from app.engine.view_parts import ViewParts

from .house_sets import random_house, valid

# The house rules that change what a card's play takes, each named by its RULES.md ID, and a
# no-hints table (HR-32, under the strict preset) whose client reads these shapes.
NAMED: dict[str, dict[str, object]] = {
    "no house rules": {},
    "HR-6 both, HR-7 chosen (Seven-O)": {"seven_o": True},
    "HR-6 seven": {"seven_o": True, "seven_o_cards": "seven"},
    "HR-6 zero": {"seven_o": True, "seven_o_cards": "zero"},
    "HR-7 next": {"seven_o": True, "seven_target": "next"},
    "HR-6 seven, HR-7 next": {"seven_o": True, "seven_o_cards": "seven", "seven_target": "next"},
    "HR-32 strict preset with Seven-O": {"preset": "strict", "seven_o": True},
    "HR-32 with HR-7 next": {"no_hints": True, "seven_o": True, "seven_target": "next"},
    "HR-1 HR-2 HR-3 stacking": {"stacking": True, "cross_stack": "both", "reverse_deflect": "all"},
}
SIZES = (5, 4, 2, 1)  # seat 0 plays; every count a play may leave differs from the others at seat 2
NEXT_COUNT = {"previous_seats": -1, "next_seats": 1}


def shapes_of(edition: Variant, house: HouseRules) -> dict[str, dict[str, Any]]:
    """The shapes of ``edition``'s faces in its rule table under ``house``."""
    return card_shapes(edition, rule_table(edition, house))


def houses(edition: str) -> list[HouseRules]:
    """The named sets the edition accepts (HX-1), and a few random ones."""
    named = [valid(edition, data) for data in NAMED.values()]
    rng = random.Random(edition)
    return [h for h in named if h is not None] + [random_house(rng, edition) for _ in range(6)]


def uneven(edition: str, house: HouseRules) -> Match:
    """A four-seat match whose hands hold 5, 4, 2 and 1 cards."""
    match, _ = new_match(MatchConfig(edition, 4, house=house), 3)
    rnd = match.round
    for seat, size in enumerate(SIZES):
        rnd.hands[seat] = rnd.hands[seat][:size]
    return match


def counted(shape: dict[str, Any], rnd: RoundState, target: int) -> int:
    """The cards seat 0 holds after a play, as a client counts them from the shape and ``hand_sizes``."""
    left = shape["left"]
    if left == "one_less":
        return len(rnd.hands[0]) - 1
    if left == "same":
        return len(rnd.hands[0])
    if left == "targets":
        return len(rnd.hands[target])
    return len(rnd.hands[rnd.next_seat(0, NEXT_COUNT[left])])  # known to the server, in the order of play


def check(shape: dict[str, Any], rule: CardRule, rnd: RoundState) -> None:
    full = {**PLAIN, **shape}
    assert full["colour"] is rule.needs_colour
    assert (full["target"] == "always") is rule.needs_target(False)
    assert (full["target"] in ("always", "with_last_card")) is rule.needs_target(True)
    for target in (1, 2, 3):
        assert counted(full, rnd, target) == rnd.cards_left(rule, 0, target, False)


@pytest.mark.parametrize("edition", sorted(VARIANTS))
def test_every_faces_shape_is_what_its_card_rule_answers__HR_6_HR_7_HR_32(edition: str) -> None:
    variant = VARIANTS[edition]
    faces = {ct.face.value for ct in variant.cards}
    for house in houses(edition):
        match = uneven(edition, house)
        rules = rule_table(variant, house).rules
        shapes = view(match, 0)["card_rules"]
        assert shapes == shapes_of(variant, house)
        assert set(shapes) == faces  # every face of the deck, and nothing else
        for face in variant.cards:
            check(shapes[face.face.value], rules[face.face], match.round)


def test_the_shapes_name_seven_o_and_the_item_box_as_data__HR_6_HR_7() -> None:
    """The nuances a client used to keep in copies of its own: a Seven-O 7 names its target (HR-7
    chosen) or swaps with the next seat, a 0 leaves the previous seat's hand, the Item Box names a
    target only as the last card, Dip Into The Deck leaves the hand its size, All Wild's swap the
    target's."""
    classic, mario, pizza, aw = (VARIANTS[e] for e in ("classic", "mario_kart", "pocket_pizza", "all_wild"))
    assert shapes_of(classic, HouseRules())["7"] == {}
    seven_o = shapes_of(classic, HouseRules(seven_o=True))
    assert seven_o["7"] == {"target": "always", "left": "targets"}
    assert seven_o["0"] == {"left": "previous_seats"}
    assert seven_o["wild"] == {"colour": True}
    assert shapes_of(classic, HouseRules(seven_o=True, seven_target="next"))["7"] == {"left": "next_seats"}
    assert shapes_of(classic, HouseRules(seven_o=True, seven_o_cards="zero"))["7"] == {}
    assert shapes_of(classic, HouseRules(seven_o=True, seven_o_cards="seven"))["0"] == {}
    assert shapes_of(mario, HouseRules())["item_box"] == {"target": "with_last_card"}
    assert shapes_of(pizza, HouseRules())["wild_dip"] == {"colour": True, "left": "same"}
    assert shapes_of(aw, HouseRules())["wild_forced_swap"] == {"target": "always", "left": "targets"}
    assert shapes_of(aw, HouseRules())["wild_targeted_draw2"] == {"target": "always"}


def test_every_seat_and_a_spectator_share_one_card_rules_kept_across_builds__C_16() -> None:
    """The shapes hide nothing (C-16): one object for every seat and a spectator, and the same object
    build after build while the edition and house rules stay, so a patch never carries it again."""
    match, _ = new_match(MatchConfig("classic", 3, house=HouseRules(seven_o=True, no_hints=True)), 1)
    parts = ViewParts()
    first = views(match, (None, 0, 1, 2), parts)
    shapes = first[None]["card_rules"]
    assert all(one["card_rules"] is shapes for one in first.values())
    match.round_no += 1  # the match's part is built anew; its shapes are kept
    again = views(match, (0,), parts)[0]
    assert again is not first[0] and again["card_rules"] is shapes
