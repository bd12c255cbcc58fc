"""Engine events in words a UI can show, and in a form safe to keep in a room's log.

Log entries drop card ``id``s: an id is a handle for *acting* on a card you hold, and a
card seen on the table earlier may later be reshuffled into someone's hand.  Keeping ids
out of the log means a card id in any frame always names a card the reader may see now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FACES = {
    "skip": "Skip",
    "reverse": "Reverse",
    "draw2": "Draw Two",
    "draw1": "Draw One",
    "wild": "Wild",
    "wild_draw4": "Wild Draw Four",
    "item_box": "Wild Item Box",
    "wild_dip": "Wild Dip Into The Deck",
    "wild_draw2": "Wild Draw Two",
    "wild_reverse": "Wild Reverse",
    "wild_skip": "Wild Skip",
    "wild_skip2": "Wild Double Skip",
    "wild_targeted_draw2": "Wild Targeted Draw Two",
    "wild_forced_swap": "Wild Forced Swap",
}
ITEMS = {
    "mushroom": "Mushroom",
    "banana_peel": "Banana Peel",
    "green_shell": "Green Shell",
    "lightning": "Lightning",
    "bob_omb": "Bob-omb",
}
DRAW_REASONS = {
    "turn": "",
    "caught": " for not saying UNO",
    "penalty": " as the penalty",
    "challenge_lost": " after losing the challenge",
    "banana_peel": " (Banana Peel)",
    "green_shell": " (Green Shell)",
    "lightning": " (Lightning)",
    "bob_omb": " (Bob-omb)",
    "first_card": " from the first card",
    "targeted_draw2": " (Targeted Draw Two)",
    "dip": " (Dip Into The Deck)",
    "special": " (special draw)",
    "card": "",
}


def card_name(card: dict[str, Any]) -> str:
    face = str(card.get("face", "?"))
    pretty = FACES.get(face, face)
    colour = card.get("colour")
    return f"{colour} {pretty}" if colour else pretty


def scrub(value: Any) -> Any:
    """A deep copy of event data with every card's ``id`` removed (see the module doc)."""
    if isinstance(value, dict):
        # JSON object keys are strings: make them so now, so that views equal their JSON.
        return {str(k): scrub(v) for k, v in value.items() if not (k == "id" and "face" in value)}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value


def _cards(cards: list[dict[str, Any]]) -> str:
    return ", ".join(card_name(c) for c in cards) or "nothing"


def describe(kind: str, data: dict[str, Any], name: Callable[[int], str]) -> str:
    """One sentence for one engine event; unknown kinds still get a readable fallback."""
    d = data
    s = name(d["seat"]) if isinstance(d.get("seat"), int) else ""
    if kind == "play":
        text = f"{s} played {card_name(d['card'])}"
        if d.get("colour"):
            text += f" and chose {d['colour']}"
        if isinstance(d.get("target"), int):
            text += f", aiming at {name(d['target'])}"
        return text + "."
    if kind == "draw":
        n = d.get("count", 0)
        why = DRAW_REASONS.get(str(d.get("reason")), "")
        if n == 0:
            return f"{s} had nothing to draw{why}."
        return f"{s} drew {n} card{'s' if n != 1 else ''}{why}."
    if kind == "drew":
        return f"You drew {_cards(d.get('cards', []))}."
    if kind == "passed":
        return f"{s} passed {card_name(d['card'])} to {name(d['to'])}."
    if kind == "pass":
        return f"{s} passed a card to {name(d['to'])}."
    if kind == "hand_revealed":
        return f"{s}'s hand: {_cards(d.get('cards', []))}."
    if kind == "skipped":
        return f"{s} loses a turn."
    if kind == "uno":
        if d.get("early"):
            return f"{s} said UNO! before playing."
        return f"{s} said UNO!"
    if kind == "exposed":
        return f"{s} has one card and has not said UNO!"
    if kind == "caught":
        return f"{name(d['by'])} caught {s} not saying UNO: {s} draws 2."
    if kind == "keep":
        return f"{s} kept the drawn card."
    if kind == "accept":
        return f"{s} accepted the penalty."
    if kind == "challenge":
        verdict = "guilty" if d.get("guilty") else "innocent"
        return f"{s} challenged {name(d['against'])}, who was {verdict}."
    if kind == "colour":
        return f"{s} chose {d.get('colour')}."
    if kind == "reverse":
        return "Play now goes " + ("clockwise." if d.get("direction") == 1 else "counter-clockwise.")
    if kind == "swap":
        return f"{s} swapped hands with {name(d['target'])}."
    if kind == "jump_in":
        return f"{s} jumped in on {name(d['skipped'])}'s turn!"
    if kind == "hands_passed":
        way = "clockwise" if d.get("direction") == 1 else "counter-clockwise"
        return f"Everyone passed their hand {way}."
    if kind == "item":
        item = ITEMS.get(str(d.get("item")), str(d.get("item")))
        return f"{s}'s Item Box flipped {card_name(d['card'])}: {item}!"
    if kind == "reshuffle":
        return f"The discard pile was shuffled into a new draw pile ({d.get('cards')} cards)."
    if kind == "first_card":
        return f"The first card is {card_name(d['card'])}."
    if kind == "first_card_returned":
        return f"{card_name(d['card'])} went back into the deck; a new card is flipped."
    if kind == "dealer_draw":
        return "Drawing for dealer: " + ", ".join(
            f"{name(x['seat'])} {card_name(x['card'])}" for x in d.get("draws", [])) + "."
    if kind == "dealer_chosen":
        return f"{name(d['dealer'])} deals."
    if kind == "round_start":
        return f"Round {d.get('round')} begins; {name(d['dealer'])} deals."
    if kind == "round_over":
        return f"{name(d['winner'])} went out and scores {d.get('points')} points."
    if kind == "scores":
        return "Scores: " + ", ".join(f"{name(i)} {v}" for i, v in enumerate(d.get("scores", []))) + "."
    if kind == "match_over":
        return f"{name(d['winner'])} wins the match!"
    return kind.replace("_", " ") + "."
