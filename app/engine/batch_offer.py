"""HR-8's batches as the engine offers them: one ``BatchOffer`` per group of a seat's hand.

What makes a batch, and when a table offers them, is ``house/volume.py``'s (the ``Batches`` hook,
``Rulebook.batches``); the offer is the engine's API (``batch_offers``, views, bots), so it lives in the
core, which returns and checks offers (``Round.apply`` takes a batch an offer ``covers``).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations
from typing import Any, NamedTuple

from .actions import PLAY, Action

# Why a play with ``more`` is refused when the table plays no batches, or not now.
NO_BATCH = ("Several cards are played together only under the house rule 'multi_play', with a play on your "
            "own turn.")

class BatchOffer(NamedTuple):
    """The batches (HR-8) a seat may play from one group of its hand, compactly: ``lead`` (one of
    ``leads``) followed by ``more``, any of the other ``cards`` in any order (the last one acts), at one
    of ``targets`` when its last card names an opponent, with ``uno`` said exactly when ``(size, target)``
    is in ``uno`` (``size``: the cards laid, the lead included; ``target``: None when it names no one)."""

    cards: tuple[int, ...]  # every face-up card of one number the seat holds, in hand order (two or more)
    leads: tuple[int, ...]  # those that may go first (C-5), in hand order
    targets: tuple[int, ...] = ()  # the opponents a batch names (its last card's rule); () for none
    uno: tuple[tuple[int, int | None], ...] = ()  # (size, target) of the batches that may say UNO

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "batch", "cards": list(self.cards), "leads": list(self.leads)}
        if self.targets:
            out["targets"] = list(self.targets)
        if self.uno:
            out["uno"] = [list(pair) for pair in self.uno]
        return out

    def covers(self, action: Action) -> bool:
        """Is ``action`` one of the batches this offer stands for?"""
        kind, card, colour, target, uno, more = action
        if kind != PLAY or not more or colour is not None or card not in self.leads:
            return False
        cards = self.cards
        if any(c not in cards or c == card for c in more) or len(set(more)) != len(more):
            return False
        if not (target in self.targets if self.targets else target is None):
            return False
        return not uno or (len(more) + 1, target) in self.uno


def offer_from_json(data: dict[str, Any]) -> BatchOffer:
    """An offer as a view lists it (``BatchOffer.to_json``): bots decide on views."""
    return BatchOffer(tuple(data["cards"]), tuple(data["leads"]), tuple(data.get("targets", ())),
                      tuple((size, target) for size, target in data.get("uno", ())))


def offer_plays(offer: BatchOffer, most: int | None = None) -> Iterator[Action]:
    """Every batch ``offer`` stands for, each order of its cards apart (for tests and tools: a hoarding hand
    makes very many); ``most``: only those of at most that many cards."""
    targets: tuple[int | None, ...] = offer.targets or (None,)
    for lead in offer.leads:
        mates = [c for c in offer.cards if c != lead]
        for size in range(1, (len(mates) if most is None else min(len(mates), most - 1)) + 1):
            for chosen in combinations(mates, size):
                for more in permutations(chosen):
                    for t in targets:
                        yield Action(PLAY, lead, None, t, False, more)
                        if (size + 1, t) in offer.uno:
                            yield Action(PLAY, lead, None, t, True, more)
