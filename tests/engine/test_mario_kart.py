"""Scenario tests for UNO Mario Kart (RULES.md §3, MK-1 .. MK-5: the deck, the items, the first card,
Wild Draw Four and the Item Box), on stacked decks; the items' effects and scoring are in
test_mario_kart_items.py."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import (
    COLOURS,
    VARIANTS,
    Action,
    IllegalAction,
    Layout,
    Match,
    MatchConfig,
    legal_actions,
    new_match,
    view,
)
from app.engine.round import CHALLENGE, COLOUR, TURN

from .scenario import act, card, drawn_by, kinds, make, names, play, top

MK = "mario_kart"

# Some cards so that nobody goes out early.
FILL_A = ["green 1", "green 2", "green 3"]
FILL_B = ["blue 1", "blue 2", "blue 3"]
FILL_C = ["yellow 1", "yellow 2", "yellow 3"]


def hand_value(match: Match, seat: int) -> int:
    rnd = match.round
    return sum(rnd.cards[c].value for c in rnd.hands[seat])


def sizes(match: Match) -> list[int]:
    return [len(h) for h in match.round.hands]


def play_ids(match: Match, seat: int) -> set[str]:
    """Names of the cards ``seat`` may play now."""
    rnd = match.round
    return {rnd.cards[a.card].name for a in act_list(match, seat) if a.kind == "play" and a.card is not None}


def act_list(match: Match, seat: int) -> list[Action]:
    return legal_actions(match, seat)


# ---------------------------------------------------------------- MK-1 deck


def test_deck_has_112_cards_with_item_boxes_and_no_plain_wild__MK_1() -> None:
    cards = VARIANTS[MK].cards
    assert len(cards) == 112
    count = Counter(c.name for c in cards)
    for colour in COLOURS:
        assert count[f"{colour} 0"] == 1
        for n in range(1, 10):
            assert count[f"{colour} {n}"] == 2
        for face in ("skip", "reverse", "draw2"):
            assert count[f"{colour} {face}"] == 2
        assert sum(v for k, v in count.items() if k.startswith(colour + " ")) == 25
    assert count["wild_draw4"] == 4
    assert count["item_box"] == 8
    assert count["wild"] == 0
    assert len(count) == 4 * 13 + 2  # nothing else in the deck


def test_dealt_round_uses_the_whole_deck_and_seven_cards__MK_1() -> None:
    match, _ = new_match(MatchConfig(MK, 4), seed=11)
    rnd = match.round
    assert sizes(match) == [7, 7, 7, 7]
    everything = [c for h in rnd.hands for c in h] + rnd.draw_pile + rnd.discard
    assert sorted(everything) == list(range(112))


# ---------------------------------------------------------------- MK-2 items


def test_every_card_carries_the_item_of_its_colour__MK_2() -> None:
    expected = {"red": "mushroom", "yellow": "banana_peel", "green": "green_shell", "blue": "lightning",
                None: "bob_omb"}
    for cj in VARIANTS[MK].card_json:
        assert cj["item"] == expected[cj["colour"]]
    m = make(MK, [["red 5", "blue 5", "yellow 6", "item_box"], FILL_A, FILL_B], "red 1")
    items = {c["name"]: c["item"] for c in view(m, 0)["table"]["hand"]}
    assert items == {"red 5": "mushroom", "blue 5": "lightning", "yellow 6": "banana_peel", "item_box": "bob_omb"}


def test_items_do_nothing_in_normal_play__MK_2() -> None:
    m = make(MK, [["red 5", "red 9", "yellow 6"], ["blue 5", "green 8", "green 9"], ["blue 7", "blue 8", "blue 9"]],
             "red 1")
    before = sizes(m)
    ev = play(m, 0, "red 5")  # a Mushroom card: no extra turn
    assert m.round.current == 1
    ev += play(m, 1, "blue 5")  # a Lightning card: nobody draws
    assert m.round.current == 2
    assert not any(e.kind in ("draw", "item") for e in ev)
    assert sizes(m) == [before[0] - 1, before[1] - 1, before[2]]


# ---------------------------------------------------------------- MK-3 first card


@pytest.mark.parametrize("seed", range(6))
def test_first_wild_draw_four_goes_back_and_a_new_card_is_flipped__MK_3(seed: int) -> None:
    match, events = new_match(MatchConfig(MK, 3), seed, dealer=2,
                              layout=Layout([FILL_A, FILL_B, FILL_C], "wild_draw4"))
    rnd = match.round
    returned = [e for e in events if e.kind == "first_card_returned"]
    assert returned and returned[0].data["card"]["face"] == "wild_draw4"
    assert rnd.cards[rnd.top].face != "wild_draw4"
    assert len(rnd.discard) == 1
    assert returned[0].data["card"]["id"] in rnd.draw_pile  # it went back into the pile
    # Nobody drew for the Wild Draw Four (only a newly flipped Draw Two makes the first player draw).
    assert sizes(match) == [5 if rnd.cards[rnd.top].face == "draw2" else 3, 3, 3]
    assert len(rnd.draw_pile) + 1 + 9 == 112


def test_first_item_box_lets_the_first_player_declare_without_firing__MK_3() -> None:
    m = make(MK, [["green 5", "red 7", "blue 2"], FILL_B, FILL_C], "item_box", ["yellow 5", "blue 9"])
    rnd = m.round
    assert rnd.pending is not None
    assert (rnd.pending.kind, rnd.pending.seat, rnd.pending.reason) == (COLOUR, 0, "first_card")
    # The item (Bob-omb) does not fire and nothing is flipped: nobody drew, the pile is untouched.
    assert sizes(m) == [3, 3, 3]
    assert len(rnd.discard) == 1 and top(m) == "item_box"
    assert rnd.cards[rnd.draw_pile[-1]].name == "yellow 5"
    assert {a.kind for a in act_list(m, 0)} == {"choose_colour"}
    assert kinds(m, 2) == set()  # not the dealer (decision MK-3)
    with pytest.raises(IllegalAction):
        act(m, 2, "choose_colour", colour="red")
    act(m, 0, "choose_colour", colour="green")
    assert rnd.colour == "green"
    assert rnd.pending is not None and (rnd.pending.kind, rnd.pending.seat) == (TURN, 0)
    assert play_ids(m, 0) == {"green 5"}


@pytest.mark.parametrize(
    ("first", "current", "direction", "drawn"),
    [
        ("blue skip", 1, 1, 0),  # the first player is skipped; no Lightning
        ("red reverse", 2, -1, 0),  # the dealer plays first; no Mushroom
        ("yellow draw2", 1, 1, 2),  # the first player draws 2 and is skipped; no Banana Peel
        ("green 4", 0, 1, 0),
    ],
)
def test_first_card_acts_as_in_classic_and_its_item_does_not_fire__MK_3(
        first: str, current: int, direction: int, drawn: int) -> None:
    m = make(MK, [FILL_A, FILL_B, FILL_C], first)
    assert m.round.current == current
    assert m.round.direction == direction
    assert m.round.pending is not None and m.round.pending.kind == TURN
    assert sizes(m) == [3 + drawn, 3, 3]


# ---------------------------------------------------------------- MK-4 Wild Draw Four


def test_item_box_in_hand_makes_wild_draw_four_guilty__MK_4() -> None:
    m = make(MK, [["wild_draw4", "item_box", "blue 3"], ["green 1", "green 2", "yellow 4"], FILL_B], "red 5")
    # The server accepts the illegal play; only a challenge can punish it.
    assert any(a.kind == "play" and a.colour == "green" and m.round.cards[a.card or 0].face == "wild_draw4"
               for a in act_list(m, 0))
    play(m, 0, "wild_draw4", colour="green")
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.challenged) == (CHALLENGE, 1, 0)
    ev = act(m, 1, "challenge")
    assert drawn_by(ev, 0) == 4
    assert drawn_by(ev, 1) == 0
    assert sizes(m) == [2 + 4, 3, 3]
    assert m.round.colour == "green"  # the declared colour stands
    assert m.round.pending is not None and (m.round.pending.kind, m.round.pending.seat) == (TURN, 1)
    assert view(m, 1)["table"]["revealed"]["seat"] == 0
    assert sorted(c["name"] for c in view(m, 1)["table"]["revealed"]["cards"]) == ["blue 3", "item_box"]
    assert "revealed" not in view(m, 0)["table"]
    assert "revealed" not in view(m, 2)["table"]
    assert next(e for e in ev if e.kind == "challenge").data["guilty"] is True


def test_wild_draw_four_guilty_when_holding_the_current_colour__MK_4() -> None:
    m = make(MK, [["wild_draw4", "red 9", "blue 3"], ["green 1", "green 2", "yellow 4"], FILL_B], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    ev = act(m, 1, "challenge")
    assert drawn_by(ev, 0) == 4 and drawn_by(ev, 1) == 0
    assert m.round.current == 1


def test_wild_draw_four_innocent_with_only_other_colours_numbers_and_wilds__MK_4() -> None:
    # A matching number (blue 5 on red 5) and another Wild Draw Four do not count as the colour.
    m = make(MK, [["wild_draw4", "wild_draw4", "blue 5"], ["green 1", "green 2", "yellow 4"], FILL_B], "red 5")
    play(m, 0, "wild_draw4", colour="yellow")
    ev = act(m, 1, "challenge")
    assert next(e for e in ev if e.kind == "challenge").data["guilty"] is False
    assert drawn_by(ev, 1) == 6 and drawn_by(ev, 0) == 0
    assert m.round.current == 2  # the challenger loses the turn
    assert m.round.colour == "yellow"


def test_wild_draw_four_accepted_draws_four_and_skips__MK_4() -> None:
    m = make(MK, [["wild_draw4", "item_box", "blue 3"], ["green 1", "green 2", "yellow 4"], FILL_B], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    ev = act(m, 1, "accept")
    assert drawn_by(ev, 1) == 4 and drawn_by(ev, 0) == 0
    assert m.round.current == 2


def test_last_card_wild_draw_four_cannot_be_challenged__MK_4() -> None:
    m = make(MK, [["wild_draw4"], ["green 1", "green 2"], FILL_B], "red 5", ["red 1", "red 2", "red 3", "red 4"])
    ev = play(m, 0, "wild_draw4", colour="blue")
    assert drawn_by(ev, 1) == 4
    assert m.round.winner == 0 and m.round.pending is None
    assert kinds(m, 1) == set()
    assert m.round.points == 1 + 2 + 1 + 2 + 3 + 4 + 1 + 2 + 3
    assert m.scores[0] == m.round.points


# ---------------------------------------------------------------- MK-5 Item Box


def test_item_box_matches_any_card_and_takes_no_colour__MK_5() -> None:
    m = make(MK, [["item_box", "blue 3", "blue 4"], FILL_A, FILL_B], "red 5", ["red 7"])
    assert [a for a in act_list(m, 0) if a.kind == "play" and a.card == card(m, 0, "item_box")] == [
        Action("play", card(m, 0, "item_box"))]
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "item_box", colour="red")
    assert err.value.code == "colour_not_allowed"


def test_item_box_flips_the_top_of_the_draw_pile__MK_5() -> None:
    m = make(MK, [["item_box", "blue 3", "blue 4"], FILL_A, FILL_B], "red 5", ["green 7", "red 9"])
    ev = play(m, 0, "item_box")
    assert top(m) == "green 7"
    assert [m.round.cards[c].name for c in m.round.discard] == ["red 5", "item_box", "green 7"]
    item = next(e for e in ev if e.kind == "item")
    assert item.data["item"] == "green_shell" and item.data["card"]["name"] == "green 7"
    assert m.round.cards[m.round.draw_pile[-1]].name == "red 9"


def test_flipped_skip_is_not_performed__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"], FILL_A, FILL_B], "red 5", ["red skip"])
    play(m, 0, "item_box")
    assert m.round.current == 0  # Mushroom
    play(m, 0, "red 3")
    assert m.round.current == 1  # the flipped Skip did not cost seat 1 a turn
    assert m.round.owed == [0, 0, 0]


def test_flipped_draw_two_is_not_performed__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"], FILL_A, FILL_B], "red 5", ["yellow draw2"])
    ev = play(m, 0, "item_box")
    assert drawn_by(ev, 1) == 0  # no Draw Two for the next player...
    assert drawn_by(ev, 2) == 2  # ...only the Banana Peel for the previous one
    assert m.round.current == 1


def test_flipped_reverse_is_not_performed__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"], FILL_A, FILL_B], "red 5", ["green reverse"])
    play(m, 0, "item_box")
    assert m.round.direction == 1
    act(m, 0, "choose_target", target=2)
    assert m.round.current == 1


def test_flipped_wild_draw_four_is_not_performed_nor_challengeable__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"], FILL_A, FILL_B], "red 5", ["wild_draw4", "red 1", "red 2"])
    ev = play(m, 0, "item_box")
    assert drawn_by(ev, 1) == 0 and drawn_by(ev, 2) == 0
    assert drawn_by(ev, 0) == 2  # Bob-omb
    p = m.round.pending
    assert p is not None and (p.kind, p.seat, p.reason) == (COLOUR, 0, "bob_omb")
    assert "challenge" not in kinds(m, 1)


def test_flipped_item_box_does_not_flip_again__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"], FILL_A, FILL_B], "red 5", ["item_box", "red 1", "red 2", "red 4"])
    ev = play(m, 0, "item_box")
    assert len(m.round.discard) == 3 and top(m) == "item_box"
    assert sum(e.kind == "item" for e in ev) == 1
    assert drawn_by(ev, 0) == 2
    assert sorted(names(m, 0)) == ["blue 4", "red 1", "red 2", "red 3"]
    assert m.round.cards[m.round.draw_pile[-1]].name == "red 4"


def test_next_player_must_match_the_flipped_card__MK_5() -> None:
    m = make(MK, [["item_box", "red 3", "blue 4"],
                  ["yellow 1", "red 7", "blue 2", "item_box", "wild_draw4", "red 5"], FILL_B],
             "red 5", ["yellow 7"])
    play(m, 0, "item_box")
    assert m.round.current == 1 and m.round.colour == "yellow"
    # Yellow or a 7 or a wild; neither the Item Box's nor the old red 5's match counts.
    assert play_ids(m, 1) == {"yellow 1", "red 7", "item_box", "wild_draw4"}
    with pytest.raises(IllegalAction):
        play(m, 1, "red 5")


def test_item_box_reshuffles_the_discards_when_the_pile_is_empty__MK_5() -> None:
    hand0 = ["item_box", "blue 3", "blue 4"]
    rest = Counter(c.name for c in VARIANTS[MK].cards) - Counter([*hand0, "red 4"])
    m = make(MK, [hand0, list(rest.elements())], "red 4")
    assert m.round.draw_pile == []
    ev = play(m, 0, "item_box")
    assert any(e.kind == "reshuffle" for e in ev)
    # The only card under the Item Box was the red 4: it is flipped, and its Mushroom fires.
    assert top(m) == "red 4"
    assert [m.round.cards[c].name for c in m.round.discard] == ["item_box", "red 4"]
    assert m.round.current == 0 and m.round.colour == "red"
