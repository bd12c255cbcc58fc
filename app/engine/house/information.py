"""The information family (RULES.md §7.11): HR-32 no hints.

- HR-32 (``no_hints``): frames to people carry no ``legal`` list and the room's ``why`` is
  refused ``no_hints`` (``app/rooms``: ``hintless`` below strips a seat's view); bots and the
  turn clock still decide on the engine's legal actions, from the full view.  So that the
  absence of a ``drawn`` decision tells nothing, every draw on a turn offers it, even for an
  unplayable card (``offers_drawn``): then only ``keep`` is legal (``legality.py``), and
  ``play_drawn`` is refused ``card_not_playable``.
"""

from __future__ import annotations

from typing import Any

from ..state import RoundState

OPTIONS = ("no_hints",)


def offers_drawn(rnd: RoundState, card: int) -> bool:
    """After a draw on a turn: does the seat owe a ``drawn`` decision on ``card``?  (C-6: when it
    is playable; HR-32: always.)"""
    return rnd.house.no_hints or rnd.playable(card)


def hintless(game: dict[str, Any]) -> dict[str, Any]:
    """A seat's view without its legal actions (HR-32): a shallow copy, the view itself unchanged."""
    table = game.get("table")
    if not isinstance(table, dict) or "legal" not in table:
        return game
    return {**game, "table": {k: v for k, v in table.items() if k != "legal"}}
