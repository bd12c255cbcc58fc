"""An edition's rule table under some house rules: each family that changes what cards do
edits the edition's card rules (``stacking.py``, ``exchange.py``), as the editions define them.

The round then asks every card the same questions whatever the options: the table is the rule set's
``Rulebook.table`` (``rulebook.py`` assembles it).  Families that change who may play, or how a draw
ends (Jump-In, draw-until-playable), plug hooks of their own into the ``Rulebook``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..card_rules import CardRule, RuleTable
from ..cards import CardType, Face
from ..penalty_cards import PenaltyCards
from . import exchange, stacking
from .options import HouseRules

# The options a rule table depends on: tables are built once per combination of them.
OPTIONS: tuple[str, ...] = (*stacking.OPTIONS, *exchange.OPTIONS)


def table_key(house: HouseRules) -> tuple[object, ...]:
    return tuple(getattr(house, name) for name in OPTIONS)


def rule_table(cards: Sequence[CardType], rules: Mapping[Face, CardRule], house: HouseRules,
               penalty_cards: PenaltyCards) -> RuleTable:
    """The edition's card rules with the house rules that change card effects switched on."""
    out = dict(rules)
    family = stacking.Stacking.of(penalty_cards, house)
    if family is not None:
        family.edit(out)
    exchange.edit(out, house)
    return RuleTable(cards, out, family)
