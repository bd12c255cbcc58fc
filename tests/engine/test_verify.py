"""Committed shuffles: per-round secrets, the export of a finished match, and the verifier.

A round dealt with a secret of its own is still dealt by the rules (C-2: the deal passes
clockwise; C-8: reshuffles draw on the same randomness), and the verifier re-deals every
round and replays the log to check the dealt hands, each card drawn and flipped, each
round's winner and points (C-13, C-14) and the final scores (C-15).
"""

from __future__ import annotations

import copy
import json
import random
import secrets
from pathlib import Path
from typing import Any

import pytest

from app.engine import (
    OVER,
    HouseRules,
    IllegalAction,
    MatchConfig,
    apply,
    config_of,
    legal_actions,
    new_match,
    replay,
    start_next_round,
)
from app.engine.audit import commitment, export_document, rebuild
from app.engine.match import Match, round_seed
from app.engine.verify import Unfair, main, verify


def play_out(match: Match, rng: random.Random) -> None:
    """Random legal play, leaning towards plays, until the round is scored."""
    while match.round.winner is None:
        assert match.round.pending is not None
        seat = match.round.pending.seat
        legal = legal_actions(match, seat)
        plays = [a for a in legal if a.kind in ("play", "play_drawn")]
        apply(match, seat, rng.choice(plays if plays and rng.random() < 0.8 else legal))


def finished_match(edition: str = "classic", seats: int = 3, rounds: int = 3, seed: int = 7
                   ) -> tuple[Match, dict[int, str]]:
    """A match of ``rounds`` rounds, each dealt from a fresh secret (round 1's is the match seed)."""
    first = secrets.token_hex(16)
    match, _ = new_match(MatchConfig(edition, seats, house=HouseRules(rounds=rounds)), first)
    given = {1: first}
    rng = random.Random(seed)
    while True:
        play_out(match, rng)
        if match.phase == OVER:
            return match, given
        given[match.round_no + 1] = secrets.token_hex(16)
        start_next_round(match, given[match.round_no + 1])


def exported(match: Match, given: dict[int, str]) -> dict[str, Any]:
    rounds = [{"number": n, "commitment": commitment(s), "secret": s} for n, s in sorted(given.items())]
    actions = [{"seq": i, "round": e.round, "seat": e.seat, "action": e.action.to_json(), "at": f"t{i}"}
               for i, e in enumerate(match.log, start=1)]
    doc = export_document(match.config.to_json(), ["Ann", "Bob", "Cy"][:match.config.seats], rounds, actions)
    travelled: dict[str, Any] = json.loads(json.dumps(doc))  # as it arrives elsewhere
    return travelled


@pytest.fixture(scope="module")
def export() -> dict[str, Any]:
    match, given = finished_match()
    return exported(match, given)


def test_a_secret_of_its_own_deals_the_round_and_replays() -> None:
    match, given = finished_match(rounds=2)
    assert match.round.seed == round_seed(given[2], 2)
    assert match.round_secret(1) == given[1] and match.round_secret(2) == given[2]
    again = replay(config_of(match), given[1], match.log, secrets=given)
    assert again.fingerprint() == match.fingerprint()
    # The same log dealt from the match seed alone is another match: the secret did the dealing.
    try:
        other = replay(config_of(match), given[1], match.log)
    except IllegalAction:
        return
    assert other.fingerprint() != match.fingerprint()


def test_without_a_secret_the_rounds_are_dealt_from_the_match_seed_as_before() -> None:
    match, _ = new_match(MatchConfig("classic", 2, house=HouseRules(rounds=2)), 42)
    play_out(match, random.Random(1))
    start_next_round(match)
    assert match.round.seed == "42/2" and match.secrets == {}


def test_an_honest_export_verifies_round_by_round(export: dict[str, Any]) -> None:
    assert verify(export) == ["round 1: fair", "round 2: fair", "round 3: fair"]
    first = export["rounds"][0]
    assert first["commitment"] == commitment(first["secret"]) and len(first["secret"]) == 32
    assert all(len(hand) == 7 for hand in first["dealt"])  # seven cards each
    assert all(a["at"] for r in export["rounds"] for a in r["actions"])
    assert sum(r["points"] for r in export["rounds"]) == sum(export["scores"])


def test_a_swapped_card_is_named(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    dealt = doc["rounds"][1]["dealt"]
    dealt[0][0] = dealt[1][0]  # seat 0 claims a card seat 1 was dealt
    with pytest.raises(Unfair, match=r"round 2: the export says seat 0 was dealt \[.*\], the secret deals"):
        verify(doc)


def test_a_swapped_drawn_card_is_named(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    where = next((r, a) for r in doc["rounds"] for a in r["actions"]
                 if any(e["kind"] == "drew" for e in a["events"]))
    rnd, action = where
    drew = next(e for e in action["events"] if e["kind"] == "drew")
    real = drew["data"]["cards"][0]["name"]
    drew["data"]["cards"][0] = next(c for h in rnd["dealt"] for c in h if c["name"] != real)
    with pytest.raises(Unfair) as err:
        verify(doc)
    assert f"round {rnd['number']}: action #{action['seq']} (seat {action['seat']}: " in str(err.value)
    # The drawer need not be the seat that acted (a Draw Two's victim draws, say).
    assert f"the replay gives 'drew' (seat {drew['data']['seat']}, cards [{real}" in str(err.value)


def test_a_dropped_action_is_found(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    dropped = doc["rounds"][1]["actions"].pop(3)
    with pytest.raises(Unfair, match=r"round 2: ") as err:
        verify(doc)
    assert str(dropped["seq"] + 1) in str(err.value) or "refused" in str(err.value) or "event" in str(err.value)


def test_a_different_secret_breaks_the_commitment(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["rounds"][2]["secret"] = secrets.token_hex(16)
    with pytest.raises(Unfair, match=r"round 3: the revealed secret does not match the commitment"):
        verify(doc)
    # Committing to the other secret too does not help: that secret deals other hands.
    doc["rounds"][2]["commitment"] = commitment(doc["rounds"][2]["secret"])
    with pytest.raises(Unfair, match=r"round 3: .*dealt|round 3: the deal|round 3: action"):
        verify(doc)


def test_changed_points_and_scores_are_found(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["rounds"][0]["points"] += 1
    with pytest.raises(Unfair, match=r"round 1: the export says the points were"):
        verify(doc)
    doc = copy.deepcopy(export)
    doc["scores"][0] += 10
    with pytest.raises(Unfair, match=r"the final scores differ"):
        verify(doc)


def test_a_round_without_a_commitment_does_not_pass(export: dict[str, Any]) -> None:
    doc = copy.deepcopy(export)
    doc["rounds"][0]["commitment"] = None
    with pytest.raises(Unfair, match=r"round 1: no commitment was published"):
        verify(doc)


def test_the_command_line_prints_fair_rounds_then_the_reason(export: dict[str, Any], tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(export))
    assert main([str(good)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("signature: not checked")  # no --key given
    assert out[1:] == ["round 1: fair", "round 2: fair", "round 3: fair"]
    doc = copy.deepcopy(export)
    doc["rounds"][1]["winner"] = (doc["rounds"][1]["winner"] + 1) % 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main([str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()[1:]  # (after the signature's line)
    assert out[0] == "round 1: fair" and out[1].startswith("NOT FAIR: round 2: the export says the winner was")


def test_rebuild_says_which_action_is_refused(export: dict[str, Any]) -> None:
    config = MatchConfig.from_json(export["config"])
    given = {r["number"]: r["secret"] for r in export["rounds"]}
    log = [{**a, "round": r["number"]} for r in export["rounds"] for a in r["actions"]]
    first = log[0]
    log[0] = {**first, "seat": (first["seat"] + 1) % 3}
    _, _, failed = rebuild(config, given, log)
    assert failed is not None and failed.round == 1
    assert failed.reason.startswith(f"action #{first['seq']} (seat {log[0]['seat']}: ")
    assert "refused by the rules" in failed.reason
