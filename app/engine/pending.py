"""What a round is waiting for: the pending decision, its kind, and why it was asked.

Kinds and reasons are ``StrEnum``s, so a misspelt one is a type error, and a member equals
its string: views and events show them as the same plain strings as ever.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from . import actions as A


class PendingKind(StrEnum):
    TURN = "turn"  # the current player plays or draws
    DRAWN = "drawn"  # after a voluntary draw of a playable card: play it or keep it (C-6)
    SPECIAL = "special"  # All Wild special draw: the drawn card must be played (AW-6)
    CHALLENGE = "challenge"  # accept or challenge a Wild Draw Four / Wild Draw 2
    COLOUR = "colour"  # declare a colour (Bob-omb, a wild first card, a flip-less Item Box)
    TARGET = "target"  # choose an opponent (Green Shell, a first Targeted Draw Two / Forced Swap)
    PASS = "pass"  # Dip Into The Deck: pass one card to the next player
    STACK = "stack"  # house rule: answer a Draw card with the same Draw card, or take the total


class DrawKind(StrEnum):
    """The kind of a pending penalty T (RULES.md §7): that of the last Draw card added to it."""

    SMALL = "small"  # the edition's small Draw: Draw Two, Wild Draw Two (All Wild), Draw One (Pocket Pizza)
    BIG = "big"  # its big Draw: Wild Draw Four, Wild Draw 2 (Pocket Pizza)


class Reason(StrEnum):
    """Why a follow-up decision was asked; each edition registers what happens after it.

    Every follow-up (colour, target, pass) has one, so the edition that asked it can carry
    on from it (``Variant.continuations``).  The challenge has none: its kind says it all, and
    the editions register its continuation under the kind (``variants/challenge.py``).
    """

    FIRST_CARD = "first_card"  # a wild first card: its colour (CL-2, PP-2)
    PLAIN_WILD = "plain_wild"  # an Item Box with nothing to flip (MK-5)
    BOB_OMB = "bob_omb"  # MK-10
    GREEN_SHELL = "green_shell"  # MK-8
    FIRST_TARGETED = "first_targeted"  # All Wild first card: Targeted Draw Two (AW-4)
    FIRST_SWAP = "first_swap"  # All Wild first card: Forced Swap (AW-4)
    DIP = "dip"  # Dip Into The Deck: the card to pass on (PP-4)


TURN = PendingKind.TURN
DRAWN = PendingKind.DRAWN
SPECIAL = PendingKind.SPECIAL
CHALLENGE = PendingKind.CHALLENGE
COLOUR = PendingKind.COLOUR
TARGET = PendingKind.TARGET
PASS = PendingKind.PASS
STACK = PendingKind.STACK

# Decisions that finish the same player's play; they do not close anyone's catch window (C-11).
FOLLOW_UPS = frozenset({COLOUR, TARGET, PASS})
# Follow-ups whose reason a view shows (``pending.reason``); a pass's reason goes without saying.
SHOWN_REASONS = frozenset({COLOUR, TARGET})

# The action kinds each decision takes from the seat it waits for.
DECISION_KINDS: dict[PendingKind, frozenset[str]] = {
    TURN: frozenset({A.PLAY, A.DRAW, A.SPECIAL_DRAW}),
    DRAWN: frozenset({A.PLAY_DRAWN, A.KEEP}),
    SPECIAL: frozenset({A.PLAY_DRAWN}),
    CHALLENGE: frozenset({A.ACCEPT, A.CHALLENGE}),
    COLOUR: frozenset({A.CHOOSE_COLOUR}),
    TARGET: frozenset({A.CHOOSE_TARGET}),
    PASS: frozenset({A.PASS_CARD}),
    STACK: frozenset({A.PLAY, A.ACCEPT}),
}
# The decisions that owe a penalty T: the field-less actions each takes, in the order ``legal_actions``
# lists them (the cards that answer T, under the stacking family, follow).
PENALTY_KINDS: dict[PendingKind, tuple[str, ...]] = {
    CHALLENGE: (A.ACCEPT, A.CHALLENGE),
    STACK: (A.ACCEPT,),
}
DECISION_WORDS: dict[PendingKind, str] = {
    TURN: "play a card or draw",
    DRAWN: "play the card you drew or keep it",
    SPECIAL: "play the card you drew",
    CHALLENGE: "accept the penalty or challenge",
    COLOUR: "choose a colour",
    TARGET: "choose an opponent",
    PASS: "choose a card to pass",
    STACK: "take the penalty or answer it",
}


class Pending(NamedTuple):
    kind: PendingKind
    seat: int
    card: int | None = None  # the drawn card (DRAWN, SPECIAL)
    reason: Reason | None = None  # why a colour, target or pass is asked for
    # CHALLENGE only — ``guilty`` and ``evidence`` are secret until a challenge reveals them.
    challenged: int | None = None
    penalty: int = 0  # CHALLENGE, STACK: the total T that accepting draws
    guilty: bool = False
    evidence: tuple[int, ...] = ()
    # CHALLENGE, STACK under the stacking family (house/stacking.py): T's kind, which says what may answer it.
    draw_kind: DrawKind | None = None
