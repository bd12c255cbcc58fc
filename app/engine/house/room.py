"""§6's room options beyond the sheets (RULES.md §6): Stacking, Seven-O, Jump-In,
draw-until-playable, a single round and a fixed number of rounds.

They are no family of their own: each is played by the module its declaration names — ``stacking``
by ``stacking.py``, ``seven_o`` by ``exchange.py`` — or by the core (``module=None``: Jump-In through
``Rulebook.jump_in``, draw-until-playable through ``Rulebook.draw_until_playable``, which
``drawing.py`` plugs in with HR-12's stop at the limit, and the match's endings, which ``scoring.py``
and ``pace.py`` judge).  So they are declared here, in a module of declarations alone that sits below
every family, as the fields of ``RoomOptions`` (``declare.py``): the families that read them import
this module, and ``options.py`` composes ``HouseRules`` of them and of each family's class.
"""

from __future__ import annotations

from dataclasses import dataclass

from .declare import Family, declared

ROOM = Family("room")  # §6: the room options beyond the sheets; the core plays most of them


@declared
@dataclass(frozen=True)
class RoomOptions:
    """§6, the room options beyond the sheets: each is played by the module it names (None: the core)."""

    # A Draw card may be answered with the same Draw card; penalties add up.
    stacking: bool = ROOM.flag(module="stacking")
    # A 7 swaps hands with a chosen player; a 0 passes every hand onwards.
    seven_o: bool = ROOM.flag(module="exchange")
    jump_in: bool = ROOM.flag(module=None)  # an exact duplicate of the top card may be played out of turn
    draw_until_playable: bool = ROOM.flag(module=None)  # a draw goes on until a playable card comes
    single_round: bool = ROOM.flag(module=None, conflicts=("rounds",))  # the first player out wins the match
    # A fixed number of rounds; the highest total wins.
    rounds: int | None = ROOM.number(low=1, high=100, what="A fixed number of rounds", code="bad_rounds",
                                     module=None)
