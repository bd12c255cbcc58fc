"""The room's house rules (RULES.md §6, §7) as one typed value, checked once at the edge.

``HouseRules.from_json`` reads a room's ``house_rules`` object: every key is a field below,
with its type, its allowed values and its default (§7 "Values"); a preset (HR-34) expands
first and the keys sent with it override it (D-2).  Whatever is wrong — an unknown key, a
wrong type or value, a combination HX-1 forbids, an option the edition cannot play — is a
``ConfigError('bad_house_rules')`` whose message names the option and the edition or the
other option.  A key at its default is always accepted and changes nothing (D-1): every
check below looks only at options that are on.

What the options *do* lives with their family (``stacking.py``, …); this module only knows
what a valid set of them is.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

from ..errors import ConfigError
from .presets import PRESETS

BAD = "bad_house_rules"


class EditionLimits(Protocol):
    """What an edition says about the house rules it cannot play (``Variant`` is one)."""

    @property
    def title(self) -> str: ...
    @property
    def refused_house_rules(self) -> Mapping[str, Collection[object]]: ...


@dataclass(frozen=True)
class HouseRules:
    # §6: room options beyond the sheets.
    stacking: bool = False  # a Draw card may be answered with the same Draw card; penalties add up
    seven_o: bool = False  # a 7 swaps hands with a chosen player; a 0 passes every hand onwards
    jump_in: bool = False  # an exact duplicate of the top card may be played out of turn
    draw_until_playable: bool = False  # a draw goes on until a playable card comes
    single_round: bool = False  # the first player to go out wins the match
    rounds: int | None = None  # a fixed number of rounds; the highest total wins
    # §7.1 stacking family (stacking.py).
    stack_only: str = "off"  # HR-1: off | small | big
    cross_stack: str = "off"  # HR-2: off | up | both
    reverse_deflect: str = "off"  # HR-3: off | small | all
    skip_deflect: str = "off"  # HR-4: off | small | all
    revenge: bool = False  # HR-5
    # §7.2 hand exchange.
    seven_o_cards: str = "both"  # HR-6: both | seven | zero
    seven_target: str = "chosen"  # HR-7: chosen | next
    # §7.3 play volume.
    multi_play: bool = False  # HR-8
    bomb: bool = False  # HR-9
    # §7.4 drawing and forced play.
    forced_play: bool = False  # HR-10
    must_play_drawn: bool = False  # HR-11
    hand_limit: int | None = None  # HR-12, HR-13: null | 15 | 20 | 25
    # §7.5 finishing restrictions.
    finish_with: str = "any"  # HR-14, HR-15: any | no_draw | no_wild | no_draw_or_wild | number
    # §7.6 penalties and UNO! calls (uno.py; HR-21 in stacking.py).
    uno_penalty: int = 2  # HR-16: 2 | 4 | 6
    strict_uno: bool = False  # HR-17
    silent_uno: bool = False  # HR-18
    late_catch: bool = False  # HR-19
    misplay_penalty: bool = False  # HR-20
    no_challenge: bool = False  # HR-21
    # §7.7 scoring (scoring.py).
    double_score: bool = False  # HR-22
    scoring: str = "winner"  # HR-23: winner | penalty
    # §7.8 pace.
    fast_mode: bool = False  # HR-24
    blitz_seconds: int | None = None  # HR-25: null | 120 | 300 | 600
    # §7.9 team play and seating.
    team_play: bool = False  # HR-26, HR-27
    shuffle_seats: bool = False  # HR-28
    # §7.10 elimination.
    elimination: str = "off"  # HR-29, HR-30: off | cards | points
    # §7.11 information.
    reveal_hands_at: int | None = None  # HR-31: null | 1 | 2 | 3
    no_hints: bool = False  # HR-32
    blind_draw: bool = False  # HR-33
    # HR-34: the preset these values were expanded from, kept for display only (D-2).
    preset: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Every option with its value (the expanded values of a preset) and the preset's name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: object, edition: EditionLimits | None = None) -> HouseRules:
        """Parse a room's ``house_rules``; with ``edition``, also what that edition can play."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ConfigError(BAD, "House rules must be a JSON object.")
        unknown = sorted(str(k) for k in data if k not in OPTIONS and k != "preset")
        if unknown:
            raise ConfigError(BAD, f"Unknown house rule(s): {', '.join(unknown)}.")
        for name, value in data.items():
            if name != "preset":
                check_value(name, value)
        preset = data.get("preset")
        if preset is not None and preset not in PRESETS:
            raise ConfigError(BAD, f"Unknown preset {preset!r}; try one of {', '.join(PRESETS)}.")
        values: dict[str, Any] = {}
        if preset is not None:
            # D-2: what the edition refuses is dropped from a preset, not refused.
            values = {k: v for k, v in PRESETS[preset].items() if edition is None or not refuses(edition, k, v)}
        values.update((k, v) for k, v in data.items() if k != "preset")
        return cls(**values, preset=preset).validate(edition)

    def validate(self, edition: EditionLimits | None = None) -> HouseRules:
        """The same rules, or the ``ConfigError`` that says which option is wrong and why."""
        if self.rounds is not None and not 1 <= self.rounds <= 100:
            raise ConfigError("bad_rounds", "A fixed number of rounds must be between 1 and 100.")
        on = self.enabled
        if edition is not None:
            for name in on:
                if refuses(edition, name, getattr(self, name)):
                    raise ConfigError(BAD, f"{edition.title} cannot play {shown(name, getattr(self, name))}.",
                                      option=name)
        for name, needed in NEEDS:
            if name in on and needed not in on:
                raise ConfigError(BAD, f"'{name}' needs '{needed}'.", option=name)
        for name, other, values in CONFLICTS:
            value = getattr(self, other)
            if name in on and other in on and (values is None or value in values):
                raise ConfigError(BAD, f"'{name}' cannot be combined with {shown(other, value)}.", option=name)
        for name in on:
            if name not in AVAILABLE:
                from_preset = f" (in the preset '{self.preset}')" if self.preset is not None else ""
                raise ConfigError(BAD, f"'{name}'{from_preset} is not supported by this server yet.", option=name)
        return self

    @property
    def enabled(self) -> list[str]:
        """The options that are not at their default, in the order of the fields."""
        return [name for name, default in DEFAULTS.items() if getattr(self, name) != default]


def refuses(edition: EditionLimits, name: str, value: object) -> bool:
    return value != DEFAULTS[name] and value in edition.refused_house_rules.get(name, ())


def shown(name: str, value: object) -> str:
    """``'revenge'``, or ``'finish_with': 'number'`` for an option with more than two values."""
    if isinstance(value, bool):
        return f"'{name}'"
    return f"'{name}': {value!r}"


def check_value(name: str, value: object) -> None:
    """One key's type and value (§7 "Values")."""
    if name == "rounds":
        if value is not None and type(value) is not int:
            raise ConfigError("bad_rounds", "'rounds' must be a whole number or null.")
        return
    allowed = CHOICES[name]
    # bool is an int in Python: compare types too, so that ``true`` is not the number 1.
    if not any(type(value) is type(choice) and value == choice for choice in allowed):
        if allowed == (False, True):
            raise ConfigError(BAD, f"'{name}' must be true or false.", option=name)
        raise ConfigError(BAD, f"'{name}' must be one of {', '.join(_json(c) for c in allowed)}.", option=name)


def _json(value: object) -> str:
    return "null" if value is None else f'"{value}"' if isinstance(value, str) else str(value)


BOOL = (False, True)
# Every option's allowed values, its default first ("rounds" is a number of its own, checked apart).
CHOICES: dict[str, tuple[object, ...]] = {
    "stacking": BOOL, "seven_o": BOOL, "jump_in": BOOL, "draw_until_playable": BOOL, "single_round": BOOL,
    "stack_only": ("off", "small", "big"),
    "cross_stack": ("off", "up", "both"),
    "reverse_deflect": ("off", "small", "all"),
    "skip_deflect": ("off", "small", "all"),
    "revenge": BOOL,
    "seven_o_cards": ("both", "seven", "zero"),
    "seven_target": ("chosen", "next"),
    "multi_play": BOOL, "bomb": BOOL, "forced_play": BOOL, "must_play_drawn": BOOL,
    "hand_limit": (None, 15, 20, 25),
    "finish_with": ("any", "no_draw", "no_wild", "no_draw_or_wild", "number"),
    "uno_penalty": (2, 4, 6),
    "strict_uno": BOOL, "silent_uno": BOOL, "late_catch": BOOL, "misplay_penalty": BOOL, "no_challenge": BOOL,
    "double_score": BOOL,
    "scoring": ("winner", "penalty"),
    "fast_mode": BOOL,
    "blitz_seconds": (None, 120, 300, 600),
    "team_play": BOOL, "shuffle_seats": BOOL,
    "elimination": ("off", "cards", "points"),
    "reveal_hands_at": (None, 1, 2, 3),
    "no_hints": BOOL, "blind_draw": BOOL,
}
OPTIONS: tuple[str, ...] = tuple(f.name for f in fields(HouseRules) if f.name != "preset")
DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(HouseRules) if f.name != "preset"}
assert set(CHOICES) | {"rounds"} == set(OPTIONS), "every option has its allowed values"
assert all(CHOICES[n][0] == DEFAULTS[n] for n in CHOICES), "an option's default is its first value"

# HX-1: an option that is on needs another to be on ...
NEEDS: tuple[tuple[str, str], ...] = (
    ("stack_only", "stacking"), ("cross_stack", "stacking"), ("revenge", "stacking"),
    ("seven_o_cards", "seven_o"), ("seven_target", "seven_o"),
    ("bomb", "multi_play"),
)
# ... or may not be on with another (with one of those values of it, if named).
CONFLICTS: tuple[tuple[str, str, tuple[object, ...] | None], ...] = (
    ("stack_only", "cross_stack", None),
    ("seven_target", "seven_o_cards", ("zero",)),
    ("elimination", "single_round", None), ("elimination", "rounds", None), ("elimination", "team_play", None),
    ("silent_uno", "strict_uno", None), ("silent_uno", "late_catch", None), ("silent_uno", "uno_penalty", None),
    ("blind_draw", "must_play_drawn", None),
    ("single_round", "rounds", None),
)
# The options this engine plays; any other is refused when on (a key at its default is always accepted, D-1).
AVAILABLE: frozenset[str] = frozenset({
    "stacking", "seven_o", "jump_in", "draw_until_playable", "single_round", "rounds",
    "stack_only", "cross_stack", "reverse_deflect", "skip_deflect", "revenge", "no_challenge",  # stacking.py
    "uno_penalty", "strict_uno", "silent_uno", "late_catch",  # calls.py
    "double_score", "scoring",  # scoring.py
    "forced_play", "must_play_drawn", "hand_limit",  # drawing.py
    "seven_o_cards", "seven_target",  # exchange.py
    "finish_with",  # finishing.py
    "fast_mode",  # pace.py (with the room's turn clock, which it needs)
    "blitz_seconds",  # pace.py (the room runs the match clock and sends its expiry)
    "misplay_penalty",  # misplay.py
    "elimination",  # elimination.py
    "team_play",  # teams.py (with scoring.py)
    "shuffle_seats",  # seating.py
    "multi_play", "bomb",  # volume.py
    "reveal_hands_at",  # information.py (open hands in every view)
    "no_hints",  # information.py (the room leaves the legal actions out of people's frames)
    "blind_draw",  # information.py, face_down.py (drawn cards face down, for their holder too)
})
