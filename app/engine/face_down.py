"""HR-33 blind draw's record: the cards each seat holds face down (RULES.md §7.11).

The round holds one ``FaceDown`` (``RoundState.face_down``), off unless ``blind_draw`` is on.
Every draw passes through ``drawn``: a card drawn on a turn or as a penalty comes in face down
(seen by no one, its holder included) — all but AW-6's special draw and PP-4's dip (HX-11).
When the cards turn up, and what the views show of them, is ``house/information.py``'s business (its
hooks, ``Rulebook.settle``, ``Rulebook.open_hands``); the record is the round's state, which the core
reads (what a seat may play, pass or answer with; what a challenger is shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# The draws whose card comes in face up even under blind draw: AW-6's and the dip's (HX-11).
FACE_UP_DRAWS = frozenset({"special", "dip"})


class FaceDown:
    __slots__ = ("by_seat", "in_reveal", "on")

    def __init__(self, seats: int, on: bool) -> None:
        self.on = on
        # Per seat, the ids of the cards it holds face down (always a part of its hand).
        self.by_seat: tuple[set[int], ...] = tuple(set() for _ in range(seats))
        # D-5: how many cards of the challenged hand last shown to a challenger were face down.
        self.in_reveal = 0

    def drawn(self, seat: int, got: Iterable[int], reason: str) -> tuple[int, ...]:
        """Record ``seat``'s draw; who sees the faces drawn: the drawer, or no one (face down)."""
        if not self.on or reason in FACE_UP_DRAWS:
            return (seat,)
        self.by_seat[seat].update(got)
        return ()

    def shown(self, challenged: int, evidence: Sequence[int]) -> tuple[int, ...]:
        """D-5: the challenged hand as its challenger sees it — its face-down cards (held since the big Draw
        was played, none of them judged) go by count only, in ``in_reveal``."""
        down = self.by_seat[challenged]
        shown = tuple(c for c in evidence if c not in down)
        self.in_reveal = len(evidence) - len(shown)
        return shown

    def state(self) -> tuple[frozenset[int], ...]:
        """For the round's fingerprint: what is face down, seat by seat."""
        return tuple(frozenset(down) for down in self.by_seat)
