"""A table's rule set: the hooks its house rules plug into the core, assembled once per match.

The core asks a ``Rulebook`` (``app/engine/rulebook.py``) and reads no option; here each family module
plugs its own hooks in from the ``HouseRules`` (its ``plug``), and the families that change what cards
do (``stacking.py``, ``exchange.py``) edit the edition's rule table (``table.py``, through
``rule_table``).  ``MatchConfig.rulebook`` (``app/engine/config.py``) calls ``assemble``; every
round of the match holds the result (``RoundState.book``).
"""

from __future__ import annotations

from ..rulebook import Rulebook
from ..variants import Variant
from . import (
    calls,
    drawing,
    elimination,
    finishing,
    information,
    misplay,
    pace,
    scoring,
    seating,
    teams,
    volume,
)
from .options import HouseRules
from .table import rule_table


def assemble(house: HouseRules, variant: Variant, seats: int) -> Rulebook:
    """``house``'s hooks for ``variant`` at a table of ``seats`` (raises ``ConfigError``: ``bad_teams``)."""
    book = Rulebook(rule_table(variant, house), house, house.to_json)
    teams.plug(book, house, seats)  # checks the seats first (HR-26)
    book.jump_in = house.jump_in  # §6 Jump-In: a twin of the top card, out of turn (legality.py, turns.py)
    calls.plug(book, house)
    drawing.plug(book, house)
    finishing.plug(book, house, variant.cards)
    misplay.plug(book, house)
    volume.plug(book, house)
    information.plug(book, house)
    scoring.plug(book, house)
    seating.plug(book, house)
    elimination.plug(book, house)
    pace.plug(book, house)
    return book
