"""A finished match, move by move, for replays: every state of the table with every hand.

``playback`` replays the stored log with ``audit.rebuild`` (the same code the export and the
verifier run) and keeps, after each deal and after each action, the public state of the
table together with every hand: the match is over, so nothing is hidden any more.  A client
only renders what it is given.

Compact on purpose — a match is a few thousand actions at most: the edition's cards are
listed once (``cards``, by id) and states name cards by id; events keep their card dicts, as
the live log has them, so that the same narration renders them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .audit import plain, rebuild_finished
from .match import Match
from .views import public_table

FORMAT = "uno-match-replay"
VERSION = 1


def state(match: Match) -> dict[str, Any]:
    """The table as everyone sees it once the match is over: the public view, every hand by card id."""
    rnd = match.round
    table = public_table(rnd)
    return {
        "current": table["current"], "direction": table["direction"], "top": rnd.discard[-1],
        "colour": table["colour"], "draw_pile": table["draw_pile"], "discard_pile": table["discard_pile"],
        "hands": [list(hand) for hand in rnd.hands], "exposed": table["exposed"],
        "declared": table["declared"],
        "skips_owed": table["skips_owed"], "pending": table["pending"], "winner": table["winner"],
        "scores": list(match.scores),
    }


def event_entry(event: Mapping[str, Any]) -> dict[str, Any]:
    """An export event as a log entry: its kind and data side by side (as the live log has them);
    ``private`` lists who saw it when the round was played."""
    data = event.get("data") or {}
    entry: dict[str, Any] = {"kind": event["kind"], **data}
    if event.get("to") is not None:
        entry["private"] = list(event["to"])
    return entry


def playback(config_json: Mapping[str, Any], players: Sequence[str], rounds: Sequence[Mapping[str, Any]],
             actions: Sequence[Mapping[str, Any]], *,
             match: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The replay document of a finished match (its stored parts, as for ``audit.export_document``).

    Each round has ``steps``: step 0 is the deal, step *k* the round's *k*-th action.  Raises
    ``Mismatch`` if the log does not replay or the match is not over."""
    states: list[dict[str, Any]] = []
    config, played, derived = rebuild_finished(config_json, rounds, actions,
                                               on_step=lambda m: states.append(state(m)))
    at = {a["seq"]: a.get("at") for a in actions}
    stored = {r["number"]: r for r in rounds}
    given = iter(states)
    out = []
    for part in derived:
        steps = [{"seq": None, "seat": None, "action": None, "at": None,
                  "events": [event_entry(e) for e in part["deal"]], "state": next(given)}]
        for logged in part["actions"]:
            steps.append({"seq": logged["seq"], "seat": logged["seat"], "action": logged["action"],
                          "at": at.get(logged["seq"]), "events": [event_entry(e) for e in logged["events"]],
                          "state": next(given)})
        meta = stored[part["number"]]
        out.append({"number": part["number"], "dealer": part["dealer"], "commitment": meta.get("commitment"),
                    "secret": meta["secret"], "winner": part["winner"], "points": part["points"],
                    "steps": steps})
    return {"format": FORMAT, "version": VERSION, "match": dict(match or {}), "config": config.to_json(),
            "target": played.target, "players": list(players), "cards": plain(list(played.variant.card_json)),
            "rounds": out, "scores": list(played.scores), "winner": played.winner}
