"""Scenario tests for UNO All Wild (RULES.md §4, AW-1 .. AW-3: the deck and the cards' effects), on
stacked decks; the first card, the must-play turn, the special draw and scoring are in
test_all_wild_turns.py."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import VARIANTS, Action, Event, IllegalAction, Match, MatchConfig, legal_actions, new_match, view
from app.engine.round import TURN

from .scenario import act, card, drawn_by, kinds, make, names, play

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
