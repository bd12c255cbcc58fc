"""Check an exported match: ``python -m app.engine.verify MATCH.json``.

Needs nothing but this engine (standard library only).  For each round it checks that the
revealed secret is the one committed to at the deal (``sha256(secret) == commitment``), then
re-deals every round from the configuration and the secrets, replays the public action log,
and compares what that gives with what the export says: the dealer, the hands as dealt,
every event of the deal and of each action (so every card drawn, dealt and flipped), the
final hands, each round's winner and points, and the final scores.

Prints ``round N: fair`` per round and exits 0; otherwise prints where it first differs
(round, action, seat, what the export says and what the replay gives) and exits 1.

With ``--key PUBLIC_KEY`` (base64 or hex, the JSON of ``GET /api/signing-key``, or a file
holding either) it first checks the export's signature against that key, and exits 1 if it
does not match.  That check needs the ``cryptography`` package (``app/signatures.py``, outside
this engine): without it, or without ``--key``, the first line says the signature was not
checked.  What "fair" and a valid signature prove, and what they do not: docs/ENGINE.md.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from .audit import FORMAT, VERSION, Mismatch, action_text, commitment, rebuild
from .config import MatchConfig
from .errors import EngineError
from .match import OVER


class Unfair(Exception):
    """The export does not check out; ``str()`` says where and how."""


def _names(cards: Any) -> str:
    if isinstance(cards, list):
        return "[" + ", ".join(_names(c) for c in cards) + "]"
    if isinstance(cards, Mapping):
        return str(cards.get("name", cards))
    return repr(cards)


def _event_text(event: Any) -> str:
    if not isinstance(event, Mapping):
        return "nothing" if event is None else repr(event)
    raw = event.get("data")
    data: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    shown = [f"{key} {_names(data[key])}" for key in ("seat", "card", "cards") if key in data]
    if shown:
        return f"{event.get('kind')!r} ({', '.join(shown)})"
    return f"{event.get('kind')!r} {json.dumps(dict(data))}"


def _compare_events(where: str, claimed: Any, real: list[dict[str, Any]]) -> None:
    claimed = claimed if isinstance(claimed, list) else []
    for i in range(max(len(claimed), len(real))):
        said = claimed[i] if i < len(claimed) else None
        got = real[i] if i < len(real) else None
        if said != got:
            raise Unfair(f"{where}, event {i + 1}: the export says {_event_text(said)}, "
                         f"the replay gives {_event_text(got)}")


def _compare_round(claimed: Mapping[str, Any], real: dict[str, Any], *, complete: bool) -> None:
    n = real["number"]
    if claimed.get("dealer") != real["dealer"]:
        raise Unfair(f"round {n}: the export says seat {claimed.get('dealer')} dealt, the replay says seat "
                     f"{real['dealer']}")
    dealt = claimed.get("dealt") or []
    for seat, hand in enumerate(real["dealt"]):
        said = dealt[seat] if seat < len(dealt) else None
        if said != hand:
            raise Unfair(f"round {n}: the export says seat {seat} was dealt {_names(said)}, the secret deals "
                         f"{_names(hand)}")
    _compare_events(f"round {n}: the deal", claimed.get("deal"), real["deal"])
    actions = claimed.get("actions") or []
    for said, got in zip(actions, real["actions"], strict=False):
        _compare_events(f"round {n}: action #{got['seq']} ({action_text(got['seat'], got['action'])})",
                        said.get("events") if isinstance(said, Mapping) else None, got["events"])
    if not complete:
        return
    for key in ("winner", "points"):
        if claimed.get(key) != real[key]:
            verb = "were" if key == "points" else "was"
            raise Unfair(f"round {n}: the export says the {key} {verb} {claimed.get(key)!r}, "
                         f"the replay gives {real[key]!r}")
    if claimed.get("final_hands") != real["final_hands"]:
        raise Unfair(f"round {n}: the final hands differ: the export says "
                     f"{_names(claimed.get('final_hands'))}, the replay gives {_names(real['final_hands'])}")


def verify(doc: Any, lines: list[str] | None = None) -> list[str]:
    """The lines to print for a fair export (``round N: fair`` each); raises ``Unfair`` otherwise.

    ``lines``: where the rounds found fair go as they are found, so that they can be shown
    before the reason a later round fails."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise Unfair(f"not a match export (its \"format\" is not {FORMAT!r})")
    if doc.get("version") != VERSION:
        raise Unfair(f"export version {doc.get('version')!r}; this verifier reads version {VERSION}")
    try:
        config = MatchConfig.from_json(doc["config"])
    except (EngineError, KeyError, TypeError) as err:
        raise Unfair(f"the configuration is not valid: {err}") from None
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise Unfair("the export has no rounds")
    for i, rnd in enumerate(rounds, start=1):
        if not isinstance(rnd, Mapping) or rnd.get("number") != i:
            raise Unfair(f"the rounds are not numbered 1, 2, ...: entry {i} is not round {i}")
        secret, committed = rnd.get("secret"), rnd.get("commitment")
        if not isinstance(secret, str):
            raise Unfair(f"round {i}: no secret was revealed")
        if not isinstance(committed, str):
            raise Unfair(f"round {i}: no commitment was published at the deal, so its deck was never "
                         "committed to")
        if commitment(secret) != committed:
            raise Unfair(f"round {i}: the revealed secret does not match the commitment: sha256 of the "
                         f"secret is {commitment(secret)}, the deal committed to {committed}")
    secrets = {rnd["number"]: rnd["secret"] for rnd in rounds}
    log = [{**a, "round": rnd["number"]} for rnd in rounds for a in (rnd.get("actions") or [])
           if isinstance(a, Mapping)]
    match, real, failed = rebuild(config, secrets, log)
    lines = [] if lines is None else lines
    for claimed, got in zip(rounds, real, strict=False):
        broken = failed is not None and failed.round == got["number"]
        _compare_round(claimed, got, complete=not broken)
        if broken:
            break
        lines.append(f"round {got['number']}: fair")
    if failed is not None:
        raise Unfair(f"round {failed.round}: {failed.reason}")
    assert match is not None
    if len(real) != len(rounds):
        raise Unfair(f"the export has {len(rounds)} rounds, the log plays {len(real)}")
    if match.phase != OVER:
        raise Unfair(f"round {match.round_no}: the log ends before the match is over")
    if doc.get("scores") != match.scores:
        raise Unfair(f"the final scores differ: the export says {doc.get('scores')}, "
                     f"the replay gives {match.scores}")
    if "winner" in doc and doc["winner"] != match.winner:
        raise Unfair(f"the export says seat {doc['winner']} won the match, "
                     f"the replay says seat {match.winner}")
    return lines


def signature_check(doc: Any, key: str | None) -> tuple[bool, str]:
    """(passed, the line to print) for the export's signature and a public key (its text, or a
    file holding it).  Checking needs the ``cryptography`` package, which this engine does not:
    it is done by ``app.signatures`` when that can be imported, and said plainly when not."""
    if key is None:
        return True, ("signature: not checked (no --key given: the server's public key is at "
                      "GET /api/signing-key)")
    try:
        signatures: Any = importlib.import_module("app.signatures")
    except ImportError as err:
        return True, f"signature: not checked (it needs the cryptography package: {err})"
    if os.path.isfile(key):
        with open(key, encoding="utf-8") as f:
            key = f.read()
    try:
        public = signatures.parse_public_key(key)
    except ValueError as err:
        return False, f"signature: not checked, the key is not valid: {err}"
    valid, text = signatures.check(doc, public)
    return bool(valid), f"signature: {text}"


USAGE = "usage: python -m app.engine.verify [--key PUBLIC_KEY] MATCH.json"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    key = None
    if "--key" in args:
        i = args.index("--key")
        if i + 1 >= len(args):
            print(USAGE, file=sys.stderr)
            return 2
        key = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as err:
        print(f"cannot read {args[0]}: {err}", file=sys.stderr)
        return 2
    signed, said = signature_check(doc, key)
    lines: list[str] = [said]
    try:
        verify(doc, lines)
    except Unfair as err:
        print("\n".join([*lines, f"NOT FAIR: {err}"]))
        return 1
    print("\n".join(lines))
    return 0 if signed else 1


__all__ = ["Mismatch", "Unfair", "main", "verify"]

if __name__ == "__main__":
    sys.exit(main())
