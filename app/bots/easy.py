"""The easy bot: a beginner who plays the first card they may and often forgets UNO!.

On a decision that a card answers (a turn, a drawn card, a pending penalty) it plays the first
legal card in the order its view lists them, in that card's first form with a colour it holds;
with nothing to play it draws, keeps or takes the penalty, and it never challenges.  It lets
``FORGETS`` of its UNO! chances pass — saying it with the play, declaring when exposed,
catching — so the people at the table get to catch it.  The choices no card answers (a colour,
an opponent, a card to pass) it makes as anyone who looks at their hand would: the heuristic's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from . import heuristic

LEVEL = "easy"
FORGETS = 0.4  # the share of UNO! chances a beginner lets pass
PLAYS = ("play", "play_drawn")
OTHERWISE = ("draw", "special_draw", "keep", "accept")  # never "challenge": beginners take it


class Easy:
    level = LEVEL

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        table = view.get("table") or {}
        legal: list[dict[str, Any]] = table.get("legal") or []
        seat = view.get("seat")
        if seat is None or not legal:
            return None
        uno = self._uno(seat, table, legal, rng)
        if uno is not None:
            return uno
        pending = table.get("pending") or {}
        if pending.get("seat") != seat:
            return None  # no jump-ins: a beginner waits for their turn
        if pending.get("kind") not in ("turn", "drawn", "special", "stack", "challenge"):
            return heuristic.choose_action(view, rng, uno_reliability=1 - FORGETS)
        plays = [a for a in legal if a["kind"] in PLAYS and not a.get("more")]
        if plays:
            return self._form([a for a in plays if a["card"] == plays[0]["card"]], table, rng)
        for kind in OTHERWISE:
            found = next((a for a in legal if a["kind"] == kind), None)
            if found is not None:
                return found
        return next(a for a in legal if a["kind"] not in heuristic.UNO_KINDS)

    @staticmethod
    def _uno(seat: int, table: dict[str, Any], legal: list[dict[str, Any]],
             rng: random.Random) -> dict[str, Any] | None:
        if seat in table.get("exposed", ()):
            declare = next((a for a in legal if a["kind"] == "declare_uno"), None)
            if declare is not None and rng.random() >= FORGETS:
                return declare
        catch = next((a for a in legal if a["kind"] == "catch"), None)
        if catch is not None and rng.random() >= FORGETS:
            return catch
        return None

    @staticmethod
    def _form(forms: list[dict[str, Any]], table: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """The card's first form, in the colour held most, with UNO! said unless forgotten."""
        if any("colour" in a for a in forms):
            held = Counter(c["colour"] for c in table.get("hand", ()) if c["colour"] is not None)
            colour = max(heuristic.COLOURS, key=lambda col: (held[col], -heuristic.COLOURS.index(col)))
            forms = [a for a in forms if a.get("colour") == colour] or forms
        said = [a for a in forms if a.get("uno")]
        unsaid = [a for a in forms if not a.get("uno")]
        if said and (not unsaid or rng.random() >= FORGETS):
            return said[0]
        return unsaid[0]
