"""Scenario tests for UNO Pocket Pizza Pizza (RULES.md §5, PP-1 .. PP-7), on stacked decks.

The pocket deck holds a single copy of every coloured card, so every hand below names distinct cards.
"""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import (
    COLOURS,
    VARIANTS,
    Action,
    ConfigError,
    IllegalAction,
    Layout,
    Match,
    MatchConfig,
    legal_actions,
    new_match,
    view,
)
from app.engine.round import CHALLENGE, COLOUR, PASS, TURN

from .scenario import act, card, drawn_by, kinds, make, names, play, top

PP = "pocket_pizza"
FILL_A = ["green 1", "green 2", "green 3"]
FILL_B = ["blue 1", "blue 2", "blue 3"]
FILL_C = ["yellow 1", "yellow 2", "yellow 3"]


def sizes(match: Match) -> list[int]:
    return [len(h) for h in match.round.hands]


def turn_of(match: Match) -> int:
    p = match.round.pending
    assert p is not None and p.kind == TURN, p
    return p.seat


# ---------------------------------------------------------------- PP-1 deck


def test_deck_has_52_cards__PP_1() -> None:
    cards = VARIANTS[PP].cards
    assert len(cards) == 52
    count = Counter(c.name for c in cards)
    for colour in COLOURS:
        assert count[f"{colour} 0"] == 0
        for face in [*(str(n) for n in range(1, 10)), "draw1", "skip", "reverse"]:
            assert count[f"{colour} {face}"] == 1
        assert sum(v for k, v in count.items() if k.startswith(colour + " ")) == 12
    assert count["wild"] == 2
    assert count["wild_dip"] == 1
    assert count["wild_draw2"] == 1
    assert len(count) == 4 * 12 + 3
    assert not any(c.face in ("draw2", "wild_draw4") for c in cards)


def test_dealt_round_gives_five_cards_and_seats_are_two_to_five__PP_1() -> None:
    match, _ = new_match(MatchConfig(PP, 5), seed=5)
    rnd = match.round
    assert sizes(match) == [5] * 5
    assert sorted([c for h in rnd.hands for c in h] + rnd.draw_pile + rnd.discard) == list(range(52))
    for seats in (1, 6):
        with pytest.raises(ConfigError):
            new_match(MatchConfig(PP, seats), seed=5)


# ---------------------------------------------------------------- PP-2 first card


@pytest.mark.parametrize(
    ("first", "current", "direction", "draws"),
    [
        ("red 5", 0, 1, [0, 0, 0]),
        ("red skip", 1, 1, [0, 0, 0]),
        ("red draw1", 1, 1, [1, 0, 0]),
        ("red reverse", 2, -1, [0, 0, 0]),
    ],
)
def test_first_coloured_card_action_applies__PP_2(first: str, current: int, direction: int,
                                                   draws: list[int]) -> None:
    m = make(PP, [FILL_A, FILL_B, FILL_C], first, ["red 9"])
    assert turn_of(m) == current
    assert m.round.direction == direction
    assert sizes(m) == [3 + d for d in draws]
    if draws[0]:
        assert "red 9" in names(m, 0)
    assert m.round.colour == "red"


@pytest.mark.parametrize("first", ["wild", "wild_dip"])
def test_first_wild_or_dip_lets_the_first_player_choose_the_colour__PP_2(first: str) -> None:
    m = make(PP, [["green 5", "red 6", "blue 7"], FILL_B, FILL_C], first, ["yellow 9"])
    rnd = m.round
    p = rnd.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (COLOUR, 0, "first_card")
    assert {a.kind for a in legal_actions(m, 0)} == {"choose_colour"}
    assert kinds(m, 2) == set()  # not the dealer
    act(m, 0, "choose_colour", colour="blue")
    # No dip: nobody drew, nothing was passed, and the first player now plays.
    assert sizes(m) == [3, 3, 3]
    assert rnd.cards[rnd.draw_pile[-1]].name == "yellow 9"
    assert turn_of(m) == 0
    assert rnd.colour == "blue"
    assert {rnd.cards[a.card].name for a in legal_actions(m, 0) if a.kind == "play" and a.card is not None} == {
        "blue 7"}


@pytest.mark.parametrize("seed", range(5))
def test_first_wild_draw_two_goes_back_and_a_new_card_is_flipped__PP_2(seed: int) -> None:
    match, events = new_match(MatchConfig(PP, 3), seed, dealer=2, layout=Layout([FILL_A, FILL_B, FILL_C], "wild_draw2"))
    rnd = match.round
    returned = [e for e in events if e.kind == "first_card_returned"]
    assert len(returned) == 1 and returned[0].data["card"]["face"] == "wild_draw2"
    assert rnd.cards[rnd.top].face != "wild_draw2"
    assert len(rnd.discard) == 1
    assert returned[0].data["card"]["id"] in rnd.draw_pile
    assert len(rnd.draw_pile) + 1 + 9 == 52
    assert rnd.pending is None or rnd.pending.kind != CHALLENGE
    assert sum(sizes(match)) <= 9 + 1  # at most a first Draw One


# ---------------------------------------------------------------- PP-3 Draw One


def test_draw_one_makes_the_next_player_draw_one_and_lose_the_turn__PP_3() -> None:
    m = make(PP, [["red draw1", "red 4", "blue 4"], FILL_A, FILL_C], "red 5", ["blue 9"])
    ev = play(m, 0, "red draw1")
    assert drawn_by(ev, 1) == 1 and drawn_by(ev, 2) == 0
    assert "blue 9" in names(m, 1)
    assert turn_of(m) == 2


def test_draw_one_as_last_card_still_draws_and_counts__PP_3() -> None:
    m = make(PP, [["red draw1"], ["green 1"], ["yellow 1"]], "red 5", ["blue 9"])
    ev = play(m, 0, "red draw1")
    assert drawn_by(ev, 1) == 1
    assert m.round.winner == 0
    assert m.round.points == 1 + 9 + 1


# ---------------------------------------------------------------- PP-4 Dip Into The Deck


def test_dip_draws_then_passes_a_card_to_the_next_player_who_keeps_the_turn__PP_4() -> None:
    m = make(PP, [["wild_dip", "red 3", "blue 4"], FILL_A, FILL_C], "red 5", ["green 9", "red 8"])
    with pytest.raises(IllegalAction):
        play(m, 0, "wild_dip")  # a colour must be declared
    ev = play(m, 0, "wild_dip", colour="yellow")
    assert drawn_by(ev, 0) == 1
    assert sorted(names(m, 0)) == ["blue 4", "green 9", "red 3"]
    assert m.round.colour == "yellow"
    p = m.round.pending
    assert p is not None and (p.kind, p.seat) == (PASS, 0)
    assert legal_actions(m, 0) == [Action("pass_card", c) for c in m.round.hands[0]]
    assert kinds(m, 1) == set()
    ev = act(m, 0, "pass_card", card=card(m, 0, "blue 4"))
    assert sorted(names(m, 0)) == ["green 9", "red 3"]
    assert sorted(names(m, 1)) == sorted([*FILL_A, "blue 4"])
    assert turn_of(m) == 1  # the receiver is not skipped
    assert m.round.colour == "yellow"
    # Everyone learns that a card was passed; only giver and receiver learn which.
    public = [e for e in ev if e.kind == "pass"]
    assert len(public) == 1 and public[0].to is None and public[0].data == {"seat": 0, "to": 1}
    private = [e for e in ev if e.kind == "passed"]
    assert len(private) == 1 and private[0].to == (0, 1)
    assert private[0].data["card"]["name"] == "blue 4"
    assert private[0].visible_to(0) and private[0].visible_to(1)
    assert not private[0].visible_to(2) and not private[0].visible_to(None)
    assert not any("card" in e.data for e in ev if e.to is None)
    assert "blue 4" in [c["name"] for c in view(m, 1)["table"]["hand"]]


def test_dip_may_pass_the_drawn_card__PP_4() -> None:
    m = make(PP, [["wild_dip", "red 3", "blue 4"], FILL_A, FILL_C], "red 5", ["green 9"])
    play(m, 0, "wild_dip", colour="green")
    act(m, 0, "pass_card", card=card(m, 0, "green 9"))
    assert sorted(names(m, 0)) == ["blue 4", "red 3"]
    assert "green 9" in names(m, 1)
    assert turn_of(m) == 1


def test_dip_passes_to_the_next_player_in_the_current_direction__PP_4() -> None:
    m = make(PP, [["red reverse", "red 4"], FILL_A, ["wild_dip", "blue 7", "blue 8"]], "red 5", ["green 9"])
    play(m, 0, "red reverse")
    assert turn_of(m) == 2
    play(m, 2, "wild_dip", colour="blue")
    act(m, 2, "pass_card", card=card(m, 2, "blue 7"))
    assert "blue 7" in names(m, 1) and "blue 7" not in names(m, 0)
    assert turn_of(m) == 1


def test_dip_from_two_cards_says_uno_with_the_pass__PP_4() -> None:
    m = make(PP, [["wild_dip", "red 3"], FILL_A, FILL_C], "red 5", ["green 9"])
    dip = card(m, 0, "wild_dip")
    # UNO cannot be said with the dip itself: the hand is back to two after the draw.
    assert not any(a.uno for a in legal_actions(m, 0) if a.card == dip)
    play(m, 0, "wild_dip", colour="red")
    assert sizes(m)[0] == 2
    red3 = card(m, 0, "red 3")
    assert Action("pass_card", red3, uno=True) in legal_actions(m, 0)
    act(m, 0, "pass_card", card=red3, uno=True)
    assert names(m, 0) == ["green 9"]
    assert m.round.declared == {0} and m.round.exposed == set()


def test_dip_from_two_cards_without_uno_exposes_the_giver__PP_4() -> None:
    m = make(PP, [["wild_dip", "red 3"], FILL_A, FILL_C], "red 5", ["green 9"])
    play(m, 0, "wild_dip", colour="red")
    ev = act(m, 0, "pass_card", card=card(m, 0, "red 3"))
    assert any(e.kind == "exposed" and e.data["seat"] == 0 for e in ev)
    assert Action("catch", target=0) in legal_actions(m, 2)
    ev = act(m, 2, "catch", target=0)
    assert drawn_by(ev, 0) == 2


def test_dip_as_last_card_is_void__PP_4() -> None:
    m = make(PP, [["wild_dip"], ["green 1", "green 2"], ["yellow 1"]], "red 5", ["green 9"])
    ev = play(m, 0, "wild_dip", colour="red")
    assert drawn_by(ev, 0) == 0
    assert m.round.winner == 0 and m.round.pending is None
    assert sizes(m) == [0, 2, 1]
    assert m.round.points == 1 + 2 + 1


# ---------------------------------------------------------------- PP-5 Wild Draw 2 legality


def test_wild_draw_two_is_accepted_even_when_illegal__PP_5() -> None:
    m = make(PP, [["wild_draw2", "red 3", "wild"], FILL_A, FILL_C], "red 5")
    wd2 = card(m, 0, "wild_draw2")
    assert {a.colour for a in legal_actions(m, 0) if a.card == wd2} == set(COLOURS)
    with pytest.raises(IllegalAction):
        play(m, 0, "wild_draw2")  # the colour is declared with it
    play(m, 0, "wild_draw2", colour="green")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.challenged, p.penalty) == (CHALLENGE, 1, 0, 2)
    assert legal_actions(m, 1) == [Action("accept"), Action("challenge")]
    assert m.round.colour == "green"


@pytest.mark.parametrize(
    ("top_card", "other", "guilty"),
    [
        ("red 5", "red 9", True),  # matches the colour
        ("red 5", "blue 5", True),  # matches the number
        ("red skip", "blue skip", True),  # matches the symbol
        ("red 5", "wild", True),  # a plain wild counts
        ("red 5", "wild_dip", True),  # so does the Dip
        ("red 5", "blue 6", False),
        ("red skip", "green 9", False),
    ],
)
def test_wild_draw_two_legal_only_without_another_playable_card__PP_5(top_card: str, other: str,
                                                                       guilty: bool) -> None:
    # Seat 2 plays first: after a first Skip (dealer 0, seat 1 skipped) or a number (dealer 1).
    m = make(PP, [FILL_A, FILL_C, ["wild_draw2", other, "yellow 7"]], top_card,
             dealer=0 if "skip" in top_card else 1)
    assert turn_of(m) == 2
    play(m, 2, "wild_draw2", colour="blue")
    ev = act(m, 0, "challenge")
    assert next(e for e in ev if e.kind == "challenge").data["guilty"] is guilty


def test_wild_draw_two_after_a_wild_judged_on_the_declared_colour__PP_5() -> None:
    m2 = make(PP, [["wild", "red 6", "blue 6"], ["wild_draw2", "red 7", "yellow 9"], FILL_C], "red 5")
    play(m2, 0, "wild", colour="green")
    play(m2, 1, "wild_draw2", colour="blue")  # red 7 and yellow 9 match neither green nor "wild"
    ev = act(m2, 2, "challenge")
    assert next(e for e in ev if e.kind == "challenge").data["guilty"] is False
    m3 = make(PP, [["wild", "red 6", "blue 6"], ["wild_draw2", "green 4", "yellow 9"], FILL_C], "red 5")
    play(m3, 0, "wild", colour="green")
    play(m3, 1, "wild_draw2", colour="blue")
    ev = act(m3, 2, "challenge")
    assert next(e for e in ev if e.kind == "challenge").data["guilty"] is True


# ---------------------------------------------------------------- PP-6 challenge


def test_guilty_challenge_challenged_draws_two_challenger_plays__PP_6() -> None:
    m = make(PP, [["wild_draw2", "red 9", "yellow 7"], ["green 4", "blue 4", "yellow 4"], FILL_C], "red 5",
             ["blue 8", "blue 9", "green 8"])
    play(m, 0, "wild_draw2", colour="green")
    ev = act(m, 1, "challenge")
    assert drawn_by(ev, 0) == 2 and drawn_by(ev, 1) == 0
    assert sorted(names(m, 0)) == ["blue 8", "blue 9", "red 9", "yellow 7"]
    assert turn_of(m) == 1  # the challenger plays normally
    assert m.round.colour == "green"
    play(m, 1, "green 4")
    assert turn_of(m) == 2


def test_innocent_challenge_challenger_draws_four_and_loses_turn__PP_6() -> None:
    m = make(PP, [["wild_draw2", "blue 9", "yellow 7"], ["green 4", "blue 4", "yellow 4"], FILL_C], "red 5")
    play(m, 0, "wild_draw2", colour="green")
    ev = act(m, 1, "challenge")
    assert drawn_by(ev, 1) == 4 and drawn_by(ev, 0) == 0
    assert sizes(m) == [2, 7, 3]
    assert turn_of(m) == 2


def test_accepting_draws_two_and_loses_turn__PP_6() -> None:
    m = make(PP, [["wild_draw2", "red 9", "yellow 7"], ["green 4", "blue 4", "yellow 4"], FILL_C], "red 5")
    play(m, 0, "wild_draw2", colour="green")
    ev = act(m, 1, "accept")
    assert drawn_by(ev, 1) == 2 and drawn_by(ev, 0) == 0
    assert turn_of(m) == 2
    assert "revealed" not in view(m, 1)["table"]  # accepting shows nothing


def test_challenged_hand_is_shown_to_the_challenger_only__PP_6() -> None:
    m = make(PP, [["wild_draw2", "red 9", "yellow 7"], ["green 4", "blue 4", "yellow 4"], FILL_C], "red 5")
    play(m, 0, "wild_draw2", colour="green")
    assert all("revealed" not in view(m, s)["table"] for s in range(3))
    ev = act(m, 1, "challenge")
    revealed = view(m, 1)["table"]["revealed"]
    assert revealed["seat"] == 0
    assert sorted(c["name"] for c in revealed["cards"]) == ["red 9", "yellow 7"]  # the hand it was played from
    assert "revealed" not in view(m, 0)["table"]
    assert "revealed" not in view(m, 2)["table"]
    assert "revealed" not in view(m, None)["table"]
    shown = [e for e in ev if e.kind == "hand_revealed"]
    assert len(shown) == 1 and shown[0].to == (1,)
    assert not any(e.to is None and "cards" in e.data for e in ev)


def test_last_card_wild_draw_two_cannot_be_challenged__PP_6() -> None:
    m = make(PP, [["wild_draw2"], ["green 4", "blue 4"], ["yellow 1"]], "red 5", ["blue 8", "blue 9"])
    ev = play(m, 0, "wild_draw2", colour="green")
    assert drawn_by(ev, 1) == 2
    assert m.round.winner == 0 and m.round.pending is None
    assert "challenge" not in kinds(m, 1)
    assert m.round.points == 4 + 4 + 8 + 9 + 1
    assert m.scores[0] == m.round.points


# ---------------------------------------------------------------- PP-7 values and target


def test_card_values__PP_7() -> None:
    for ct in VARIANTS[PP].cards:
        if ct.face.isdigit():
            assert ct.value == int(ct.face)
        elif ct.face in ("skip", "reverse", "draw1"):
            assert ct.value == 20
        else:
            assert ct.is_wild and ct.value == 50


def test_default_target_is_250__PP_7() -> None:
    assert MatchConfig(PP, 3).target_score == 250
    m = make(PP, [FILL_A, FILL_B, FILL_C], "red 5")
    assert m.target == 250
    assert view(m, 0)["target"] == 250


def test_round_scoring_reaching_250_ends_the_match__PP_7() -> None:
    loser = ["wild", "wild", "wild_dip", "wild_draw2", "red skip", "blue reverse", "green 9", "yellow 1"]
    m = make(PP, [["red 5"], loser], "red 4")
    play(m, 0, "red 5")
    assert m.round.points == 50 * 4 + 20 + 20 + 9 + 1 == 250
    assert m.scores == [250, 0]
    assert m.phase == "over" and m.winner == 0


def test_round_scoring_below_250_does_not_end_the_match__PP_7() -> None:
    loser = ["wild", "wild", "wild_dip", "wild_draw2", "red skip", "blue draw1", "green 8", "yellow 1"]
    m = make(PP, [["red 5"], loser], "red 4")
    play(m, 0, "red 5")
    assert m.round.points == 249
    assert m.scores == [249, 0]
    assert m.phase == "between" and m.winner is None
    assert top(m) == "red 5"
