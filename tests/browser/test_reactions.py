"""Reactions at the table, through the UI: sent from the palette, shown over the sender's seat
and read out politely, muted per player, and rate-limited with a clear word."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import new_player
from tests.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(**LIFTED)


def react(page: Page, emote: str) -> None:
    page.get_by_test_id("react-toggle").click()
    page.locator(f"[data-testid=react-option][data-emote={emote}]").click()
    expect(page.get_by_test_id("react-palette")).to_be_hidden()


def test_reactions_are_shown_muted_and_limited(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    ana_ctx, ana = new_player(browser, {"width": 390, "height": 664})
    ben_ctx, ben = new_player(browser, {"width": 1366, "height": 657})
    try:
        ana.goto(server.http + "/?lang=en")
        ana.get_by_test_id("edition-classic").click()
        ana.get_by_test_id("create-name").fill("Ana")
        ana.get_by_test_id("create-seats").select_option("2")
        ana.get_by_test_id("create-submit").click()
        ana.wait_for_url("**/r/*")
        ben.goto(ana.url + "?lang=en")
        ben.get_by_test_id("join-name").fill("Ben")
        ben.get_by_test_id("join-seat-button").click()
        expect(ana.locator("[data-testid=seat][data-seat]")).to_have_count(2)
        ana.get_by_test_id("start-button").click()
        expect(ben.get_by_test_id("table")).to_have_attribute("data-status", "playing")

        # The palette: every option in view on the phone, each with its words for screen readers.
        ana.get_by_test_id("react-toggle").click()
        palette = ana.get_by_test_id("react-palette")
        expect(palette).to_be_visible()
        box = palette.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 664, box
        assert all(o.get_attribute("aria-label") for o in ana.get_by_test_id("react-option").all())
        ana.screenshot(path=str(artifacts / "reactions-palette-phone.png"))
        ana.keyboard.press("Escape")
        expect(palette).to_be_hidden()

        react(ana, "laugh")
        bubble = ben.locator("[data-testid=reaction][data-emote=laugh]")
        expect(bubble).to_have_count(1)
        seat = ben.locator("[data-testid=opponent][data-seat='0']").bounding_box()
        at = bubble.bounding_box()
        assert seat and at and seat["x"] - 40 <= at["x"] <= seat["x"] + seat["width"] + 40, (seat, at)
        expect(ben.get_by_test_id("reaction-live")).to_have_text("Ana: Laughing")
        ben.screenshot(path=str(artifacts / "reactions-laptop.png"))

        # Ben hides Ana's reactions: her next one reaches his view unseen (his own, sent after it
        # reached the room, comes later in the same order, and is shown).
        ben.get_by_test_id("react-toggle").click()
        ben.locator("[data-testid=react-mute][data-name=Ana]").click()
        expect(ben.locator("[data-testid=react-mute][data-name=Ana]")).to_have_attribute("aria-pressed", "true")
        ben.keyboard.press("Escape")
        react(ana, "clap")
        expect(ana.locator("[data-testid=reaction][data-emote=clap]")).to_have_count(1)  # in the room now
        react(ben, "thumbs_up")
        expect(ben.locator("[data-testid=reaction][data-emote=thumbs_up]")).to_have_count(1)
        expect(ben.locator("[data-testid=reaction][data-emote=clap]")).to_have_count(0)

        # A few at a time: past the burst the sender is told so in words.
        react(ana, "wow")
        react(ana, "gg")
        react(ana, "uno")
        expect(ana.get_by_test_id("toast").filter(has_text="a few reactions at a time").first).to_be_visible()
        assert not ana.errors and not ben.errors, (ana.errors, ben.errors)  # type: ignore[attr-defined]
    finally:
        ana_ctx.close()
        ben_ctx.close()
