"""A match's configuration — edition, seats, target, house rules — and the matches it starts.

``MatchConfig`` is what a room asks for; ``rulebook`` turns its house rules into the hooks the core
calls (``house/rulebook.py``), once per match.  ``new_match`` validates a configuration, assembles
its rule set and starts the match with the core's ``match.start_match``, which deals every round
with that ``Rulebook``, keeps the configuration as its ``MatchSettings`` and reads no house option.
So the core imports nothing of this module, nor of ``house/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError
from .events import Event
from .house import HouseRules
from .house.rulebook import assemble
from .layout import Layout
from .match import LogEntry, Match, apply, start_match, start_next_round
from .rulebook import Rulebook
from .variants import VARIANTS, Variant


@dataclass(frozen=True)
class MatchConfig:
    edition: str
    seats: int
    target: int | None = None  # None: the edition's own (500, or 250 for pocket_pizza)
    house: HouseRules = field(default_factory=HouseRules)

    def validate(self) -> Variant:
        variant = VARIANTS.get(self.edition)
        if variant is None:
            raise ConfigError("bad_edition",
                              f"Unknown edition {self.edition!r}; try one of {', '.join(VARIANTS)}.")
        if not variant.min_seats <= self.seats <= variant.max_seats:
            raise ConfigError(
                "bad_seats", f"{variant.title} is for {variant.min_seats} to {variant.max_seats} players."
            )
        if self.target is not None and not 1 <= self.target <= 100_000:
            raise ConfigError("bad_target", "The target score must be between 1 and 100000.")
        self.house.validate(variant)
        return variant

    @property
    def target_score(self) -> int:
        return self.target if self.target is not None else VARIANTS[self.edition].target

    def to_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "seats": self.seats, "target": self.target,
                "house": self.house.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchConfig:
        edition = data["edition"]
        house = HouseRules.from_json(data.get("house"), VARIANTS.get(edition))
        config = cls(edition, data["seats"], data.get("target"), house)
        config.validate()
        return config

    def rulebook(self, variant: Variant) -> Rulebook:
        """The hooks the house rules plug into ``variant``'s rounds at this table (raises ``ConfigError``:
        ``bad_teams``)."""
        return assemble(self.house, variant, self.seats)


def new_match(config: MatchConfig, seed: int | str, *, dealer: int | None = None,
              layout: Layout | None = None) -> tuple[Match, list[Event]]:
    """Start a match and its first round.  ``dealer`` and ``layout`` stack the first round for tests."""
    variant = config.validate()
    book = config.rulebook(variant)  # the house rules' hooks, assembled once for the match
    return start_match(variant, book, config, seed, dealer=dealer, layout=layout)


def replay(config: MatchConfig, seed: int | str, log: list[LogEntry], *, rounds: int | None = None,
           dealer: int | None = None, layout: Layout | None = None,
           secrets: Mapping[int, str] | None = None) -> Match:
    """Rebuild a match from its seed and log (and the number of rounds started, if more).

    ``secrets``: the rounds (after the first) that were dealt with a secret of their own."""
    secrets = secrets or {}
    match, _ = new_match(config, seed, dealer=dealer, layout=layout)
    for entry in log:
        while match.round_no < entry.round:
            start_next_round(match, secrets.get(match.round_no + 1))
        apply(match, entry.seat, entry.action)
    while rounds is not None and match.round_no < rounds:
        start_next_round(match, secrets.get(match.round_no + 1))
    return match


def config_of(match: Match) -> MatchConfig:
    """The configuration ``match`` was started with by ``new_match``: its house rules too, which the
    core's ``Match.config`` (a ``MatchSettings``) does not name."""
    config = match.config
    assert isinstance(config, MatchConfig), config
    return config
