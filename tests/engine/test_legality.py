"""Refusals and legal actions come from the same questions (C-5, C-6, C-11, C-12, RULES.md §6).

``Round.refusal(seat, action)`` is None exactly when ``action`` is in ``legal_actions(seat)`` or is
a batch one of ``batch_offers(seat)`` covers (HR-8: the compact form, against the exact judge of one
batch), for every seat and for candidates near the legal ones (each legal action and offered batch
with one field changed) and far from them, over random games of every edition with random sets of
every house rule the engine plays (RULES.md §7, ``house_sets.py``: HR-1 … HR-7, HR-10, HR-11, HR-14
… HR-19, HR-21 … HR-24; the misplay penalty, HR-20, applies refused plays and is tested apart).
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

from app.engine import (
    COLOURS,
    VARIANTS,
    Action,
    IllegalAction,
    apply,
    legal_actions,
    offer_plays,
)
from app.engine.actions import KINDS
from app.engine.round import Round

from .house_sets import random_match


def batch_candidates(rnd: Round, seat: int, rng: random.Random) -> list[Action]:
    """Some of the batches offered (HR-8), and each with its cards, order, target or UNO changed."""
    offers = rnd.batch_offers(seat) if 0 <= seat < rnd.n else []
    hand = rnd.hands[seat] if 0 <= seat < rnd.n else []
    out: list[Action] = []
    for offer in offers:
        plays = list(islice(offer_plays(offer), 400))
        for a in rng.sample(plays, min(len(plays), 12)):
            out.append(a)
            more = list(a.more)
            rng.shuffle(more)
            out.append(a._replace(more=tuple(more)))
            out.append(a._replace(more=(*a.more, rng.choice(hand))))
            out.append(a._replace(card=rng.choice(offer.cards)))
            out.append(a._replace(uno=not a.uno, target=rng.choice([a.target, None, *range(-1, rnd.n + 1)])))
    return out


def candidates(rnd: Round, seat: int, legal: list[Action], rng: random.Random) -> list[Action]:
    seats = [None, -1, *range(rnd.n + 1)]
    colours = [None, *COLOURS, "purple"]
    hand = rnd.hands[seat] if 0 <= seat < rnd.n else []
    cards = [None, *hand, rng.randrange(len(rnd.cards))]
    if rnd.pending is not None and rnd.pending.card is not None:
        cards.append(rnd.pending.card)
    out = list(legal)
    for a in legal:  # one field changed
        out.append(a._replace(uno=not a.uno))
        out.append(a._replace(colour=rng.choice(colours)))
        out.append(a._replace(target=rng.choice(seats)))
        out.append(a._replace(card=rng.choice(cards)))
        out.append(a._replace(kind=rng.choice(sorted(KINDS))))
    for _ in range(40):
        out.append(Action(rng.choice(sorted(KINDS)), rng.choice(cards), rng.choice(colours), rng.choice(seats),
                          rng.random() < 0.3))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("edition", list(VARIANTS))
def test_refusal_is_none_exactly_for_legal_actions(edition: str) -> None:
    rng = random.Random(edition)
    checked = 0
    for game in range(10):
        match = random_match(rng, edition, f"legality-{game}")
        rnd, seats = match.round, match.config.seats
        for _ in range(250):
            if rnd.winner is not None:
                break
            for seat in (-1, *range(seats)):
                legal = legal_actions(match, seat) if 0 <= seat < seats else []
                offers = rnd.batch_offers(seat) if 0 <= seat < seats else []
                for action in candidates(rnd, seat, legal, rng) + batch_candidates(rnd, seat, rng):
                    refused = rnd.refusal(seat, action)
                    offered = action in legal or any(o.covers(action) for o in offers)
                    assert (refused is None) == offered, (seat, action, refused and refused.code)
                    checked += 1
            # Refused actions raise that very refusal and change nothing.
            seat = rng.randrange(seats)
            action = rng.choice(candidates(rnd, seat, [], rng))
            before = match.fingerprint()
            refused = rnd.refusal(seat, action)
            if refused is not None:
                with pytest.raises(IllegalAction) as err:
                    apply(match, seat, action)
                assert (err.value.code, err.value.message) == (refused.code, refused.message)
                assert match.fingerprint() == before
            moves = [(s, a) for s in range(seats) for a in legal_actions(match, s)]
            apply(match, *rng.choice(moves))
    assert checked > 10_000
