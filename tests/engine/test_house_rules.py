"""House rules (RULES.md §6): each off by default, each changing only what it names."""

from __future__ import annotations

import pytest

from app.engine import ConfigError, HouseRules, Layout, Match, MatchConfig, legal_actions, new_match

from .scenario import act, card, drawn_by, names, play, top


def house_match(edition: str, hands: list[list[str]], first: str, draw: tuple[str, ...] = (),
                target: int | None = None, **rules: object) -> Match:
    config = MatchConfig(edition, len(hands), target, HouseRules.from_json(rules))
    match, _ = new_match(config, 0, dealer=len(hands) - 1, layout=Layout(hands, first, draw))
    return match


def test_house_rules_are_off_by_default_and_validated() -> None:
    assert HouseRules().enabled == []
    assert HouseRules.from_json({"stacking": True, "rounds": 3}).enabled == ["stacking", "rounds"]
    bad_inputs: list[object] = [{"stacking": "yes"}, {"nonsense": True}, {"rounds": 0},
                                {"rounds": 2, "single_round": True}, []]
    for bad in bad_inputs:
        with pytest.raises(ConfigError):
            HouseRules.from_json(bad)


def test_without_stacking_a_draw_two_cannot_be_answered() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["blue draw2", "blue 5"], ["green 1", "green 2"]], "red 9")
    events = play(m, 0, "red draw2")
    assert drawn_by(events, 1) == 2 and m.round.current == 2


def test_stacking_draw_two_passes_the_total_on() -> None:
    hands = [["red draw2", "red 1"], ["blue draw2", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True)
    play(m, 0, "red draw2")
    assert m.round.pending is not None and m.round.pending.kind == "stack" and m.round.pending.seat == 1
    assert {a.kind for a in legal_actions(m, 1)} >= {"accept", "play"}
    assert {a.card for a in legal_actions(m, 1) if a.kind == "play"} == {card(m, 1, "blue draw2")}
    play(m, 1, "blue draw2")
    assert m.round.pending.kind == "stack" and m.round.pending.seat == 2 and m.round.pending.penalty == 4
    events = act(m, 2, "accept")
    assert drawn_by(events, 2) == 4 and m.round.current == 0 and m.round.pending.kind == "turn"


def test_stacking_wild_draw_four_and_challenging_the_last_one() -> None:
    hands = [["wild_draw4", "red 1"], ["wild_draw4", "blue 5", "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True)
    play(m, 0, "wild_draw4", colour="blue")  # holds red 1: guilty
    play(m, 1, "wild_draw4", colour="green")  # holds blue cards after blue was declared: guilty too
    assert m.round.pending is not None and m.round.pending.kind == "challenge" and m.round.pending.penalty == 8
    events = act(m, 2, "challenge")
    assert drawn_by(events, 1) == 8 and drawn_by(events, 2) == 0 and m.round.current == 2


def test_seven_swaps_hands_with_the_chosen_player() -> None:
    hands = [["red 7", "red 1", "red 2"], ["blue 5"], ["green 1", "green 2", "green 3", "green 4"]]
    m = house_match("classic", hands, "red 9", seven_o=True)
    targets = {a.target for a in legal_actions(m, 0) if a.kind == "play" and a.card == card(m, 0, "red 7")}
    assert targets == {1, 2}
    play(m, 0, "red 7", target=1)
    assert names(m, 0) == ["blue 5"] and sorted(names(m, 1)) == ["red 1", "red 2"]
    assert m.round.exposed == {0}  # left holding one card without saying UNO


def test_seven_swap_offers_uno_for_the_hand_received() -> None:
    hands = [["red 7", "red 1", "red 2"], ["blue 5"], ["green 1", "green 2", "green 3", "green 4"]]
    m = house_match("classic", hands, "red 9", seven_o=True)
    play(m, 0, "red 7", target=1, uno=True)
    assert m.round.exposed == set() and m.round.declared == {0}


def test_zero_passes_every_hand_in_the_direction_of_play() -> None:
    hands = [["red 0", "red 1"], ["blue 5", "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", seven_o=True)
    play(m, 0, "red 0")
    assert names(m, 1) == ["red 1"] and names(m, 2) == ["blue 5", "blue 6"]
    assert names(m, 0) == ["green 1", "green 2", "green 3"]
    assert m.round.exposed == {1}


def test_without_seven_o_a_seven_is_a_number() -> None:
    m = house_match("classic", [["red 7", "red 1", "red 2"], ["blue 5"], ["green 1"]], "red 9")
    assert all(a.target is None for a in legal_actions(m, 0))
    play(m, 0, "red 7")
    assert sorted(names(m, 0)) == ["red 1", "red 2"]


def test_jump_in_with_an_exact_duplicate_out_of_turn() -> None:
    hands = [["red 5", "red 1"], ["blue 4", "blue 6"], ["red 5", "green 2", "green 3"]]
    m = house_match("classic", hands, "yellow 5", jump_in=True)
    play(m, 0, "red 5")
    assert m.round.current == 1
    jump = [a for a in legal_actions(m, 2) if a.kind == "play"]
    assert [a.card for a in jump] == [card(m, 2, "red 5")]
    events = play(m, 2, "red 5")
    assert any(e.kind == "jump_in" and e.data == {"seat": 2, "skipped": 1} for e in events)
    assert m.round.current == 0  # play carries on from the seat that jumped in
    assert top(m) == "red 5"


def test_no_jump_in_without_the_rule_or_with_a_near_duplicate() -> None:
    hands = [["red 5", "red 1"], ["blue 4", "blue 6"], ["red 5", "blue 5"]]
    m = house_match("classic", hands, "yellow 5")
    play(m, 0, "red 5")
    assert not any(a.kind == "play" for a in legal_actions(m, 2))
    m = house_match("classic", [["red 5", "red 1"], ["blue 4", "blue 6"], ["blue 5", "green 5"]], "yellow 5",
                    jump_in=True)
    play(m, 0, "red 5")
    assert not any(a.kind == "play" for a in legal_actions(m, 2))


def test_draw_until_playable() -> None:
    hands = [["blue 1", "blue 2", "blue 3"], ["green 1", "green 2"]]
    m = house_match("classic", hands, "red 9", ("yellow 1", "green 4", "red 2"), draw_until_playable=True)
    events = act(m, 0, "draw")
    assert drawn_by(events, 0) == 3
    assert m.round.pending is not None and m.round.pending.kind == "drawn"
    assert m.round.cards[m.round.pending.card or 0].name == "red 2"


def test_single_round_match_ends_with_the_first_round() -> None:
    m = house_match("classic", [["red 5"], ["blue 7", "blue 8"]], "red 1", single_round=True)
    play(m, 0, "red 5")
    assert m.phase == "over" and m.winner == 0 and m.scores == [15, 0]


def test_fixed_rounds_highest_total_wins() -> None:
    m = house_match("classic", [["red 5"], ["blue 7", "blue 8"]], "red 1", target=10, rounds=2)
    play(m, 0, "red 5")
    assert m.phase == "between"  # 15 points pass the target, but the rounds decide
    assert MatchConfig("classic", 2, house=HouseRules(rounds=2)).house.rounds == 2
