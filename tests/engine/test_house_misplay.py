"""The misplay penalty (RULES.md §7.6 HR-20; D-7, HX-4)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.engine import (
    VARIANTS,
    Action,
    IllegalAction,
    MatchConfig,
    apply,
    config_of,
    legal_actions,
    new_match,
    replay,
)

from .house_sets import random_house, seats_for
from .scenario import act, card, drawn_by, play
from .test_house_stacking import house_match


def test_a_card_that_does_not_match_is_a_misplay__HR_20() -> None:
    m = house_match("classic", [["blue 5", "red 1", "red 2"], ["green 1", "green 2"]], "red 9",
                    misplay_penalty=True)
    blue5 = card(m, 0, "blue 5")
    events = apply(m, 0, Action("play", blue5))
    misplayed = next(e for e in events if e.kind == "misplay")
    assert misplayed.to is None and misplayed.data == {"seat": 0, "cards": [m.round.card_json(blue5)]}
    assert blue5 in m.round.hands[0] and drawn_by(events, 0) == 1 and len(m.round.hands[0]) == 4
    p = m.round.pending
    assert p is not None and p.kind == "turn" and p.seat == 0  # the decision stays pending
    assert [e.action for e in m.log] == [Action("play", blue5)]  # logged, so a replay misplays it again


def test_a_restricted_last_card_is_a_misplay_on_ones_turn__HR_20__HR_15() -> None:
    m = house_match("classic", [["red draw2"], ["green 1", "green 2"]], "red 9", misplay_penalty=True,
                    finish_with="no_draw")
    events = play(m, 0, "red draw2")
    assert any(e.kind == "misplay" for e in events) and len(m.round.hands[0]) == 2


def test_other_refusals_cost_nothing__HR_20__D_7() -> None:
    m = house_match("classic", [["red draw2", "red 1", "red 2"], ["blue 5", "blue 6"], ["red draw2", "green 2"]],
                    "red 9", misplay_penalty=True, stacking=True, finish_with="no_draw")
    with pytest.raises(IllegalAction) as err:
        play(m, 1, "blue 5")  # not its turn
    assert err.value.code == "not_your_turn"
    play(m, 0, "red draw2")
    with pytest.raises(IllegalAction) as err:
        play(m, 1, "blue 5")  # no answer on a stack decision: refused, not a misplay
    assert err.value.code == "card_not_playable" and len(m.round.hands[1]) == 2


def test_a_misplay_closes_no_catch_window__HR_20__HX_4() -> None:
    m = house_match("classic", [["red 5", "red 6"], ["blue 5", "blue 6", "blue 7"], ["green 1", "green 2"]],
                    "red 9", misplay_penalty=True)
    play(m, 0, "red 5")  # seat 0 holds one card, UNO unsaid
    apply(m, 1, Action("play", card(m, 1, "blue 6")))  # a misplay: blue 6 on red 5
    assert m.round.exposed == {0}
    act(m, 2, "catch", target=0)
    assert len(m.round.hands[0]) == 3


def test_random_rounds_with_misplays_replay_and_conserve_cards__HR_20() -> None:
    total = 0
    for edition in ("classic", "mario_kart", "pocket_pizza"):
        rng = random.Random(edition)
        for game in range(4):
            rules = replace(random_house(rng, edition), misplay_penalty=True)
            match, _ = new_match(MatchConfig(edition, seats_for(rules, 3), house=rules), f"misplay-{game}")
            rnd = match.round
            misplays = 0
            for _ in range(2000):
                if match.phase != "round":
                    break
                assert rnd.pending is not None
                seat = rnd.pending.seat
                legal = legal_actions(match, seat)
                refusals = {c: rnd.refusal(seat, Action("play", c)) for c in rnd.hands[seat]}
                wrong = [c for c, why in refusals.items() if why is not None and rnd.pending.kind == "turn"
                         and why.code in ("card_not_playable", "finish_restricted")]
                if wrong and rng.random() < 0.2:
                    size = len(rnd.hands[seat])
                    apply(match, seat, Action("play", wrong[0]))
                    assert len(rnd.hands[seat]) in (size, size + 1)
                    # The decision stays pending, unless the draw reached the hand limit with
                    # nothing to play: then HR-12 ends the turn at once.
                    at_limit = rules.hand_limit is not None and len(rnd.hands[seat]) >= rules.hand_limit
                    assert at_limit or (rnd.pending is not None and rnd.pending.seat == seat)
                    misplays += 1
                else:
                    apply(match, seat, rng.choice(legal))
                every = sorted([c for h in rnd.hands for c in h] + rnd.draw_pile + rnd.discard)
                assert every == list(range(len(VARIANTS[edition].cards)))
            total += misplays  # a game may hold no misplay by chance (a short round); all of them do
            again = replay(config_of(match), f"misplay-{game}", match.log, rounds=match.round_no)
            assert again.fingerprint() == match.fingerprint()
    assert total > 10
