"""What a play of each face takes, as a client reads it: the card rules' shapes, per face.

A client that offers moves without the server's ``legal`` list (HR-32's no-hints table) needs
to know, for each face of the edition under the room's house rules, whether its play declares
a colour (``CardRule.needs_colour``), whether it names an opponent (``CardRule.target``: always,
never, or only as the last card, as Mario Kart's Item Box), and how many cards it leaves its
player (``CardRule.hand_after``, which ``CardRule.cards_left`` counts with).  They are read here
from the very rule table the round plays by (``RoundState.rules``, ``Variant.rules_for``), so a
client never keeps a copy of the editions' rules.  Nothing in them is hidden: they are the same
for every seat.

One shape per face, keyed by the face (``"7"``, ``"wild_draw4"``), in deck order::

    {"colour": bool, "target": "never" | "always" | "with_last_card",
     "left": "one_less" | "same" | "targets" | "previous_seats" | "next_seats"}

holding only what differs from a plain card's (``PLAIN``, CardRule's defaults): a number card's
shape is ``{}``, a Wild's ``{"colour": true}``.  The view stays small (it goes out with every
snapshot), and a client fills in the rest from the three defaults.

``left`` names the hand a play leaves its player (unless it was their last card: none):
one card fewer; the same size (Dip Into The Deck); the target's hand (a swap); the previous or
next seat's hand (Seven-O's 0, a 7 that swaps with the next seat: HR-6, HR-7) — the last two
depend on the order of play, which a client may not know as the server does.
"""

from __future__ import annotations

from typing import Any

from .card_rules import CardRule, HandAfter, RuleTable, Target
from .state import Edition

# A plain card's shape (CardRule's defaults): no colour declared, nobody named, one card fewer.
PLAIN: dict[str, Any] = {"colour": False, "target": Target.NEVER.name.lower(),
                         "left": HandAfter.ONE_LESS.name.lower()}


def full_shape(rule: CardRule) -> dict[str, Any]:
    """What a play of a card under ``rule`` takes, every key (the enums' names, lower-cased)."""
    return {"colour": rule.needs_colour, "target": rule.target.name.lower(),
            "left": rule.hand_after.name.lower()}


def shape(rule: CardRule) -> dict[str, Any]:
    """``full_shape`` without what a plain card's has too."""
    return {key: value for key, value in full_shape(rule).items() if value != PLAIN[key]}


def card_shapes(edition: Edition, table: RuleTable) -> dict[str, dict[str, Any]]:
    """Every face of ``edition``'s deck with its shape in ``table`` (its rules under some house rules: the
    round's ``RuleTable``), in deck order."""
    rules = table.rules
    out: dict[str, dict[str, Any]] = {}
    for card in edition.cards:
        face = card.face
        if face.value not in out:
            out[face.value] = shape(rules[face])
    return out
