"""``GET /api/rules/{edition}``: the rules sheet at the table gets the same sections as the
edition's rules page, every key worded in every catalogue, and an unknown edition a typed 404."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.engine import VARIANTS
from app.web.rules import RULE_SECTIONS
from tests.live import LiveServer

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"


@pytest.mark.parametrize("edition", list(VARIANTS))
def test_an_editions_rules_are_its_pages_sections_as_keys(server: LiveServer, edition: str) -> None:
    r = httpx.get(f"{server.http}/api/rules/{edition}")
    assert r.status_code == 200 and "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body["edition"] == edition
    assert [(s["title"], s["items"]) for s in body["sections"]] == [(t, list(i)) for t, i in RULE_SECTIONS[edition]]
    variant = VARIANTS[edition]
    assert body["facts"] == {"players": f"{variant.min_seats}–{variant.max_seats}", "hand": variant.hand_size,
                             "target": variant.target}
    # The rules page shows the same items, in the same order.
    page = httpx.get(f"{server.http}/rules/{edition}?lang=en").text
    keys = [k for s in body["sections"] for k in s["items"]]
    at = [page.index(f'data-key="{k}"') for k in keys]
    assert at == sorted(at)
    for lang in ("en", "pl", "sl", "gl"):
        catalogue = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [k for s in body["sections"] for k in [s["title"], *s["items"]] if k not in catalogue]
        assert not missing, (lang, missing)


def test_an_unknown_edition_is_a_typed_404(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/api/rules/uno_flip")
    assert r.status_code == 404
    detail = r.json()["detail"]
    assert detail["code"] == "no_edition" and "uno_flip" in detail["message"]
    assert set(detail["editions"]) == set(VARIANTS)
