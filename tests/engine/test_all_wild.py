"""Scenario tests for UNO All Wild (RULES.md §4, AW-1 .. AW-7), on stacked decks."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import VARIANTS, Action, Event, IllegalAction, Match, MatchConfig, legal_actions, new_match, view
from app.engine.round import SPECIAL, TARGET, TURN

from .scenario import act, card, drawn_by, kinds, make, names, play, top

AW = "all_wild"
ACTION_FACES = ("wild_reverse", "wild_skip", "wild_draw2", "wild_draw4", "wild_skip2", "wild_targeted_draw2",
                "wild_forced_swap")


def wilds(n: int) -> list[str]:
    return ["wild"] * n


def sizes(match: Match) -> list[int]:
    return [len(h) for h in match.round.hands]


def turn_of(match: Match) -> int:
    p = match.round.pending
    assert p is not None and p.kind == TURN, p
    return p.seat


def skipped(events: list[Event]) -> list[int]:
    return [e.data["seat"] for e in events if e.kind == "skipped"]


# ---------------------------------------------------------------- AW-1 deck


def test_deck_has_112_wild_cards_in_the_published_split__AW_1() -> None:
    cards = VARIANTS[AW].cards
    assert len(cards) == 112
    assert all(c.is_wild and c.colour is None for c in cards)
    assert not any(c.face.isdigit() for c in cards)
    assert Counter(c.name for c in cards) == {
        "wild": 54, "wild_reverse": 14, "wild_skip": 14, "wild_draw2": 10, "wild_draw4": 6, "wild_skip2": 6,
        "wild_targeted_draw2": 4, "wild_forced_swap": 4,
    }


def test_dealt_round_uses_the_whole_deck_and_seven_cards__AW_1() -> None:
    match, _ = new_match(MatchConfig(AW, 5), seed=3)
    rnd = match.round
    assert sizes(match) == [7] * 5
    assert sorted([c for h in rnd.hands for c in h] + rnd.draw_pile + rnd.discard) == list(range(112))


# ---------------------------------------------------------------- AW-2 effects


def test_every_card_may_always_be_played__AW_2() -> None:
    hand = ["wild", *ACTION_FACES]
    m = make(AW, [wilds(3), wilds(3), hand], "wild", dealer=1)
    assert turn_of(m) == 2
    playable = {m.round.cards[a.card].face for a in legal_actions(m, 2) if a.kind == "play" and a.card is not None}
    assert playable == set(hand)


def test_plain_wild_does_nothing__AW_2() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild")
    ev = play(m, 0, "wild")
    assert turn_of(m) == 1
    assert m.round.direction == 1
    assert not any(e.kind in ("draw", "skipped", "reverse") for e in ev)


def test_wild_reverse_flips_direction__AW_2() -> None:
    m = make(AW, [["wild_reverse", "wild", "wild"], wilds(3), wilds(3)], "wild")
    play(m, 0, "wild_reverse")
    assert m.round.direction == -1
    assert turn_of(m) == 2
    play(m, 2, "wild")
    assert turn_of(m) == 1


def test_wild_reverse_with_two_players_acts_as_skip__AW_2() -> None:
    m = make(AW, [["wild_reverse", "wild", "wild"], wilds(3)], "wild")
    play(m, 0, "wild_reverse")
    assert turn_of(m) == 0


def test_wild_skip_costs_the_next_player_a_turn__AW_2() -> None:
    m = make(AW, [["wild_skip", "wild", "wild"], wilds(3), wilds(3)], "wild")
    ev = play(m, 0, "wild_skip")
    assert skipped(ev) == [1]
    assert turn_of(m) == 2


def test_double_skip_with_two_players_gives_two_more_turns__AW_2() -> None:
    m = make(AW, [["wild_skip2", "wild", "wild", "wild"], wilds(3)], "wild")
    play(m, 0, "wild_skip2")
    assert turn_of(m) == 0
    assert kinds(m, 1) == set()
    play(m, 0, "wild")
    assert turn_of(m) == 0  # the second extra turn
    play(m, 0, "wild")
    assert turn_of(m) == 1
    assert m.round.owed == [0, 0]


def test_double_skip_with_three_players_player_plays_again__AW_2() -> None:
    m = make(AW, [["wild_skip2", "wild", "wild"], wilds(3), wilds(3)], "wild")
    ev = play(m, 0, "wild_skip2")
    assert skipped(ev) == [1, 2]
    assert turn_of(m) == 0
    play(m, 0, "wild")
    assert turn_of(m) == 1  # exactly one extra turn
    assert m.round.owed == [0, 0, 0]


def test_double_skip_with_four_players_skips_the_next_two__AW_2() -> None:
    m = make(AW, [["wild_skip2", "wild", "wild"], wilds(3), wilds(3), wilds(3)], "wild")
    ev = play(m, 0, "wild_skip2")
    assert skipped(ev) == [1, 2]
    assert turn_of(m) == 3
    play(m, 3, "wild")
    assert turn_of(m) == 0
    assert m.round.owed == [0, 0, 0, 0]


def test_double_skip_follows_the_current_direction__AW_2() -> None:
    m = make(AW, [["wild_reverse", "wild", "wild"], wilds(3), wilds(3), ["wild_skip2", "wild", "wild"]], "wild")
    play(m, 0, "wild_reverse")
    ev = play(m, 3, "wild_skip2")
    assert skipped(ev) == [2, 1]
    assert turn_of(m) == 0


@pytest.mark.parametrize(("face", "count"), [("wild_draw2", 2), ("wild_draw4", 4)])
def test_wild_draw_cards_make_the_next_player_draw_and_lose_the_turn__AW_2(face: str, count: int) -> None:
    m = make(AW, [[face, "wild", "wild"], wilds(3), wilds(3)], "wild")
    ev = play(m, 0, face)
    assert drawn_by(ev, 1) == count
    assert drawn_by(ev, 0) == drawn_by(ev, 2) == 0
    assert sizes(m) == [2, 3 + count, 3]
    assert turn_of(m) == 2


def test_targeted_draw_two_hits_the_chosen_opponent_who_keeps_the_turn__AW_2() -> None:
    m = make(AW, [["wild_targeted_draw2", "wild", "wild"], wilds(3), wilds(3), wilds(3)], "wild")
    c = card(m, 0, "wild_targeted_draw2")
    assert [a for a in legal_actions(m, 0) if a.card == c] == [Action("play", c, None, t) for t in (1, 2, 3)]
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "wild_targeted_draw2")
    assert err.value.code == "target_required"
    with pytest.raises(IllegalAction):
        play(m, 0, "wild_targeted_draw2", target=0)
    ev = play(m, 0, "wild_targeted_draw2", target=2)
    assert drawn_by(ev, 2) == 2
    assert sizes(m) == [2, 3, 5, 3]
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 2  # the target was not skipped


def test_targeted_draw_two_on_the_next_player_keeps_their_turn__AW_2() -> None:
    m = make(AW, [["wild_targeted_draw2", "wild", "wild"], wilds(3), wilds(3)], "wild")
    ev = play(m, 0, "wild_targeted_draw2", target=1)
    assert drawn_by(ev, 1) == 2
    assert turn_of(m) == 1


def test_forced_swap_swaps_hands_and_nobody_loses_a_turn__AW_2() -> None:
    m = make(AW, [["wild_forced_swap", "wild", "wild_skip"], wilds(4), ["wild_reverse", "wild_draw2"]], "wild")
    ev = play(m, 0, "wild_forced_swap", target=2)
    assert sorted(names(m, 0)) == ["wild_draw2", "wild_reverse"]
    assert sorted(names(m, 2)) == ["wild", "wild_skip"]
    assert names(m, 1) == wilds(4)
    assert any(e.kind == "swap" and e.data == {"seat": 0, "target": 2} for e in ev)
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 2


def test_forced_swap_exposes_the_target_left_with_one_card__AW_2() -> None:
    m = make(AW, [["wild_forced_swap", "wild_skip"], wilds(3), wilds(3)], "wild")
    c = card(m, 0, "wild_forced_swap")
    # The player will hold the target's three cards: no UNO can be said with this play.
    assert not any(a.uno for a in legal_actions(m, 0) if a.card == c)
    ev = play(m, 0, "wild_forced_swap", target=2)
    assert names(m, 2) == ["wild_skip"]
    assert any(e.kind == "exposed" and e.data["seat"] == 2 for e in ev)
    assert m.round.exposed == {2}
    assert Action("catch", target=2) in legal_actions(m, 1)
    ev = act(m, 1, "catch", target=2)
    assert drawn_by(ev, 2) == 2
    assert sizes(m) == [3, 3, 3]


def test_forced_swap_exposed_target_may_declare__AW_2() -> None:
    m = make(AW, [["wild_forced_swap", "wild_skip"], wilds(3), wilds(3)], "wild")
    play(m, 0, "wild_forced_swap", target=2)
    act(m, 2, "declare_uno")
    assert m.round.exposed == set() and m.round.declared == {2}
    with pytest.raises(IllegalAction):
        act(m, 1, "catch", target=2)


def test_forced_swap_player_left_with_one_card_may_say_uno_with_the_play__AW_2() -> None:
    m = make(AW, [["wild_forced_swap", "wild", "wild"], ["wild_skip"], wilds(3)], "wild")
    c = card(m, 0, "wild_forced_swap")
    assert Action("play", c, None, 1, True) in legal_actions(m, 0)
    assert Action("play", c, None, 2, True) not in legal_actions(m, 0)
    play(m, 0, "wild_forced_swap", target=1, uno=True)
    assert names(m, 0) == ["wild_skip"]
    assert sizes(m) == [1, 2, 3]
    assert m.round.declared == {0} and m.round.exposed == set()
    assert turn_of(m) == 1


def test_forced_swap_player_left_with_one_card_without_uno_is_exposed__AW_2() -> None:
    m = make(AW, [["wild_forced_swap", "wild", "wild"], ["wild_skip"], wilds(3)], "wild")
    play(m, 0, "wild_forced_swap", target=1)
    assert m.round.exposed == {0}
    ev = act(m, 2, "catch", target=0)
    assert drawn_by(ev, 0) == 2


def test_forced_swap_as_last_card_is_void__AW_2() -> None:
    m = make(AW, [["wild_forced_swap"], ["wild", "wild_skip"], wilds(2)], "wild")
    play(m, 0, "wild_forced_swap", target=1)
    assert m.round.winner == 0
    assert names(m, 0) == []
    assert sorted(names(m, 1)) == ["wild", "wild_skip"]
    assert m.round.points == 20 + 50 + 20 + 20
    assert m.scores == [110, 0, 0]


def test_targeted_draw_two_as_last_card_still_draws_and_counts__AW_2() -> None:
    m = make(AW, [["wild_targeted_draw2"], ["wild"], ["wild"]], "wild", ["wild_draw4", "wild"])
    ev = play(m, 0, "wild_targeted_draw2", target=2)
    assert drawn_by(ev, 2) == 2
    assert m.round.winner == 0
    assert m.round.points == 20 + 20 + 50 + 20


# ---------------------------------------------------------------- AW-3 no colours, no challenges


def test_no_colour_is_ever_declared__AW_3() -> None:
    m = make(AW, [["wild", *ACTION_FACES], wilds(3), wilds(3)], "wild")
    assert m.round.colour is None
    assert m.round.pending is not None and m.round.pending.kind == TURN  # a wild first card asks nothing
    assert all(a.colour is None for a in legal_actions(m, 0))
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "wild", colour="red")
    assert err.value.code == "colour_not_allowed"
    play(m, 0, "wild")
    assert m.round.colour is None and view(m, 1)["table"]["colour"] is None
    assert m.round.pending is not None and m.round.pending.kind == TURN


def test_wild_draw_four_cannot_be_challenged__AW_3() -> None:
    m = make(AW, [["wild_draw4", "wild", "wild"], wilds(3), wilds(3)], "wild")
    play(m, 0, "wild_draw4")
    assert turn_of(m) == 2
    assert "challenge" not in kinds(m, 1) and "accept" not in kinds(m, 1)
    with pytest.raises(IllegalAction):
        act(m, 1, "challenge")


# ---------------------------------------------------------------- AW-4 first card


@pytest.mark.parametrize(
    ("first", "current", "direction", "draws"),
    [
        ("wild", 0, 1, [0, 0, 0, 0]),
        ("wild_skip", 1, 1, [0, 0, 0, 0]),
        ("wild_skip2", 2, 1, [0, 0, 0, 0]),
        ("wild_reverse", 3, -1, [0, 0, 0, 0]),
        ("wild_draw2", 1, 1, [2, 0, 0, 0]),
        ("wild_draw4", 1, 1, [4, 0, 0, 0]),
    ],
)
def test_first_card_acts_as_if_the_dealer_played_it__AW_4(
        first: str, current: int, direction: int, draws: list[int]) -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3), wilds(3)], first)  # dealer 3, first player 0
    assert turn_of(m) == current
    assert m.round.direction == direction
    assert sizes(m) == [3 + d for d in draws]
    assert m.round.owed == [0, 0, 0, 0]
    play(m, current, "wild")
    assert turn_of(m) == (current + direction) % 4


def test_first_double_skip_with_three_players_lets_the_dealer_play__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_skip2")
    assert turn_of(m) == 2
    play(m, 2, "wild")
    assert turn_of(m) == 0


def test_first_double_skip_with_two_players_gives_the_dealer_two_turns__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3)], "wild_skip2")
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 1
    play(m, 1, "wild")
    assert turn_of(m) == 0


def test_first_reverse_dealer_plays_counter_clockwise__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_reverse", dealer=1)
    assert turn_of(m) == 1 and m.round.direction == -1
    play(m, 1, "wild")
    assert turn_of(m) == 0


def test_first_targeted_draw_two_dealer_chooses_target_who_keeps_turn__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_targeted_draw2", ["wild_skip", "wild_draw4"])
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (TARGET, 2, "first_targeted")
    assert legal_actions(m, 2) == [Action("choose_target", target=0), Action("choose_target", target=1)]
    assert kinds(m, 0) == set()
    assert view(m, 0)["table"]["pending"] == {"kind": "target", "seat": 2, "reason": "first_targeted"}
    ev = act(m, 2, "choose_target", target=0)
    assert drawn_by(ev, 0) == 2
    assert sorted(names(m, 0)) == ["wild", "wild", "wild", "wild_draw4", "wild_skip"]
    assert turn_of(m) == 0  # the first player draws and still plays


def test_first_targeted_draw_two_on_another_seat__AW_4() -> None:
    m = make(AW, [wilds(3), wilds(3), wilds(3)], "wild_targeted_draw2")
    ev = act(m, 2, "choose_target", target=1)
    assert drawn_by(ev, 1) == 2 and drawn_by(ev, 0) == 0
    assert turn_of(m) == 0


def test_first_forced_swap_dealer_chooses_whom_to_swap_with__AW_4() -> None:
    m = make(AW, [["wild_skip", "wild_draw2"], wilds(4), ["wild_reverse", "wild", "wild"]], "wild_forced_swap")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (TARGET, 2, "first_swap")
    ev = act(m, 2, "choose_target", target=0)
    assert any(e.kind == "swap" for e in ev)
    assert sorted(names(m, 2)) == ["wild_draw2", "wild_skip"]
    assert sorted(names(m, 0)) == ["wild", "wild", "wild_reverse"]
    assert names(m, 1) == wilds(4)
    assert turn_of(m) == 0


# ---------------------------------------------------------------- AW-5 must play


def test_no_voluntary_draw__AW_5() -> None:
    m = make(AW, [["wild_skip", "wild"], wilds(3), wilds(3)], "wild")
    assert "draw" not in kinds(m, 0)
    assert kinds(m, 0) == {"play", "declare_uno"}
    assert all(a.kind != "draw" for s in range(3) for a in legal_actions(m, s))
    before = m.round.fingerprint()
    with pytest.raises(IllegalAction):
        act(m, 0, "draw")
    assert m.round.fingerprint() == before  # refused, nothing changed
    assert "draw" not in [a["kind"] for a in view(m, 0)["table"]["legal"]]


def test_refused_draw_says_why__AW_5() -> None:
    """AW-5 / AW-6: a refused draw or special draw gives its own error code."""
    m = make(AW, [["wild_skip", "wild"], wilds(3), wilds(3)], "wild")
    with pytest.raises(IllegalAction) as err:
        act(m, 0, "draw")
    assert err.value.code == "must_play"
    with pytest.raises(IllegalAction) as err:
        act(m, 0, "special_draw")
    assert err.value.code == "special_draw_not_allowed"


# ---------------------------------------------------------------- AW-6 special draw


def test_special_draw_offered_with_only_plain_wilds_and_next_on_one_card__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild_draw2"])
    assert "special_draw" in kinds(m, 0)
    assert "draw" not in kinds(m, 0)
    ev = act(m, 0, "special_draw")
    assert drawn_by(ev, 0) == 1
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == (SPECIAL, 0)
    assert p.card is not None and m.round.cards[p.card].name == "wild_draw2"
    # The drawn card must be played: nothing else is offered, not even keeping it.
    assert legal_actions(m, 0) == [Action("play_drawn", p.card)]
    assert view(m, 0)["table"]["drawn"]["name"] == "wild_draw2"
    for kind in ("keep", "draw"):
        with pytest.raises(IllegalAction):
            act(m, 0, kind)
    with pytest.raises(IllegalAction):
        play(m, 0, "wild")
    ev = act(m, 0, "play_drawn", card=p.card)
    assert drawn_by(ev, 1) == 2  # the action happens
    assert turn_of(m) == 2
    assert sizes(m) == [3, 3, 3]


def test_special_draw_of_a_plain_wild_is_bad_luck__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild"])
    ev = act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.kind == SPECIAL and p.card is not None
    ev = act(m, 0, "play_drawn", card=p.card)
    assert not any(e.kind == "draw" for e in ev)
    assert turn_of(m) == 1
    assert sizes(m) == [3, 1, 3]


def test_special_draw_of_a_targeted_card_takes_a_target__AW_6() -> None:
    m = make(AW, [wilds(3), ["wild"], wilds(3)], "wild", ["wild_targeted_draw2"])
    act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.card is not None
    assert legal_actions(m, 0) == [Action("play_drawn", p.card, None, t) for t in (1, 2)]
    ev = act(m, 0, "play_drawn", card=p.card, target=1)
    assert drawn_by(ev, 1) == 2
    assert turn_of(m) == 1


@pytest.mark.parametrize(
    "hands",
    [
        [["wild", "wild", "wild_skip"], ["wild"], wilds(3)],  # holds an action card
        [wilds(3), wilds(2), ["wild"]],  # the *previous* player is on one card
        [wilds(3), wilds(2), wilds(3)],  # nobody on one card
    ],
)
def test_special_draw_not_offered_otherwise__AW_6(hands: list[list[str]]) -> None:
    m = make(AW, hands, "wild")
    assert "special_draw" not in kinds(m, 0)
    with pytest.raises(IllegalAction):
        act(m, 0, "special_draw")
    assert turn_of(m) == 0 and sizes(m) == [len(h) for h in hands]


def test_special_draw_looks_at_the_next_player_in_the_current_direction__AW_6() -> None:
    hands = [wilds(3), wilds(3), ["wild"]]
    m = make(AW, hands, "wild", dealer=2)
    assert turn_of(m) == 0
    assert "special_draw" not in kinds(m, 0)  # clockwise, seat 1 (three cards) is next
    m = make(AW, hands, "wild_reverse", dealer=0)
    assert turn_of(m) == 0 and m.round.direction == -1
    assert "special_draw" in kinds(m, 0)  # counter-clockwise, seat 2 (one card) is next


def test_special_draw_with_one_card_in_hand_may_say_uno_with_the_play__AW_6() -> None:
    m = make(AW, [["wild"], ["wild"], wilds(3)], "wild", ["wild_skip"])
    act(m, 0, "special_draw")
    p = m.round.pending
    assert p is not None and p.card is not None
    assert Action("play_drawn", p.card, None, None, True) in legal_actions(m, 0)
    act(m, 0, "play_drawn", card=p.card, uno=True)
    assert m.round.declared == {0}
    assert turn_of(m) == 2  # seat 1 skipped


# ---------------------------------------------------------------- AW-7 values


def test_card_values__AW_7() -> None:
    for ct in VARIANTS[AW].cards:
        assert ct.value == (20 if ct.face == "wild" else 50)


def test_round_scoring_uses_all_wild_values__AW_7() -> None:
    m = make(AW, [["wild"], ["wild", "wild_skip"], ["wild_forced_swap", "wild", "wild_draw4"]], "wild")
    play(m, 0, "wild")
    assert m.round.winner == 0
    assert m.round.points == 20 + 50 + 50 + 20 + 50
    assert m.scores == [190, 0, 0]
    assert top(m) == "wild"
