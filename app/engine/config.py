"""A match's configuration — edition, seats, target, house rules — and the rule set it assembles.

``MatchConfig`` is what a room asks for; ``rulebook`` turns its house rules into the hooks the core
calls (``house/rulebook.py``), once per match: ``match.py`` deals every round with that ``Rulebook`` and
reads no house option.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError
from .house import HouseRules
from .house.rulebook import assemble
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
