"""A tablet held upright (820×1180) uses its screen: bigger cards, and the scores, log and chat in
view beneath the table instead of behind a drawer; everything fits one screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import new_player
from tests.live import LiveServer

pytestmark = pytest.mark.slow

IN_VIEW = """(selectors) => selectors.filter((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return !(r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1);
})"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(bot_delay_scale=0.05, **LIFTED)


@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl"])
def test_an_upright_tablet_shows_the_table_and_the_side_panel_at_once(browser: Browser, server: LiveServer,
                                                                      artifacts: Path, lang: str) -> None:
    context, page = new_player(browser, {"width": 820, "height": 1180})
    try:
        page.goto(server.http + f"/?lang={lang}")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("4")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        for n in range(2, 5):
            page.get_by_test_id("add-bot").click()
            expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(n)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        expect(page.locator("[data-testid=card]").first).to_be_visible()

        parts = ["hand", "draw-button", "uno-button", "scores", "event-log", "chat-input"]
        missing = page.evaluate(IN_VIEW, [f"[data-testid={p}]" for p in parts])
        assert missing == [], missing
        expect(page.get_by_test_id("side-toggle")).to_be_hidden()  # nothing behind a drawer
        # Every player's score is in view (the scores come before the spectators' settings); measured
        # in one go, as the list is redrawn with every turn.
        rows = page.locator("[data-testid=scores]").evaluate("""(e) => {
          const panel = e.closest('.side-block').getBoundingClientRect();
          return [...e.querySelectorAll('li')].map((li) => {
            const r = li.getBoundingClientRect();
            return r.height > 0 && r.bottom <= Math.min(panel.bottom, innerHeight) + 1;
          });
        }""")
        assert rows == [True] * 4, rows
        card = page.locator("[data-testid=card]").first.bounding_box()  # (cards in a hand overlap)
        assert card and card["height"] >= 120, card
        # The page is one screen: nothing scrolls.
        assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight + 1")
        page.screenshot(path=str(artifacts / f"tablet-{lang}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
