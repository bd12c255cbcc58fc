"""``GET /api/house-rules``: what a room's house rules may be, for forms and badges.

Everything here is read from the engine's own option set (``app.engine.house.options``,
``presets``, each edition's ``refused_house_rules``), so the schema grows as the engine
learns options (``AVAILABLE``) and never restates a limit.  What it adds is presentation
only: the families in RULES.md §7's order, and the rule IDs each option answers to.
The answer is built once per process and served as the same bytes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from app.engine import VARIANTS
from app.engine.house import options as house
from app.engine.house.presets import PRESETS
from app.rooms.options import NOT_AT_THE_TABLE

router = APIRouter(prefix="/api", tags=["rooms"])

# RULES.md §6 and §7.1–7.11, in that order; each family's options in the order they are stated.
FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("room", ("stacking", "seven_o", "jump_in", "draw_until_playable", "single_round", "rounds")),
    ("stacking", ("stack_only", "cross_stack", "reverse_deflect", "skip_deflect", "revenge")),
    ("exchange", ("seven_o_cards", "seven_target")),
    ("volume", ("multi_play", "bomb")),
    ("drawing", ("forced_play", "must_play_drawn", "hand_limit")),
    ("finishing", ("finish_with",)),
    ("uno", ("uno_penalty", "strict_uno", "silent_uno", "late_catch", "misplay_penalty", "no_challenge")),
    ("scoring", ("double_score", "scoring")),
    ("pace", ("fast_mode", "blitz_seconds")),
    ("teams", ("team_play", "shuffle_seats")),
    ("elimination", ("elimination",)),
    ("information", ("reveal_hands_at", "no_hints", "blind_draw")),
)
# The IDs of RULES.md each option is stated by (§6's options have none of their own).
RULE_IDS: dict[str, tuple[str, ...]] = {
    "stack_only": ("HR-1",), "cross_stack": ("HR-2",), "reverse_deflect": ("HR-3",), "skip_deflect": ("HR-4",),
    "revenge": ("HR-5",), "seven_o_cards": ("HR-6",), "seven_target": ("HR-7",), "multi_play": ("HR-8",),
    "bomb": ("HR-9",), "forced_play": ("HR-10",), "must_play_drawn": ("HR-11",), "hand_limit": ("HR-12", "HR-13"),
    "finish_with": ("HR-14", "HR-15"), "uno_penalty": ("HR-16",), "strict_uno": ("HR-17",),
    "silent_uno": ("HR-18",), "late_catch": ("HR-19",), "misplay_penalty": ("HR-20",), "no_challenge": ("HR-21",),
    "double_score": ("HR-22",), "scoring": ("HR-23",), "fast_mode": ("HR-24",), "blitz_seconds": ("HR-25",),
    "team_play": ("HR-26", "HR-27"), "shuffle_seats": ("HR-28",), "elimination": ("HR-29", "HR-30"),
    "reveal_hands_at": ("HR-31",), "no_hints": ("HR-32",), "blind_draw": ("HR-33",),
}
# HX-1's one need that is a room setting rather than a house rule.
NEEDS_SETTING: dict[str, str] = {"fast_mode": "turn_seconds"}
ROUNDS_MIN, ROUNDS_MAX = 1, 100  # HouseRules.validate's limits for "rounds"


def _kind(name: str) -> str:
    if name == "rounds":
        return "number"
    return "bool" if house.CHOICES[name] == house.BOOL else "choice"


def _list(values: tuple[object, ...] | None) -> list[object] | None:
    return None if values is None else list(values)


def _option(name: str, family: str) -> dict[str, Any]:
    kind = _kind(name)
    entry: dict[str, Any] = {
        "key": name, "family": family, "kind": kind, "default": house.DEFAULTS[name],
        "rules": list(RULE_IDS.get(name, ())), "available": name in house.AVAILABLE and name not in NOT_AT_THE_TABLE,
        "needs": [needed for option, needed in house.NEEDS if option == name],
        # Either side of an HX-1 pair: this option at one of "own" cannot be on with "key" at one of
        # "values" (null: any value but the default).
        "conflicts": [{"key": other, "values": _list(values), "own": None}
                      for option, other, values in house.CONFLICTS if option == name]
        + [{"key": option, "values": None, "own": _list(values)}
           for option, other, values in house.CONFLICTS if other == name],
        "refused": {edition: sorted((v for v in variant.refused_house_rules.get(name, ())
                                     if v != house.DEFAULTS[name]), key=repr)
                    for edition, variant in VARIANTS.items() if variant.refused_house_rules.get(name)},
    }
    if kind == "number":
        entry.update(min=ROUNDS_MIN, max=ROUNDS_MAX)
    else:
        entry["values"] = list(house.CHOICES[name])
    if name in NEEDS_SETTING:
        entry["needs_setting"] = NEEDS_SETTING[name]
    return entry


@cache
def schema() -> dict[str, Any]:
    """The whole schema: families of options, then the presets (HR-34) with what they expand to."""
    families = [{"key": family, "options": [_option(name, family) for name in names]} for family, names in FAMILIES]
    presets = [{"key": key, "sets": dict(values),
                "available": all(k in house.AVAILABLE and k not in NOT_AT_THE_TABLE
                                  for k, v in values.items() if v != house.DEFAULTS[k])}
               for key, values in PRESETS.items()]
    return {"families": families, "presets": presets, "editions": list(VARIANTS)}


@cache
def _body() -> bytes:
    return json.dumps(schema(), separators=(",", ":")).encode()


@router.get("/house-rules")
def house_rules_schema() -> Response:
    """Every house rule (RULES.md §6, §7): its key, kind, values and default, what it needs or
    cannot be combined with (HX-1), which editions refuse which values, whether this server plays
    it yet; and the presets (HR-34) with what each sets.  The same for the process's lifetime."""
    return Response(_body(), media_type="application/json", headers={"Cache-Control": "public, max-age=300"})
