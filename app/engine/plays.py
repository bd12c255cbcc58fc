"""The questions about a seat's plays that the listing asks the table's rulebook (HR-11, HR-12, HR-15).

``refusal`` (legality.py) and the plain listing (reference.py) ask them by name; the fast listing
(fast_path.py) reads most of the same rulebook fields inline, and tests/engine/test_reference.py
proves it equal.
"""

from __future__ import annotations

from .state import RoundState


def restricted_last(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-15: would playing ``card`` empty ``seat``'s hand on a card HR-14 forbids (``Rulebook.no_last``)?"""
    return len(rnd.hands[seat]) == 1 and card in rnd.book.no_last


def at_limit(rnd: RoundState, seat: int) -> bool:
    """HR-12: does ``seat`` hold the hand limit or more (so it may not draw on its turn)?"""
    limit = rnd.book.hand_limit
    return limit is not None and len(rnd.hands[seat]) >= limit


def may_keep(rnd: RoundState, seat: int, card: int) -> bool:
    """HR-11: may ``seat`` keep the playable ``card`` it just drew (house/drawing.py's hook)?"""
    keep = rnd.book.may_keep
    return keep is None or keep(rnd, seat, card)
