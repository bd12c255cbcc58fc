"""``GET /api/house-rules`` against the engine's own option set (app/engine/house/options.py):
the families in RULES.md §7's order, every option once, HX-1's needs and conflicts, the editions'
refusals, the presets of HR-34 — and what it calls available is what room creation accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import VARIANTS
from app.engine.house import PRESETS
from app.engine.house import options as house
from app.rooms.options import NOT_AT_THE_TABLE
from tests.live import LiveServer

FAMILY_ORDER = ["room", "stacking", "exchange", "volume", "drawing", "finishing", "uno", "scoring", "pace", "teams",
                "elimination", "information"]


@pytest.fixture(scope="module")
def schema(server: LiveServer) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/house-rules")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert "max-age" in r.headers["cache-control"]
    data: dict[str, Any] = r.json()
    return data


def options_of(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["key"]: o for family in schema["families"] for o in family["options"]}


def test_every_option_once_in_the_families_of_section_7(schema: dict[str, Any]) -> None:
    assert [f["key"] for f in schema["families"]] == FAMILY_ORDER
    keys = [o["key"] for family in schema["families"] for o in family["options"]]
    assert sorted(keys) == sorted(house.OPTIONS) and len(keys) == len(set(keys))
    # Within §7 the IDs come in order: HR-1 first, HR-33 last.
    ids = [int(rule[3:]) for key in keys for rule in options_of(schema)[key]["rules"]]
    assert ids == sorted(ids) and ids[0] == 1 and ids[-1] == 33 and len(set(ids)) == 33


def test_kinds_values_defaults_and_availability_are_the_engines(schema: dict[str, Any]) -> None:
    for key, option in options_of(schema).items():
        assert option["default"] == house.DEFAULTS[key], key
        # What the engine plays, less what the browser's table cannot play yet (app/rooms/options.py).
        assert option["available"] is (key in house.AVAILABLE and key not in NOT_AT_THE_TABLE), key
        if key == "rounds":
            assert option["kind"] == "number" and option["min"] == 1 and option["max"] == 100
        else:
            assert option["values"] == list(house.CHOICES[key]), key
            assert option["kind"] == ("bool" if house.CHOICES[key] == (False, True) else "choice"), key


def test_needs_and_conflicts_are_hx1_both_ways__HX_1(schema: dict[str, Any]) -> None:
    options = options_of(schema)
    assert {(k, n) for k, o in options.items() for n in o["needs"]} == set(house.NEEDS)
    for name, other, values in house.CONFLICTS:
        clash = None if values is None else list(values)
        assert {"key": other, "values": clash, "own": None} in options[name]["conflicts"], (name, other)
        assert {"key": name, "values": None, "own": clash} in options[other]["conflicts"], (name, other)
    assert sum(len(o["conflicts"]) for o in options.values()) == 2 * len(house.CONFLICTS)
    assert options["fast_mode"]["needs_setting"] == "turn_seconds"  # HX-1: fast_mode without turn_seconds


def test_refusals_are_each_editions__HX_1(schema: dict[str, Any]) -> None:
    options = options_of(schema)
    for edition in VARIANTS:
        for key in house.OPTIONS:
            refused = {v for v in house.refused_house_rules(edition).get(key, ()) if v != house.DEFAULTS[key]}
            assert set(options[key]["refused"].get(edition, [])) == refused, (edition, key)
    assert options["finish_with"]["refused"]["all_wild"] == ["no_draw_or_wild", "no_wild", "number"]
    assert options["seven_o_cards"]["refused"]["pocket_pizza"] == ["zero"]


def test_presets_with_their_expansions__HR_34(schema: dict[str, Any]) -> None:
    assert [p["key"] for p in schema["presets"]] == list(PRESETS)
    for preset in schema["presets"]:
        assert preset["sets"] == dict(PRESETS[preset["key"]])
        playable = all(k in house.AVAILABLE and k not in NOT_AT_THE_TABLE
                       for k, v in PRESETS[preset["key"]].items() if v != house.DEFAULTS[k])
        assert preset["available"] is playable


def create(server: LiveServer, variant: str, rules: dict[str, object], **room: object) -> httpx.Response:
    return httpx.post(f"{server.http}/api/rooms", json={"variant": variant, "max_seats": 4, "house_rules": rules,
                                                        **room})


@pytest.mark.slow
def test_what_is_called_available_is_what_rooms_accept__D_1_D_2(server: LiveServer, schema: dict[str, Any]) -> None:
    options = options_of(schema)
    for key, option in options.items():
        values = [5] if option["kind"] == "number" else [v for v in option["values"] if v != option["default"]]
        rules = {key: values[0], **{needed: True for needed in option["needs"]}}
        # HX-1: fast_mode needs the room's turn clock, which is not a house rule.
        r = create(server, "classic", rules, **({"turn_seconds": 30} if option.get("needs_setting") else {}))
        if option["available"] and all(options[n]["available"] for n in option["needs"]):
            assert r.status_code == 201, (key, r.text)
        elif not option["available"]:
            detail = r.json()["detail"]
            assert r.status_code == 422 and detail["code"] == "bad_house_rules", (key, r.text)
            # What the form words its refusal from: this option, or what it needs that is not played either.
            assert detail["params"]["option"] in (key, *option["needs"]), detail
        # D-1: the key at its default is always accepted, needs or not.
        assert create(server, "classic", {key: option["default"]}).status_code == 201, key
    if options["fast_mode"]["available"]:  # HX-1: without a turn clock it is refused
        assert create(server, "classic", {"fast_mode": True}).status_code == 422
    for preset in schema["presets"]:
        r = create(server, "classic", {"preset": preset["key"]})
        assert r.status_code == (201 if preset["available"] else 422), (preset["key"], r.text)
        if preset["available"]:
            stored = r.json()["house_rules"]
            assert stored["preset"] == preset["key"]
            assert all(stored[k] == v for k, v in preset["sets"].items())


def test_every_option_family_value_and_preset_has_its_words_in_four_languages(schema: dict[str, Any]) -> None:
    """The form and the labels word each option from the catalogues: an option the engine starts to
    play must already read in every language (and not in English where it is translated)."""
    root = Path(__file__).resolve().parents[2] / "static" / "i18n"
    catalogues = {lang: json.loads((root / f"{lang}.json").read_text()) for lang in ("en", "pl", "sl", "gl")}
    keys = [f"house.family.{f['key']}" for f in schema["families"]]
    keys += [f"house.preset.{p['key']}" for p in schema["presets"]] + [f"house.preset.{p['key']}.about"
                                                                       for p in schema["presets"]]
    for option in options_of(schema).values():
        keys += [f"house.name.{option['key']}", f"house.about.{option['key']}"]
        if option["kind"] == "choice":
            keys += [f"house.value.{option['key']}" if isinstance(v, int) else f"house.value.{option['key']}.{v}"
                     for v in option["values"] if v is not None]
    for lang, words in catalogues.items():
        missing = [k for k in keys if not words.get(k)]
        assert not missing, (lang, missing)
        if lang != "en":
            alike = re.compile(r"[\d+{}n ]*|Blitz|Bomba|Chaos|.*min")  # the same word in both, or no word
            same = [k for k in keys if words[k] == catalogues["en"][k] and not alike.fullmatch(words[k])]
            assert not same, (lang, same)
