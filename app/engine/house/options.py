"""The room's house rules (RULES.md §6, §7) as one typed value, checked once at the edge.

Each field of ``HouseRules`` is an option's whole declaration (``declare.py``), made in its
family's class in the family's own module (the comment above ``HouseRules`` says which): its type
and default, its family, its allowed values, its RULES.md IDs, what it needs and cannot be combined
with (HX-1), the editions that refuse some of its values.  Everything else is read back from the
declarations below the class: ``CHOICES``, ``NEEDS``, ``CONFLICTS``, ``AVAILABLE``, ``FAMILIES``,
each family module's list (``options_of``), each edition's refusals (``refused_house_rules``), and the
web's schema; the presets (HR-34) are ``HouseRules`` values, so they name the fields themselves.

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

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Protocol

from ..errors import ConfigError
from .calls import UnoOptions
from .declare import BAD, BOOL, OptionSpec, declared, defaults, specs
from .drawing import DrawingOptions
from .elimination import EliminationOptions
from .exchange import ExchangeOptions
from .finishing import FinishingOptions
from .information import InformationOptions
from .pace import PaceOptions
from .room import RoomOptions
from .scoring import ScoringOptions
from .stacking import StackingOptions
from .teams import TeamsOptions
from .volume import VolumeOptions


class EditionLimits(Protocol):
    """An edition as the checks name it (``Variant`` is one): the house rules it cannot play are read by
    its key (``refused_house_rules``), its title names it in a refusal."""

    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...


# Every family declares its options as the fields of a class of its own, in its own module, and a
# field's declaration is all there is to say about the option: §6's room options in ``room.py``
# (``RoomOptions``), §7.1–7.11 in ``stacking.py``, ``exchange.py``, ``volume.py``, ``drawing.py``,
# ``finishing.py``, ``calls.py`` (§7.6), ``scoring.py``, ``pace.py``, ``teams.py`` (§7.9),
# ``elimination.py`` and ``information.py``.  None of them imports this module: a family that reads
# options of others (§6's, HR-21's ``no_challenge``, ``elimination``, the teams) types what it reads
# as a protocol of its own (``StackingReads``, ...), which ``HouseRules`` is.  A family module
# reads its own list back from its classes (``declare.played_by``); ``options_of`` says the same.
# ``HouseRules`` inherits the families' classes, the last base first: a dataclass's fields follow its
# bases from the last to the first, so that the options keep RULES.md's order (§6 first), which the
# JSON, the presets, the order of the checks and ``GET /api/house-rules`` follow.
@declared
@dataclass(frozen=True)
class HouseRules(InformationOptions, EliminationOptions, TeamsOptions, PaceOptions, ScoringOptions,
                 UnoOptions, FinishingOptions, DrawingOptions, VolumeOptions, ExchangeOptions,
                 StackingOptions, RoomOptions):
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
            values = {k: v for k, v in PRESETS[preset].items()
                      if edition is None or not refuses(edition, k, v)}
        values.update((k, v) for k, v in data.items() if k != "preset")
        return cls(**values, preset=preset).validate(edition)

    def validate(self, edition: EditionLimits | None = None) -> HouseRules:
        """The same rules, or the ``ConfigError`` that says which option is wrong and why."""
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            if value is not None and not low <= value <= high:
                spec = SPECS[name]
                raise ConfigError(spec.code, f"{spec.bounds_text} must be between {low} and {high}.")
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
                raise ConfigError(BAD, f"'{name}' cannot be combined with {shown(other, value)}.",
                                  option=name)
        for name in on:
            if name not in AVAILABLE:
                from_preset = f" (in the preset '{self.preset}')" if self.preset is not None else ""
                raise ConfigError(BAD, f"'{name}'{from_preset} is not supported by this server yet.",
                                  option=name)
        return self

    @property
    def enabled(self) -> list[str]:
        """The options that are not at their default, in the order of the fields."""
        return [name for name, default in DEFAULTS.items() if getattr(self, name) != default]


def refuses(edition: EditionLimits, name: str, value: object) -> bool:
    return value != DEFAULTS[name] and value in refused_house_rules(edition.key).get(name, ())


def shown(name: str, value: object) -> str:
    """``'revenge'``, or ``'finish_with': 'number'`` for an option with more than two values."""
    if isinstance(value, bool):
        return f"'{name}'"
    return f"'{name}': {value!r}"


def check_value(name: str, value: object) -> None:
    """One key's type and value (§7 "Values")."""
    spec = SPECS[name]
    if spec.kind == "number":
        if value is not None and type(value) is not int:
            raise ConfigError(spec.code, f"'{name}' must be a whole number or null.")
        return
    allowed = spec.choices
    # bool is an int in Python: compare types too, so that ``true`` is not the number 1.
    if not any(type(value) is type(choice) and value == choice for choice in allowed):
        if allowed == BOOL:
            raise ConfigError(spec.code, f"'{name}' must be true or false.", option=name)
        raise ConfigError(spec.code, f"'{name}' must be one of {', '.join(_json(c) for c in allowed)}.",
                          option=name)


def _json(value: object) -> str:
    return "null" if value is None else f'"{value}"' if isinstance(value, str) else str(value)


# Everything below is read from the fields' declarations (declare.py), in the order of the fields.
SPECS: Mapping[str, OptionSpec] = MappingProxyType(specs(HouseRules))
OPTIONS: tuple[str, ...] = tuple(SPECS)
DEFAULTS: dict[str, object] = defaults(HouseRules)
# Every option's allowed values, its default first (a number is checked against its bounds instead).
CHOICES: dict[str, tuple[object, ...]] = {
    name: spec.choices for name, spec in SPECS.items() if spec.bounds is None}
# A number's smallest and largest value.
BOUNDS: dict[str, tuple[int, int]] = {
    name: spec.bounds for name, spec in SPECS.items() if spec.bounds is not None}
# HX-1: an option that is on needs another to be on ...
NEEDS: tuple[tuple[str, str], ...] = tuple(
    (name, needed) for name, spec in SPECS.items() for needed in spec.needs)
# ... or may not be on with another (with one of those values of it, if named).
CONFLICTS: tuple[tuple[str, str, tuple[object, ...] | None], ...] = tuple(
    (name, other, values) for name, spec in SPECS.items() for other, values in spec.conflicts)
# The options this engine plays; any other is refused when on (a key at its default is always accepted, D-1).
AVAILABLE: frozenset[str] = frozenset(name for name, spec in SPECS.items() if spec.available)
# The families in RULES.md's order, each with its options in the order they are stated.
FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (family, tuple(name for name, spec in SPECS.items() if spec.family == family))
    for family in dict.fromkeys(spec.family for spec in SPECS.values()))
assert all(CHOICES[n][0] == DEFAULTS[n] for n in CHOICES), "an option's default is its first value"
assert all(o in SPECS for n in SPECS for o in (*SPECS[n].needs, *(c.other for c in SPECS[n].conflicts))), \
    "HX-1 names declared options only"


def options_of(module: str) -> tuple[str, ...]:
    """The options the family module ``module`` plays (``engine/house/<module>.py``), in field order."""
    return tuple(name for name, spec in SPECS.items() if spec.module == module)


# HX-1: by edition key, the values of each option it cannot play (``refused_house_rules``).
REFUSALS: Mapping[str, Mapping[str, frozenset[object]]] = MappingProxyType({
    edition: MappingProxyType({name: values for name, spec in SPECS.items()
                               for key, values in spec.refused_by if key == edition})
    for edition in dict.fromkeys(key for spec in SPECS.values() for key, _ in spec.refused_by)})
NONE_REFUSED: Mapping[str, frozenset[object]] = MappingProxyType({})


def refused_house_rules(edition: str) -> Mapping[str, frozenset[object]]:
    """HX-1: the values of each option the edition keyed ``edition`` cannot play, as the options declare
    them (``refused_by``); an option it plays whole is not in it."""
    return REFUSALS.get(edition, NONE_REFUSED)


# HR-34 presets: named sets of house rules (RULES.md §7.12), each one a ``HouseRules`` so that the
# options it names are the fields themselves.  A preset expands first; the keys sent with it
# override it (D-2).  ``PRESETS`` holds what each one sets: its options away from their default.
_PRESET_RULES: dict[str, HouseRules] = {
    "classic": HouseRules(),
    "party": HouseRules(stacking=True, seven_o=True, jump_in=True, draw_until_playable=True),
    "strict": HouseRules(strict_uno=True, uno_penalty=4, misplay_penalty=True, no_hints=True,
                         forced_play=True),
    "chaos": HouseRules(stacking=True, cross_stack="both", reverse_deflect="all", skip_deflect="all",
                        seven_o=True, jump_in=True, multi_play=True, draw_until_playable=True,
                        must_play_drawn=True, double_score=True, no_challenge=True),
    "quick": HouseRules(single_round=True, multi_play=True, forced_play=True, blitz_seconds=300),
}
PRESETS: Mapping[str, Mapping[str, object]] = MappingProxyType({
    key: MappingProxyType({name: getattr(rules, name) for name in rules.enabled})
    for key, rules in _PRESET_RULES.items()})
