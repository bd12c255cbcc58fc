"""Scenario tests for classic UNO (RULES.md §2), on stacked decks."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import VARIANTS, Action, IllegalAction, apply, legal_actions, view

from .scenario import act, drawn_by, make, names, play, top


def test_deck_has_108_cards_in_the_published_split__CL_1() -> None:
    cards = VARIANTS["classic"].cards
    assert len(cards) == 108
    count = Counter(c.name for c in cards)
    for colour in ("red", "yellow", "green", "blue"):
        assert count[f"{colour} 0"] == 1
        assert all(count[f"{colour} {n}"] == 2 for n in range(1, 10))
        assert count[f"{colour} skip"] == count[f"{colour} reverse"] == count[f"{colour} draw2"] == 2
    assert count["wild"] == 4 and count["wild_draw4"] == 4


def test_first_number_card_starts_normally__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "blue 3")
    assert m.round.current == 0 and m.round.colour == "blue"


def test_first_skip_skips_the_first_player__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "blue skip")
    assert m.round.current == 1


def test_first_reverse_lets_the_dealer_start_counter_clockwise__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["blue 7", "red 1"]], "blue reverse")
    assert m.round.current == 2 and m.round.direction == -1
    play(m, 2, "blue 7")
    assert m.round.current == 1  # then the seat on the dealer's right


def test_first_draw_two_costs_the_first_player__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "blue draw2")
    assert len(m.round.hands[0]) == 3 and m.round.current == 1


def test_first_wild_lets_the_first_player_declare__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "wild")
    assert m.round.pending is not None and m.round.pending.kind == "colour" and m.round.pending.seat == 0
    assert {a.kind for a in legal_actions(m, 0)} == {"choose_colour"}
    act(m, 0, "choose_colour", colour="red")
    assert m.round.colour == "red" and m.round.pending.kind == "turn" and m.round.current == 0


def test_first_wild_draw_four_goes_back_and_another_is_flipped__CL_2() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "wild_draw4")
    assert top(m) != "wild_draw4"
    assert len(m.round.discard) == 1
    assert "wild_draw4" in [m.round.cards[c].name for c in m.round.draw_pile]


def test_skip_reverse_draw_two__CL_3() -> None:
    hands = [["red skip", "red reverse", "red draw2", "red 1"], ["red 2", "red 3"], ["red 4", "red 6"],
             ["red 7", "red 8"]]
    m = make("classic", hands, "red 9")
    play(m, 0, "red skip")
    assert m.round.current == 2
    m = make("classic", hands, "red 9")
    play(m, 0, "red reverse")
    assert m.round.current == 3
    m = make("classic", hands, "red 9")
    play(m, 0, "red draw2")
    assert len(m.round.hands[1]) == 4 and m.round.current == 2


def test_wild_declares_colour_and_nothing_else__CL_4() -> None:
    m = make("classic", [["wild", "red 1", "red 2"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    events = play(m, 0, "wild", colour="green")
    assert m.round.colour == "green" and m.round.current == 1
    assert {e.kind for e in events} <= {"play"}


def test_wild_draw_four_makes_next_draw_four_and_lose_turn__CL_5() -> None:
    m = make("classic", [["wild_draw4", "red 1"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    play(m, 0, "wild_draw4", colour="blue")
    assert m.round.pending is not None and m.round.pending.kind == "challenge" and m.round.pending.seat == 1
    events = act(m, 1, "accept")
    assert drawn_by(events, 1) == 4 and m.round.current == 2 and m.round.colour == "blue"


def test_illegal_wild_draw_four_is_accepted_and_only_a_challenge_punishes__CL_5() -> None:
    m = make("classic", [["wild_draw4", "yellow 1"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    assert any(a.kind == "play" and a.colour == "red" and names(m, 0)[0] == "wild_draw4" for a in legal_actions(m, 0))
    play(m, 0, "wild_draw4", colour="red")  # holds yellow: illegal, but accepted
    assert m.round.pending is not None and m.round.pending.guilty


def test_number_match_does_not_make_wild_draw_four_illegal__CL_5() -> None:
    m = make("classic", [["wild_draw4", "blue 9", "wild"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    play(m, 0, "wild_draw4", colour="red")
    assert m.round.pending is not None and not m.round.pending.guilty


def test_challenge_guilty_challenged_draws_four_challenger_plays__CL_6() -> None:
    m = make("classic", [["wild_draw4", "yellow 1", "red 2"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    play(m, 0, "wild_draw4", colour="green")
    events = act(m, 1, "challenge")
    assert drawn_by(events, 0) == 4 and drawn_by(events, 1) == 0
    assert m.round.current == 1 and m.round.pending is not None and m.round.pending.kind == "turn"
    assert m.round.colour == "green"  # the declared colour stands
    revealed = view(m, 1)["table"]["revealed"]
    assert revealed["seat"] == 0 and sorted(c["name"] for c in revealed["cards"]) == ["red 2", "yellow 1"]
    assert "revealed" not in view(m, 2)["table"] and "revealed" not in view(m, 0)["table"]
    private = [e for e in events if e.kind == "hand_revealed"]
    assert [e.to for e in private] == [(1,)]


def test_challenge_innocent_challenger_draws_six_and_loses_turn__CL_6() -> None:
    m = make("classic", [["wild_draw4", "blue 1", "red 2"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    play(m, 0, "wild_draw4", colour="red")
    events = act(m, 1, "challenge")
    assert drawn_by(events, 1) == 6 and drawn_by(events, 0) == 0
    assert m.round.current == 2 and m.round.colour == "red"


def test_only_the_victim_may_challenge__CL_6() -> None:
    m = make("classic", [["wild_draw4", "blue 1", "red 2"], ["green 2", "blue 3"], ["red 4", "red 6"]], "yellow 9")
    play(m, 0, "wild_draw4", colour="red")
    with pytest.raises(IllegalAction) as err:
        act(m, 2, "challenge")
    assert err.value.code == "not_your_turn"


def test_values_numbers_face_actions_20_wilds_50__CL_7() -> None:
    hand = ["red 1", "blue 9", "green skip", "yellow reverse", "red draw2", "wild", "wild_draw4"]
    m = make("classic", [["red 5"], hand], "red 3")
    play(m, 0, "red 5")
    assert m.round.points == 1 + 9 + 20 + 20 + 20 + 50 + 50
    assert m.scores == [170, 0]


def test_unknown_or_foreign_card_is_refused__CL_1() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"]], "red 1")
    foreign = m.round.hands[1][0]
    before = m.round.fingerprint()
    for bad in (Action("play", foreign), Action("play", 999), Action("play", None)):
        with pytest.raises(IllegalAction) as err:
            apply(m, 0, bad)
        assert err.value.code in {"card_not_in_hand", "illegal_action"}
    assert m.round.fingerprint() == before
