"""Replays: a finished match step by step, in every edition — each step's hands add up to the
deck (no card is made or lost), the round ends as it was scored (C-13, C-14), and only a
log that replays to the match's end makes a replay."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from app.engine import VARIANTS
from app.engine.audit import Mismatch, commitment
from app.engine.playback import playback

from .test_verify import finished_match


def stored(edition: str, seats: int) -> tuple[Any, dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    match, given = finished_match(edition, seats, rounds=2, seed=11)
    rounds = [{"number": n, "commitment": commitment(s), "secret": s} for n, s in sorted(given.items())]
    actions = [{"seq": i, "round": e.round, "seat": e.seat, "action": e.action.to_json(), "at": f"t{i}"}
               for i, e in enumerate(match.log, start=1)]
    return match, match.config.to_json(), rounds, actions


@pytest.mark.parametrize(("edition", "seats"), [("classic", 3), ("mario_kart", 4), ("all_wild", 2),
                                                ("pocket_pizza", 5)])
def test_every_step_holds_the_whole_deck_and_the_rounds_end_as_scored(edition: str, seats: int) -> None:
    match, config, rounds, actions = stored(edition, seats)
    doc = json.loads(json.dumps(playback(config, [f"P{i}" for i in range(seats)], rounds, actions)))
    deck = len(VARIANTS[edition].cards)
    assert doc["format"] == "uno-match-replay" and len(doc["cards"]) == deck
    assert [r["number"] for r in doc["rounds"]] == [1, 2]
    assert sum(len(r["steps"]) - 1 for r in doc["rounds"]) == len(actions)
    assert [s["seq"] for r in doc["rounds"] for s in r["steps"][1:]] == [a["seq"] for a in actions]
    for rnd, history in zip(doc["rounds"], match.history, strict=True):
        for s in rnd["steps"]:
            state = s["state"]
            held = [c for hand in state["hands"] for c in hand]
            # Every card is in a hand, on the discard pile or in the draw pile, once.
            assert len(held) == len(set(held))
            assert len(held) + state["draw_pile"] + state["discard_pile"] == deck
        last = rnd["steps"][-1]["state"]
        assert last["winner"] == rnd["winner"] == history.winner and rnd["points"] == history.points
        assert last["hands"][history.winner] == [] and last["pending"] is None
        assert [len(h) for h in last["hands"]] == list(history.cards_left)
        assert all(s["state"]["winner"] is None for s in rnd["steps"][:-1])
    assert doc["scores"] == match.scores and doc["rounds"][-1]["steps"][-1]["state"]["scores"] == match.scores


def test_only_a_log_that_plays_to_the_end_replays() -> None:
    _, config, rounds, actions = stored("classic", 3)
    with pytest.raises(Mismatch, match="the match is not over"):
        playback(config, ["A", "B", "C"], rounds, actions[:-1])
    broken = [*actions]
    broken[3] = {**broken[3], "seat": (broken[3]["seat"] + 1) % 3}
    with pytest.raises(Mismatch, match=r"action #4 .* is refused by the rules"):
        playback(config, ["A", "B", "C"], rounds, broken)
    other = [{**rounds[0], "secret": secrets.token_hex(16)}, *rounds[1:]]
    with pytest.raises(Mismatch):
        playback(config, ["A", "B", "C"], other, actions)
