"""Engine equivalence: one hash over everything random matches do, to show a change to the engine kept
its behaviour.

    uv run python bench/engine_equivalence.py [--matches 40] [--actions 1500] [--without OPTION ...]

Plays ``--matches`` matches from fixed seeds, in every edition in turn, each under a random valid set of the
house rules the engine plays (every fifth one under the ``chaos`` preset, when its edition takes it), up to
``--actions`` actions per match; ``--without`` leaves the options named out of every set (``--without
multi_play``: matches in which no batch is ever listed, to show a change of batches alone left the rest as
it was). Every step hashes each seat's ``legal_actions`` (and HR-8's ``batch_offers``, where any), the
action applied (a uniform pick among the seats that have any), its events and the round's fingerprint; now
and then a malformed or out-of-turn action is sent too, and its refusal (code, message, params) or, under
HR-20, its misplay's events are hashed. A change that only makes the engine faster keeps the hash; any
change of what it lists, does, says or refuses changes it.
The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.modes import mode  # first: it reads --mode, which decides what importing app gives

# isort: split
from app.engine import (
    OVER,
    ROUND,
    VARIANTS,
    Action,
    BatchOffer,
    ConfigError,
    HouseRules,
    IllegalAction,
    Match,
    MatchConfig,
    apply,
    batch_offers,
    legal_actions,
    new_match,
    start_next_round,
)
from app.engine.house import AVAILABLE, PRESETS
from app.engine.house.options import CHOICES
from app.engine.house.teams import TEAM_SIZES

PLAYED = sorted(name for name in AVAILABLE if name in CHOICES)
KINDS = ("play", "play_drawn", "draw", "keep", "accept", "challenge", "choose_colour", "choose_target",
         "pass_card", "declare_uno", "catch", "special_draw")


def random_house(rng: random.Random, edition: str, without: tuple[str, ...] = ()) -> HouseRules:
    """Each option on (at a random value) with probability one half, until the edition takes the set."""
    while True:
        data = {name: rng.choice(CHOICES[name][1:]) for name in PLAYED if rng.random() < 0.5}
        for name in without:
            data.pop(name, None)
        try:
            return HouseRules.from_json(data, VARIANTS[edition])
        except ConfigError:
            continue


def house_for(rng: random.Random, edition: str, number: int, without: tuple[str, ...] = ()) -> HouseRules:
    if number % 5 == 0:
        try:
            return HouseRules.from_json({k: v for k, v in PRESETS["chaos"].items()
                                         if k in AVAILABLE and k not in without}, VARIANTS[edition])
        except ConfigError:
            pass
    return random_house(rng, edition, without)


def batch_from(rng: random.Random, offer: BatchOffer) -> Action:
    """A random batch of those ``offer`` stands for (HR-8): a lead, some of the other cards in a random order,
    a target when it names one, UNO said when it may be, at random."""
    lead = rng.choice(offer.leads)
    mates = [c for c in offer.cards if c != lead]
    more = tuple(rng.sample(mates, rng.randint(1, len(mates))))
    target = rng.choice(offer.targets) if offer.targets else None
    uno = (len(more) + 1, target) in offer.uno and rng.random() < 0.5
    return Action("play", lead, None, target, uno, more)


def probe(rng: random.Random, match: Match, legal: dict[int, list[Action]],
          offers: dict[int, list[BatchOffer]]) -> Action:
    """A likely refused action: another seat's move, a random card or batch, a field too many."""
    rnd = match.round
    deck = len(rnd.cards)
    choice = rng.randrange(4)
    if choice == 0:
        moves = [a for s in legal for a in legal[s]]
        return rng.choice(moves) if moves else Action("draw")
    if choice == 1:
        more = tuple(rng.randrange(deck) for _ in range(rng.randrange(4)))
        return Action("play", rng.randrange(deck), rng.choice((None, "red")), rng.choice((None, 0, 1)),
                      rng.random() < 0.3, more)
    if choice == 2:  # a real batch's middle cards shuffled, or with a card of another hand
        batches = [batch_from(rng, o) for s in offers for o in offers[s]]
        if batches:
            a = rng.choice(batches)
            mixed = list(a.more)
            rng.shuffle(mixed)
            if rng.random() < 0.3:
                mixed[0] = rng.randrange(deck)
            return a._replace(more=tuple(mixed), uno=rng.random() < 0.5)
    return Action(rng.choice(KINDS), rng.choice((None, rng.randrange(deck))), rng.choice((None, "blue", "pink")),
                  rng.choice((None, rng.randrange(-1, rnd.n + 1))), rng.random() < 0.3)


def play_match(number: int, edition: str, max_actions: int, digest: hashlib._Hash,
               without: tuple[str, ...] = ()) -> int:
    rng = random.Random(f"equivalence-{number}")
    variant = VARIANTS[edition]
    house = house_for(rng, edition, number, without)
    seats = rng.randint(variant.min_seats, variant.max_seats)
    if house.team_play and seats not in TEAM_SIZES:
        seats = 4
    match, events = new_match(MatchConfig(edition, seats, target=rng.choice((None, 150)), house=house),
                              seed=f"eq-{number}")
    digest.update(repr((edition, seats, house, events)).encode())
    done = 0
    while done < max_actions and match.phase != OVER:
        if match.phase != ROUND:
            digest.update(repr(start_next_round(match, secret=f"s{number}/{match.round_no}")).encode())
            continue
        legal = {s: legal_actions(match, s) for s in range(seats)}
        offers = {s: batch_offers(match, s) for s in range(seats)}
        digest.update(repr(legal).encode())
        if any(offers.values()):  # HR-8: hashed only where some are listed, as they were among the actions
            digest.update(repr(offers).encode())
        if rng.random() < 0.15:
            seat = rng.randrange(-1, seats + 1)
            action = probe(rng, match, legal, offers)
            try:
                digest.update(repr(("misplay", seat, action, apply(match, seat, action))).encode())
            except IllegalAction as err:
                digest.update(repr(("refused", seat, action, str(err.code), err.message, err.params)).encode())
        else:
            seat = rng.choice([s for s in legal if legal[s]])
            choices: list[Action | BatchOffer] = [*legal[seat], *offers[seat]]
            picked = rng.choice(choices)  # an offer stands for its batches
            action = batch_from(rng, picked) if isinstance(picked, BatchOffer) else picked
            digest.update(repr((seat, action, apply(match, seat, action))).encode())
        digest.update(repr((match.phase, match.scores, match.round.fingerprint())).encode())
        done += 1
    digest.update(repr(match.fingerprint()).encode())
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--actions", type=int, default=1500, help="at most this many actions per match")
    parser.add_argument("--without", nargs="*", default=[], choices=PLAYED,
                        help="house rules left out of every set")
    args = parser.parse_args()
    without = tuple(args.without)
    digest = hashlib.sha256()
    editions = list(VARIANTS)
    start = time.perf_counter()
    actions = sum(play_match(i, editions[i % len(editions)], args.actions, digest, without)
                  for i in range(args.matches))
    print(json.dumps({"mode": mode(), "matches": args.matches, "without": list(without), "actions": actions,
                      "sha256": digest.hexdigest(),
                      "seconds": round(time.perf_counter() - start, 1)}))


if __name__ == "__main__":
    main()
