"""Cached lists of plays, for ``legal_actions`` (legality.py), the engine's hot path.

The ways to play a card whose plays depend on the other hands (a target, a swap, a pass of hands)
and the batches of HR-8 (house/volume.py) are the same whenever the same few facts are: built once
per such pattern and kept (``card_plays``, ``plain_batches``, ``volume.batch_plays``), the listing
on every step copies them instead of making each ``Action`` anew.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from . import actions as A
from .actions import Action
from .cards import COLOURS
from .house.volume import batch_plays, mates_batches
from .state import HandAfter, RoundState, Target

NO_TARGET: tuple[int | None, ...] = (None,)
NO_ONE: tuple[int | None, ...] = ()


@lru_cache(maxsize=4096)
def card_plays(kind: str, card: int, needs_colour: bool, targets: tuple[int | None, ...],
               uno_targets: tuple[int | None, ...]) -> tuple[Action, ...]:
    """``card`` played as ``kind`` at each of ``targets`` in each colour it needs, with UNO said too at
    ``uno_targets`` (where the play leaves one card)."""
    colours: Sequence[str | None] = COLOURS if needs_colour else (None,)
    out: list[Action] = []
    for t in targets:
        for c in colours:
            out.append(Action(kind, card, c, t))
            if t in uno_targets:
                out.append(Action(kind, card, c, t, True))
    return tuple(out)


@lru_cache(maxsize=16384)
def plain_batches(card: int, group: tuple[int, ...]) -> tuple[Action, ...]:
    """The batches of a plain number (no target, one card less each) that say no UNO."""
    return batch_plays(card, group, NO_TARGET, -1, NO_ONE, -1)


def batches_of(rnd: RoundState, seat: int, card: int, group: tuple[int, ...], out: list[Action]) -> None:
    """``batch_options`` for every batch ``card`` may lead with the rest of its ``group`` (HR-8), from the
    ``batch_plays`` cache: the batch's last card has ``card``'s face, so its rule, and what that rule's
    plays depend on — the targets, when a batch says UNO — makes the cache's key."""
    rule = rnd.rules.by_card[card]
    hand_len = len(rnd.hands[seat])
    most = len(group) - 1  # the most cards a batch lays after ``card``
    if card in rnd.rules.plain_numbers and (most < hand_len - 2 or not rnd.calls.with_play):
        out.extend(plain_batches(card, group))  # no UNO and no target: the common case
        return
    if rule.target is Target.WITH_LAST_CARD:  # no number card's rule: built play by play
        for more in mates_batches(card, group):
            batch_options(rnd, seat, card, more, out)
        return
    targets = tuple(rnd.opponents(seat)) if rule.target is Target.ALWAYS else NO_TARGET
    uno_size, uno_targets = -1, NO_ONE
    if rnd.calls.with_play:
        if rule.hand_after is HandAfter.ONE_LESS:  # the batch's cards leave with it
            uno_size = hand_len - 2 if 0 < hand_len - 2 <= most else -1
        else:  # the hand it leaves is someone else's, whatever its size
            uno_targets = tuple(t for t in targets if rule.cards_left(rnd, seat, t, False) == 1)
    out.extend(batch_plays(card, group, targets, uno_size, uno_targets, hand_len - 1 if hand_len - 1 <= most else -1))


def batch_options(rnd: RoundState, seat: int, card: int, more: tuple[int, ...], out: list[Action]) -> None:
    """Every way to play ``card`` with ``more`` (HR-8): as its last card is played (HX-13), UNO
    said when the batch leaves one card.  (A batch is of number cards: HR-15 never restricts it.)"""
    last_card = more[-1]
    rule = rnd.rules.by_card[last_card]
    hand_len = len(rnd.hands[seat])
    last = hand_len == 1 + len(more)
    say_uno = rnd.calls.with_play
    targets: Sequence[int | None] = rnd.opponents(seat) if rule.needs_target(last) else (None,)
    for t in targets:
        left = 0 if last else rule.cards_left(rnd, seat, t, last)
        if not last and rule.hand_after is HandAfter.ONE_LESS:  # the batch's other cards leave too
            left -= len(more)
        out.append(Action(A.PLAY, card, None, t, False, more))
        if left == 1 and say_uno:
            out.append(Action(A.PLAY, card, None, t, True, more))
