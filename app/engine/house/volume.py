"""The play-volume family (RULES.md §7.3): HR-8 several cards of one number and HR-9 bomb, with
HX-4, HX-5, HX-9, HX-13 and D-12.

- HR-8 (``multi_play``): on its own ``turn`` decision a seat may play ``card`` (legal by C-5)
  plus ``more``: further number cards of that number, any colour, laid in order, as one
  ``play`` — one turn action (one C-11 window; ``uno`` covers it).  Only the last card acts:
  its colour is the colour to match, and a 7 or 0 swaps or passes only as the last card
  (HX-13).  ``more`` on any other action or decision, or with the option off, is
  ``bad_action``; a batch whose cards do not match is refused whole ``card_not_playable``
  (D-12); a batch is never a jump-in, an answer or a misplay (HR-20 names single plays).
- HR-9 (``bomb``): a batch of 3 cards or more makes every other seat draw 1, in turn order from
  the next seat, before its last card acts; nobody loses a turn; a winning batch bombs too
  (HX-5), and those draws count for scoring.  Bomb draws are part of the batch, not turn actions
  of their own (HX-4).  Only the batch's own cards count: a number an Item Box flipped never
  joins one (HX-9), nor does any earlier card of the pile.

``legal_actions`` lists each batch once, its middle cards in hand order (``batches``); a batch
sent with its middle cards in another order is the same move (``canonical``), laid as sent.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from ..actions import PLAY, Action
from ..cards import NUMBERS, Face
from ..errors import IllegalAction, Refusal
from ..pending import TURN
from ..state import RoundState

OPTIONS = ("multi_play", "bomb")
BOMB_SIZE = 3
NUMBER_FACES = frozenset(NUMBERS)


def batch_mates(rnd: RoundState, seat: int, card: int) -> list[int]:
    """The other cards in ``seat``'s hand that may follow ``card`` in a batch (its number, any colour)."""
    face = rnd.cards[card].face
    if face not in NUMBERS:
        return []
    down = rnd.face_down.by_seat[seat]  # HR-33: a face-down card joins no batch
    return [c for c in rnd.hands[seat] if c != card and rnd.cards[c].face == face and c not in down]


def number_groups(numbers: tuple[Face | None, ...], hand: list[int]) -> dict[Face, list[int]]:
    """The number cards of ``hand`` by number (``RuleTable.numbers``), in hand order: one pass over the hand
    gives every playable card's ``batch_mates`` (the rest of its group, when it holds two or more)."""
    held: defaultdict[Face, list[int]] = defaultdict(list)
    for c in hand:
        face = numbers[c]
        if face is not None:
            held[face].append(c)
    return held


def batches(rnd: RoundState, seat: int, card: int) -> Iterator[tuple[int, ...]]:
    """Every ``more`` that may follow ``card``: a set of its mates in hand order, then the last one."""
    return _mores(tuple(batch_mates(rnd, seat, card)))


@lru_cache(maxsize=16384)
def batch_plays(card: int, mates: tuple[int, ...], targets: tuple[int | None, ...], uno_size: int,
                uno_targets: tuple[int | None, ...], last_size: int) -> tuple[Action, ...]:
    """The batch plays of ``card`` with its ``mates`` (the rest of its group of ``number_groups``, in hand
    order), as ``batches`` orders them, each at every one of ``targets``, with its UNO twin after it when the
    batch leaves one card: when it lays ``uno_size`` cards after ``card`` or names one of ``uno_targets``,
    unless it lays ``last_size`` (the whole hand).  ``legal_actions`` lists them on every step and a seat's
    groups and what its opponents hold rarely change, so each is built once per such pattern (-1: never);
    keyed by the mates, not the group: where ``card`` sits in its group changes nothing."""
    out: list[Action] = []
    new = tuple.__new__  # Action's own __new__ is a Python function: a cache miss builds dozens of them
    for more in mates_mores(mates):
        size = len(more)
        uno = size != last_size
        for t in targets:
            out.append(new(Action, (PLAY, card, None, t, False, more)))
            if uno and (size == uno_size or t in uno_targets):
                out.append(new(Action, (PLAY, card, None, t, True, more)))
    return tuple(out)


def mates_mores(mates: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every ``more`` that may follow a card with these ``mates`` (the rest of its group, in hand order), in
    ``batches``' order, made with C's help: a batch cache's miss walked ``_mores``' generator, about 9k
    instructions per batch made, and misses are frequent (a key is a hand's group).  The batches of one
    card come first, in the mates' order, then the longer ones, picked by getters made once per number
    of mates from ``_mores``' own order."""
    if len(mates) == 1:  # the usual groups are of two cards and three: their batches written out
        return [mates]
    if len(mates) == 2:
        a, b = mates
        return [(a,), (b,), (b, a), (a, b)]
    mores: list[tuple[int, ...]] = [(m,) for m in mates]
    mores.extend([get(mates) for get in _getters(len(mates))])
    return mores


@lru_cache(maxsize=32)
def _getters(count: int) -> tuple[itemgetter[tuple[int, ...]], ...]:
    """Per batch of two mates or more, in ``_mores``' order, what picks its cards out of ``count`` mates."""
    return tuple(itemgetter(*more) for more in _mores(tuple(range(count))) if len(more) > 1)


def _mores(mates: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for size in range(1, len(mates) + 1):
        for chosen in combinations(mates, size):
            for i, last in enumerate(chosen):
                yield (*chosen[:i], *chosen[i + 1:], last)


def canonical(rnd: RoundState, seat: int, action: Action) -> Action:
    """The batch as ``legal_actions`` lists it: its middle cards in hand order.  A seat the table
    lacks has no hand to order by: its batch is returned as sent, for ``refusal`` to say ``bad_seat``."""
    if len(action.more) < 3 or not 0 <= seat < rnd.n:
        return action
    order = {c: i for i, c in enumerate(rnd.hands[seat])}
    middle = sorted(action.more[:-1], key=lambda c: order.get(c, -1))
    return action._replace(more=(*middle, action.more[-1]))


def batch_refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """Why a play with ``more`` may not be made (None: its cards make a batch)."""
    p = rnd.pending
    if not rnd.house.multi_play or action.kind != PLAY or p is None or p.kind != TURN or p.seat != seat:
        return IllegalAction(Refusal.BAD_ACTION, "Several cards are played together only under the house rule "
                             "'multi_play', with a play on your own turn.")
    hand = rnd.hands[seat]
    cards = (action.card, *action.more)
    if any(c not in hand for c in cards):
        return IllegalAction(Refusal.CARD_NOT_IN_HAND, "That card is not in your hand.")
    if any(c in rnd.face_down.by_seat[seat] for c in cards):  # HR-33, before what their faces would say
        return IllegalAction(Refusal.CARD_FACE_DOWN, "A face-down card cannot be played until it turns up.")
    mates = batch_mates(rnd, seat, action.card) if action.card is not None else []
    if len(set(cards)) != len(cards) or any(c not in mates for c in action.more):
        return IllegalAction(Refusal.CARD_NOT_PLAYABLE, "A batch is number cards of one number.")
    return None


def lay_batch(rnd: RoundState, seat: int, action: Action) -> None:
    """The batch leaves the hand; its cards but the last go onto the pile (``put_down`` lays that one)."""
    hand = rnd.hands[seat]
    for c in (action.card, *action.more[:-1]):
        assert c is not None
        hand.remove(c)
        rnd.discard.append(c)
    hand.remove(action.more[-1])


def bomb(rnd: RoundState, seat: int, size: int) -> None:
    """HR-9: a batch of 3 or more makes every other seat draw 1, from the next seat on."""
    if rnd.house.bomb and size >= BOMB_SIZE:
        rnd.emit("bomb", {"seat": seat, "cards": size})
        other = rnd.next_seat(seat)
        while other != seat:
            rnd.draw(other, 1, "bomb")
            other = rnd.next_seat(other)
