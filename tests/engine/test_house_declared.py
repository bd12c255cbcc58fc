"""Each house rule is declared once, as a field of its family's class, which ``HouseRules`` inherits
(app/engine/house/declare.py), and
everything else — the checks' tables, the families' lists, the editions' refusals (HX-1), the
presets (HR-34), ``GET /api/house-rules`` — is read from those declarations (RULES.md §6, §7)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import json
from pathlib import Path

import pytest

from app.engine import VARIANTS
from app.engine.errors import ConfigError
from app.engine.house import options as house
from app.engine.house.declare import BOOL, SPEC, OptionSpec, about_key, label_key, value_key
from app.engine.house.options import PRESETS, SPECS, HouseRules, options_of
from app.web.house_rules import schema

CATALOGUES = sorted((Path(__file__).parents[2] / "static" / "i18n").glob("*.json"))
HOUSE = Path(__file__).parents[2] / "app" / "engine" / "house"
# What the tables spelled out by hand said before the options were declared: the declarations
# must say the same (families and their order, rule IDs, HX-1, the editions' refusals, the presets).
FAMILIES = {
    "room": ["stacking", "seven_o", "jump_in", "draw_until_playable", "single_round", "rounds"],
    "stacking": ["stack_only", "cross_stack", "reverse_deflect", "skip_deflect", "revenge"],
    "exchange": ["seven_o_cards", "seven_target"], "volume": ["multi_play", "bomb"],
    "drawing": ["forced_play", "must_play_drawn", "hand_limit"], "finishing": ["finish_with"],
    "uno": ["uno_penalty", "strict_uno", "silent_uno", "late_catch", "misplay_penalty", "no_challenge"],
    "scoring": ["double_score", "scoring"], "pace": ["fast_mode", "blitz_seconds"],
    "teams": ["team_play", "shuffle_seats"], "elimination": ["elimination"],
    "information": ["reveal_hands_at", "no_hints", "blind_draw"],
}
TWO_IDS = {"hand_limit": ("HR-12", "HR-13"), "finish_with": ("HR-14", "HR-15"),
           "team_play": ("HR-26", "HR-27"), "elimination": ("HR-29", "HR-30")}
NEEDS = {("stack_only", "stacking"), ("cross_stack", "stacking"), ("revenge", "stacking"),
         ("seven_o_cards", "seven_o"), ("seven_target", "seven_o"), ("bomb", "multi_play")}
CONFLICTS = {("stack_only", "cross_stack", None), ("seven_target", "seven_o_cards", ("zero",)),
             ("elimination", "single_round", None), ("elimination", "rounds", None),
             ("elimination", "team_play", None), ("silent_uno", "strict_uno", None),
             ("silent_uno", "late_catch", None), ("silent_uno", "uno_penalty", None),
             ("blind_draw", "must_play_drawn", None), ("single_round", "rounds", None)}
REFUSED = {
    "all_wild": {**{name: frozenset({True})
                    for name in ("multi_play", "bomb", "forced_play", "must_play_drawn", "no_challenge")},
                 "seven_o_cards": frozenset({"seven", "zero"}), "seven_target": frozenset({"next"}),
                 "finish_with": frozenset({"no_wild", "no_draw_or_wild", "number"})},
    "pocket_pizza": {"seven_o_cards": frozenset({"zero"})},
    "classic": {}, "mario_kart": {},
}
PRESET_SETS = {
    "classic": {},
    "party": {"stacking": True, "seven_o": True, "jump_in": True, "draw_until_playable": True},
    "strict": {"strict_uno": True, "uno_penalty": 4, "misplay_penalty": True, "no_hints": True,
               "forced_play": True},
    "chaos": {"stacking": True, "cross_stack": "both", "reverse_deflect": "all", "skip_deflect": "all",
              "seven_o": True, "jump_in": True, "multi_play": True, "draw_until_playable": True,
              "must_play_drawn": True, "double_score": True, "no_challenge": True},
    "quick": {"single_round": True, "multi_play": True, "forced_play": True, "blitz_seconds": 300},
}


def test_every_field_but_the_preset_is_a_declared_option() -> None:
    declared = [f for f in dataclasses.fields(HouseRules) if SPEC in f.metadata]
    every = [f.name for f in dataclasses.fields(HouseRules)]
    assert [f.name for f in declared] == [name for name in every if name != "preset"]
    assert list(SPECS) == list(house.OPTIONS) == [f.name for f in declared]
    for f in declared:
        spec = f.metadata[SPEC]
        assert isinstance(spec, OptionSpec)
        assert spec.kind == "number" or spec.choices[0] == f.default, f.name  # D-1: off at its first value
        with pytest.raises(dataclasses.FrozenInstanceError):
            spec.family = "other"  # type: ignore[misc]


def declared_types() -> dict[str, str]:
    """Each declared field's type as written in the source of its family's class (``@declared``): a
    compiled build keeps a plain class's annotations as run-time types, ``int | None`` as ``type``."""
    found: dict[str, str] = {}
    for path in HOUSE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(ast.unparse(d) == "declared" for d in node.decorator_list):
                found.update((item.target.id, ast.unparse(item.annotation)) for item in node.body
                             if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name))
    return found


def test_each_fields_type_is_that_of_its_values() -> None:
    """The declaring calls are typed ``Any`` (a compiled build checks a declared type at run time),
    so what mypy would say of a default against its field's type is said here."""
    types = {"bool": (bool,), "str": (str,), "int": (int,), "int | None": (int, type(None))}
    written = declared_types()
    assert list(written) != [] and set(written) == {f.name for f in dataclasses.fields(HouseRules)}
    for f in dataclasses.fields(HouseRules):
        if f.name in SPECS:
            spec = SPECS[f.name]
            values = (None, *spec.bounds) if spec.bounds is not None else spec.choices
            assert all(type(v) in types[written[f.name]] for v in values), f.name
            assert (spec.kind == "bool") is (written[f.name] == "bool"), f.name


def test_the_families_and_rule_ids_are_those_of_rules_md_sections_6_and_7() -> None:
    assert {family: list(names) for family, names in house.FAMILIES} == FAMILIES
    assert [family for family, _ in house.FAMILIES] == list(FAMILIES)
    # §6's options have no ID of their own; §7's are HR-1 .. HR-33 in the order of the fields.
    assert all(SPECS[name].rules == () for name in FAMILIES["room"])
    ids = [rule for spec in SPECS.values() for rule in spec.rules]
    assert ids == [f"HR-{n}" for n in range(1, 34)]
    assert {name: spec.rules for name, spec in SPECS.items() if len(spec.rules) > 1} == TWO_IDS


def test_hx1_needs_conflicts_and_refusals_are_declared_with_the_options__HX_1() -> None:
    assert set(house.NEEDS) == NEEDS and len(house.NEEDS) == len(NEEDS)
    assert set(house.CONFLICTS) == CONFLICTS and len(house.CONFLICTS) == len(CONFLICTS)
    assert {key: dict(house.refused_house_rules(key)) for key in VARIANTS} == REFUSED
    for name, spec in SPECS.items():
        for edition, values in spec.refused_by:
            assert edition in VARIANTS, (name, edition)
            assert values and all(v in spec.choices and v != spec.choices[0] for v in values), name
    assert {name: spec.needs_setting for name, spec in SPECS.items() if spec.needs_setting} == {
        "fast_mode": "turn_seconds"}


def refusal(data: dict[str, object], edition: str | None = None) -> tuple[str, str]:
    with pytest.raises(ConfigError) as err:
        HouseRules.from_json(data, VARIANTS[edition] if edition else None)
    return err.value.code, err.value.message


def test_a_declared_option_is_checked_as_declared__HX_1() -> None:
    assert refusal({"bomb": True}) == ("bad_house_rules", "'bomb' needs 'multi_play'.")
    assert refusal({"rounds": 101}) == ("bad_rounds", "A fixed number of rounds must be between 1 and 100.")
    assert refusal({"rounds": "3"}) == ("bad_rounds", "'rounds' must be a whole number or null.")
    assert refusal({"hand_limit": 16}) == ("bad_house_rules", "'hand_limit' must be one of null, 15, 20, 25.")
    assert refusal({"revenge": 1}) == ("bad_house_rules", "'revenge' must be true or false.")
    assert refusal({"finish_with": "number"}, "all_wild") == (
        "bad_house_rules", "UNO All Wild cannot play 'finish_with': 'number'.")
    assert refusal({"seven_o": True, "seven_o_cards": "zero", "seven_target": "next"}) == (
        "bad_house_rules", "'seven_target' cannot be combined with 'seven_o_cards': 'zero'.")


def test_each_family_module_lists_the_options_declared_as_its_own() -> None:
    modules = {spec.module for spec in SPECS.values()} - {None}
    assert modules == {"stacking", "exchange", "volume", "drawing", "finishing", "calls", "misplay",
                       "scoring", "pace", "teams", "seating", "elimination", "information"}
    for module in sorted(str(m) for m in modules):
        assert (HOUSE / f"{module}.py").exists(), module
        assert options_of(module) == importlib.import_module(f"app.engine.house.{module}").OPTIONS
    assert options_of("stacking") == ("stacking", "stack_only", "cross_stack", "reverse_deflect",
                                      "skip_deflect", "revenge", "no_challenge")
    # The core plays these four itself.
    core = [name for name, spec in SPECS.items() if spec.module is None]
    assert core == ["jump_in", "draw_until_playable", "single_round", "rounds"]


def test_presets_name_declared_options_at_values_they_take__HR_34() -> None:
    assert {key: dict(values) for key, values in PRESETS.items()} == PRESET_SETS
    assert list(PRESETS) == list(PRESET_SETS)
    for key, values in PRESETS.items():
        choices = house.CHOICES
        assert all(choices[name][0] != value and value in choices[name] for name, value in values.items())
        expanded = HouseRules.from_json({"preset": key}).to_json()
        assert expanded == {**HouseRules().to_json(), **values, "preset": key}


def test_the_web_schema_is_read_from_the_declarations() -> None:
    data = schema()
    assert [(f["key"], [o["key"] for o in f["options"]]) for f in data["families"]] == list(FAMILIES.items())
    for option in (o for family in data["families"] for o in family["options"]):
        spec = SPECS[option["key"]]
        assert (option["family"], option["kind"], option["rules"], option["needs"]) == (
            spec.family, spec.kind, list(spec.rules), list(spec.needs))
        if spec.kind == "number":
            assert [option["min"], option["max"]] == [1, 100] and "values" not in option
        else:
            assert option["values"] == list(spec.choices)
        assert option.get("needs_setting") == spec.needs_setting
    assert [o["kind"] for family in data["families"] for o in family["options"]].count("bool") == sum(
        spec.choices == BOOL for spec in SPECS.values())


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.stem)
def test_every_option_has_its_words_in_every_language(catalogue: Path) -> None:
    words = json.loads(catalogue.read_text())
    missing = [key for name, spec in SPECS.items()
               for key in (label_key(name), about_key(name), *(value_key(name, v) for v in spec.choices
                                                                if spec.kind == "choice" and v is not None))
               if key not in words]
    assert missing == [], catalogue.name
    assert len(CATALOGUES) >= 4
