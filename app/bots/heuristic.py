"""A heuristic UNO bot for every edition, acting only on its own seat's view.

The bot is a pure function of ``view(match, seat)`` — the same dict a human's client gets —
and a ``random.Random``: it never looks at the engine's state or at other hands, so it
cannot cheat, and it can run wherever a view can be sent.  It always answers with one of
``view["table"]["legal"]``, so the engine accepts whatever it says.

What it does, in order of urgency: (1) UNO business first, because it races everyone else
(C-12): declare when exposed, catch an exposed opponent (``uno_reliability`` makes it forget
now and then, like a human); (2) the decision it owes (``table.pending``): play or draw, keep
or play a drawn card, accept or challenge, choose a colour / an opponent / a card to pass.

Plays are scored card by card (``scoring.py``); the best card is then played in its best form
(colour held most, opponent closest to winning, UNO).  The view is read once, into a
``Situation`` (``situation.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from . import penalties
from .scoring import CHALLENGEABLE, best_card, guilty
from .situation import ActionJSON, Card, Situation

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
UNO_KINDS = frozenset({"declare_uno", "catch"})


# ---------------------------------------------------------------------------- entry points


def choose_action(view: dict[str, Any], rng: random.Random,
                  uno_reliability: float = 0.97) -> ActionJSON | None:
    """One of ``view["table"]["legal"]``, or None when the seat has nothing to do now.

    ``uno_reliability`` is the chance of not forgetting each UNO chance (saying it with a
    play, declaring when exposed, catching); a forgotten chance is simply let pass.  Each
    call rolls afresh, so a room that asks again after later events lets a forgetful bot
    "notice late", as a person would.
    """
    if view.get("seat") is None or not view["table"].get("legal"):
        return None
    s = Situation.from_view(view)
    uno = _uno_business(s, rng, uno_reliability)
    if uno is not None:
        return uno
    pending = s.pending
    if pending is None or pending.get("seat") != s.seat:
        return None
    decide = _DECISIONS.get(pending["kind"])
    if decide is None:  # a decision this bot does not know: any legal answer keeps the game going
        options = [a for a in s.legal if a["kind"] not in UNO_KINDS]
        return rng.choice(options) if options else None
    return decide(s, rng, uno_reliability)


# ---------------------------------------------------------------------------- UNO calls


def _uno_business(s: Situation, rng: random.Random, reliability: float) -> ActionJSON | None:
    """Declare when exposed, else catch an exposed opponent — both race other players (C-12)."""
    if s.seat in s.exposed:
        declare = _first(s.legal, "declare_uno")
        if declare is not None and rng.random() < reliability:
            return declare
    catches = [a for a in s.legal if a["kind"] == "catch"]
    if catches and rng.random() < reliability:
        # Everyone exposed holds one card; punish whoever plays soonest.
        order = {seat: i for i, seat in enumerate(s.opponents)}
        return min(catches, key=lambda a: order.get(a["target"], s.n))
    return None


# ---------------------------------------------------------------------------- the turn


def _turn(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    if _wants_special_draw(s):
        special = _first(s.legal, "special_draw")
        assert special is not None
        return special
    plays = [a for a in s.legal if a["kind"] == "play"]
    best = best_card(s, {a["card"] for a in plays}, rng)
    if best is None:
        fallback = _first(s.legal, "draw") or _first(s.legal, "special_draw")
        if fallback is not None:
            return fallback
        # All Wild without a special draw: every card is playable, so this is only the last resort.
        best = rng.choice(plays)["card"]
    return _best_form(s, [a for a in plays if a["card"] == best], rng, reliability)


def _wants_special_draw(s: Situation) -> bool:
    """AW-6: with only plain Wilds and the next player on one card, a plain Wild stops nothing;
    a drawn card is an action about half the time."""
    return _first(s.legal, "special_draw") is not None and s.sizes[s.next_seat] == 1


# ---------------------------------------------------------------------------- a card's form


def _best_form(s: Situation, options: list[ActionJSON], rng: random.Random, reliability: float) -> ActionJSON:
    """The play of one card with the best colour, the best target and UNO said (mostly)."""
    card_id = options[0]["card"]
    if any("colour" in a for a in options):
        colour = _best_colour([c for c in s.hand if c["id"] != card_id], rng)
        options = [a for a in options if a.get("colour") == colour] or options
    if any("target" in a for a in options):
        target = s.closest_to_winning()
        options = [a for a in options if a.get("target") == target] or options
    return _with_uno(options, rng, reliability)


def _with_uno(options: list[ActionJSON], rng: random.Random, reliability: float) -> ActionJSON:
    """Say UNO when the play allows it — unless this is one of the rare times we forget."""
    said = [a for a in options if a.get("uno")]
    unsaid = [a for a in options if not a.get("uno")]
    if said and (rng.random() < reliability or not unsaid):
        return said[0]
    return unsaid[0]


def _best_colour(hand: list[Card], rng: random.Random) -> str:
    """The colour we hold most of (then most points of, to shed them); any colour with none."""
    count: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for c in hand:
        if c["colour"] is not None:
            count[c["colour"]] += 1
            points[c["colour"]] += c["value"]
    return max(COLOURS, key=lambda col: (count[col], points[col], rng.random()))


# ---------------------------------------------------------------------------- other decisions


def _drawn(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    """C-6: play the drawn card, unless it is a wild better kept for a later turn."""
    plays = [a for a in s.legal if a["kind"] == "play_drawn"]
    keep = _first(s.legal, "keep")
    card = s.drawn
    if keep is not None and card is not None and card["colour"] is None:
        if card["face"] == CHALLENGEABLE.get(s.edition):
            if guilty(s, card):
                return keep
        elif s.sizes[s.seat] >= 4 and not s.threatened:
            return keep  # a plain wild: a sure play on a later turn is worth more than one card now
    if not plays:
        assert keep is not None
        return keep
    return _best_form(s, plays, rng, reliability)


def _special(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    """AW-6: the drawn card must be played; only its form is ours to choose."""
    return _best_form(s, [a for a in s.legal if a["kind"] == "play_drawn"], rng, reliability)


def _penalty(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    """A pending penalty (``stack``, ``challenge``): challenge a big Draw more likely than not
    illegal, else pass the penalty on with an answer the house rules allow, else take it."""
    assert s.pending is not None
    challenged = s.pending.get("challenged")
    odds = penalties.guilty_odds(s.edition, s.sizes[challenged] if challenged is not None else 0)
    challenge = _first(s.legal, "challenge")
    if challenge is not None and odds > 0.5:
        return challenge
    answer = penalties.best_answer(s.legal, s.hand, rng)
    if answer is not None:
        plays = [a for a in s.legal if a["kind"] == "play" and a["card"] == answer]
        return _best_form(s, plays, rng, reliability)
    action = _first(s.legal, "accept")
    assert action is not None
    return action


def _colour(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    colour = _best_colour(s.hand, rng)
    options = [a for a in s.legal if a["kind"] == "choose_colour"]
    return next((a for a in options if a["colour"] == colour), options[0])


def _target(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    """Green Shell, a first Targeted Draw Two or Forced Swap: the opponent closest to winning."""
    target = s.closest_to_winning()
    options = [a for a in s.legal if a["kind"] == "choose_target"]
    return next((a for a in options if a["target"] == target), options[0])


def _pass(s: Situation, rng: random.Random, reliability: float) -> ActionJSON:
    """Dip Into The Deck: hand the next player our costliest card — but not a wild, which would
    give them a sure play; among equals, the colour we hold least of."""
    counts = Counter(c["colour"] for c in s.hand if c["colour"] is not None)

    def burden(c: Card) -> tuple[bool, int, int, float]:
        return (c["colour"] is not None, c["value"], -counts[c["colour"]], rng.random())

    card = max(s.hand, key=burden)
    options = [a for a in s.legal if a["kind"] == "pass_card" and a["card"] == card["id"]]
    return _with_uno(options, rng, reliability)


Decision = Callable[[Situation, random.Random, float], ActionJSON]
_DECISIONS: dict[str, Decision] = {
    "turn": _turn,
    "drawn": _drawn,
    "special": _special,
    "challenge": _penalty,
    "stack": _penalty,
    "colour": _colour,
    "target": _target,
    "pass": _pass,
}


def _first(legal: list[ActionJSON], kind: str) -> ActionJSON | None:
    return next((a for a in legal if a["kind"] == kind), None)
