"""The rules page of each edition, in each language, linked from the home page and the room;
and the language picker, which shows every language's whole name even on a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_play import new_player
from tests.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"]
CATALOGUES = {lang: json.loads((ROOT / f"static/i18n/{lang}.json").read_text()) for lang in ("en", "pl", "sl", "gl")}


@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl"])
def test_each_edition_has_its_rules_page_in_the_language__C_11_CL_5_MK_5_AW_5_PP_5(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    cat = CATALOGUES[lang]
    context, page = new_player(browser, {"width": 390, "height": 800})
    try:
        page.goto(f"{live_server.http}/?lang={lang}")
        for edition in EDITIONS:
            page.goto(f"{live_server.http}/")
            page.get_by_test_id("edition-details-toggle").click()  # the rules are under "What is each edition?"
            page.get_by_test_id(f"home-rules-{edition}").click()
            page.wait_for_url(f"**/rules/{edition}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("h1")).to_have_text(cat["rules.title"].replace("{edition}", cat[f"edition.{edition}"]))
            items = page.locator("[data-testid=rules] li")
            texts = items.all_inner_texts()
            assert len(texts) >= 15, texts
            for text in texts:
                assert text and not re.search(r"[{}]|\brules\.", text), text
            keys = [items.nth(i).get_attribute("data-key") for i in range(items.count())]
            # Each edition says what it implements, not another's rules.
            must = {"classic": "rules.wd4", "mario_kart": "rules.mk.item_box", "all_wild": "rules.aw.special",
                    "pocket_pizza": "rules.pp.wd2"}[edition]
            assert must in keys and "rules.uno.say" in keys, keys
            if edition == "all_wild":
                assert "rules.draw" not in keys  # AW-5: nothing is drawn on a turn
            target = "250" if edition == "pocket_pizza" else "500"
            assert target in texts[0], texts[0]
            if lang != "en":  # translated, not English
                english = CATALOGUES["en"]
                assert texts[keys.index("rules.uno.say")] == cat["rules.uno.say"] != english["rules.uno.say"]
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


def test_the_room_links_to_its_editions_rules(browser: Browser, live_server: LiveServer) -> None:
    context, page = new_player(browser, {"width": 1100, "height": 850})
    try:
        page.goto(f"{live_server.http}/?lang=gl")
        page.get_by_test_id("edition-mario_kart").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        link = page.get_by_test_id("waiting-rules-link")
        code = page.get_by_test_id("room-code").inner_text()  # the rules page marks the room's house rules
        expect(link).to_have_attribute("href", f"/rules/mario_kart?room={code}")
        expect(link).to_have_text("Regras de Mario Kart")
    finally:
        context.close()


def test_the_language_picker_shows_whole_names_on_a_phone(browser: Browser, live_server: LiveServer) -> None:
    context, page = new_player(browser, {"width": 360, "height": 760})
    try:
        page.goto(f"{live_server.http}/?lang=sl")
        select = page.get_by_test_id("lang-select")
        expect(select).to_have_value("sl")
        # The select is as wide as its longest name, its padding and the arrow (16 px).
        room = page.evaluate("""() => {
          const s = document.getElementById('lang-select');
          const probe = document.createElement('span');
          probe.style.font = getComputedStyle(s).font;
          probe.style.position = 'absolute';
          probe.style.whiteSpace = 'nowrap';
          document.body.append(probe);
          const width = (o) => { probe.textContent = o.text; return probe.getBoundingClientRect().width; };
          const widest = Math.max(...[...s.options].map(width));
          probe.remove();
          const style = getComputedStyle(s);
          const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
          return s.getBoundingClientRect().width - widest - padding;
        }""")
        assert room >= 16, f"the picker leaves {room:.0f} px for its arrow: the longest name is cut"
        header = page.locator(".site-header").bounding_box()
        assert header is not None and header["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
