"""One round of play: ``legal_actions`` and ``apply`` on a ``RoundState``.

The round is mutated in place by ``apply`` (the room actor owns it exclusively), but only
after the action has been found in ``legal_actions``: an illegal action raises
``IllegalAction`` and changes nothing.  All randomness comes from ``self.rng``, seeded
from the round's seed, so (variant, seats, dealer, seed, layout, actions) determine it.

The pieces live beside this module: the state and its moves in ``state.py``, what a card's
rule is and the table of them in ``card_rules.py``, what may be done in ``fast_path.py`` (the
listing and every device that keeps it quick, the kept listing ``Round`` inherits among them)
and why not in ``legality.py``, the shared action handlers in ``turns.py``, UNO calls and
catches in ``uno.py``; each card's rule in its edition's module under ``variants/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import actions as A
from .actions import Action
from .errors import IllegalAction, Refusal
from .events import Event
from .fast_path import KeptListing
from .layout import Layout
from .legality import refusal
from .pending import (
    CHALLENGE,
    COLOUR,
    DECISION_KINDS,
    DECISION_WORDS,
    DRAWN,
    FOLLOW_UPS,
    PASS,
    SPECIAL,
    STACK,
    TARGET,
    TURN,
    Pending,
    PendingKind,
    Reason,
)
from .rulebook import Rulebook
from .state import Edition
from .turns import HANDLERS
from .uno import catch, declare, update_uno

__all__ = [
    "CHALLENGE", "COLOUR", "DECISION_KINDS", "DECISION_WORDS", "DRAWN", "FOLLOW_UPS", "PASS", "SPECIAL",
    "STACK", "TARGET", "TURN", "Layout", "Pending", "PendingKind", "Reason", "Round",
]


class Round(KeptListing):
    """A round's state with its listing kept (fast_path.py), and ``apply``."""

    __slots__ = ("void",)

    def __init__(self, variant: Edition, seats: int, dealer: int, seed: int | str,
                 layout: Layout | None, book: Rulebook,
                 out: frozenset[int] = frozenset(), order: Sequence[int] | None = None) -> None:
        super().__init__(variant, seats, dealer, seed, layout, book, out, order)
        variant.start(self)
        settle = book.settle
        if settle is not None:
            settle(self)  # HR-33: the first player sees what a first card made it draw (HX-6)
        stuck = book.pass_stuck
        self.void = stuck is not None and stuck(self)  # HR-13: voided by HR-12 passes

    def refusal(self, seat: int, action: Action) -> IllegalAction | None:
        """None if ``seat`` may take ``action`` now, otherwise why not (``IllegalAction``)."""
        return refusal(self, seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        # The mover's kept listing (fast_path.KeptListing), read inline: calls cost more.
        legal = self._listed.get(seat)  # the usual case: listed for its view
        if legal is None:
            legal = self.legal_actions(seat)
        kind, _, _, _, uno, more = action  # one unpacking: a NamedTuple's attributes are slow
        if not (any(o.covers(action) for o in self.batch_offers(seat)) if more else action in legal):
            # The same questions legal_actions asks, one by one, to say which one failed.
            refused = refusal(self, seat, action) or IllegalAction(Refusal.ILLEGAL_ACTION,
                                                                   "That is not allowed now.")
            mis = self.book.misplay
            if mis is None or not mis.applies(self, seat, action, refused):
                try:
                    raise refused
                finally:  # the error's traceback holds this frame: not the error too, a cycle
                    del refused
            # HR-20: not refused but penalised; the decision stays pending and no catch window closes.
            self.events = []
            self.touched = {}
            mis.penalise(self, seat, action)
            update_uno(self, seat, protected=False)
            stuck = self.book.pass_stuck
            self.void = stuck is not None and stuck(self)
            self._listed.clear()  # moved(), inline
            self._offered.clear()
            return self.events
        self.events = []
        if kind == A.DECLARE_UNO:
            declare(self, seat)
        elif kind == A.CATCH:
            assert action.target is not None
            catch(self, seat, action.target)
        else:
            pending = self.pending
            assert pending is not None
            self.touched = {}
            protected = uno or self.predeclared == seat
            if self.exposed and pending.kind not in FOLLOW_UPS and self.calls.window_ends_at_turn:
                # The next turn action ends every catch window that was open (C-11; not under HR-19).
                self.exposed.clear()
            self.reveal = None
            HANDLERS[kind](self, seat, action)
            book = self.book
            settle = book.settle
            if settle is not None:
                settle(self)  # HR-33: face-down cards turn up (house/information.py)
            if self.winner is None:
                touched = self.touched
                # update_uno has nothing to do when no one is exposed or declared and the actor's hand alone
                # changed, to some size but one: most actions.
                if self.exposed or self.declared or len(touched) != 1 or len(self.hands[seat]) == 1 or (
                        seat not in touched):
                    update_uno(self, seat, protected)
                stuck = book.pass_stuck
                if stuck is not None:  # HR-12's passes at once, and HR-13 (house/drawing.py)
                    self.void = stuck(self)
        self._listed.clear()  # moved(), inline
        self._offered.clear()
        return self.events

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the round's future, for replay-equality checks."""
        return (
            self.variant.key, self.n, self.dealer, self.seed, self.rng.getstate(),
            tuple(map(tuple, self.hands)), tuple(self.draw_pile), tuple(self.discard), self.colour,
            self.direction, self.current, self.pending, frozenset(self.exposed), frozenset(self.declared),
            self.predeclared, tuple(sorted(self.resolved.items())), tuple(self.owed), self.reveal,
            self.winner, self.points, self.book.key, self.out, self.ring, self.void, self.face_down.state(),
        )
