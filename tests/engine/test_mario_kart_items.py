"""Scenario tests for UNO Mario Kart's items and scoring (RULES.md §3, MK-6 .. MK-11), on stacked
decks; the deck, the first card, Wild Draw Four and the Item Box are in test_mario_kart.py."""

from __future__ import annotations

import pytest

from app.engine import COLOURS, VARIANTS, Action, IllegalAction
from app.engine.round import COLOUR, TARGET, TURN

from .scenario import act, card, drawn_by, kinds, make, names, play
from .test_mario_kart import FILL_A, FILL_B, FILL_C, MK, act_list, hand_value, play_ids, sizes

# ---------------------------------------------------------------- MK-6 Mushroom


def test_mushroom_gives_the_item_box_player_another_turn__MK_6() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], ["red 1", "red 2", "red 3"], FILL_B], "green 5", ["red 3"])
    ev = play(m, 0, "item_box")
    assert next(e for e in ev if e.kind == "item").data["item"] == "mushroom"
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == (TURN, 0)
    assert sizes(m) == [2, 3, 3]
    assert kinds(m, 1) == set()  # seat 1 must wait
    assert "draw" in kinds(m, 0)  # "or draw as usual"
    assert play_ids(m, 0) == {"red 8"}  # plays on the flipped card
    play(m, 0, "red 8")
    assert m.round.current == 1


def test_mushroom_extra_turn_may_be_a_draw__MK_6() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], ["red 1", "red 2", "red 4"], FILL_B], "green 5",
             ["red 3", "blue 9"])
    play(m, 0, "item_box")
    ev = act(m, 0, "draw")
    assert drawn_by(ev, 0) == 1 and "blue 9" in names(m, 0)
    assert m.round.current == 1  # the blue 9 does not match the red 3


def test_mushroom_on_last_card_is_void__MK_6() -> None:
    m = make(MK, [["item_box"], ["red 1", "red 2"], ["blue 1"]], "green 5", ["red 3"])
    play(m, 0, "item_box", target=1)
    assert m.round.winner == 0
    assert sizes(m) == [0, 2, 1]  # the target given with the play does nothing for a Mushroom
    assert m.round.points == 1 + 2 + 1


# ---------------------------------------------------------------- MK-7 Banana Peel


def test_banana_peel_hits_the_previous_player__MK_7() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], FILL_A, FILL_B, FILL_C], "green 5", ["yellow 6", "red 1", "red 2"])
    ev = play(m, 0, "item_box")
    assert next(e for e in ev if e.kind == "item").data["item"] == "banana_peel"
    assert drawn_by(ev, 3) == 2
    assert sorted(names(m, 3)) == sorted([*FILL_C, "red 1", "red 2"])
    assert drawn_by(ev, 0) == drawn_by(ev, 1) == drawn_by(ev, 2) == 0
    assert m.round.current == 1  # play then passes on
    assert m.round.colour == "yellow"


def test_banana_peel_after_reverse_hits_the_seat_before_in_the_new_direction__MK_7() -> None:
    m = make(MK, [["red reverse", "red 8", "blue 4"], FILL_A, FILL_B, ["item_box", "red 9", "green 9"]], "red 5",
             ["yellow 6"])
    play(m, 0, "red reverse")
    assert m.round.current == 3 and m.round.direction == -1
    ev = play(m, 3, "item_box")
    assert drawn_by(ev, 0) == 2  # seat 0 is before seat 3 counter-clockwise
    assert drawn_by(ev, 2) == 0  # not the clockwise neighbour
    assert m.round.current == 2


def test_banana_peel_hits_a_player_skipped_last_turn__MK_7() -> None:
    m = make(MK, [["red skip", "red 8", "blue 4"], FILL_A, ["item_box", "red 9", "green 9"], FILL_C], "red 5",
             ["yellow 6"])
    play(m, 0, "red skip")
    assert m.round.current == 2  # seat 1 was skipped
    ev = play(m, 2, "item_box")
    assert drawn_by(ev, 1) == 2
    assert m.round.current == 3


def test_banana_peel_with_two_players_hits_the_opponent_who_then_plays__MK_7() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], FILL_A], "green 5", ["yellow 6"])
    ev = play(m, 0, "item_box")
    assert drawn_by(ev, 1) == 2
    assert m.round.current == 1


def test_banana_peel_as_last_card_still_draws_and_counts__MK_7() -> None:
    m = make(MK, [["item_box"], ["green 1"], ["blue 1"]], "green 5", ["yellow 6", "red 9", "red 7"])
    ev = play(m, 0, "item_box", target=1)
    assert drawn_by(ev, 2) == 2
    assert m.round.winner == 0
    assert sorted(names(m, 2)) == ["blue 1", "red 7", "red 9"]
    assert m.round.points == 1 + 1 + 9 + 7
    assert m.scores == [18, 0, 0]


# ---------------------------------------------------------------- MK-8 Green Shell


def test_green_shell_player_chooses_an_opponent_who_draws_one__MK_8() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], FILL_A, FILL_B, FILL_C], "red 5", ["green 6", "red 1"])
    ev = play(m, 0, "item_box")
    assert next(e for e in ev if e.kind == "item").data["item"] == "green_shell"
    assert not any(e.kind == "draw" for e in ev)
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (TARGET, 0, "green_shell")
    assert act_list(m, 0) == [Action("choose_target", target=t) for t in (1, 2, 3)]
    assert kinds(m, 1) == set()
    with pytest.raises(IllegalAction):
        act(m, 0, "choose_target", target=0)
    ev = act(m, 0, "choose_target", target=2)
    assert drawn_by(ev, 2) == 1 and "red 1" in names(m, 2)
    assert drawn_by(ev, 0) == drawn_by(ev, 1) == drawn_by(ev, 3) == 0
    assert m.round.current == 1  # play passes on; the target is not skipped


def test_green_shell_on_the_next_player_does_not_cost_a_turn__MK_8() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], FILL_A, FILL_B], "red 5", ["green 6"])
    play(m, 0, "item_box")
    ev = act(m, 0, "choose_target", target=1)
    assert drawn_by(ev, 1) == 1
    assert m.round.current == 1
    assert m.round.colour == "green"


def test_green_shell_as_last_card_names_the_target_with_the_play__MK_8() -> None:
    m = make(MK, [["item_box"], ["green 1", "green 2"], ["blue 1", "blue 2"]], "red 5", ["green 6", "red 9"])
    item_box = card(m, 0, "item_box")
    plays = [a for a in act_list(m, 0) if a.kind == "play"]
    assert plays == [Action("play", item_box, None, 1), Action("play", item_box, None, 2)]
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "item_box")
    assert err.value.code == "target_required"
    ev = play(m, 0, "item_box", target=2)
    assert drawn_by(ev, 2) == 1 and drawn_by(ev, 1) == 0
    assert sorted(names(m, 2)) == ["blue 1", "blue 2", "red 9"]
    assert m.round.winner == 0
    assert m.round.points == 1 + 2 + 1 + 2 + 9
    assert m.scores[0] == m.round.points


def test_item_box_not_last_takes_no_target__MK_8() -> None:
    m = make(MK, [["item_box", "red 8"], FILL_A, FILL_B], "red 5", ["green 6"])
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "item_box", target=1)
    assert err.value.code == "target_not_allowed"


# ---------------------------------------------------------------- MK-9 Lightning


def test_lightning_hits_everyone_but_the_player_who_plays_again__MK_9() -> None:
    m = make(MK, [["item_box", "blue 8", "red 4"], FILL_A, FILL_B, FILL_C], "red 5",
             ["blue 6", "red 1", "red 2", "red 3", "red 7"])
    ev = play(m, 0, "item_box")
    assert next(e for e in ev if e.kind == "item").data["item"] == "lightning"
    assert [drawn_by(ev, s) for s in range(4)] == [0, 1, 1, 1]
    assert sizes(m) == [2, 4, 4, 4]
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == (TURN, 0)
    assert play_ids(m, 0) == {"blue 8"}
    play(m, 0, "blue 8")
    assert m.round.current == 1


def test_lightning_after_reverse_still_spares_only_the_player__MK_9() -> None:
    m = make(MK, [["red reverse", "red 8"], FILL_A, ["item_box", "blue 8", "red 4"]], "red 5", ["blue 6"])
    play(m, 0, "red reverse")
    ev = play(m, 2, "item_box")
    assert [drawn_by(ev, s) for s in range(3)] == [1, 1, 0]
    assert m.round.current == 2


def test_lightning_as_last_card_draws_count_for_scoring__MK_9() -> None:
    m = make(MK, [["item_box"], ["green 1"], ["blue 1"]], "red 5", ["blue 6", "red 9", "red 7"])
    ev = play(m, 0, "item_box", target=1)
    assert [drawn_by(ev, s) for s in range(3)] == [0, 1, 1]
    assert m.round.winner == 0
    assert m.round.points == 1 + 1 + 9 + 7


# ---------------------------------------------------------------- MK-10 Bob-omb


def test_bob_omb_player_draws_two_then_declares_the_colour__MK_10() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], ["blue 5", "red 5", "green 5", "item_box"], FILL_B], "red 5",
             ["wild_draw4", "yellow 1", "yellow 2"])
    ev = play(m, 0, "item_box")
    assert next(e for e in ev if e.kind == "item").data["item"] == "bob_omb"
    assert drawn_by(ev, 0) == 2 and drawn_by(ev, 1) == 0 and drawn_by(ev, 2) == 0
    assert sorted(names(m, 0)) == ["blue 4", "red 8", "yellow 1", "yellow 2"]
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (COLOUR, 0, "bob_omb")
    assert {a.colour for a in act_list(m, 0)} == set(COLOURS)
    assert kinds(m, 1) == set()
    act(m, 0, "choose_colour", colour="blue")
    assert m.round.colour == "blue"
    assert m.round.current == 1
    assert play_ids(m, 1) == {"blue 5", "item_box"}


def test_bob_omb_from_a_flipped_item_box__MK_10() -> None:
    m = make(MK, [["item_box", "red 8", "blue 4"], FILL_A, FILL_B], "red 5", ["item_box", "yellow 1", "yellow 2"])
    ev = play(m, 0, "item_box")
    assert drawn_by(ev, 0) == 2
    act(m, 0, "choose_colour", colour="green")
    assert m.round.current == 1 and m.round.colour == "green"


def test_bob_omb_on_last_card_is_void__MK_10() -> None:
    m = make(MK, [["item_box"], ["green 1"], ["blue 2"]], "red 5", ["wild_draw4", "yellow 1", "yellow 2"])
    ev = play(m, 0, "item_box", target=1)
    assert drawn_by(ev, 0) == 0
    assert m.round.winner == 0 and m.round.pending is None
    assert sizes(m) == [0, 1, 1]
    assert m.round.points == 3


# ---------------------------------------------------------------- MK-11 values


def test_card_values__MK_11() -> None:
    for ct in VARIANTS[MK].cards:
        if ct.face.isdigit():
            assert ct.value == int(ct.face)
        elif ct.face in ("skip", "reverse", "draw2"):
            assert ct.value == 20
        else:
            assert ct.face in ("wild_draw4", "item_box") and ct.value == 50


def test_worked_example_scores_135__MK_11() -> None:
    loser = ["red 1", "yellow 3", "green 4", "blue 8", "red 9", "red skip", "blue reverse", "green draw2",
             "wild_draw4"]
    m = make(MK, [["red 5"], loser], "red 2")
    assert hand_value(m, 1) == 135
    play(m, 0, "red 5")
    assert m.round.winner == 0
    assert m.round.points == 135
    assert m.scores == [135, 0]
    assert m.phase == "between"


def test_item_box_and_zero_values_in_scoring__MK_11() -> None:
    m = make(MK, [["red 5"], ["item_box", "green 0"], ["item_box", "blue 0", "blue 7"]], "red 2", target=100)
    play(m, 0, "red 5")
    assert m.round.points == 50 + 0 + 50 + 0 + 7
    assert m.scores == [107, 0, 0]
    assert m.phase == "over" and m.winner == 0
