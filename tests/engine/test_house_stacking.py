"""The stacking family (RULES.md §7.1, HR-1 … HR-5), HR-21, and how they meet the rest (HX-3, HX-5, HX-6, HX-9 …)."""

from __future__ import annotations

import pytest

from app.engine import Action, HouseRules, IllegalAction, Layout, Match, MatchConfig, apply, legal_actions, new_match

from .scenario import act, card, drawn_by, play


def house_match(edition: str, hands: list[list[str]], first: str, draw: tuple[str, ...] = (),
                **rules: object) -> Match:
    """Seat 0 plays first (the last seat deals), on ``first``."""
    config = MatchConfig(edition, len(hands), None, HouseRules.from_json(rules))
    match, _ = new_match(config, 0, dealer=len(hands) - 1, layout=Layout(hands, first, draw))
    return match


def pending(m: Match) -> tuple[str, int, int]:
    p = m.round.pending
    assert p is not None
    return str(p.kind), p.seat, p.penalty


def answers(m: Match, seat: int) -> set[str]:
    rnd = m.round
    return {rnd.cards[a.card].name for a in legal_actions(m, seat) if a.kind == "play" and a.card is not None}


def refusal_code(m: Match, seat: int, name: str, colour: str | None = None) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(m, seat, Action("play", card(m, seat, name), colour))
    return str(err.value.code)


THREE = [["red draw2", "red 1", "red 2"], ["blue draw2", "wild_draw4", "blue 5"], ["green 1", "green 2", "green 3"]]


def test_stack_only_small_keeps_big_draws_unanswered__HR_1() -> None:
    m = house_match("classic", [["red draw2", "wild_draw4", "red 1"], ["blue draw2", "wild_draw4", "blue 5"],
                                ["green 1", "green 2", "green 3"]], "red 9", stacking=True, stack_only="small")
    play(m, 0, "red draw2")
    assert pending(m) == ("stack", 1, 2) and answers(m, 1) == {"blue draw2"}  # no cross-stack either
    play(m, 1, "blue draw2")
    act(m, 2, "accept")
    play(m, 0, "wild_draw4", colour="blue")
    assert pending(m)[:2] == ("challenge", 1) and answers(m, 1) == set()
    assert refusal_code(m, 1, "wild_draw4", "red") == "card_not_playable"  # D-12: it is no answer


def test_stack_only_big_draws_a_small_draw_at_once__HR_1() -> None:
    m = house_match("classic", THREE, "red 9", stacking=True, stack_only="big")
    events = play(m, 0, "red draw2")
    assert drawn_by(events, 1) == 2 and pending(m)[:2] == ("turn", 2)


def test_cross_stack_up_answers_a_small_draw_with_the_big_one__HR_2() -> None:
    m = house_match("classic", THREE, "red 9", stacking=True, cross_stack="up")
    play(m, 0, "red draw2")
    assert answers(m, 1) == {"blue draw2", "wild_draw4"}
    play(m, 1, "wild_draw4", colour="green")
    # HX-3: a big Draw played as an answer is challengeable by the seat it hits.
    assert pending(m) == ("challenge", 2, 6) and m.round.pending is not None
    assert m.round.pending.draw_kind == "big"


def test_cross_stack_colour__HR_2() -> None:
    """``both``: a big Draw may be answered by a small Draw of the current colour only (D-13: same kind, any)."""
    hands = [["wild_draw4", "red 1", "red 2"], ["blue draw2", "red draw2", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True, cross_stack="both")
    play(m, 0, "wild_draw4", colour="blue")
    assert answers(m, 1) == {"blue draw2"}
    assert refusal_code(m, 1, "red draw2") == "card_not_playable"
    play(m, 1, "blue draw2")
    assert pending(m) == ("stack", 2, 6)
    p = m.round.pending
    assert p is not None and p.draw_kind == "small"


def test_cross_stack_in_all_wild_needs_no_colour__HR_2__HX_10() -> None:
    hands = [["wild_draw4", "wild", "wild"], ["wild_draw2", "wild_targeted_draw2", "wild_skip2"], ["wild"] * 3]
    m = house_match("all_wild", hands, "wild", stacking=True, cross_stack="both")
    play(m, 0, "wild_draw4")
    # HX-10: Targeted Draw Two and Double Skip are never answers; nothing is challenged.
    assert pending(m) == ("stack", 1, 4) and answers(m, 1) == {"wild_draw2"}
    play(m, 1, "wild_draw2")
    events = act(m, 2, "accept")
    assert drawn_by(events, 2) == 6 and pending(m)[:2] == ("turn", 0)


def test_reverse_deflects_a_small_draw_without_stacking__HR_3() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["red reverse", "blue reverse", "blue 5"],
             ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", reverse_deflect="small")
    play(m, 0, "red draw2")
    assert pending(m) == ("stack", 1, 2) and answers(m, 1) == {"red reverse"}  # of the current colour only
    events = play(m, 1, "red reverse")
    assert m.round.direction == -1 and pending(m) == ("stack", 0, 2)  # the next seat in the new direction
    assert any(e.kind == "deflect" and e.data["to"] == 0 for e in events)
    assert answers(m, 0) == set()  # no stacking: it may only accept or deflect again
    events = act(m, 0, "accept")
    assert drawn_by(events, 0) == 2 and pending(m)[:2] == ("turn", 2)


def test_reverse_deflect_small_leaves_big_draws_alone__HR_3() -> None:
    hands = [["wild_draw4", "red 1", "red 2"], ["green reverse", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", reverse_deflect="small")
    play(m, 0, "wild_draw4", colour="green")
    assert pending(m)[:2] == ("challenge", 1) and answers(m, 1) == set()


def test_reverse_deflect_all_takes_a_big_draw_and_it_is_no_longer_challengeable__HR_3__HX_3() -> None:
    hands = [["wild_draw4", "red 1", "red 2"], ["green reverse", "blue 5", "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", reverse_deflect="all")
    play(m, 0, "wild_draw4", colour="green")
    assert pending(m)[:2] == ("challenge", 1) and answers(m, 1) == {"green reverse"}
    play(m, 1, "green reverse")
    assert pending(m) == ("stack", 0, 4)  # a deflection: no challenge for the new seat
    assert {a.kind for a in legal_actions(m, 0)} == {"accept"}


def test_reverse_deflect_with_two_players_goes_to_the_other_seat__HR_3() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["red reverse", "blue 5", "blue 6"]], "red 9",
                    reverse_deflect="small")
    play(m, 0, "red draw2")
    play(m, 1, "red reverse")
    assert pending(m) == ("stack", 0, 2)


def test_skip_deflects_to_the_seat_after_the_deflecting_one__HR_4() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["red skip", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", skip_deflect="small")
    play(m, 0, "red draw2")
    play(m, 1, "red skip")
    assert m.round.direction == 1 and pending(m) == ("stack", 2, 2)
    events = act(m, 2, "accept")
    assert drawn_by(events, 2) == 2 and pending(m)[:2] == ("turn", 0)


def test_skip_deflect_in_all_wild_uses_the_wild_skip__HR_4__HX_10() -> None:
    hands = [["wild_draw4", "wild", "wild"], ["wild_skip", "wild_skip2", "wild"], ["wild"] * 3]
    m = house_match("all_wild", hands, "wild", skip_deflect="all")
    play(m, 0, "wild_draw4")
    assert pending(m) == ("stack", 1, 4) and answers(m, 1) == {"wild_skip"}
    play(m, 1, "wild_skip")
    assert pending(m) == ("stack", 2, 4)


def test_revenge_counts_an_answer_twice__HR_5() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["blue draw2", "blue 5", "blue 6"],
             ["wild_draw4", "green 2", "green 3"], ["yellow 1", "yellow 2", "yellow 3"]]
    m = house_match("classic", hands, "red 9", stacking=True, cross_stack="up", revenge=True)
    play(m, 0, "red draw2")
    assert pending(m) == ("stack", 1, 2)  # the opening Draw card counts once
    play(m, 1, "blue draw2")
    assert pending(m) == ("stack", 2, 6)  # 2 + 4
    play(m, 2, "wild_draw4", colour="yellow")
    assert pending(m) == ("challenge", 3, 14)  # 6 + 8
    events = act(m, 3, "challenge")  # innocent (no blue card was held): T + 2, not doubled
    assert drawn_by(events, 3) == 16


def test_revenge_adds_nothing_for_a_deflection__HR_5() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["red reverse", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True, reverse_deflect="small", revenge=True)
    play(m, 0, "red draw2")
    play(m, 1, "red reverse")
    assert pending(m) == ("stack", 0, 2)


def test_pocket_pizza_revenge_under_up__HX_11() -> None:
    hands = [["red draw1", "red 1", "red 2"], ["wild_draw2", "blue 5", "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("pocket_pizza", hands, "red 9", stacking=True, cross_stack="up", revenge=True)
    play(m, 0, "red draw1")
    play(m, 1, "wild_draw2", colour="green")
    assert pending(m) == ("challenge", 2, 5)  # 1 + 4


@pytest.mark.parametrize(("held", "guilty"), [("blue draw1", True), ("blue 5", False)])
def test_a_pocket_pizza_answer_is_guilty_only_for_another_answer_held__D_4__HX_3(held: str, guilty: bool) -> None:
    hands = [["red draw1", "red 1", "red 2"], ["wild_draw2", held, "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("pocket_pizza", hands, "red 9", stacking=True, cross_stack="up")
    play(m, 0, "red draw1")
    play(m, 1, "wild_draw2", colour="green")
    events = act(m, 2, "challenge")
    assert next(e for e in events if e.kind == "challenge").data["guilty"] is guilty
    assert drawn_by(events, 1 if guilty else 2) == (3 if guilty else 5)  # T, or T + 2


def test_a_classic_answer_is_judged_against_the_colour_current_at_its_play__D_4__HX_3() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["wild_draw4", "red 5", "blue 6"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True, cross_stack="up")
    play(m, 0, "red draw2")
    play(m, 1, "wild_draw4", colour="green")  # red was current and seat 1 held a red 5: guilty
    events = act(m, 2, "challenge")
    assert drawn_by(events, 1) == 6 and drawn_by(events, 2) == 0 and pending(m)[:2] == ("turn", 2)


def test_a_seat_under_a_penalty_owes_stack_whatever_it_holds_and_answering_forfeits_the_challenge__HX_3() -> None:
    m = house_match("classic", [["red draw2", "red 1", "red 2"], ["blue 5", "blue 6"], ["green 1", "green 2"]],
                    "red 9", stacking=True)
    play(m, 0, "red draw2")
    assert pending(m) == ("stack", 1, 2) and {a.kind for a in legal_actions(m, 1)} == {"accept"}
    hands = [["wild_draw4", "red 1", "red 2"], ["wild_draw4", "blue 5"], ["green 1", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True)
    play(m, 0, "wild_draw4", colour="blue")
    assert {a.kind for a in legal_actions(m, 1)} == {"accept", "challenge", "play"}
    play(m, 1, "wild_draw4", colour="green")
    assert pending(m) == ("challenge", 2, 8)  # seat 1's challenge is gone with its answer


def test_a_last_card_answer_passes_the_whole_total_on__HX_5() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["blue draw2"], ["green 1", "green 2"]], "red 9",
                    stacking=True, revenge=True)
    play(m, 0, "red draw2")
    events = play(m, 1, "blue draw2")
    rnd = m.round
    assert drawn_by(events, 2) == 6 and rnd.winner == 1 and len(rnd.hands[2]) == 8
    left = sum(rnd.cards[c].value for s in (0, 2) for c in rnd.hands[s])
    assert next(e for e in events if e.kind == "round_over").data["points"] == left  # the drawn cards count


def test_a_last_card_reverse_deflection_flips_first__D_10__HX_5() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["red reverse"], ["green 1", "green 2"]]
    m = house_match("classic", hands, "red 9", reverse_deflect="small")
    play(m, 0, "red draw2")
    events = play(m, 1, "red reverse")
    assert drawn_by(events, 0) == 2 and drawn_by(events, 2) == 0 and m.round.winner == 1


def test_no_challenge_draws_a_big_draw_at_once__HR_21() -> None:
    hands = [["wild_draw4", "red 1", "red 2"], ["blue 5", "blue 6"], ["green 1", "green 2"]]
    m = house_match("classic", hands, "red 9", no_challenge=True)
    events = play(m, 0, "wild_draw4", colour="blue")
    assert drawn_by(events, 1) == 4 and pending(m)[:2] == ("turn", 2)
    m = house_match("classic", hands, "red 9", no_challenge=True, stacking=True)
    play(m, 0, "wild_draw4", colour="blue")
    assert pending(m) == ("stack", 1, 4)  # HX-3: it owes stack instead, never challenge


def test_a_first_draw_card_is_never_answered__HX_6() -> None:
    m = house_match("classic", [["red draw2", "red 1"], ["blue 5", "blue 6"]], "blue draw2", stacking=True,
                    reverse_deflect="all", revenge=True)
    rnd = m.round
    assert len(rnd.hands[0]) == 4 and pending(m)[:2] == ("turn", 1)


def test_an_item_box_flipping_a_draw_two_makes_no_penalty__HX_9() -> None:
    hands = [["item_box", "red 1", "red 2"], ["red draw2", "wild_draw4", "blue 5"], ["item_box", "green 2", "green 3"]]
    m = house_match("mario_kart", hands, "red 9", ("red draw2",), stacking=True, cross_stack="both",
                    reverse_deflect="all")
    events = play(m, 0, "item_box")  # flips a red Draw Two: its Mushroom fires, its draw does not
    assert pending(m)[:2] == ("turn", 0) and drawn_by(events, 1) == 0
    play(m, 0, "red 1")
    play(m, 1, "red draw2")
    assert pending(m) == ("stack", 2, 2) and answers(m, 2) == set()  # an Item Box is never an answer


def test_a_jump_in_never_lands_on_a_pending_penalty__HX_12__D_12() -> None:
    hands = [["red draw2", "red 1", "red 2"], ["blue 5", "blue 6"], ["red draw2", "green 2", "green 3"]]
    m = house_match("classic", hands, "red 9", stacking=True, jump_in=True)
    play(m, 0, "red draw2")
    assert pending(m)[:2] == ("stack", 1) and not legal_actions(m, 2)
    assert refusal_code(m, 2, "red draw2") == "wrong_action"
