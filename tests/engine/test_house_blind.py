"""Blind draw (RULES.md §7.11 HR-33) and every rule that names it: HR-10, HX-2, HX-6, HX-9 to
HX-13, HX-15, D-5 and D-13 — the engine's part and what the views show."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    VARIANTS,
    Action,
    HouseRules,
    IllegalAction,
    Match,
    MatchConfig,
    apply,
    batch_offers,
    legal_actions,
    new_match,
    replay,
)
from app.engine import view as view_of

from .house_sets import house_sets, seats_for
from .scenario import act, card, drawn_by, play
from .test_house_stacking import house_match, pending
from .test_properties import check_conservation, play_round


def down(m: Match, seat: int) -> list[str]:
    """The names of the cards ``seat`` holds face down, in hand order."""
    rnd = m.round
    return [rnd.cards[c].name for c in rnd.hands[seat] if c in rnd.face_down.by_seat[seat]]


def hand_names(m: Match, seat: int) -> list[str]:
    """The cards ``seat``'s own view shows it."""
    return [c["name"] for c in view_of(m, seat)["table"]["hand"]]


def refused(m: Match, seat: int, action: Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, action)
    return str(err.value.code)


def test_a_draw_on_a_turn_comes_in_face_down_and_ends_the_turn__HR_33__HX_2() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    blind_draw=True)
    events = act(m, 0, "draw")
    assert pending(m)[:2] == ("turn", 1)  # no ``drawn`` decision, though red 3 would play
    assert down(m, 0) == ["red 3"]
    drew = next(e for e in events if e.kind == "drew")
    assert drew.to == ()  # its face goes to no one, its drawer included (kept for the export)
    public = next(e for e in events if e.kind == "draw")
    assert public.data == {"seat": 0, "count": 1, "reason": "turn"}
    seen = view_of(m, 0)["table"]
    assert [c["name"] for c in seen["hand"]] == ["blue 7", "blue 8"] and seen["face_down"] == 1
    assert seen["hand_sizes"][0] == 3  # it counts for the hand's size


def test_no_hints_offers_no_drawn_decision_under_blind_draw__HX_2__HR_32() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("yellow 3",),
                    blind_draw=True, no_hints=True)
    act(m, 0, "draw")
    assert pending(m)[:2] == ("turn", 1)


def test_draw_until_playable_stops_at_a_playable_card_all_face_down__HX_2() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9",
                    ("yellow 3", "green 4", "red 5", "blue 1"), blind_draw=True, draw_until_playable=True)
    events = act(m, 0, "draw")
    assert drawn_by(events, 0) == 3 and down(m, 0) == ["yellow 3", "green 4", "red 5"]
    assert pending(m)[:2] == ("turn", 1)


def test_face_down_cards_turn_up_when_their_seat_next_owes_a_turn__HR_33() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "red 2"]], "red 9", ("red 3",),
                    blind_draw=True)
    act(m, 0, "draw")
    red3 = card(m, 0, "red 3")
    events = play(m, 1, "red 2")
    assert down(m, 0) == [] and "red 3" in hand_names(m, 0)
    turned = next(e for e in events if e.kind == "turned_up")
    assert turned.to == (0,) and [c["name"] for c in turned.data["cards"]] == ["red 3"]
    assert Action("play", red3) in legal_actions(m, 0)
    assert view_of(m, 0)["table"]["face_down"] == 0


def test_a_face_down_card_cannot_be_played_and_is_never_a_misplay__HR_33__HR_20__D_13() -> None:
    m = house_match("classic", [["blue 7", "blue 8", "green 6"], ["green 1", "green 2"]], "red 9",
                    ("red 3", "yellow 1"), blind_draw=True, misplay_penalty=True)
    events = play(m, 0, "blue 7")  # a misplay: seat 0 draws red 3, face down, its turn still pending
    assert any(e.kind == "misplay" for e in events) and down(m, 0) == ["red 3"]
    assert pending(m)[:2] == ("turn", 0)
    red3 = card(m, 0, "red 3")
    assert Action("play", red3) not in legal_actions(m, 0)
    assert refused(m, 0, Action("play", red3)) == "card_face_down"  # no second misplay draw
    assert len(m.round.hands[0]) == 4 and down(m, 0) == ["red 3"]  # D-13: down for the rest of the decision
    act(m, 0, "draw")  # its turn ends; red 3 and yellow 1 stay down until its next turn
    assert down(m, 0) == ["red 3", "yellow 1"]


def test_forced_play_does_not_count_a_face_down_card__HR_10__HR_33() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    blind_draw=True, misplay_penalty=True, forced_play=True)
    play(m, 0, "blue 7")  # misplay: red 3 comes in face down
    assert Action("draw") in legal_actions(m, 0)  # it holds nothing playable it can see
    act(m, 0, "draw")
    assert pending(m)[:2] == ("turn", 1)


def test_penalty_draws_come_in_face_down__HR_33() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["green 1", "green 2"], ["red 4", "blue 4"]], "red 9",
                    ("yellow 5", "yellow 6"), blind_draw=True)
    play(m, 0, "red draw2")
    assert down(m, 1) == ["yellow 5", "yellow 6"] and pending(m)[:2] == ("turn", 2)
    assert view_of(m, 1)["table"]["face_down"] == 2 and hand_names(m, 1) == ["green 1", "green 2"]


def test_a_seat_owing_stack_sees_its_face_down_cards__HR_33() -> None:
    m = house_match("classic", [["red draw2", "red 1", "blue 3"], ["green 1", "green 2"], ["red 4", "blue 4"]],
                    "red 9", ("green draw2", "yellow 6"), blind_draw=True, stacking=True)
    play(m, 0, "red draw2")
    act(m, 1, "accept")  # seat 1 draws green draw2 and yellow 6, face down
    assert down(m, 1) == ["green draw2", "yellow 6"]
    play(m, 2, "red 4")
    play(m, 0, "red 1")
    assert pending(m)[:2] == ("turn", 1) and down(m, 1) == []
    # And the other way: a seat drawn face-down cards, then hit by a Draw card, may answer with them.
    m = house_match("classic", [["red 1", "red draw2", "blue 1"], ["green 1", "green 2"], ["red 4", "blue 4"]],
                    "red 9", ("red draw2",), blind_draw=True, stacking=True)
    play(m, 0, "red 1")
    act(m, 1, "draw")  # red draw2, face down
    assert down(m, 1) == ["red draw2"]
    play(m, 2, "red 4")
    play(m, 0, "red draw2")
    assert pending(m)[:2] == ("stack", 1) and down(m, 1) == []
    assert Action("play", card(m, 1, "red draw2")) in legal_actions(m, 1)


def test_a_caught_seat_draws_face_down__HR_33() -> None:
    m = house_match("classic", [["red 5", "red 6"], ["blue 5", "blue 6", "red 7"], ["green 1", "green 2"]], "red 9",
                    ("yellow 1", "yellow 2"), blind_draw=True)
    play(m, 0, "red 5")  # one card left, UNO unsaid
    act(m, 1, "catch", target=0)
    assert down(m, 0) == ["yellow 1", "yellow 2"]


def test_a_first_card_draw_is_face_down__HX_6() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"], ["red 1", "red 2"]], "red draw2",
                    ("yellow 5", "yellow 6"), blind_draw=True)
    assert down(m, 0) == ["yellow 5", "yellow 6"] and pending(m)[:2] == ("turn", 1)
    assert view_of(m, 0)["table"]["face_down"] == 2


def test_item_draws_are_face_down__HX_9() -> None:
    m = house_match("mario_kart", [["item_box", "red 1"], ["green 1", "green 2"], ["blue 1", "blue 2"]], "red 9",
                    ("yellow 3", "green 5", "green 6"), blind_draw=True)
    play(m, 0, "item_box")  # flips yellow 3: Banana Peel, seat 2 (before seat 0) draws 2
    assert down(m, 2) == ["green 5", "green 6"]


def test_the_bob_omb_draw_stays_face_down_through_the_colour_choice__HX_9__HR_33() -> None:
    m = house_match("mario_kart", [["item_box", "red 1"], ["green 1", "green 2"]], "red 9",
                    ("item_box", "green 5", "green 6"), blind_draw=True)
    play(m, 0, "item_box")  # flips an Item Box: Bob-omb, seat 0 draws 2, then declares
    assert pending(m)[:2] == ("colour", 0) and down(m, 0) == ["green 5", "green 6"]
    assert view_of(m, 0)["table"]["face_down"] == 2


def test_the_dip_draw_is_face_up_and_a_face_down_card_is_never_passed__HX_11() -> None:
    m = house_match("pocket_pizza", [["blue 7", "wild_dip", "red 2"], ["green 1", "green 2"]], "red 9",
                    ("red 3", "green 8"), blind_draw=True, misplay_penalty=True)
    play(m, 0, "blue 7")  # a misplay: red 3, face down (D-13)
    play(m, 0, "wild_dip", colour="red")  # the dip draws green 8, face up
    assert pending(m)[:2] == ("pass", 0) and down(m, 0) == ["red 3"] and "green 8" in hand_names(m, 0)
    passable = {a.card for a in legal_actions(m, 0) if a.kind == "pass_card"}
    assert card(m, 0, "green 8") in passable and card(m, 0, "red 3") not in passable
    assert refused(m, 0, Action("pass_card", card(m, 0, "red 3"))) == "card_face_down"


def test_the_special_draw_is_face_up__HX_11() -> None:
    m = house_match("all_wild", [["wild", "wild"], ["wild_skip"]], "wild", ("wild_draw2",), blind_draw=True)
    act(m, 0, "special_draw")
    assert pending(m)[:2] == ("special", 0) and down(m, 0) == []
    assert view_of(m, 0)["table"]["drawn"]["name"] == "wild_draw2"


def test_a_forced_swap_moves_face_down_cards_up_for_their_new_holder__HX_10() -> None:
    m = house_match("all_wild", [["wild_draw2", "wild"], ["wild", "wild"], ["wild_forced_swap", "wild", "wild"]],
                    "wild", ("wild_skip", "wild_reverse"), blind_draw=True)
    play(m, 0, "wild_draw2")  # seat 1 draws wild_skip and wild_reverse face down, and is skipped
    assert down(m, 1) == ["wild_skip", "wild_reverse"]
    play(m, 2, "wild_forced_swap", target=1)
    assert down(m, 2) == [] and down(m, 1) == []
    assert sorted(hand_names(m, 2)) == ["wild", "wild", "wild_reverse", "wild_skip"]  # seen by seat 2 now


def test_seven_o_moves_face_down_cards_up_for_their_new_holder__HX_13() -> None:
    m = house_match("classic", [["red 7", "red 1", "red 2"], ["red draw2", "green 1"], ["blue 1", "blue 2"]],
                    "red 9", ("yellow 5", "yellow 6"), blind_draw=True, seven_o=True)
    play(m, 0, "red 1")
    play(m, 1, "red draw2")  # seat 2 draws yellow 5 and 6 face down, skipped
    assert down(m, 2) == ["yellow 5", "yellow 6"]
    play(m, 0, "red 7", target=2)
    assert down(m, 0) == [] and "yellow 5" in hand_names(m, 0)
    # A 0 passes every hand on: seat 1's face-down cards go up for seat 2.
    m = house_match("classic", [["red 0", "red 1", "red 2"], ["red draw2", "green 1"], ["blue 1", "blue 2"]],
                    "red 9", ("yellow 5", "yellow 6"), blind_draw=True, seven_o=True)
    play(m, 0, "red 1")
    play(m, 1, "red draw2")
    play(m, 0, "red 0")
    assert all(down(m, s) == [] for s in range(3)) and "yellow 5" in hand_names(m, 0)  # seat 2's hand came to 0


def test_never_jump_in_with_a_face_down_card__HX_12() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["green 1", "green 2"], ["red 5", "blue 4"]], "red 9",
                    ("red 5", "yellow 6"), blind_draw=True, jump_in=True)
    play(m, 0, "red draw2")  # seat 1 draws red 5 and yellow 6 face down
    play(m, 2, "red 5")
    red5 = card(m, 1, "red 5")
    assert Action("play", red5) not in legal_actions(m, 1)
    assert refused(m, 1, Action("play", red5)) == "card_face_down"


def test_a_face_down_card_joins_no_batch__HR_33__HR_8() -> None:
    m = house_match("classic", [["red 1", "blue 1", "red 2"], ["red 5", "green 5"]], "red 9", ("yellow 5",),
                    blind_draw=True, multi_play=True, misplay_penalty=True)
    play(m, 0, "red 1")
    play(m, 1, "green 5")  # a misplay on red 1: seat 1 draws yellow 5, face down
    yellow5 = card(m, 1, "yellow 5")
    offers = batch_offers(m, 1)
    assert offers and all(yellow5 not in o.cards for o in offers) and down(m, 1) == ["yellow 5"]
    batch = Action("play", card(m, 1, "red 5"), more=(yellow5,))
    assert refused(m, 1, batch) == "card_face_down"


def test_a_challenge_shows_face_down_cards_by_count_and_does_not_judge_them__D_5() -> None:
    m = house_match("classic", [["wild_draw4", "blue 5", "yellow 2"], ["green 1", "green 2"]], "red 9",
                    ("red 3",), blind_draw=True, misplay_penalty=True)
    play(m, 0, "blue 5")  # a misplay: red 3 comes in face down (D-13)
    play(m, 0, "wild_draw4", colour="blue")  # red 3 would make it guilty, but it is face down
    assert pending(m)[:2] == ("challenge", 1)
    events = act(m, 1, "challenge")
    verdict = next(e for e in events if e.kind == "challenge")
    assert verdict.data["guilty"] is False and drawn_by(events, 1) == 6
    shown = next(e for e in events if e.kind == "hand_revealed")
    assert shown.to == (1,) and shown.data["face_down"] == 1
    assert sorted(c["name"] for c in shown.data["cards"]) == ["blue 5", "yellow 2"]
    revealed = view_of(m, 1)["table"]["revealed"]
    assert revealed["face_down"] == 1 and sorted(c["name"] for c in revealed["cards"]) == ["blue 5", "yellow 2"]
    assert card(m, 0, "red 3") not in [c["id"] for c in revealed["cards"]]  # never shown to the challenger


def test_no_other_seat_or_spectator_sees_a_face_down_card__HX_15() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"], ["red 1", "red 4"]], "red 9",
                    ("red 3",), blind_draw=True)
    act(m, 0, "draw")
    red3 = m.round.card_json(card(m, 0, "red 3"))
    for seat in (None, 0, 1, 2):
        assert json.dumps(red3) not in json.dumps(view_of(m, seat)), seat


def test_round_end_turns_every_card_up__HR_33() -> None:
    m = house_match("classic", [["red 1"], ["green 1", "green 2"]], "red 9", ("yellow 5",), blind_draw=True)
    play(m, 0, "red 1", uno=False)
    rnd = m.round
    assert rnd.winner == 0 and all(not d for d in rnd.face_down.by_seat)
    m = house_match("classic", [["red draw2"], ["green 1", "green 2"]], "red 9", ("yellow 5", "yellow 6"),
                    blind_draw=True)
    play(m, 0, "red draw2")  # C-13: the last card's draw happens, and counts
    assert m.round.points == 1 + 2 + 5 + 6
    assert view_of(m, 1)["table"]["face_down"] == 0 and len(hand_names(m, 1)) == 4


def test_face_up_lists_what_a_seat_may_use__HR_33() -> None:
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",), blind_draw=True)
    act(m, 0, "draw")
    assert [m.round.cards[c].name for c in m.round.face_up(0)] == ["blue 7", "blue 8"]


def test_blind_rounds_replay_identically__HR_33() -> None:
    """Deterministic: random blind-draw matches replay to the same state, face-down cards included."""
    for edition in VARIANTS:
        rng = random.Random(edition)
        config = MatchConfig(edition, 3, house=house_rules(edition))
        match, _ = new_match(config, f"blind-{edition}")
        for _ in range(400):
            if match.phase != "round":
                break
            seat = rng.randrange(3)
            legal = legal_actions(match, seat)
            if legal:
                apply(match, seat, rng.choice(legal))
        assert replay(config, f"blind-{edition}", match.log).fingerprint() == match.fingerprint()


def house_rules(edition: str) -> HouseRules:
    extra = {} if edition == "all_wild" else {"draw_until_playable": True, "misplay_penalty": True}
    return HouseRules.from_json({"blind_draw": True, "stacking": True, **extra}, VARIANTS[edition])


@st.composite
def blind_sets(draw: st.DrawFn) -> tuple[str, int, HouseRules]:
    edition = draw(st.sampled_from(list(VARIANTS)))
    rules = draw(house_sets(edition).filter(lambda r: not r.must_play_drawn))
    variant = VARIANTS[edition]
    rules = HouseRules.from_json({**{k: getattr(rules, k) for k in rules.enabled}, "blind_draw": True}, variant)
    return edition, seats_for(rules, draw(st.integers(variant.min_seats, variant.max_seats))), rules


@settings(max_examples=25, deadline=None)
@given(blind_sets(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_face_down_cards_are_never_shown_under_random_house_rules__HR_33__HX_15(
        edition_seats_rules: tuple[str, int, HouseRules], seed: int, policy: int) -> None:
    """Random rounds with blind draw always on and any other options: no view ever shows a face-down
    card (to its holder neither, ``check_views``), every seat's view counts its own, cards are conserved."""
    edition, seats, rules = edition_seats_rules
    match, _ = new_match(MatchConfig(edition, seats, target=60, house=rules), str(seed))
    check_conservation(match)
    if not match.round.void:
        play_round(match, random.Random(policy), views=True)


def test_a_finished_blind_match_exports_and_verifies_as_fair__HR_33() -> None:
    """The face-down draws' events go to no one but stay in the export; the verifier replays it
    (``python -m app.engine.verify``) and finds every round fair."""
    from app.engine.verify import verify

    from .test_house_properties import exported

    rules = HouseRules.from_json({"blind_draw": True, "single_round": True, "draw_until_playable": True})
    match, _ = new_match(MatchConfig("classic", 3, house=rules), "blind-export")
    rng = random.Random(3)
    while match.phase == "round":
        seat = match.round.pending.seat if match.round.pending else 0
        legal = legal_actions(match, seat)
        plays = [a for a in legal if a.kind in ("play", "play_drawn")]
        apply(match, seat, rng.choice(plays if plays and rng.random() < 0.75 else legal))
    assert match.phase == "over"
    doc = exported(match, {1: "blind-export"})
    rounds: Any = doc["rounds"]
    nobody = [e for a in rounds[0]["actions"] for e in a["events"] if e["kind"] == "drew" and e["to"] == []]
    assert nobody  # face-down draws, kept with the cards they drew
    assert verify(doc) == ["round 1: fair"]


def test_no_answer_or_deflection_with_a_face_down_card__HR_33__D_13() -> None:
    """A card that came in face down while its seat owed ``stack`` (as a catch can bring one,
    D-13) answers nothing and deflects nothing until it turns up."""
    m = house_match("classic", [["red draw2", "red 1"], ["blue draw2", "red reverse", "green 3"], ["red 4", "blue 4"]],
                    "red 9", blind_draw=True, stacking=True, reverse_deflect="small")
    play(m, 0, "red draw2")
    assert pending(m)[:2] == ("stack", 1)
    draw2, reverse = card(m, 1, "blue draw2"), card(m, 1, "red reverse")
    assert {Action("play", draw2), Action("play", reverse)} <= set(legal_actions(m, 1))
    m.round.face_down.by_seat[1].update({draw2, reverse})  # as if drawn during this decision
    m.round.moved()  # legal_actions is kept until the round changes
    assert {a.kind for a in legal_actions(m, 1)} - {"catch", "declare_uno"} == {"accept"}
    assert refused(m, 1, Action("play", draw2)) == "card_face_down"
    assert refused(m, 1, Action("play", reverse)) == "card_face_down"
