"""Random valid sets of the house rules the engine plays (``house.AVAILABLE``), for property tests.

Every option the engine plays is drawn, each at one of its values, and the set is kept when the
edition accepts it (HX-1): as more options become available, these tests cover them unchanged.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from app.engine import VARIANTS, ConfigError, HouseRules, Match, MatchConfig, new_match
from app.engine.house import AVAILABLE
from app.engine.house.options import CHOICES
from app.engine.house.teams import TEAM_SIZES

# Match endings are drawn apart (the match tests choose them), the rest here.  A misplay (HR-20)
# applies an action legal_actions does not list, which these tests probe as refused: it has
# tests of its own (test_house_misplay.py).
PLAYED = sorted(name for name in AVAILABLE if name in CHOICES and name not in ("single_round", "misplay_penalty"))


def valid(edition: str, data: dict[str, object]) -> HouseRules | None:
    try:
        return HouseRules.from_json(data, VARIANTS[edition])
    except ConfigError:
        return None


def random_house(rng: random.Random, edition: str, on: float = 0.4) -> HouseRules:
    """Each option on (at a random value) with probability ``on``; retried until the set is valid."""
    while True:
        data = {name: rng.choice(CHOICES[name][1:]) for name in PLAYED if rng.random() < on}
        rules = valid(edition, data)
        if rules is not None:
            return rules


def house_sets(edition: str) -> st.SearchStrategy[HouseRules]:
    options = st.fixed_dictionaries({}, optional={name: st.sampled_from(CHOICES[name]) for name in PLAYED})
    return options.map(lambda data: valid(edition, data)).filter(lambda rules: rules is not None)  # type: ignore[return-value]


def seats_for(rules: HouseRules, seats: int) -> int:
    """The seats drawn, or four when teams of two (HR-26) cannot be made of them."""
    return 4 if rules.team_play and seats not in TEAM_SIZES else seats


def random_match(rng: random.Random, edition: str, seed: str) -> Match:
    """A match of ``edition`` under a random house-rule set (half the options on), for 2–5 seats as the
    edition allows."""
    house = random_house(rng, edition, on=0.5)
    seats = seats_for(house, rng.randint(VARIANTS[edition].min_seats, min(5, VARIANTS[edition].max_seats)))
    return new_match(MatchConfig(edition, seats, house=house), seed)[0]
