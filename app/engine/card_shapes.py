"""What a play of each face takes, as a client reads it: the card rules' shapes, per face.

A client that offers moves without the server's ``legal`` list (HR-32's no-hints table) needs
to know, for each face of the edition under the room's house rules, whether its play declares
a colour (``CardRule.needs_colour``), whether it names an opponent (``CardRule.target``: always,
never, or only as the last card, as Mario Kart's Item Box), and how many cards it leaves its
player (``CardRule.hand_after``, which ``CardRule.cards_left`` counts with).  They are read here
from the very rule table the round plays by (``RoundState.rules``, ``house/table.py``), so a
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

Two more of the table's rules go with them, for the same client and read the same way, from the
edition and the table's ``Rulebook``, so that it names no edition and reads no house option for them:

- ``turn_draw(edition, book)``: how a draw on one's turn works at this table::

      {"draw": "always" | "last_card" | "never",
       "special": null | {"hand_of": face, "next_holds": int},
       "limit": null | int}

  ``draw``: when ``draw`` may be asked on a turn: on any (C-6; HR-10 may still refuse it), or, where a
  turn must play (AW-5), with one card only when some last card is forbidden (HR-15: ``Rulebook.no_last``
  holds one), else never.  ``special``: the edition's special draw (AW-6, ``Edition.special_draw``): with
  every card in hand of the face ``hand_of`` and the next seat holding ``next_holds`` cards.  ``limit``:
  HR-12's, no draw at all on a turn while holding that many cards or more.
- ``penalty_answers(table)``: the kinds of penalty (a ``stack`` or ``challenge`` decision's ``draw_kind``)
  a card may answer at this table (HX-3: ``PenaltyAnswers.open_to``), ``[]`` without the stacking family.

Neither says whether a card would be accepted (HR-32): they are the same for every seat, all match long.
"""

from __future__ import annotations

from typing import Any

from .card_rules import CardRule, HandAfter, RuleTable, Target
from .pending import DrawKind
from .rulebook import Rulebook
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


def turn_draw(edition: Edition, book: Rulebook) -> dict[str, Any]:
    """How a draw on one's turn works at a table of ``edition`` with ``book``'s house rules (above)."""
    # AW-5: where a turn must play, only a last card HR-15 forbids is drawn past.
    draw = "always" if edition.voluntary_draw else "last_card" if book.no_last else "never"
    special = edition.special_draw
    return {"draw": draw,
            "special": None if special is None else {"hand_of": special.hand_of.value,
                                                     "next_holds": special.next_holds},
            "limit": book.hand_limit}


def penalty_answers(table: RuleTable) -> list[str]:
    """The kinds of penalty a card may answer under ``table`` (HX-3), in ``DrawKind``'s order."""
    return [kind.value for kind in DrawKind if table.stacking.open_to(kind)]
