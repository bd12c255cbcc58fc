"""An edition's rules as the server states them: the sections of catalogue keys the rules page
(``/rules/{edition}``, app/web/pages.py) renders, and ``GET /api/rules/{edition}``, the same
sections and facts as JSON for the rules sheet at the table (static/js/table/rules_sheet.js),
which words them from the same catalogue in the reader's language — one text, two places.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from app.engine import VARIANTS

router = APIRouter(prefix="/api", tags=["rules"])

# The rules page of each edition: sections of catalogue keys, written from RULES.md as the
# engine implements it (the IDs name the rules each item states).
_TURN = ("rules.h.turn", ["rules.turn", "rules.draw", "rules.reshuffle"])  # C-5, C-6, C-8
_UNO = ("rules.h.uno", ["rules.uno.say", "rules.uno.catch", "rules.uno.race"])  # C-11, C-12
RULE_SECTIONS: dict[str, list[tuple[str, list[str]]]] = {
    "classic": [("rules.h.goal", ["rules.goal"]), _TURN,
                ("rules.h.cards", ["rules.skip", "rules.reverse", "rules.draw2", "rules.wild", "rules.wd4",
                                   "rules.challenge"]),  # CL-3..CL-6
                ("rules.h.first", ["rules.cl.first"]), _UNO,  # CL-2
                ("rules.h.scoring", ["rules.scoring", "rules.cl.values"])],  # C-14, CL-7
    "mario_kart": [("rules.h.goal", ["rules.goal"]), _TURN,
                   ("rules.h.cards", ["rules.skip", "rules.reverse", "rules.draw2", "rules.mk.items",
                                      "rules.mk.item_box", "rules.mk.mushroom", "rules.mk.banana_peel",
                                      "rules.mk.green_shell", "rules.mk.lightning", "rules.mk.bob_omb",
                                      "rules.mk.wd4", "rules.challenge"]),  # MK-2, MK-4..MK-10
                   ("rules.h.first", ["rules.mk.first"]), _UNO,  # MK-3
                   ("rules.h.scoring", ["rules.scoring", "rules.mk.values"])],  # MK-11
    "all_wild": [("rules.h.goal", ["rules.goal"]),
                 ("rules.h.turn", ["rules.aw.turn", "rules.aw.special", "rules.reshuffle"]),  # AW-5, AW-6
                 ("rules.h.cards", ["rules.aw.wild", "rules.aw.reverse", "rules.aw.skip", "rules.aw.skip2",
                                    "rules.aw.draw", "rules.aw.targeted", "rules.aw.swap"]),  # AW-2, AW-3
                 ("rules.h.first", ["rules.aw.first"]), _UNO,  # AW-4
                 ("rules.h.scoring", ["rules.scoring", "rules.aw.values"])],  # AW-7
    "pocket_pizza": [("rules.h.goal", ["rules.goal"]), _TURN,
                     ("rules.h.cards", ["rules.skip", "rules.reverse", "rules.pp.draw1", "rules.wild",
                                        "rules.pp.dip", "rules.pp.wd2", "rules.pp.challenge"]),  # PP-3..PP-6
                     ("rules.h.first", ["rules.pp.first"]), _UNO,  # PP-2
                     ("rules.h.scoring", ["rules.scoring", "rules.pp.values"])],  # PP-7
}


def rule_facts(edition: str) -> dict[str, Any]:
    """The numbers the rules' words take (``{players}``, ``{hand}``, ``{target}``)."""
    variant = VARIANTS[edition]
    return {"players": f"{variant.min_seats}–{variant.max_seats}", "hand": variant.hand_size,
            "target": variant.target}


@router.get("/rules/{edition}")
def edition_rules(edition: str) -> JSONResponse:
    """An edition's rules as catalogue keys: ``sections`` (each a ``title`` key and its ``items``
    keys, in the rules page's order) and the ``facts`` their words take."""
    if edition not in RULE_SECTIONS:
        raise HTTPException(404, detail={"code": "no_edition", "message": f"There is no edition {edition!r}.",
                                         "editions": list(RULE_SECTIONS)})
    sections = [{"title": title, "items": list(items)} for title, items in RULE_SECTIONS[edition]]
    return JSONResponse({"edition": edition, "sections": sections, "facts": rule_facts(edition)},
                        headers={"Cache-Control": "public, max-age=300"})
