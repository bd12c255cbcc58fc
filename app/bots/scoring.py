"""How much a bot wants to play each card now: the heuristic's scores, card by card.

``best_card`` picks the playable card with the highest score (``heuristic.py`` then plays it in
its best form).  Classic, Mario Kart and Pocket Pizza score by colour (``_score_coloured``: stay
in the colour held most, keep wilds for later, stop a seat close to going out); All Wild, where
every card plays, by what each action does now (``_score_all_wild``).
"""

from __future__ import annotations

import random

from .situation import Card, Situation

# How hard a face stops the next player (they lose their turn, and may draw too).
# With two players every one of them means "play again".
STOPPERS: dict[str, int] = {"skip": 1, "draw1": 2, "draw2": 3, "wild_skip": 1, "wild_skip2": 2,
                             "wild_draw2": 3, "wild_draw4": 4}
# Draw wilds whose legality a challenge can test (CL-5, MK-4, PP-5).
CHALLENGEABLE = {"classic": "wild_draw4", "mario_kart": "wild_draw4", "pocket_pizza": "wild_draw2"}

WIN = 10_000.0  # playing the last card
NEVER = None  # a card the bot will not play now


def best_card(s: Situation, ids: set[int], rng: random.Random) -> int | None:
    """The playable card with the highest score; None when none is worth playing."""
    scored: list[tuple[float, float, int]] = []
    for card in s.hand:
        if card["id"] not in ids:
            continue
        score = _score_all_wild(s, card) if s.edition == "all_wild" else _score_coloured(s, card)
        if score is not None:
            scored.append((score, rng.random(), card["id"]))  # the random key breaks ties
    return max(scored)[2] if scored else None


def _score_coloured(s: Situation, card: Card) -> float | None:
    """Classic, Mario Kart, Pocket Pizza: stay in the colour we hold most, keep wilds for later."""
    if s.sizes[s.seat] == 1:  # the whole hand: face-down cards (HR-33) are not in ``hand``
        return WIN
    face = card["face"]
    if card["colour"] is None:
        return _score_coloured_wild(s, card)
    rest = [c for c in s.hand if c["id"] != card["id"]]
    value = float(card["value"])
    # Cards still playable after this one sets the colour: fewer draws on later turns.
    score: float = 100.0 + 3 * sum(c["colour"] == card["colour"] for c in rest) + value / 10
    if _stops_next(s, face):
        if s.n == 2:
            score += 4  # the opponent loses a turn: we play again
        if s.next_threatens:
            score += 150 + 10 * STOPPERS.get(face, 1)  # keep them from going out
    if s.threatened:
        score += value / 2  # the round may end soon: do not be caught holding points
    return score


def _score_coloured_wild(s: Situation, card: Card) -> float | None:
    """Wilds go last (they always play later), except a draw wild that stops a threat."""
    face = card["face"]
    if face == CHALLENGEABLE.get(s.edition):
        if guilty(s, card):
            return NEVER  # a challenge would turn it against us
        return 300.0 if s.next_threatens else 20.0
    if face == "wild_dip" and s.next_threatens:
        return 60.0  # the pass puts a card back into a nearly empty hand
    return 12.0 if face == "item_box" else 10.0  # the Item Box's item is usually a bonus


def _score_all_wild(s: Situation, card: Card) -> float | None:
    """All Wild: every card plays, so the question is which action helps most now."""
    if s.sizes[s.seat] == 1:
        return WIN
    face = card["face"]
    if face == "wild_forced_swap":
        gain = s.sizes[s.seat] - 1 - s.sizes[s.closest_to_winning()]
        return 55.0 + gain if gain > 0 else 1.0  # never trade for a bigger hand unless forced
    if face == "wild_targeted_draw2":
        return 140.0 if s.threatened else 40.0
    if s.n == 2:
        # Stoppers and Reverse keep the turn: chain them, with a passing card kept for the end.
        keeps = {"wild_skip": 60.0, "wild_reverse": 60.0, "wild_skip2": 62.0, "wild_draw2": 52.0,
                 "wild_draw4": 54.0}
        return keeps.get(face, 30.0)
    if _stops_next(s, face) and s.next_threatens:
        return 150.0 + 10 * STOPPERS.get(face, 1)
    # No threat: spend plain Wilds and hold the actions for when someone gets close.
    return 30.0 if face == "wild" else 25.0


def _stops_next(s: Situation, face: str) -> bool:
    """Does this face keep the next player from playing?  A Reverse does when play turns to a
    player with more cards (and always with two players, C-10)."""
    if face in STOPPERS:
        return True
    if face in ("reverse", "wild_reverse"):
        return s.n == 2 or s.sizes[s.prev_seat] > s.sizes[s.next_seat]
    return False


def guilty(s: Situation, card: Card) -> bool:
    """Would a challenge of this draw wild succeed?  (CL-5, MK-4, PP-5, judged on our own hand.)"""
    others = [c for c in s.hand if c["id"] != card["id"]]
    if s.edition == "pocket_pizza":
        return any(c["colour"] is None or c["colour"] == s.colour or c["face"] == s.top["face"]
                   for c in others)
    if s.edition == "mario_kart" and any(c["face"] == "item_box" for c in others):
        return True
    return any(c["colour"] == s.colour for c in others)
