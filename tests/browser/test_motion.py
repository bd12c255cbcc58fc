"""Cards on the move (static/js/motion.js): a card back flies from the draw pile to whoever draws,
one to every seat at the deal, and nothing moves under reduced motion."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine.house import HouseRules
from tests.browser.puppets import against_a_bot, deal_with, find_seed, opens_on_a_number
from tests.browser.servers import LIFTED, serve
from tests.live import LiveServer

pytestmark = pytest.mark.slow

# Counts the card backs that set off (each is removed when it lands).
COUNT = """
window.flown = [];
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) {
    if (n.classList && n.classList.contains('flying-back')) window.flown.push(n.getBoundingClientRect().top);
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(bot_delay_scale=0.05, **LIFTED)


def until(page: Page, count: int) -> None:
    """Wait until ``count`` card backs have set off (the page's CSP allows no evaluated predicates)."""
    deadline = time.monotonic() + 20
    while page.evaluate("window.flown.length") < count:
        assert time.monotonic() < deadline, page.evaluate("window.flown.length")
        page.wait_for_timeout(20)  # polling the page's own count


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(), opens_on_a_number))


def play_a_draw(browser: Browser, server: LiveServer, motion: str) -> tuple[Page, int, int]:
    context = browser.new_context(viewport={"width": 1366, "height": 657}, reduced_motion=motion, locale="en-GB")  # type: ignore[arg-type]
    page = context.new_page()
    page.add_init_script(COUNT)
    against_a_bot(page, server.http)
    expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
    if motion == "no-preference":
        until(page, 2)  # the deal: one back to each seat, in turn
    dealt = page.evaluate("window.flown.length")
    page.get_by_test_id("draw-button").click()
    expect(page.locator("#side-panel .log-entry[data-kind=drew]")).to_have_count(1)
    if motion == "no-preference":
        until(page, dealt + 1)
    # A draw's first back sets off in the frame's own task: past the next frame, it has or never will.
    settled = "new Promise((done) => setTimeout(() => requestAnimationFrame(() => done(window.flown.length)), 0))"
    return page, dealt, page.evaluate(settled)


def test_a_draw_flies_a_card_back_to_the_drawer(browser: Browser, server: LiveServer) -> None:
    page, dealt, after = play_a_draw(browser, server, "no-preference")
    try:
        assert dealt >= 2, "the deal sends a back to each of the two seats"
        assert after > dealt, "Ana's draw sent one to her hand"
        expect(page.locator(".flying-back")).to_have_count(0)  # each is gone once it lands
    finally:
        page.context.close()


def test_nothing_flies_under_reduced_motion(browser: Browser, server: LiveServer) -> None:
    page, dealt, after = play_a_draw(browser, server, "reduce")
    try:
        assert dealt == 0 and after == 0
    finally:
        page.context.close()
