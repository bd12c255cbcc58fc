"""The match's end on a phone: the podium and Rematch first, ties shown as ties (C-13).

Ana plays a one-round match (target 1) against three bots at 390×664 with touch.  When it
ends, the final summary shows the podium and the Rematch button without any scrolling,
inside the overlay's visible box; the three players left on 0 share second place (no "3rd"
for an equal score); every player's place and score are listed; the last round's leftover
hands are folded away below; and under reduced motion there is no confetti.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import DECIDE, new_player, step
from tests.live import LiveServer

pytestmark = pytest.mark.slow

IN_VIEW = """(ids) => {
  const box = document.querySelector('[data-testid=round-summary]').getBoundingClientRect();
  const out = [];
  for (const id of ids) {
    const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
    const inside = r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1
      && r.left >= 0 && r.right <= innerWidth + 1;
    const seen = `${Math.round(box.top)}..${Math.round(Math.min(innerHeight, box.bottom))}`;
    if (!inside) out.push(`${id}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${seen}`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def bot_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=1, bot_delay_scale=0.05, **LIFTED)


def test_the_podium_comes_first_and_ties_share_a_place__C_13(browser: Browser, bot_server: LiveServer,
                                                              artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 390, "height": 664})
    try:
        page.goto(bot_server.http + "/?lang=en")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("4")
        page.get_by_test_id("create-target").fill("1")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        for _ in range(3):
            page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(4)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        deadline = time.monotonic() + 120
        while not page.get_by_test_id("podium").is_visible():
            assert time.monotonic() < deadline, "the match did not end"
            what = page.evaluate(DECIDE, "Ana")
            if what in (None, "done"):
                time.sleep(0.05)  # polling the page, as a person watching it
                continue
            step(page, what, challenger=False)

        summary = page.get_by_test_id("round-summary")
        expect(summary).to_have_attribute("data-final", "true")
        assert page.evaluate(IN_VIEW, ["podium", "match-winner", "rematch-button"]) == []
        expect(page.get_by_test_id("last-round")).not_to_have_attribute("open", "")

        # Only the winner scored (C-13): the other three share second place.
        places = page.locator("[data-testid=standings] li").evaluate_all("(els) => els.map((e) => e.dataset.place)")
        assert places == ["1", "2", "2", "2"], places
        second = page.locator("[data-testid=podium] .place-2")
        expect(second).to_have_count(1)
        expect(second).to_have_attribute("data-tied", "true")
        expect(second.locator(".tie-mark")).to_have_text("tie")
        expect(page.locator("[data-testid=podium] .place-3")).to_have_count(0)
        assert not page.locator(".confetti").is_visible()  # reduced motion: no celebration in motion
        page.screenshot(path=str(artifacts / "match-end-phone.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
