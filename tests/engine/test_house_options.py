"""The typed set of house rules (RULES.md §7 "Values", HX-1, HR-34, D-1, D-2, D-13): checked once, at the edge."""

from __future__ import annotations

import json

import pytest

from app.engine import VARIANTS, ConfigError, HouseRules, MatchConfig
from app.engine.house import DEFAULTS, OPTIONS, PRESETS
from app.engine.house.options import CHOICES

CLASSIC, ALL_WILD, POCKET_PIZZA = VARIANTS["classic"], VARIANTS["all_wild"], VARIANTS["pocket_pizza"]

SECTION_7_KEYS = {
    "stack_only": "off", "cross_stack": "off", "reverse_deflect": "off", "skip_deflect": "off", "revenge": False,
    "seven_o_cards": "both", "seven_target": "chosen", "multi_play": False, "bomb": False, "forced_play": False,
    "must_play_drawn": False, "hand_limit": None, "finish_with": "any", "uno_penalty": 2, "strict_uno": False,
    "silent_uno": False, "late_catch": False, "misplay_penalty": False, "no_challenge": False,
    "double_score": False, "scoring": "winner", "fast_mode": False, "blitz_seconds": None, "team_play": False,
    "shuffle_seats": False, "elimination": "off", "reveal_hands_at": None, "no_hints": False, "blind_draw": False,
}


def refused(data: object, edition: object = CLASSIC) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        HouseRules.from_json(data, edition)  # type: ignore[arg-type]
    return err.value


def test_every_section_7_key_is_an_option_with_its_default() -> None:
    """§7 "Values": booleans default to false, an enumeration to its first value, a number to null."""
    assert DEFAULTS == {"stacking": False, "seven_o": False, "jump_in": False, "draw_until_playable": False,
                        "single_round": False, "rounds": None, **SECTION_7_KEYS}
    assert set(OPTIONS) == set(DEFAULTS)
    assert HouseRules().enabled == [] and HouseRules().preset is None
    assert HouseRules().to_json() == {**DEFAULTS, "preset": None}


@pytest.mark.parametrize(("data", "named"), [
    ({"revenge": "yes"}, "'revenge' must be true or false"),
    ({"revenge": 1}, "'revenge' must be true or false"),
    ({"stack_only": "both"}, "'stack_only' must be one of \"off\", \"small\", \"big\""),
    ({"hand_limit": 10}, "'hand_limit' must be one of null, 15, 20, 25"),
    ({"hand_limit": True}, "'hand_limit'"),  # a boolean is not the number 1
    ({"uno_penalty": None}, "'uno_penalty' must be one of 2, 4, 6"),
    ({"reveal_hands_at": "2"}, "'reveal_hands_at'"),
    ({"nonsense": True, "other": 1}, "Unknown house rule(s): nonsense, other"),
    ({"preset": "wild"}, "Unknown preset 'wild'"),
    ([], "must be a JSON object"),
])
def test_a_wrong_key_type_or_value_is_refused_by_name(data: object, named: str) -> None:
    err = refused(data)
    assert err.code == "bad_house_rules" and named in err.message


@pytest.mark.parametrize(("data", "named"), [
    ({"stack_only": "small"}, "'stack_only' needs 'stacking'"),
    ({"cross_stack": "up"}, "'cross_stack' needs 'stacking'"),
    ({"revenge": True}, "'revenge' needs 'stacking'"),
    ({"stacking": True, "stack_only": "big", "cross_stack": "both"}, "'stack_only' cannot be combined with "
                                                                     "'cross_stack'"),
    ({"seven_o_cards": "seven"}, "'seven_o_cards' needs 'seven_o'"),
    ({"seven_target": "next"}, "'seven_target' needs 'seven_o'"),
    ({"seven_o": True, "seven_target": "next", "seven_o_cards": "zero"}, "'seven_o_cards': 'zero'"),
    ({"bomb": True}, "'bomb' needs 'multi_play'"),
    ({"elimination": "cards", "single_round": True}, "'elimination' cannot be combined with 'single_round'"),
    ({"elimination": "points", "rounds": 3}, "'rounds'"),
    ({"elimination": "cards", "team_play": True}, "'team_play'"),
    ({"silent_uno": True, "strict_uno": True}, "'silent_uno' cannot be combined with 'strict_uno'"),
    ({"silent_uno": True, "late_catch": True}, "'late_catch'"),
    ({"silent_uno": True, "uno_penalty": 4}, "'uno_penalty': 4"),
    ({"blind_draw": True, "must_play_drawn": True}, "'must_play_drawn'"),
    ({"single_round": True, "rounds": 2}, "'rounds'"),
])
def test_forbidden_combinations_are_refused_naming_both_options__HX_1(data: dict[str, object], named: str) -> None:
    err = refused(data)
    assert err.code == "bad_house_rules" and named in err.message, err.message


@pytest.mark.parametrize(("edition", "data", "named"), [
    (ALL_WILD, {"multi_play": True}, "UNO All Wild cannot play 'multi_play'"),
    (ALL_WILD, {"multi_play": True, "bomb": True}, "UNO All Wild"),
    (ALL_WILD, {"seven_o": True, "seven_o_cards": "seven"}, "'seven_o_cards': 'seven'"),
    (ALL_WILD, {"seven_o": True, "seven_target": "next"}, "'seven_target': 'next'"),
    (ALL_WILD, {"forced_play": True}, "'forced_play'"),
    (ALL_WILD, {"must_play_drawn": True}, "'must_play_drawn'"),
    (ALL_WILD, {"no_challenge": True}, "'no_challenge'"),
    (ALL_WILD, {"finish_with": "number"}, "UNO All Wild cannot play 'finish_with': 'number'"),
    (ALL_WILD, {"finish_with": "no_wild"}, "'finish_with': 'no_wild'"),
    (POCKET_PIZZA, {"seven_o": True, "seven_o_cards": "zero"}, "UNO Pocket Pizza Pizza cannot play"),
])
def test_options_the_edition_cannot_play_are_refused_naming_it__HX_1(edition: object, data: dict[str, object],
                                                                       named: str) -> None:
    err = refused(data, edition)
    assert err.code == "bad_house_rules" and named in err.message, err.message


def test_section_6_options_are_accepted_in_every_edition__HX_1() -> None:
    for variant in VARIANTS.values():
        rules = HouseRules.from_json({"stacking": True, "seven_o": True, "jump_in": True,
                                      "draw_until_playable": True, "single_round": True}, variant)
        assert MatchConfig(variant.key, 2, house=rules).validate() is variant


def test_keys_at_their_default_are_always_accepted__D_1() -> None:
    """D-1's own examples, and every key at its default in every edition."""
    assert HouseRules.from_json({"revenge": False}, CLASSIC) == HouseRules()
    assert HouseRules.from_json({"seven_target": "chosen"}, CLASSIC) == HouseRules()
    assert HouseRules.from_json({"elimination": "off", "single_round": True}, CLASSIC).enabled == ["single_round"]
    assert HouseRules.from_json({"multi_play": False}, ALL_WILD) == HouseRules()
    for variant in VARIANTS.values():
        assert HouseRules.from_json(dict(DEFAULTS), variant) == HouseRules()


def test_presets_expand_and_other_keys_override_them__HR_34() -> None:
    party = HouseRules.from_json({"preset": "party"}, CLASSIC)
    assert party.enabled == ["stacking", "seven_o", "jump_in", "draw_until_playable"]
    assert party.preset == "party"  # D-2: the name is kept, for display
    changed = HouseRules.from_json({"preset": "party", "jump_in": False, "single_round": True}, CLASSIC)
    assert changed.enabled == ["stacking", "seven_o", "draw_until_playable", "single_round"]
    assert HouseRules.from_json({"preset": "classic"}, CLASSIC).enabled == []
    assert set(PRESETS) == {"classic", "party", "strict", "chaos", "quick"}
    for values in PRESETS.values():  # every preset sets real options to values they take
        assert all(name in CHOICES and value in CHOICES[name] for name, value in values.items())


def test_a_preset_override_that_makes_a_forbidden_combination_is_refused__D_13() -> None:
    err = refused({"preset": "party", "stacking": False, "revenge": True})
    assert "'revenge' needs 'stacking'" in err.message


def test_stored_house_rules_read_back_the_same__D_2() -> None:
    """The stored value is the expanded one plus the preset's name; reading it back gives it again."""
    for variant in VARIANTS.values():
        for data in ({"preset": "party", "seven_o": False}, {"stacking": True, "cross_stack": "both",
                                                              "reverse_deflect": "all", "revenge": True}):
            rules = HouseRules.from_json(data, variant)
            stored = json.loads(json.dumps(rules.to_json()))
            assert HouseRules.from_json(stored, variant) == rules
            config = MatchConfig(variant.key, 3, None, rules)
            assert MatchConfig.from_json(json.loads(json.dumps(config.to_json()))) == config


def test_a_config_built_in_code_is_checked_against_its_edition_too__HX_1() -> None:
    with pytest.raises(ConfigError) as err:
        MatchConfig("all_wild", 3, house=HouseRules(multi_play=True)).validate()
    assert "UNO All Wild cannot play 'multi_play'" in err.value.message


def test_an_explicit_key_the_edition_refuses_is_refused_preset_or_not__D_2() -> None:
    for data in ({"multi_play": True}, {"preset": "chaos", "multi_play": True}):
        err = refused(data, ALL_WILD)
        assert "UNO All Wild cannot play 'multi_play'" in err.message


def test_a_preset_drops_what_the_edition_refuses__D_2__HR_34() -> None:
    chaos = HouseRules.from_json({"preset": "chaos"}, ALL_WILD)
    assert chaos.preset == "chaos"
    assert chaos.enabled == ["stacking", "seven_o", "jump_in", "draw_until_playable", "cross_stack",
                             "reverse_deflect", "skip_deflect", "double_score"]  # no multi_play, no_challenge, ...
    assert HouseRules.from_json(chaos.to_json(), ALL_WILD) == chaos
