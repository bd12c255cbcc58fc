"""House rules (RULES.md §6): room options beyond the sheets, every one off by default.

Each option changes the engine only where it is switched on; with the defaults the
rules are exactly those of RULES.md §1-5.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import ConfigError


@dataclass(frozen=True)
class HouseRules:
    stacking: bool = False  # a Draw card may be answered with the same Draw card; penalties add up
    seven_o: bool = False  # a 7 swaps hands with a chosen player; a 0 passes every hand onwards
    jump_in: bool = False  # an exact duplicate of the top card may be played out of turn
    draw_until_playable: bool = False  # a draw goes on until a playable card comes
    single_round: bool = False  # the first player to go out wins the match
    rounds: int | None = None  # a fixed number of rounds; the highest total wins

    def validate(self) -> HouseRules:
        if self.rounds is not None and not 1 <= self.rounds <= 100:
            raise ConfigError("bad_rounds", "A fixed number of rounds must be between 1 and 100.")
        if self.rounds is not None and self.single_round:
            raise ConfigError("bad_house_rules", "Choose either a single round or a fixed number of rounds.")
        return self

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: object) -> HouseRules:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ConfigError("bad_house_rules", "House rules must be a JSON object.")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ConfigError("bad_house_rules", f"Unknown house rule(s): {', '.join(sorted(map(str, unknown)))}.")
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name == "rounds":
                if value is not None and type(value) is not int:
                    raise ConfigError("bad_rounds", "'rounds' must be a whole number or null.")
            elif type(value) is not bool:
                raise ConfigError("bad_house_rules", f"'{name}' must be true or false.")
            values[name] = value
        return cls(**values).validate()

    @property
    def enabled(self) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name) not in (False, None)]
