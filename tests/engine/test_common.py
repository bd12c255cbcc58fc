"""Scenario tests for the common rules (RULES.md §1), on stacked decks."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.engine import (
    VARIANTS,
    Action,
    IllegalAction,
    MatchConfig,
    apply,
    legal_actions,
    new_match,
    start_next_round,
    view,
)
from app.engine.match import draw_for_dealer

from .scenario import act, card, drawn_by, make, names, play, top


def test_play_passes_clockwise_and_reverse_flips__C_1() -> None:
    m = make("classic", [["red 5", "red 6"], ["red 7", "red 8"], ["red 9", "blue 1"], ["red 2", "blue 2"]], "red 1")
    assert m.round.current == 0
    play(m, 0, "red 5")
    assert m.round.current == 1
    m = make("classic", [["red reverse", "red 6"], ["red 7", "red 8"], ["red 9", "blue 1"], ["red 2", "blue 2"]],
             "red 1")
    play(m, 0, "red reverse")
    assert m.round.direction == -1
    assert m.round.current == 3  # "next" now means the seat on the other side


def test_highest_number_deals_and_ties_redraw__C_2() -> None:
    classic = VARIANTS["classic"]
    saw_tie = False
    for seed in range(40):
        dealer, events = draw_for_dealer(classic, 4, seed)
        draws = [e.data["draws"] for e in events if e.kind == "dealer_draw"]
        contenders = {0, 1, 2, 3}
        for rnd in draws:
            assert {d["seat"] for d in rnd} == contenders  # only the tied players redraw
            rank = {d["seat"]: int(d["card"]["face"]) if d["card"]["face"].isdigit() else 0 for d in rnd}
            best = max(rank.values())
            contenders = {s for s, v in rank.items() if v == best}
        assert contenders == {dealer}
        saw_tie = saw_tie or len(draws) > 1
    assert saw_tie, "some seed among 40 should produce a tie"


def test_action_cards_count_as_zero_in_the_dealer_draw__C_2() -> None:
    classic = VARIANTS["classic"]
    for seed in range(60):
        _, events = draw_for_dealer(classic, 2, seed)
        first = next(e for e in events if e.kind == "dealer_draw").data["draws"]
        faces = [d["card"]["face"] for d in first]
        if not faces[0].isdigit() and faces[1] == "0":
            assert sum(e.kind == "dealer_draw" for e in events) > 1  # 0 ties with an action card
            return
    pytest.skip("no seed drew an action card against a 0")


def test_all_wild_dealer_is_drawn_from_the_seed_and_deal_rotates__C_2() -> None:
    dealers = {new_match(MatchConfig("all_wild", 5), seed)[0].dealer for seed in range(30)}
    assert len(dealers) > 1
    assert new_match(MatchConfig("all_wild", 5), 7)[0].dealer == new_match(MatchConfig("all_wild", 5), 7)[0].dealer
    m = make("classic", [["red 5"], ["blue 7", "blue 8"], ["green 1"]], "red 1", ["green 9"], dealer=1, target=1000)
    assert m.round.current == 2
    act(m, 2, "draw")
    play(m, 0, "red 5")
    assert m.phase == "between"
    start_next_round(m)
    assert m.dealer == 2 and m.round.dealer == 2  # the deal passes to the next seat clockwise


@pytest.mark.parametrize("edition", list(VARIANTS))
def test_deal_gives_each_seat_the_hand_size_and_flips_one_card__C_3(edition: str) -> None:
    for seed in range(10):
        m, events = new_match(MatchConfig(edition, 3), seed=seed)
        rnd = m.round
        size = VARIANTS[edition].hand_size
        # A first Draw card may already have added to the first player's hand.
        extra = [drawn_by(events, s) for s in range(3)]
        assert sorted(len(h) - x for h, x in zip(rnd.hands, extra, strict=True)) == [size] * 3
        assert len(rnd.discard) == 1
        total = len(rnd.draw_pile) + len(rnd.discard) + sum(map(len, rnd.hands))
        assert total == len(VARIANTS[edition].cards)


def test_first_player_is_left_of_dealer__C_4() -> None:
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "blue 3", dealer=0)
    assert m.round.current == 1
    m = make("classic", [["red 5"], ["red 6"], ["red 7"]], "blue 3", dealer=2)
    assert m.round.current == 0


def test_matching_by_colour_number_symbol_or_wild__C_5() -> None:
    m = make("classic", [["red 9", "blue 5", "green skip", "wild", "yellow 2"], ["red 1"]], "red 5")
    playable = {m.round.cards[a.card].name for a in legal_actions(m, 0) if a.kind == "play" and a.card is not None}
    assert playable == {"red 9", "blue 5", "wild"}
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "yellow 2")
    assert err.value.code == "card_not_playable"
    m = make("classic", [["red 1"], ["green skip", "blue 2"]], "red skip")  # the first player is skipped
    playable = {m.round.cards[a.card].name for a in legal_actions(m, 1) if a.kind == "play" and a.card is not None}
    assert playable == {"green skip"}  # symbol match
    m = make("classic", [["wild", "blue 2"], ["yellow 3", "green 4"]], "red 1")
    play(m, 0, "wild", colour="yellow")
    playable = {m.round.cards[a.card].name for a in legal_actions(m, 1) if a.kind == "play" and a.card is not None}
    assert playable == {"yellow 3"}  # the declared colour is matched


def test_voluntary_draw_then_play_only_that_card__C_6() -> None:
    m = make("classic", [["red 9", "blue 2"], ["red 1", "red 2"]], "red 5", ["red 7"])
    assert Action("draw") in legal_actions(m, 0)  # even with a playable red 9
    events = act(m, 0, "draw")
    drawn = next(e for e in events if e.kind == "drew").data["cards"][0]
    assert drawn["name"] == "red 7"
    legal = legal_actions(m, 0)
    assert {a.kind for a in legal} == {"play_drawn", "keep"}
    assert {a.card for a in legal if a.kind == "play_drawn"} == {drawn["id"]}
    with pytest.raises(IllegalAction):
        play(m, 0, "red 9")
    apply(m, 0, Action("play_drawn", drawn["id"]))
    assert top(m) == "red 7" and m.round.current == 1


def test_keeping_or_drawing_an_unplayable_card_ends_the_turn__C_6() -> None:
    m = make("classic", [["red 9", "blue 2"], ["red 1", "red 2"]], "red 5", ["red 7", "green 3"])
    act(m, 0, "draw")
    act(m, 0, "keep")
    assert m.round.current == 1 and len(m.round.hands[0]) == 3
    m = make("classic", [["red 9", "blue 2"], ["red 1", "red 2"]], "red 5", ["green 3"])
    act(m, 0, "draw")
    assert m.round.current == 1 and "green 3" in names(m, 0)


def test_no_playable_card_means_draw__C_6() -> None:
    m = make("classic", [["blue 9", "blue 2", "green 3"], ["red 1", "red 2"]], "red 5")
    assert legal_actions(m, 0) == [Action("draw")]


def test_wild_colour_declared_with_the_play__C_7() -> None:
    m = make("classic", [["wild", "blue 2"], ["red 1", "red 2"]], "red 5")
    colours = {a.colour for a in legal_actions(m, 0) if a.kind == "play"
               and a.card == card(m, 0, "wild")}
    assert colours == {"red", "yellow", "green", "blue"}
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "wild")
    assert err.value.code == "colour_required"
    with pytest.raises(IllegalAction) as err:
        play(m, 0, "wild", colour="purple")
    assert err.value.code == "bad_colour"
    play(m, 0, "wild", colour="green")
    assert m.round.colour == "green"


def test_empty_draw_pile_is_refilled_from_discards__C_8() -> None:
    m = make("classic", [["blue 9", "blue 2"], ["red 1", "red 2"]], "red 5")
    rnd = m.round
    rnd.discard = rnd.draw_pile + rnd.discard  # everything but the top lies in the discard pile
    rnd.draw_pile = []
    top_card = rnd.discard[-1]
    events = act(m, 0, "draw")
    assert any(e.kind == "reshuffle" for e in events)
    assert rnd.discard == [top_card]
    assert len(rnd.hands[0]) == 3


def test_nothing_to_draw_skips_the_draw__C_8() -> None:
    m = make("classic", [["blue 9", "blue 2"], ["red 1", "red 2"]], "red 5")
    rnd = m.round
    rnd.hands[1].extend(rnd.draw_pile)
    rnd.draw_pile = []
    events = act(m, 0, "draw")
    assert drawn_by(events, 0) == 0
    assert len(rnd.hands[0]) == 2 and rnd.current == 1


def test_skip_and_draw_two_cost_the_next_player_a_turn__C_9() -> None:
    hands = [["red skip", "red 6"], ["red 7", "red 8"], ["red 9", "blue 1"]]
    m = make("classic", hands, "red 1")
    events = play(m, 0, "red skip")
    assert m.round.current == 2
    assert any(e.kind == "skipped" and e.data["seat"] == 1 for e in events)
    m = make("classic", [["red draw2", "red 6"], ["red 7", "red 8"], ["red 9", "blue 1"]], "red 1")
    events = play(m, 0, "red draw2")
    assert drawn_by(events, 1) == 2 and len(m.round.hands[1]) == 4
    assert m.round.current == 2


def test_two_player_reverse_acts_as_skip__C_10() -> None:
    m = make("classic", [["red reverse", "red 6"], ["red 7", "red 8"]], "red 1")
    play(m, 0, "red reverse")
    assert m.round.current == 0 and m.round.pending is not None and m.round.pending.kind == "turn"


def test_play_to_one_card_without_uno_exposes_and_catch_costs_two__C_11() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"], ["green 1", "green 2"]], "red 1")
    events = play(m, 0, "red 5")
    assert m.round.exposed == {0}
    assert any(e.kind == "exposed" for e in events)
    assert Action("catch", target=0) in legal_actions(m, 2)  # any opponent, not only the next one
    events = act(m, 2, "catch", target=0)
    assert drawn_by(events, 0) == 2 and len(m.round.hands[0]) == 3
    assert m.round.exposed == set()


def test_uno_said_with_the_play_or_separately_protects__C_11() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"], ["green 1", "green 2"]], "red 1")
    play(m, 0, "red 5", uno=True)
    assert m.round.exposed == set() and m.round.declared == {0}
    assert not any(a.kind == "catch" for a in legal_actions(m, 1))
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"], ["green 1", "green 2"]], "red 1")
    play(m, 0, "red 5")
    act(m, 0, "declare_uno")
    assert m.round.exposed == set() and m.round.declared == {0}


def test_uno_said_just_before_playing_with_two_cards__C_11() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"]], "red 1")
    act(m, 0, "declare_uno")
    assert m.round.current == 0  # declaring is not a turn action
    play(m, 0, "red 5")
    assert m.round.exposed == set() and m.round.declared == {0}


def test_the_view_tells_every_seat_who_said_uno_before_playing__C_11() -> None:
    """The page plays a card of a seat that already said UNO! without asking about UNO! again."""
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"]], "red 1")
    assert view(m, 0)["table"]["predeclared"] is None
    act(m, 0, "declare_uno")
    assert view(m, 0)["table"]["predeclared"] == 0 and view(m, 1)["table"]["predeclared"] == 0
    assert view(m, None)["table"]["predeclared"] == 0  # public: the log told everyone
    play(m, 0, "red 5")
    assert view(m, 0)["table"]["predeclared"] is None  # the turn passed


def test_catch_window_closes_at_the_next_turn_action__C_11() -> None:
    m = make("classic", [["red 5", "red 6"], ["red 7", "blue 8", "blue 9"], ["green 1", "green 2"]], "red 1")
    play(m, 0, "red 5")
    play(m, 1, "red 7")  # the next player begins their turn
    assert m.round.exposed == set()
    with pytest.raises(IllegalAction) as err:
        act(m, 2, "catch", target=0)
    assert err.value.code == "not_exposed"
    assert len(m.round.hands[0]) == 1


def test_invalid_declaration_or_catch_is_rejected_harmlessly__C_11() -> None:
    m = make("classic", [["red 5", "red 6", "red 2"], ["blue 7", "blue 8"]], "red 1")
    before = m.round.fingerprint()
    for seat, action in ((0, Action("declare_uno")), (1, Action("catch", target=0)), (0, Action("catch", target=0))):
        with pytest.raises(IllegalAction):
            apply(m, seat, action)
    assert m.round.fingerprint() == before


def test_first_valid_catch_or_declaration_wins_the_race__C_12() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"], ["green 1", "green 2"]], "red 1")
    play(m, 0, "red 5")
    act(m, 2, "catch", target=0)
    with pytest.raises(IllegalAction) as err:
        act(m, 1, "catch", target=0)
    assert err.value.code == "too_late" and "seat 2" in err.value.message
    with pytest.raises(IllegalAction) as err:
        act(m, 0, "declare_uno")
    assert err.value.code == "too_late"  # the catch arrived first

    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"], ["green 1", "green 2"]], "red 1")
    play(m, 0, "red 5")
    act(m, 0, "declare_uno")
    with pytest.raises(IllegalAction) as err:
        act(m, 1, "catch", target=0)
    assert err.value.code == "too_late" and "declared" in err.value.message
    assert len(m.round.hands[0]) == 1


def test_exposure_from_a_forced_swap_and_a_dip_pass__C_12() -> None:
    m = make("all_wild", [["wild_forced_swap", "wild", "wild"], ["wild"], ["wild", "wild"]], "wild")
    play(m, 0, "wild_forced_swap", target=1)
    assert len(m.round.hands[0]) == 1 and len(m.round.hands[1]) == 2
    assert m.round.exposed == {0}
    m = make("pocket_pizza", [["wild_dip", "red 3"], ["blue 4", "blue 5"]], "red 1", ["green 2"])
    play(m, 0, "wild_dip", colour="red")
    act(m, 0, "pass_card", card=card(m, 0, "green 2"))
    assert names(m, 0) == ["red 3"] and m.round.exposed == {0}


def test_exposure_ends_when_the_hand_no_longer_holds_one_card__C_12() -> None:
    m = make("classic", [["red 5", "red 6"], ["blue 7", "blue 8"]], "red 1", ["green 4"])
    play(m, 0, "red 5")
    assert m.round.exposed == {0}
    act(m, 1, "draw")  # the window closes with the next turn action
    assert m.round.exposed == set()


def test_last_card_draw_penalty_still_happens_and_counts__C_13() -> None:
    m = make("classic", [["red draw2"], ["blue 7", "blue 8"]], "red 1", ["green 9", "yellow 9"])
    events = play(m, 0, "red draw2")
    assert drawn_by(events, 1) == 2
    assert m.round.winner == 0 and m.round.points == 7 + 8 + 9 + 9
    m = make("classic", [["wild_draw4"], ["blue 7", "red 8"]], "red 1", ["green 9", "yellow 9", "red 1", "red 2"])
    play(m, 0, "wild_draw4", colour="blue")
    assert m.round.winner == 0 and m.round.pending is None  # no challenge on a last card
    assert len(m.round.hands[1]) == 6


def test_last_card_extra_turn_effects_are_void__C_13() -> None:
    m = make("classic", [["red skip"], ["blue 7"], ["blue 8"]], "red 1")
    events = play(m, 0, "red skip")
    assert m.round.winner == 0 and not any(e.kind == "skipped" for e in events)
    assert legal_actions(m, 1) == [] and m.phase == "between"


def test_winner_scores_cards_left_and_scores_carry__C_14() -> None:
    m = make("classic", [["red 5"], ["blue 7", "wild"], ["red skip", "yellow 3"]], "red 1", target=1000)
    play(m, 0, "red 5")
    assert m.scores == [7 + 50 + 20 + 3, 0, 0]
    start_next_round(m)
    rnd = m.round
    winner = None
    # Play the second round out with the first legal action to see points add up.
    while m.phase == "round":
        assert rnd.pending is not None
        seat = rnd.pending.seat
        apply(m, seat, legal_actions(m, seat)[0])
        winner = rnd.winner
    assert winner is not None
    expected = [80, 0, 0]
    expected[winner] += rnd.points
    assert m.scores == expected


def test_match_ends_at_target__C_15() -> None:
    m = make("classic", [["red 5"], ["blue 7", "wild"]], "red 1", target=50)
    events = play(m, 0, "red 5")
    assert m.phase == "over" and m.winner == 0
    assert any(e.kind == "match_over" and e.data["winner"] == 0 for e in events)
    with pytest.raises(IllegalAction):
        start_next_round(m)
    m = make("classic", [["red 5"], ["blue 7", "wild"]], "red 1", target=58)
    play(m, 0, "red 5")
    assert m.phase == "between" and m.winner is None


def test_views_show_only_what_a_seat_may_see__C_16() -> None:
    m = make("classic", [["red 5", "wild", "blue 2"], ["blue 7", "green 8", "red 3"]], "red 1")
    mine = view(m, 0)
    theirs = {c for c in m.round.hands[1]}
    table = mine["table"]
    assert [c["id"] for c in table["hand"]] == m.round.hands[0]
    assert table["hand_sizes"] == [3, 3]
    assert table["top"]["name"] == "red 1" and table["draw_pile"] == len(m.round.draw_pile)
    text = json.dumps(mine)
    for c in theirs:
        assert f'"id": {c},' not in text
    spectator = view(m, None)["table"]
    assert "hand" not in spectator and "legal" not in spectator
    json.dumps(spectator)


def test_drawn_card_face_goes_only_to_the_drawer__C_16() -> None:
    m = make("classic", [["blue 9", "blue 2"], ["red 1", "red 2"]], "red 5", ["green 7"])
    events = act(m, 0, "draw")
    public = [e for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert all("cards" not in e.data for e in public)
    assert [e.to for e in private] == [(0,)]
    assert Counter(e.kind for e in public)["draw"] == 1
