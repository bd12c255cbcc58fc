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

``legal_actions`` lists no batch: a seat's batches are described compactly, one ``BatchOffer`` per
group of its hand (``batch_offers``): the cards of one number it holds, those that may go first, the
opponents the last card may name and when UNO goes with the play.  Listing every combination made
first card × last card × subset × target: a hoarding seat's 8 sevens at a 10-seat Seven-O table were
tens of thousands of actions, megabytes of view.  The engine judges a batch it receives exactly
(``batch_refusal``, then legality's ``batch_options``); an offer covers exactly the batches it
accepts (``BatchOffer.covers``), in any order of their middle cards.

Hook: ``Rulebook.batches`` (``MultiPlay``) under ``multi_play``: ``Round.batch_offers`` asks its
``offers``, ``legality.py`` its ``refusal`` of a play with ``more`` (judged whole here), ``turns.py`` its
``lay`` and (HR-9, with ``bomb``) ``bomb``.  The offer itself is the engine's API type
(``batch_offer.py``).

Its options are declared here, as the fields of ``VolumeOptions`` (``declare.py``), one of the
classes ``HouseRules`` is composed of (``options.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import PLAY, Action
from ..batch_offer import NO_BATCH, BatchOffer, offer_from_json, offer_plays
from ..card_rules import CardRule, HandAfter, Target
from ..cards import NUMBERS, Face
from ..errors import IllegalAction, Refusal
from ..legality import no_uno_with_actions
from ..pending import TURN
from ..rulebook import Batches, Rulebook
from ..state import RoundState
from .declare import ALL_WILD, Family, declared, played_by

__all__ = ["BatchOffer", "MultiPlay", "batch_offers", "offer_from_json", "offer_plays", "plug"]

VOLUME = Family("volume")  # §7.3


@declared
@dataclass(frozen=True)
class VolumeOptions:
    """The family's options (their declarations: ``declare.py``); ``HouseRules`` is composed of them."""

    multi_play: bool = VOLUME.flag(rules=("HR-8",), refused_by={ALL_WILD: True})
    bomb: bool = VOLUME.flag(rules=("HR-9",), needs=("multi_play",), refused_by={ALL_WILD: True})


OPTIONS: tuple[str, ...] = played_by(VolumeOptions, "volume")
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


def batch_offers(rnd: RoundState, seat: int) -> list[BatchOffer]:
    """HR-8: per group of ``seat``'s hand that may make a batch on its own ``turn``, what it may play,
    groups in the order of their first card in the hand.  A group is every face-up card of one number
    held (two or more), one of them playable (C-5)."""
    p = rnd.pending
    if (rnd.book.batches is None or rnd.winner is not None or p is None or p.kind != TURN or p.seat != seat
            or seat in rnd.out):
        return []
    hand = rnd.hands[seat]
    down = rnd.face_down.by_seat[seat]  # HR-33: a face-down card joins no batch
    numbers = rnd.rules.numbers
    groups = number_groups(numbers, [c for c in hand if c not in down] if down else hand)
    out: list[BatchOffer] = []
    for cards in groups.values():
        if len(cards) < 2:
            continue
        leads = tuple([c for c in cards if rnd.playable(c)])
        if not leads:
            continue
        rule = rnd.rules.by_card[cards[0]]  # one number, one rule
        targets = tuple(rnd.opponents(seat)) if rule.target is Target.ALWAYS else ()
        out.append(BatchOffer(tuple(cards), leads, targets, _uno(rnd, seat, rule, len(cards), targets)))
    return out


def _uno(rnd: RoundState, seat: int, rule: CardRule, group: int,
         targets: tuple[int, ...]) -> tuple[tuple[int, int | None], ...]:
    """The (size, target) of the batches of a ``group`` of that many cards that leave their player one card
    (never one that lays the whole hand: it wins), as ``batch_options`` counts them.  UNO goes with those
    alone, and with none under HR-17 / HR-18."""
    if not rnd.calls.with_play:
        return ()
    hands = rnd.hands
    held = len(hands[seat])
    if rule.hand_after is HandAfter.ONE_LESS:  # every card laid leaves the hand
        return ((held - 1, None),) if 2 <= held - 1 <= group else ()
    sizes = range(2, min(group, held - 1) + 1)  # the hand it leaves is another seat's, whatever the size
    if targets:  # a swap: the target's hand
        return tuple((size, t) for size in sizes for t in targets if len(hands[t]) == 1)
    return tuple((size, None) for size in sizes) if rnd.cards_left(rule, seat, None, False) == 1 else ()


def batch_refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """Why a play with ``more`` may not be made (None: it may): what makes a batch, then C-5 for its first
    card, then the ways its last card is played (``batch_options``, the same answer as the offers)."""
    p = rnd.pending
    if rnd.book.batches is None or action.kind != PLAY or p is None or p.kind != TURN or p.seat != seat:
        return IllegalAction(Refusal.BAD_ACTION, NO_BATCH)
    hand = rnd.hands[seat]
    cards = (action.card, *action.more)
    if any(c not in hand for c in cards):
        return IllegalAction(Refusal.CARD_NOT_IN_HAND, "That card is not in your hand.")
    if any(c in rnd.face_down.by_seat[seat] for c in cards):  # HR-33, before what their faces would say
        return IllegalAction(Refusal.CARD_FACE_DOWN, "A face-down card cannot be played until it turns up.")
    mates = batch_mates(rnd, seat, action.card) if action.card is not None else []
    if len(set(cards)) != len(cards) or any(c not in mates for c in action.more):
        return IllegalAction(Refusal.CARD_NOT_PLAYABLE, "A batch is number cards of one number.")
    # Its cards make a batch: then C-5 for its first card, then the ways its last card is played.
    assert action.card is not None
    if not rnd.playable(action.card):
        return IllegalAction(Refusal.CARD_NOT_PLAYABLE,
                             "That card does not match the colour, number or symbol.")
    options: list[Action] = []
    batch_options(rnd, seat, action.card, action.more, options)  # this batch's plays alone: judged exactly
    if action in options:
        return None
    if action.colour is not None:
        return IllegalAction(Refusal.COLOUR_NOT_ALLOWED, "A number card does not take a colour.")
    if action.uno:
        if not rnd.calls.with_play:
            return no_uno_with_actions(rnd)
        return IllegalAction(Refusal.UNO_NOT_ALLOWED,
                             "UNO can only be said with a play that leaves you one card.")
    if action.target is None:
        return IllegalAction(Refusal.TARGET_REQUIRED, "Choose an opponent for this card.")
    return IllegalAction(Refusal.BAD_TARGET if options[0].target is not None else Refusal.TARGET_NOT_ALLOWED,
                         "Choose one of your opponents." if options[0].target is not None
                         else "This card does not take a target.")


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
        left = 0 if last else rnd.cards_left(rule, seat, t, last)
        if not last and rule.hand_after is HandAfter.ONE_LESS:  # the batch's other cards leave too
            left -= len(more)
        out.append(Action(PLAY, card, None, t, False, more))
        if left == 1 and say_uno:
            out.append(Action(PLAY, card, None, t, True, more))


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
    if size >= BOMB_SIZE:
        rnd.emit("bomb", {"seat": seat, "cards": size})
        other = rnd.next_seat(seat)
        while other != seat:
            rnd.draw(other, 1, "bomb")
            other = rnd.next_seat(other)


class MultiPlay(Batches):
    """HR-8's hooks (``Rulebook.batches``): the offers, the refusal of a batch, laying it, and HR-9's bomb."""

    def __init__(self, bombs: bool) -> None:
        self.bombs = bombs

    def offers(self, rnd: RoundState, seat: int) -> list[BatchOffer]:
        return batch_offers(rnd, seat)

    def refusal(self, rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
        return batch_refusal(rnd, seat, action)

    def lay(self, rnd: RoundState, seat: int, action: Action) -> None:
        lay_batch(rnd, seat, action)

    def bomb(self, rnd: RoundState, seat: int, size: int) -> None:
        if self.bombs:
            bomb(rnd, seat, size)


def plug(book: Rulebook, house: VolumeOptions) -> None:
    """The family's hooks: ``Rulebook.batches`` under ``multi_play`` (with ``bomb``: HR-9)."""
    if house.multi_play:
        book.batches = MultiPlay(house.bomb)
