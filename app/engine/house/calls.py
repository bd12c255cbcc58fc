"""UNO! calls under the house rules (RULES.md §7.6): HR-16 catch penalty, HR-17 strict UNO!,
HR-18 no UNO!, HR-19 late catch — and how they meet the windows of C-11 (HX-4, D-3, D-11).

Hooks: ``Rulebook.calls``, the round's ``UnoCalls`` (``RoundState.calls``; the type is the core's,
``rulebook.py``, C-11's defaults), which ``uno.py``, ``legality.py`` and ``Round.apply`` ask instead of
assuming C-11:

- ``penalty``: what a caught seat draws (HR-16; C-11's 2).
- ``with_play``: may UNO! be said with an action (``uno: true``) or just before playing from a
  two-card hand?  Not under HR-17 (only a separate ``declare_uno`` while exposed) nor HR-18.
  HR-17 does not lengthen the window: a catch is still valid until the next turn action (D-3).
- ``exposes``: does a hand dropping to one card expose its holder?  Never under HR-18, where
  ``declare_uno`` and ``catch`` are refused ``uno_not_allowed``.
- ``window_ends_at_turn``: does the next turn action close the catch window?  Not under HR-19:
  a catch stays valid while its target is exposed.

§7.6's options are declared here, as the fields of ``UnoOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``); HR-20 is played by ``misplay.py``, HR-21 by
``stacking.py`` and ``drawing.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulebook import C_11, Rulebook, UnoCalls
from .declare import ALL_WILD, Family, declared, played_by

__all__ = ["C_11", "OPTIONS", "UnoCalls", "plug", "uno_calls"]

UNO = Family("uno", module="calls")  # §7.6: played here, HR-20 in misplay.py, HR-21 in stacking.py


@declared
@dataclass(frozen=True)
class UnoOptions:
    """§7.6's options, penalties and UNO! calls (their declarations: ``declare.py``); ``HouseRules``
    is composed of them.  ``misplay.py`` and ``stacking.py`` play the two that name their module."""

    uno_penalty: int = UNO.choice(2, 4, 6, rules=("HR-16",))
    strict_uno: bool = UNO.flag(rules=("HR-17",))
    silent_uno: bool = UNO.flag(rules=("HR-18",), conflicts=("strict_uno", "late_catch", "uno_penalty"))
    late_catch: bool = UNO.flag(rules=("HR-19",))
    misplay_penalty: bool = UNO.flag(rules=("HR-20",), module="misplay")
    no_challenge: bool = UNO.flag(rules=("HR-21",), module="stacking", refused_by={ALL_WILD: True})


OPTIONS: tuple[str, ...] = played_by(UnoOptions, "calls")


def uno_calls(house: UnoOptions) -> UnoCalls:
    key = (house.uno_penalty, house.strict_uno, house.silent_uno, house.late_catch)
    found = _MADE.get(key)
    if found is None:  # made once per combination
        found = _MADE[key] = UnoCalls(penalty=house.uno_penalty,
                                      with_play=not (house.strict_uno or house.silent_uno),
                                      exposes=not house.silent_uno, window_ends_at_turn=not house.late_catch)
    return found


_MADE: dict[tuple[int, bool, bool, bool], UnoCalls] = {}


def plug(book: Rulebook, house: UnoOptions) -> None:
    """The family's hook: ``Rulebook.calls``."""
    book.calls = uno_calls(house)
