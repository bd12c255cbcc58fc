"""The rules at the table, one tap away on every device (issue 39 #8).

A seated player taps the head's Rules button — once, on a 390×664 phone, a tablet, a laptop and
a phone held sideways — and a sheet opens over the table: the house rules this room turns on
(their labels and what each does), then the edition's own rules, all in the page's language,
worded from the same catalogue keys as the /rules/EDITION page (``GET /api/rules/EDITION``).
The sheet lies within the screen, scrolls to its last rule, keeps the table's keys to itself
(D draws nothing while it is read) and closes with Esc.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import DEVICES, add_bots, new_room, open_seat, take_seat
from tests.live import LiveServer

pytestmark = pytest.mark.slow

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
HOUSE = {"stacking": True, "seven_o": True}
# (device, its window, language, edition): every language on the upright phone, one elsewhere.
CASES = [
    ("phone", None, "pl", "classic"),
    ("phone", None, "gl", "mario_kart"),
    ("phone", None, "sl", "pocket_pizza"),
    ("phone", None, "en", "classic"),
    ("tablet", {"viewport": {"width": 820, "height": 1180}, "has_touch": True, "is_mobile": True}, "en", "all_wild"),
    ("laptop", None, "sl", "classic"),
    ("sideways", {"viewport": {"width": 740, "height": 390}, "has_touch": True, "is_mobile": True}, "gl", "classic"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(rooms_per_address=100_000, **LIFTED)


def words(lang: str) -> dict[str, str]:
    catalogue: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return catalogue


@pytest.mark.parametrize(("device", "window", "lang", "edition"), CASES)
def test_the_rules_open_at_the_table_in_one_tap(browser: Browser, server: LiveServer, artifacts: Path,
                                                monkeypatch: pytest.MonkeyPatch, device: str,
                                                window: dict[str, object] | None, lang: str, edition: str) -> None:
    if window is not None:
        monkeypatch.setitem(DEVICES, device, window)
    house = HOUSE if edition != "all_wild" else {"stacking": True}  # All Wild has no 7s to swap with (AW-1)
    code = new_room(server, edition, 2, house_rules=house)
    host = take_seat(server, code, "Ana")
    add_bots(server, code, host, 1)
    page = open_seat(browser, server, code, host, device, lang)
    try:
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        w = words(lang)
        toggle = page.get_by_test_id("rules-toggle")
        expect(toggle).to_have_text(w["rules.link"])
        size = page.viewport_size
        box = toggle.bounding_box()
        assert size and box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        assert box["width"] >= 24 and box["height"] >= 24, box  # a target a finger can tap
        cards = page.get_by_test_id("table").get_attribute("data-hand-count")

        if device == "phone":
            page.screenshot(path=str(artifacts / f"rules-toggle-{device}-{lang}.png"))
        toggle.click()  # one tap
        sheet = page.get_by_test_id("rules-sheet")
        expect(sheet).to_be_visible()
        edition_name = w[f"edition.{edition}"]
        expect(sheet.locator("#rules-sheet-title")).to_have_text(w["rules.title"].replace("{edition}", edition_name))
        # The room's house rules first, with what each does, in the page's language.
        on = sheet.get_by_test_id("rules-sheet-house")
        expect(on.locator("h3")).to_have_text(w["rules.sheet.house"])
        expect(on.locator("dd[data-key=stacking]")).to_have_text(w["house.about.stacking"])
        expect(on.locator("dt").first).to_have_text(w["house.name.stacking"])
        # Then the edition's rules: the rules page's sections and items, worded from the catalogue.
        rules = httpx.get(f"{server.http}/api/rules/{edition}").json()
        sections = sheet.get_by_test_id("rules-sheet-section")
        expect(sections).to_have_count(len(rules["sections"]))
        expect(sections.locator("h3")).to_have_text([w[s["title"]] for s in rules["sections"]])
        turn = rules["sections"][1]["items"][0]
        expect(sheet.locator(f"li[data-key='{turn}']")).to_have_text(w[turn])
        goal = sheet.locator("li[data-key='rules.goal']")
        expect(goal).to_contain_text(str(rules["facts"]["target"]))
        assert "{" not in goal.inner_text()
        # Within the screen; its last rule is reached by scrolling the sheet, not the page.
        at = sheet.bounding_box()
        assert at and at["x"] >= -0.5 and at["y"] >= -0.5, at
        assert at["x"] + at["width"] <= size["width"] + 0.5 and at["y"] + at["height"] <= size["height"] + 0.5, at
        page.screenshot(path=str(artifacts / f"rules-sheet-{device}-{lang}.png"))
        last = sheet.locator("li").last
        last.scroll_into_view_if_needed()
        expect(last).to_be_in_viewport()
        expect(page.get_by_test_id("rules-sheet-close")).to_be_in_viewport()
        # The table's keys stay with the table: D while reading draws nothing.
        page.keyboard.press("d")
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
        assert page.get_by_test_id("table").get_attribute("data-hand-count") == cards
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
