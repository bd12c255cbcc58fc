"""Committed shuffles: the commitment to a round's secret, and a finished match rebuilt in the open.

Each round is dealt from a secret of its own (``Match.round_secret``).  At the deal the server
publishes ``commitment(secret)``, the SHA-256 of the secret, and reveals the secret when the
round ends: a host cannot pick a deck after seeing the commitment, and nobody can work the
deck out from it while the round is played.

``rebuild`` replays a match from its configuration, the revealed secrets and the public action
log, and says round by round what the deal and every action showed — the hands as dealt, every
event with the cards drawn and flipped, the final hands.  The export of a finished match is
made from it (``export_document``), and the verifier (``verify.py``) makes it again from what the
export claims and compares: both sides run this same code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .action_json import action_from_json
from .config import MatchConfig, new_match
from .errors import EngineError, IllegalAction, Refusal
from .events import Event
from .match import BETWEEN, OVER, Match, apply, start_next_round
from .state import RoundState

FORMAT = "uno-match-export"
VERSION = 1
SIGNATURE = "signature"  # the export's one field its signature does not cover


def commitment(secret: str) -> str:
    """What is published at the deal: the SHA-256 of the secret, as hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def signed_bytes(doc: Mapping[str, Any]) -> bytes:
    """What an export's signature is made over: the document without its ``signature`` field,
    as JSON with sorted keys and no spaces, in UTF-8.  Any edit to any other field changes it."""
    rest = {k: v for k, v in doc.items() if k != SIGNATURE}
    return json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


class Mismatch(Exception):
    """The log does not replay: which round, and why."""

    def __init__(self, round_no: int, reason: str) -> None:
        super().__init__(reason)
        self.round = round_no
        self.reason = reason


def plain(value: Any) -> Any:
    """As it reads back from JSON (tuples become lists), so that derived and exported parts compare equal."""
    return json.loads(json.dumps(value))


def event_json(event: Event) -> dict[str, Any]:
    # The match is over when it is exported: private events are shown too, with whom they went to.
    to = list(event.to) if event.to is not None else None
    out: dict[str, Any] = plain({"kind": event.kind, "data": event.data, "to": to})
    return out


def action_text(seat: int, action: Mapping[str, Any]) -> str:
    """``seat 1: play {"card": 17}``, for reasons a person reads."""
    rest = {k: v for k, v in action.items() if k != "kind"}
    return f"seat {seat}: {action.get('kind')}" + (f" {json.dumps(rest, sort_keys=True)}" if rest else "")


def _hands(match: Match, hands: Iterable[Iterable[int]]) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = plain([[match.variant.card_json[c] for c in hand] for hand in hands])
    return out


def _round_part(match: Match, events: list[Event]) -> dict[str, Any]:
    rnd = match.round
    # The hands as dealt, before the first card is turned (its effects are in "deal"): the same
    # shuffle again, without the edition's start.
    dealt = RoundState(match.variant, match.config.seats, rnd.dealer, rnd.seed, None, rnd.book).hands
    return {"number": match.round_no, "dealer": rnd.dealer, "dealt": _hands(match, dealt),
            "deal": [event_json(e) for e in events], "actions": [], "winner": None, "points": None,
            "final_hands": None}


def rebuild(config: MatchConfig, secrets: Mapping[int, str], actions: Iterable[Mapping[str, Any]],
            on_step: Callable[[Match], None] | None = None,
            ) -> tuple[Match | None, list[dict[str, Any]], Mismatch | None]:
    """Replay a match from its configuration, its rounds' secrets and its action log.

    ``actions``: ``{"seq", "round", "seat", "action"}`` in order.  Returns the match, what each
    round showed (as far as it got) and, if the log stops replaying, why — the rounds before
    the failure are still there to be compared.  ``on_step`` (for replays, ``playback.py``) is
    called with the match after each deal and after each action applied.
    """
    if 1 not in secrets:
        return None, [], Mismatch(1, "round 1 has no secret, so its deal cannot be rebuilt")
    step = on_step or (lambda _: None)
    match, events = new_match(config, secrets[1])
    rounds = [_round_part(match, events)]
    step(match)
    for entry in actions:
        seq, n, seat = entry.get("seq"), entry.get("round"), entry.get("seat")
        if not isinstance(n, int) or n < match.round_no:
            return match, rounds, Mismatch(match.round_no, f"action #{seq} is logged for round {n!r}, "
                                                           f"after round {match.round_no} was dealt")
        while match.round_no < n:
            nxt = match.round_no + 1
            if match.phase != BETWEEN:
                why = ("the match was already over" if match.winner is not None
                       else f"round {match.round_no} is not over yet")
                return match, rounds, Mismatch(match.round_no,
                                               f"action #{seq} belongs to round {n}, but {why}")
            if nxt not in secrets:
                return match, rounds, Mismatch(nxt,
                                               f"round {nxt} has no secret, so its deal cannot be rebuilt")
            rounds.append(_round_part(match, start_next_round(match, secrets[nxt])))
            step(match)
        raw = entry.get("action")
        text = action_text(seat, raw) if isinstance(seat, int) and isinstance(raw, Mapping) else repr(raw)
        try:
            if not isinstance(seat, int) or not isinstance(raw, Mapping):
                raise IllegalAction(Refusal.BAD_ACTION, "The log entry has no seat or no action.")
            action = action_from_json(dict(raw))
            events = apply(match, seat, action)
        except EngineError as err:
            return match, rounds, Mismatch(n, f"action #{seq} ({text}) is refused by the rules: "
                                              f"{err.code}: {err.message}")
        rounds[-1]["actions"].append({"seq": seq, "seat": seat, "action": plain(action.to_json()),
                                      "events": [event_json(e) for e in events]})
        if match.round.winner is not None:
            rounds[-1].update(winner=match.round.winner, points=match.round.points,
                              final_hands=_hands(match, match.round.hands))
        step(match)
    return match, rounds, None


def rebuild_finished(config_json: Mapping[str, Any], rounds: Sequence[Mapping[str, Any]],
                     actions: Sequence[Mapping[str, Any]],
                     on_step: Callable[[Match], None] | None = None
                     ) -> tuple[MatchConfig, Match, list[dict[str, Any]]]:
    """``rebuild`` of a stored match that must be over: its config, the match played again and
    its rounds as derived; ``Mismatch`` if the log does not replay or the match is not over."""
    config = MatchConfig.from_json(dict(config_json))
    secrets = {r["number"]: r["secret"] for r in rounds}
    played, derived, failed = rebuild(config, secrets, actions, on_step=on_step)
    if failed is not None:
        try:
            raise failed
        finally:  # the error's traceback holds this frame: not the error too, a cycle
            del failed
    assert played is not None
    if played.phase != OVER:
        # Only a finished match is shown whole: a live round's secret must stay secret.
        raise Mismatch(played.round_no, "the match is not over")
    return config, played, derived


def export_document(config_json: Mapping[str, Any], players: Sequence[str],
                    rounds: Sequence[Mapping[str, Any]], actions: Sequence[Mapping[str, Any]], *,
                    match: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A finished match as one JSON document, for people and for the verifier.

    ``rounds``: the stored ``{"number", "commitment", "secret"}``; ``actions``: the stored log,
    ``{"seq", "round", "seat", "action", "at"}``; ``match``: what identifies it (id, room,
    times).  Raises ``Mismatch`` if the log does not replay, ``ConfigError`` for a bad config.
    """
    config, played, derived = rebuild_finished(config_json, rounds, actions)
    at = {a["seq"]: a.get("at") for a in actions}
    stored = {r["number"]: r for r in rounds}
    out = []
    for part in derived:
        meta = stored[part["number"]]
        for logged in part["actions"]:
            logged["at"] = at.get(logged["seq"])
        out.append({"number": part["number"], "dealer": part["dealer"], "commitment": meta.get("commitment"),
                    "secret": meta["secret"], "winner": part["winner"], "points": part["points"],
                    "dealt": part["dealt"], "deal": part["deal"], "actions": part["actions"],
                    "final_hands": part["final_hands"]})
    return {"format": FORMAT, "version": VERSION, "match": dict(match or {}), "config": config.to_json(),
            "players": list(players), "rounds": out, "scores": list(played.scores), "winner": played.winner}
