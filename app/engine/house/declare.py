"""How a house rule is declared: each field of a family's options is one call here (RULES.md §6, §7).

A field's declaration is the one Python place an option is spelled.  Besides its type and
default it carries an ``OptionSpec``: its family (the section of RULES.md that states it,
which groups it in ``GET /api/house-rules`` and the create form), the family module that plays
it, its allowed values, its RULES.md IDs, what it needs and cannot be combined with (HX-1), the
editions that refuse some of its values, and whether this server plays it yet.  ``options.py``
reads the specs back (``SPECS``) and derives everything else from them: the checks and their
422s, the families' option lists, the web schema.  The words for an option are keyed by its
name by one convention (``label_key``, ``about_key``, ``value_key``), in ``static/i18n``.

A family declares its options through a ``Family`` (``STACKING.choice("off", "small", "big",
rules=("HR-1",), ...)``), so that the family is named once per family, not once per option, as the
fields of a frozen dataclass of its own marked ``declared`` (``VolumeOptions`` in volume.py), in
the family's own module (§6's room options in ``room.py``); ``HouseRules`` inherits every family's
(options.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, NamedTuple, TypeVar

BOOL: tuple[object, ...] = (False, True)
SPEC = "house_rule"  # the key of a field's metadata that holds its OptionSpec
BAD = "bad_house_rules"  # the code of every refused house-rule set but a number's own

# Editions a declaration names in ``refused_by``.  All Wild (HX-1): nothing there is a number
# (HR-6..HR-9), every card may always be played and nothing is drawn on a turn (HR-10, HR-11),
# nothing is challenged (HR-21), every card is a wild (HR-14).  Pocket Pizza: the deck has no 0 (HR-6).
ALL_WILD = "all_wild"
POCKET_PIZZA = "pocket_pizza"

T = TypeVar("T")


class Conflict(NamedTuple):
    """HX-1: this option, when on, cannot be on with ``other`` (at one of ``values``, if named)."""

    other: str
    values: tuple[object, ...] | None = None


@dataclass(frozen=True)
class OptionSpec:
    """Everything about one option but its name and type (the field's own)."""

    family: str  # RULES.md §6 ("room") or the §7 section that states it
    module: str | None  # the family module (engine/house/<module>.py) that plays it; None: the core
    choices: tuple[object, ...]  # its allowed values, the default first; () for a number
    rules: tuple[str, ...]  # the RULES.md IDs that state it (§6's options have none of their own)
    needs: tuple[str, ...]  # HX-1: options that must be on with it
    conflicts: tuple[Conflict, ...]  # HX-1: options it cannot be on with
    refused_by: tuple[tuple[str, frozenset[object]], ...]  # edition key -> the values it cannot play
    needs_setting: str | None  # HX-1's need of a room setting rather than of a house rule
    available: bool  # False: declared, but refused when on until the engine plays it
    bounds: tuple[int, int] | None  # a number's smallest and largest value
    code: str  # the error code of a wrong value (``bad_house_rules`` but for a number of its own)
    bounds_text: str  # a number's name in the message that says its bounds

    @property
    def kind(self) -> str:
        """``bool``, ``choice`` (one of a few values) or ``number`` (any whole number in bounds)."""
        if self.bounds is not None:
            return "number"
        return "bool" if self.choices == BOOL else "choice"


def label_key(name: str) -> str:
    """The i18n key of an option's short name ("Stacking")."""
    return f"house.name.{name}"


def about_key(name: str) -> str:
    """The i18n key of an option's one-line explanation."""
    return f"house.about.{name}"


def value_key(name: str, value: object) -> str:
    """The i18n key of one of a ``choice``'s values in words: a word of its own per text value,
    one sentence with the number in it for numbers (``house.value.hand_limit``: "{n} cards")."""
    return f"house.value.{name}.{value}" if isinstance(value, str) else f"house.value.{name}"


class Family:
    """The options of one family: ``flag``, ``choice`` and ``number`` declare one field each."""

    def __init__(self, key: str, module: str | None = None) -> None:
        self.key = key
        # The module that plays the family's options unless one says otherwise.
        self.module = key if module is None else module

    def flag(self, *, rules: tuple[str, ...] = (), module: str | None = "", needs: tuple[str, ...] = (),
             conflicts: tuple[str | Conflict, ...] = (), refused_by: Mapping[str, object] | None = None,
             needs_setting: str | None = None, available: bool = True) -> Any:
        """An option that is off (``false``) or on (``true``)."""
        return _field(False, self._spec(BOOL, rules, module, needs, conflicts, refused_by, needs_setting,
                                        available))

    def choice(self, default: object, *others: object, rules: tuple[str, ...] = (), module: str | None = "",
               needs: tuple[str, ...] = (), conflicts: tuple[str | Conflict, ...] = (),
               refused_by: Mapping[str, object] | None = None, needs_setting: str | None = None,
               available: bool = True) -> Any:
        """An option with a few allowed values, ``default`` first (it is off at its default, D-1).
        ``refused_by`` maps an edition's key to the value, or the tuple of values, it cannot play."""
        return _field(default, self._spec((default, *others), rules, module, needs, conflicts, refused_by,
                                          needs_setting, available))

    def number(self, *, low: int, high: int, what: str, code: str, module: str | None = "",
               conflicts: tuple[str | Conflict, ...] = ()) -> Any:
        """An option that is off (``null``) or a whole number from ``low`` to ``high``; ``what``
        names it in the message that says so, and a wrong value is refused with ``code``."""
        spec = self._spec((), (), module, (), conflicts, None, None, True)
        return _field(None, replace(spec, bounds=(low, high), code=code, bounds_text=what))

    def _spec(self, choices: tuple[object, ...], rules: tuple[str, ...], module: str | None,
              needs: tuple[str, ...], conflicts: tuple[str | Conflict, ...],
              refused_by: Mapping[str, object] | None, needs_setting: str | None,
              available: bool) -> OptionSpec:
        return OptionSpec(self.key, self.module if module == "" else module, choices, rules, needs,
                          tuple(c if isinstance(c, Conflict) else Conflict(c) for c in conflicts),
                          _refusals(refused_by or {}), needs_setting, available, None, BAD, "")


def _refusals(refused_by: Mapping[str, object]) -> tuple[tuple[str, frozenset[object]], ...]:
    return tuple((edition, frozenset(values if isinstance(values, tuple) else (values,)))
                 for edition, values in refused_by.items())


def _field(default: object, spec: OptionSpec) -> Any:
    # A dataclass field whose metadata carries the spec; it stands in for the default in the class
    # body, as ``dataclasses.field()`` does.  Typed ``Any`` rather than as the option's type: a
    # compiled build (mypyc) checks a declared type at run time, which a Field is not.  So mypy does
    # not match a default against its field's type here; tests/engine/test_house_declared.py does.
    return field(default=default, metadata={SPEC: spec})


def declared(cls: type[T]) -> type[T]:
    """Marks a family's options: a frozen dataclass whose fields are declared here, one of the bases
    ``HouseRules`` is composed of (options.py).  It changes nothing at run time; being a decorator
    mypyc does not know, it keeps the class a plain Python class in a compiled build, where a native
    class may have one base only and ``HouseRules`` has one per family."""
    return cls


def played_by(cls: type, module: str) -> tuple[str, ...]:
    """The options declared in ``cls`` that the family module ``module`` plays, in field order."""
    return tuple(name for name, spec in specs(cls).items() if spec.module == module)


def defaults(cls: type) -> dict[str, object]:
    """The declared options of a dataclass with their defaults (where each is off, D-1), in field order."""
    declared: tuple[Field[Any], ...] = fields(cls)
    return {f.name: f.default for f in declared if SPEC in f.metadata}


def specs(cls: type) -> dict[str, OptionSpec]:
    """The declared options of a dataclass, by name, in the order of its fields."""
    declared: tuple[Field[Any], ...] = fields(cls)
    return {f.name: f.metadata[SPEC] for f in declared if SPEC in f.metadata}
