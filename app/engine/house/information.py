"""The information family (RULES.md §7.11): HR-31 open hands and HR-32 no hints.

- HR-31 (``reveal_hands_at``): while a hand holds from 1 to that many cards, its cards are
  face up for every seat and spectator (``open_hands``, in the public part of every view,
  ``views.py``).  C-16 widens by this only (HX-15); spectators see it after their
  ``spectator_delay`` like everything else (D-6), and a face-down card inside an open hand is
  shown like the rest of it (D-13).  The sizes are judged as they are at each moment, after a
  swap or a pass too (HX-13).

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

OPTIONS = ("reveal_hands_at", "no_hints")


def is_open(rnd: RoundState, seat: int) -> bool:
    """Is ``seat``'s hand face up for all (HR-31)?"""
    limit = rnd.house.reveal_hands_at
    return limit is not None and 1 <= len(rnd.hands[seat]) <= limit


def open_hands(rnd: RoundState) -> dict[int, list[int]]:
    """The hands face up for all (HR-31), by seat: none unless ``reveal_hands_at`` is on."""
    if rnd.house.reveal_hands_at is None:
        return {}
    return {seat: list(hand) for seat, hand in enumerate(rnd.hands) if is_open(rnd, seat)}


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
