"""Home's first screen: name, edition, Create and Join without scrolling, in every language, on a
phone (390×664), a laptop window (1366×657) and a tablet (820×1180); the editions' descriptions
and the room's other options fold until asked for, and a room made from the folded options
still carries them."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.tables import DEVICES, LOCALES
from tests.live import LiveServer

DEVICES.setdefault("tablet", {"viewport": {"width": 820, "height": 1180}, "has_touch": True})
FIRST = ["create-name", "create-seats", "edition-classic", "edition-pocket_pizza", "create-submit", "join-code",
         "join-submit"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("device", ["phone", "laptop", "tablet"])
def test_name_edition_create_and_join_are_in_the_first_screen(browser: Browser, live_server: LiveServer,
                                                               artifacts: Path, device: str, lang: str) -> None:
    context = browser.new_context(locale=LOCALES[lang], reduced_motion="reduce", **DEVICES[device])
    page = context.new_page()
    try:
        page.goto(f"{live_server.http}/?lang={lang}")
        size = page.viewport_size
        assert size
        page.screenshot(path=str(artifacts / f"home-{lang}-{device}.png"))
        for testid in FIRST:
            box = page.get_by_test_id(testid).bounding_box()
            assert box, testid
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (lang, device, testid, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (lang, device, testid, box)
        assert page.evaluate("document.scrollingElement.scrollTop") == 0
        # The descriptions on demand; beyond a phone, each edition has a short line.
        summary = page.locator(".edition-summary").first
        expect(summary).to_be_hidden()
        short = page.get_by_test_id("edition-classic").locator(".edition-short")
        expect(short).to_be_hidden() if device == "phone" else expect(short).to_be_visible()
        page.get_by_test_id("edition-details-toggle").click()
        expect(summary).to_be_visible()
        expect(page.get_by_test_id("home-rules-pocket_pizza")).to_be_visible()
        # The other options fold too, and open on a tap.
        expect(page.get_by_test_id("create-target")).to_be_hidden()
        page.get_by_test_id("create-more").click()
        expect(page.get_by_test_id("create-target")).to_be_visible()
        page.screenshot(path=str(artifacts / f"home-{lang}-{device}-open.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.slow
def test_a_room_made_with_folded_options_keeps_them(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(locale="en-GB", **DEVICES["phone"])
    page = context.new_page()
    try:
        page.goto(f"{live_server.http}/")
        page.get_by_test_id("edition-mario_kart").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-more").click()
        page.get_by_test_id("create-target").fill("120")
        page.get_by_test_id("house-stacking").check()
        page.get_by_test_id("create-submit").click()
        expect(page.get_by_test_id("waiting-room")).to_be_visible()
        expect(page.get_by_test_id("room-options")).to_contain_text("tack")
        expect(page.locator(".edition-line")).to_contain_text("Mario Kart")
        expect(page.locator(".edition-line")).to_contain_text("120")
    finally:
        context.close()


@pytest.mark.slow
def test_create_and_join_wait_for_the_page_to_be_ready(browser: Browser, live_server: LiveServer) -> None:
    # On a slow phone the buttons show before the page's script has taken the forms over: a tap
    # then would submit the form natively and reload home with the name in its address.
    context = browser.new_context(locale="en-GB", reduced_motion="reduce", **DEVICES["phone"])
    page = context.new_page()
    held: list[Route] = []
    page.route("**/static/i18n/en.json", lambda route: held.append(route))  # the script waits for its words: held back
    try:
        page.goto(f"{live_server.http}/?lang=en")
        page.get_by_test_id("create-name").fill("Ana")
        expect(page.get_by_test_id("create-submit")).to_be_disabled()
        expect(page.get_by_test_id("join-submit")).to_be_disabled()
        page.get_by_test_id("create-name").press("Enter")  # implicit submission: nothing either
        assert page.url.endswith("/?lang=en")  # not reloaded with the form's fields
        while not held:
            page.wait_for_timeout(50)
        for route in held:
            route.continue_()
        page.unroute("**/static/i18n/en.json")
        expect(page.get_by_test_id("create-submit")).to_be_enabled()
        expect(page.get_by_test_id("create-name")).to_have_value("Ana")  # what was typed meanwhile is kept
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
    finally:
        context.close()
