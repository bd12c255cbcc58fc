"""An edition's rule table under some house rules: each family that changes what cards do
edits the edition's card rules (``stacking.py``, ``exchange.py``), as the editions define them.

The round then asks every card the same questions whatever the options: the table is the rule set's
``Rulebook.table`` (``rulebook.py`` assembles it, from ``rule_table``).  Families that change who may
play, or how a draw ends (Jump-In, draw-until-playable), plug hooks of their own into the ``Rulebook``.

Tables are shared: one per edition and combination of the options that change card rules (``OPTIONS``),
built when first asked for (every edition's table without house rules when this module loads), so that
every match played with the same card rules holds the very same table, and what is kept per table
(``RuleTable``'s plays, the stacking family's answers) is worked out once.
"""

from __future__ import annotations

from ..card_rules import RuleTable
from ..variants import VARIANTS, Variant
from . import exchange, stacking
from .options import HouseRules

# The options a rule table depends on: tables are built once per combination of them.
OPTIONS: tuple[str, ...] = (*stacking.OPTIONS, *exchange.OPTIONS)


def table_key(house: HouseRules) -> tuple[object, ...]:
    return tuple(getattr(house, name) for name in OPTIONS)


def build(variant: Variant, house: HouseRules) -> RuleTable:
    """The edition's card rules with the house rules that change card effects switched on."""
    out = dict(variant.rules)
    family = stacking.Stacking.of(variant.penalty_cards, house)
    if family is not None:
        family.edit(out)
    exchange.edit(out, house)
    return RuleTable(variant.cards, out, family)


class EditionTables:
    """One edition's rule tables, by the combination of the options that change card rules."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        plain = RuleTable(variant.cards, variant.rules)  # its sheet's rules: no option edits them
        self._tables: dict[tuple[object, ...], RuleTable] = {table_key(HouseRules()): plain}
        self._last: tuple[HouseRules | None, RuleTable] = (None, plain)

    def under(self, house: HouseRules) -> RuleTable:
        last_house, last_table = self._last
        if house is last_house:  # the same house rules asked again (a match replayed from its configuration)
            return last_table
        key = table_key(house)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = build(self.variant, house)
        self._last = (house, table)  # one assignment: a reader sees the old pair or the new one
        return table


# Every edition's tables, by its key.
_TABLES: dict[str, EditionTables] = {key: EditionTables(variant) for key, variant in VARIANTS.items()}


def rule_table(variant: Variant, house: HouseRules) -> RuleTable:
    """``variant``'s rule table under ``house``: its card rules with the house rules that change card
    effects switched on, the same table for every set of house rules that changes them alike."""
    tables = _TABLES[variant.key]
    assert tables.variant is variant, f"{variant.key} is not the registered edition"
    return tables.under(house)
