"""``GET /api/house-rules``: what a room's house rules may be, for forms and badges.

Everything here is read from the options' declarations (``app.engine.house.options``: each
``HouseRules`` field carries its family, values, RULES.md IDs, HX-1 needs and conflicts and the
editions that refuse it), so the schema grows as the engine learns options and never restates
one.  The answer is built once per process and served as the same bytes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from app.engine import VARIANTS
from app.engine.house import options as house
from app.engine.house.options import PRESETS, SPECS
from app.rooms.options import NOT_AT_THE_TABLE

router = APIRouter(prefix="/api", tags=["rooms"])


def _list(values: tuple[object, ...] | None) -> list[object] | None:
    return None if values is None else list(values)


def _option(name: str) -> dict[str, Any]:
    spec = SPECS[name]
    entry: dict[str, Any] = {
        "key": name, "family": spec.family, "kind": spec.kind, "default": house.DEFAULTS[name],
        "rules": list(spec.rules), "available": name in house.AVAILABLE and name not in NOT_AT_THE_TABLE,
        "needs": list(spec.needs),
        # Either side of an HX-1 pair: this option at one of "own" cannot be on with "key" at one of
        # "values" (null: any value but the default).
        "conflicts": [{"key": other, "values": _list(values), "own": None}
                      for option, other, values in house.CONFLICTS if option == name]
        + [{"key": option, "values": None, "own": _list(values)}
           for option, other, values in house.CONFLICTS if other == name],
        "refused": {edition: sorted((v for v in house.refused_house_rules(edition).get(name, ())
                                     if v != house.DEFAULTS[name]), key=repr)
                    for edition in VARIANTS if house.refused_house_rules(edition).get(name)},
    }
    if spec.bounds is not None:
        entry.update(min=spec.bounds[0], max=spec.bounds[1])
    else:
        entry["values"] = list(spec.choices)
    if spec.needs_setting is not None:
        entry["needs_setting"] = spec.needs_setting
    return entry


@cache
def schema() -> dict[str, Any]:
    """The whole schema: families of options, then the presets (HR-34) with what they expand to."""
    families = [{"key": family, "options": [_option(name) for name in names]}
                for family, names in house.FAMILIES]
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
