"""Each bot level does what it says: easy plays the first legal card and forgets UNO! now and then,
normal and hard declare with their play, hard acts on its count of the round and on house rules."""

from __future__ import annotations

import json
import random
from typing import Any

from app.bots import LEVELS, make_bot
from app.bots.counting import DECK, GUILTY_WILDS, PER_COLOUR, Tally
from app.bots.easy import Easy
from app.bots.hard import Hard
from app.engine import VARIANTS, MatchConfig, new_match, view
from app.engine.match import Match
from tests.engine.scenario import act, make, play
from tests.engine.test_house_stacking import house_match


def seen(match: Match, seat: int) -> dict[str, Any]:
    """The seat's view as a client (and a bot) gets it: JSON."""
    out: dict[str, Any] = json.loads(json.dumps(view(match, seat)))
    return out


def test_every_level_is_made_by_its_name() -> None:
    assert [make_bot(level).level for level in LEVELS] == ["easy", "normal", "hard"]


def test_easy_plays_the_first_legal_card() -> None:
    m = make("classic", [["red 9", "red 1", "red skip", "blue 2"], ["green 1", "green 2", "green 3"]], "red 5")
    legal = seen(m, 0)["table"]["legal"]
    first = next(a for a in legal if a["kind"] == "play")
    for seed in range(10):
        chosen = Easy().act(seen(m, 0), random.Random(seed))
        assert chosen is not None and chosen["card"] == first["card"]


def test_easy_sometimes_forgets_uno_and_normal_and_hard_never_do__C_11() -> None:
    """With two cards and a play, normal and hard always say UNO! with it; easy forgets some of
    the time (so people get to catch it), and says it some of the time."""
    m = make("classic", [["red 9", "red 1"], ["green 1", "green 2", "green 3"]], "red 5")
    said = {level: 0 for level in LEVELS}
    for seed in range(200):
        for level in LEVELS:
            chosen = make_bot(level).act(seen(m, 0), random.Random(seed))
            assert chosen is not None and chosen["kind"] == "play"
            said[level] += bool(chosen.get("uno"))
    assert said["normal"] == said["hard"] == 200
    assert 60 <= said["easy"] <= 180, said


def test_easy_never_challenges() -> None:
    m = make("classic", [["wild_draw4", "red 1", "red 2"], ["green 1", "green 2", "green 3"]], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    for seed in range(20):
        chosen = Easy().act(seen(m, 1), random.Random(seed))
        assert chosen is not None and chosen["kind"] == "accept"


def test_hard_names_the_colour_its_next_opponent_lacks() -> None:
    """Holding nothing to prefer, hard names the colour the next seat has just shown it lacks (it
    drew rather than play on it): what a person watching the table would remember."""
    m = make("classic", [["green 1", "wild", "red 4", "blue 4"], ["yellow 3", "yellow 4", "blue 9"],
                         ["green 7", "green 8", "blue 7"]], "red 5", draw=["yellow 1", "blue 1", "green 2"])
    hard = Hard()
    hard.observe(seen(m, 0))
    play(m, 0, "red 4")  # seat 1 plays next, on red: it has none
    assert m.round.pending is not None and m.round.pending.seat == 1
    hard.observe(seen(m, 0))
    act(m, 1, "draw")  # an unplayable card: the turn passes on (C-6)
    hard.observe(seen(m, 0))
    assert hard.tally.lacks == {1: {"red"}}
    assert hard.colour(seen(m, 0), [], random.Random(0)) == "red"
    # Holding cards of a colour still comes first: a colour it can follow with is worth more.
    blue = [c for c in seen(m, 0)["table"]["hand"] if c["colour"] == "blue"]
    assert hard.colour(seen(m, 0), blue, random.Random(0)) == "blue"


def test_hard_plays_into_the_colour_its_next_opponent_lacks() -> None:
    """Seat 1 drew on red; back on its turn hard plays its red 6 (seat 1 must draw again) where
    normal stays in green, the colour it holds most."""
    m = make("classic", [["red 6", "red 6", "green 1", "green 2", "green 3"], ["yellow 3", "yellow 4", "blue 9"],
                         ["green 6", "blue 7", "blue 8"]], "red 5", draw=["yellow 1", "blue 1", "green 9"])
    hard = Hard()
    hard.observe(seen(m, 0))
    play(m, 0, "red 6")
    hard.observe(seen(m, 0))
    act(m, 1, "draw")  # nothing red: an unplayable card, and the turn passes on (C-6)
    hard.observe(seen(m, 0))
    play(m, 2, "green 6")
    assert hard.tally.lacks == {1: {"red"}}
    names = {c["id"]: c["name"] for c in seen(m, 0)["table"]["hand"]}
    for seed in range(5):
        chosen = hard.act(seen(m, 0), random.Random(seed))
        assert chosen is not None and names[chosen["card"]] == "red 6"
        usual = make_bot("normal").act(seen(m, 0), random.Random(seed))
        assert usual is not None and names[usual["card"]].startswith("green")


def test_hard_challenges_on_its_count_of_the_replaced_colour__CL_5() -> None:
    """A Wild Draw Four from a big hand: the heuristic's odds say challenge; hard, which has seen
    every other red card go by... cannot see that here, so it challenges a big hand and declines
    a one-card one whose colour it holds most of."""
    m = make("classic", [["wild_draw4", "red 1", "red 2", "red 3", "red 4", "red 6", "red 7", "red 8"],
                         ["green 1", "green 2", "green 3"]], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    hard = Hard()
    odds_big = hard.guilty_odds(seen(m, 1))
    assert odds_big > 0.5
    chosen = hard.act(seen(m, 1), random.Random(0))
    assert chosen is not None and chosen["kind"] == "challenge"
    # The same Wild Draw Four from a hand of two, while hard holds many reds itself: unlikely guilty.
    m = make("classic", [["wild_draw4", "green 2", "blue 3"],
                         ["red 1", "red 2", "red 3", "red 4", "red 6", "red 7", "red 8", "red 9"]], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    hard = Hard()
    assert hard.guilty_odds(seen(m, 1)) < 0.5
    chosen = hard.act(seen(m, 1), random.Random(0))
    assert chosen is not None and chosen["kind"] == "accept"


def test_hard_counts_the_cards_it_has_seen() -> None:
    """Every card on top of the pile is counted once; a new round starts the count afresh."""
    m = make("classic", [["red 1", "red 2", "red 3"], ["red 4", "red 6", "red 7"]], "red 5")
    tally = Tally()
    tally.observe(seen(m, 0))
    for seat, name in ((0, "red 1"), (1, "red 4"), (0, "red 2")):
        play(m, seat, name)
        tally.observe(seen(m, 0))
        tally.observe(seen(m, 0))  # the same view twice counts nothing twice
    assert tally.seen_by_colour()["red"] == 4
    hand = seen(m, 0)["table"]["hand"]
    assert tally.unseen("classic", "red", hand) == 25 - 4 - 1


def test_hard_plays_a_seven_that_swaps_into_a_smaller_hand__HR_6_HR_7() -> None:
    """Seven-O: with 5 cards against an opponent holding 2, hard plays its 7 on that opponent
    (the heuristic alone would rather stay in its colour)."""
    m = house_match("classic", [["red 7", "red 1", "red 2", "red 3", "red 4"], ["green 1", "green 2"],
                                ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5"]], "red 5", seven_o=True)
    chosen = Hard().act(seen(m, 0), random.Random(0))
    assert chosen is not None and chosen.get("target") == 1
    assert m.round.variant.card_json[chosen["card"]]["face"] == "7"


def test_hard_plays_all_of_a_number_ending_on_its_colour__HR_8() -> None:
    """Several of one number (HR-8): hard plays its three 3s at once, the green one last (it keeps
    two greens); normal plays one card."""
    m = house_match("classic", [["red 3", "green 3", "yellow 3", "green 1", "green 2"],
                                ["blue 1", "blue 2", "blue 4"]], "blue 3", multi_play=True)
    names = {c["id"]: c["name"] for c in seen(m, 0)["table"]["hand"]}
    chosen = Hard().act(seen(m, 0), random.Random(0))
    assert chosen is not None and len(chosen.get("more", [])) == 2
    assert sorted(names[i] for i in (chosen["card"], *chosen["more"])) == ["green 3", "red 3", "yellow 3"]
    assert names[chosen["more"][-1]] == "green 3"
    usual = make_bot("normal").act(seen(m, 0), random.Random(0))
    assert usual is not None and not usual.get("more")


def test_hard_jumps_in_with_an_identical_card() -> None:
    """Jump-in (§6.1): off turn, with the very card on top, hard throws it in; normal waits."""
    m = house_match("classic", [["red 1", "green 1", "blue 2"], ["yellow 3", "yellow 4", "blue 9"],
                                ["green 7", "green 8", "red 6"]], "red 6", jump_in=True)
    chosen = Hard().act(seen(m, 2), random.Random(0))
    assert chosen is not None and chosen["kind"] == "play"
    assert make_bot("normal").act(seen(m, 2), random.Random(0)) is None


def test_the_counts_deck_figures_are_the_engines_decks() -> None:
    for edition in VARIANTS:
        m, _ = new_match(MatchConfig(edition, 2), "deck")
        cards = m.round.variant.card_json
        assert len(cards) == DECK[edition]
        assert sum(c["colour"] == "red" for c in cards) == PER_COLOUR[edition]
        guilty = {"mario_kart": ("item_box",), "pocket_pizza": ("wild", "wild_dip")}.get(edition, ())
        assert sum(c["colour"] is None and c["face"] in guilty for c in cards) == GUILTY_WILDS[edition]
