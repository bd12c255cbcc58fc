"""The heuristic bot: it only ever says what its seat may say, and each heuristic does its job."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import app.bots.heuristic as heuristic
import app.bots.scoring as scoring
import app.bots.situation as situation
from app.bots import bot_delay_s, choose_action
from app.engine import (
    BETWEEN,
    OVER,
    VARIANTS,
    Match,
    MatchConfig,
    action_from_json,
    apply,
    legal_actions,
    new_match,
    start_next_round,
    view,
)
from app.rooms.automation import no_batch
from tests.engine.scenario import act, make, play
from tests.engine.test_house_stacking import house_match


def ask(match: Match, seat: int, seed: int = 0, **kwargs: Any) -> dict[str, Any] | None:
    """What the bot in ``seat`` does, given only that seat's view (as the JSON a client gets)."""
    return choose_action(json.loads(json.dumps(view(match, seat))), random.Random(seed), **kwargs)


def name_of(match: Match, action: dict[str, Any] | None) -> str:
    assert action is not None and "card" in action
    return str(match.round.cards[action["card"]].name)


# ---------------------------------------------------------------------------- legality


def bot_step(match: Match, seat: int, rng: random.Random, reliability: float, kinds: Counter[str]) -> bool:
    """Let ``seat``'s bot act on its own view; check the action is legal.  Did it act?"""
    seen = view(match, seat)
    assert seen["seat"] == seat and len(seen["table"]["hand"]) == len(match.round.hands[seat])
    untouched = copy.deepcopy(seen)
    chosen = choose_action(seen, rng, uno_reliability=reliability)
    assert seen == untouched, "the bot must not change the view it was given"
    if chosen is None:
        assert not any(a.kind not in ("declare_uno", "catch") for a in legal_actions(match, seat))
        return False
    assert chosen in seen["table"]["legal"]
    action = action_from_json(chosen)
    assert action in legal_actions(match, seat)
    apply(match, seat, action)
    kinds[action.kind] += 1
    return True


def play_bots(edition: str, seats: int, seed: int, rounds: int, kinds: Counter[str]) -> None:
    """Bots in every seat play ``rounds`` rounds; every seat is asked, in random order, every step."""
    match, _ = new_match(MatchConfig(edition, seats), seed)
    rng = random.Random(seed)
    reliability = rng.choice([0.5, 0.97])  # forgetful bots leave exposures for others to catch
    steps = 0
    while match.phase != OVER and match.round_no <= rounds:
        if match.phase == BETWEEN:
            start_next_round(match)
            continue
        order = list(range(seats))
        rng.shuffle(order)
        acted = False
        for seat in order:
            if match.phase == "round":
                acted = bot_step(match, seat, rng, reliability, kinds) or acted
        assert acted or match.phase != "round", "someone always owes a decision"
        steps += 1
        assert steps < 20_000


# Decisions each edition's random games must reach, so that the legality check covers them.
EXPECTED_KINDS = {
    "classic": {"play", "draw", "play_drawn", "keep", "accept", "challenge", "choose_colour", "declare_uno",
                "catch"},
    "mario_kart": {"play", "draw", "play_drawn", "keep", "accept", "challenge", "choose_colour", "choose_target",
                   "declare_uno", "catch"},
    "all_wild": {"play", "special_draw", "play_drawn", "choose_target", "declare_uno", "catch"},
    "pocket_pizza": {"play", "draw", "play_drawn", "keep", "accept", "challenge", "choose_colour", "pass_card",
                     "declare_uno", "catch"},
}


@pytest.mark.slow
@pytest.mark.parametrize("edition", list(VARIANTS))
def test_bots_only_ever_choose_legal_actions(edition: str) -> None:
    kinds: Counter[str] = Counter()
    for seats in range(2, 6):
        for seed in range(20):
            play_bots(edition, seats, seed, rounds=3, kinds=kinds)
    assert EXPECTED_KINDS[edition] <= set(kinds), EXPECTED_KINDS[edition] - set(kinds)


@pytest.mark.parametrize("module", [heuristic, situation, scoring], ids=lambda m: m.__name__)
def test_bot_reads_nothing_but_the_view(module: Any) -> None:
    """The bot's modules import nothing from the engine: it cannot reach a Match or a Round."""
    tree = ast.parse(Path(module.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not any(m and m.startswith("app") for m in imported), imported


def test_nothing_to_do_is_none() -> None:
    m = make("classic", [["red 3", "blue 7"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]], "red 5")
    assert ask(m, 1) is None  # not its turn, nobody exposed
    assert choose_action(view(m, None), random.Random(0)) is None  # a spectator


# ---------------------------------------------------------------------------- playing cards


def test_keeps_a_wild_when_a_number_plays() -> None:
    m = make("classic", [["wild", "red 3", "blue 7"], ["green 1", "green 2"]], "red 5")
    assert name_of(m, ask(m, 0)) == "red 3"
    m = make("mario_kart", [["item_box", "wild_draw4", "blue 5", "green 8"], ["green 1", "green 2"]], "red 5")
    assert name_of(m, ask(m, 0)) == "blue 5"


def test_stays_in_the_colour_it_holds_most() -> None:
    m = make("classic", [["red 3", "blue 5", "blue 1", "blue 2", "red 9"], ["green 1", "green 2"]], "red 5")
    assert name_of(m, ask(m, 0)) == "blue 5"  # switches to blue, of which it holds three


def test_wild_declares_the_colour_it_holds_most() -> None:
    m = make("classic", [["wild", "blue 1", "blue 2", "green 3", "yellow 9"], ["green 1", "green 2"]], "red 5")
    action = ask(m, 0)
    assert name_of(m, action) == "wild" and action is not None and action["colour"] == "blue"


def test_chooses_the_colour_it_holds_most_when_asked() -> None:
    # A first-card wild makes the first player choose the colour (CL-2).
    m = make("classic", [["green 1", "yellow 2", "yellow 3", "red 4"], ["blue 1", "blue 2"]], "wild")
    assert ask(m, 0) == {"kind": "choose_colour", "colour": "yellow"}


def test_plays_the_last_card() -> None:
    m = make("classic", [["wild"], ["green 1", "green 2"]], "red 5")
    assert name_of(m, ask(m, 0)) == "wild"


def test_draws_when_nothing_plays_and_plays_a_drawn_number() -> None:
    m = make("classic", [["blue 3", "green 7"], ["green 1", "green 2"]], "red 5", ["red 8"])
    assert ask(m, 0) == {"kind": "draw"}
    act(m, 0, "draw")
    assert ask(m, 0) is not None and name_of(m, ask(m, 0)) == "red 8"


def test_keeps_a_drawn_wild_with_a_big_hand_but_not_when_someone_is_close() -> None:
    hand = ["blue 3", "green 7", "yellow 1", "yellow 4"]
    m = make("classic", [hand, ["green 1", "green 2", "green 3"]], "red 5", ["wild"])
    act(m, 0, "draw")
    assert ask(m, 0) == {"kind": "keep"}
    m = make("classic", [hand, ["green 1", "green 2"]], "red 5", ["wild"])
    act(m, 0, "draw")
    action = ask(m, 0)
    assert action is not None and action["kind"] == "play_drawn" and action["colour"] == "yellow"


def test_stops_the_next_player_on_one_card() -> None:
    m = make("classic", [["red 3", "red skip", "blue 9"], ["green 1"], ["green 4", "blue 2", "yellow 3"]], "red 5")
    assert name_of(m, ask(m, 0)) == "red skip"
    m = make("pocket_pizza", [["red 3", "red draw1", "blue 9"], ["green 1", "green 2"]], "red 5")
    assert name_of(m, ask(m, 0)) == "red draw1"


def test_sheds_points_when_an_opponent_is_close() -> None:
    # Seat 2 (not next) is close to winning: shed the 9 before the 1 of the same colour.
    m = make("classic", [["red 1", "red 9", "red 4"], ["green 1", "green 2", "green 3"], ["blue 1"]], "red 5")
    assert name_of(m, ask(m, 0)) == "red 9"


def test_wild_draw_four_only_on_a_threat_and_only_when_innocent() -> None:
    m = make("classic", [["wild_draw4", "blue 3", "green 4"], ["green 1", "green 2", "green 3"]], "red 3")
    assert name_of(m, ask(m, 0)) == "blue 3"  # no threat: keep the wild
    m = make("classic", [["wild_draw4", "blue 3", "green 4"], ["green 1"]], "red 3")
    action = ask(m, 0)
    assert name_of(m, action) == "wild_draw4" and action is not None and action["colour"] in ("blue", "green")
    m = make("classic", [["wild_draw4", "red 7", "green 4"], ["green 1"]], "red 3")
    assert name_of(m, ask(m, 0)) == "red 7"  # holding red, the draw four would lose a challenge


def test_says_uno_with_its_second_to_last_card() -> None:
    m = make("classic", [["red 3", "blue 7"], ["green 1", "green 2"]], "red 5")
    action = ask(m, 0)
    assert name_of(m, action) == "red 3" and action is not None and action.get("uno") is True


def test_sometimes_forgets_uno() -> None:
    m = make("classic", [["red 3", "blue 7"], ["green 1", "green 2"]], "red 5")
    action = ask(m, 0, uno_reliability=0.0)
    assert name_of(m, action) == "red 3" and action is not None and "uno" not in action
    said = sum(bool((ask(m, 0, seed=s) or {}).get("uno")) for s in range(300))
    assert 270 <= said < 300  # about 97 % of the time


def test_declares_when_exposed_and_catches_an_exposed_opponent() -> None:
    m = make("classic", [["red 3", "blue 7"], ["red 1", "green 2"], ["green 1", "green 4"]], "red 5")
    play(m, 0, "red 3")  # no UNO: seat 0 is exposed
    assert ask(m, 0) == {"kind": "declare_uno"}
    assert ask(m, 2) == {"kind": "catch", "target": 0}
    assert ask(m, 1) == {"kind": "catch", "target": 0}  # before its own turn closes the window
    assert ask(m, 2, uno_reliability=0.0) is None


# ---------------------------------------------------------------------------- choosing opponents


def test_targeted_draw_two_hits_the_opponent_with_fewest_cards() -> None:
    m = make("all_wild", [["wild_targeted_draw2", "wild", "wild"], ["wild"] * 5, ["wild"] * 2], "wild")
    action = ask(m, 0)
    assert name_of(m, action) == "wild_targeted_draw2" and action is not None and action["target"] == 2


def test_green_shell_hits_the_opponent_with_fewest_cards() -> None:
    hands = [["item_box", "blue 3", "blue 4"], ["green 1", "blue 9", "blue 8", "blue 7", "blue 6"], ["yellow 2"] * 2]
    m = make("mario_kart", hands, "red 5", ["green 2"])
    assert name_of(m, ask(m, 0)) == "item_box"
    play(m, 0, "item_box")
    assert m.round.pending is not None and m.round.pending.kind == "target"
    assert ask(m, 0) == {"kind": "choose_target", "target": 2}


def test_forced_swap_with_the_opponent_on_one_card_says_uno() -> None:
    m = make("all_wild", [["wild_forced_swap", "wild", "wild", "wild", "wild"], ["wild"] * 4, ["wild"]], "wild")
    action = ask(m, 0)
    assert name_of(m, action) == "wild_forced_swap"
    assert action is not None and action["target"] == 2 and action.get("uno") is True


def test_no_forced_swap_for_a_bigger_hand() -> None:
    m = make("all_wild", [["wild_forced_swap", "wild"], ["wild"] * 6], "wild")
    assert name_of(m, ask(m, 0)) == "wild"


def test_dip_passes_the_costliest_card_but_keeps_wilds() -> None:
    m = make("pocket_pizza", [["wild_dip", "wild", "red 3", "blue skip"], ["green 1", "green 2"]], "red 5",
             ["yellow 2"])
    play(m, 0, "wild_dip", colour="red")
    action = ask(m, 0)
    assert action is not None and action["kind"] == "pass_card" and name_of(m, action) == "blue skip"


# ---------------------------------------------------------------------------- challenges, special draws


def test_challenges_a_draw_four_from_a_big_hand_only() -> None:
    m = make("classic", [["wild_draw4", "blue 1", "blue 2", "green 3", "yellow 4"], ["green 1", "green 2"],
                         ["yellow 1", "yellow 2"]], "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    assert ask(m, 1) == {"kind": "challenge"}
    m = make("classic", [["wild_draw4", "blue 1", "blue 2"], ["green 1", "green 2"], ["yellow 1", "yellow 2"]],
             "red 5")
    play(m, 0, "wild_draw4", colour="blue")
    assert ask(m, 1) == {"kind": "accept"}


def test_challenges_a_wild_draw_two_from_two_cards() -> None:
    m = make("pocket_pizza", [["wild_draw2", "blue 1", "green 3"], ["green 1", "green 2"]], "red 5")
    play(m, 0, "wild_draw2", colour="blue")
    assert ask(m, 1) == {"kind": "challenge"}


def test_special_draw_when_only_plain_wilds_and_the_next_player_is_on_one_card() -> None:
    m = make("all_wild", [["wild", "wild", "wild"], ["wild"], ["wild"] * 3], "wild", ["wild_skip"])
    assert ask(m, 0) == {"kind": "special_draw"}
    act(m, 0, "special_draw")
    assert name_of(m, ask(m, 0)) == "wild_skip"


def test_two_player_all_wild_chains_turn_keepers_before_a_plain_wild() -> None:
    m = make("all_wild", [["wild", "wild_skip", "wild_draw2"], ["wild"] * 4], "wild")
    assert name_of(m, ask(m, 0)) == "wild_skip"


# ---------------------------------------------------------------------------- timing


def test_delays_look_human() -> None:
    rng = random.Random(1)
    for _ in range(200):
        assert 0.3 <= bot_delay_s({"kind": "declare_uno"}, rng) <= 1.2
        assert 0.6 <= bot_delay_s({"kind": "play", "card": 3}, rng) <= 1.8


def test_the_next_player_is_the_first_opponent_not_owing_a_lost_turn() -> None:
    m = make("all_wild", [["wild"] * 3, ["wild"], ["wild"] * 5], "wild")
    seen = view(m, 0)
    assert situation.Situation.from_view(seen).next_seat == 1
    seen["table"]["skips_owed"] = [0, 1, 0]  # as after a Double Skip: seat 1 will be jumped
    s = situation.Situation.from_view(seen)
    assert s.next_seat == 2 and not s.next_threatens
    seen["table"]["skips_owed"] = [0, 1, 1]
    assert situation.Situation.from_view(seen).next_seat == 1


def test_never_tries_a_face_down_card_and_the_clock_still_draws__HR_33__HX_8() -> None:
    """Blind draw: the bot sees only its face-up cards (a misplay's card stays down, D-13), so with
    nothing it can see to play it draws — the turn clock's minimal move too — and it counts the
    face-down cards in its hand's size (no 'last card' play from a bigger hand)."""
    m = house_match("classic", [["blue 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3",),
                    blind_draw=True, misplay_penalty=True)
    play(m, 0, "blue 7")  # a misplay: red 3 comes in face down, its turn still pending
    seen = json.loads(json.dumps(view(m, 0)))
    assert seen["table"]["face_down"] == 1 and len(seen["table"]["hand"]) == 2
    for seed in range(20):
        chosen = choose_action(seen, random.Random(seed))
        assert chosen == {"kind": "draw"}
        assert no_batch(seen["table"]["legal"], chosen) == {"kind": "draw"}
    m = house_match("classic", [["red 7", "blue 8"], ["green 1", "green 2"]], "red 9", ("red 3", "yellow 4"),
                    blind_draw=True, misplay_penalty=True)
    play(m, 0, "blue 8")  # red 3 face down: two cards left it can see, one it cannot
    play(m, 0, "red 7")
    act(m, 1, "draw")
    seen = json.loads(json.dumps(view(m, 0)))
    s = situation.Situation.from_view(seen)
    assert s.sizes[0] == 2 and len(s.hand) == 2  # red 3 turned up at its turn: it sees both
