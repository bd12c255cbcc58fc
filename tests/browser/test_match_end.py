"""The match's end on a phone: the podium and Rematch first, ties shown as ties (C-13), and
playing again decided by the table.

Ana (390×664, touch) and Bruno (a laptop) play a one-round match (target 1) with two bots.
When it ends, Ana's final summary shows the podium and the rematch buttons without any
scrolling, inside the overlay's visible box; the three players left on 0 share second place
(no "3rd" for an equal score); every player's place and score are listed; the last round's
leftover hands are folded away below; under reduced motion there is no confetti.  Then Ana
says "play again", Bruno leaves, and the rematch starts at once for who is left.
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
    bruno_ctx, bruno = new_player(browser, {"width": 1366, "height": 657})
    try:
        page.goto(bot_server.http + "/?lang=en")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("4")
        page.get_by_test_id("create-more").click()  # the room's other options fold
        page.get_by_test_id("create-target").fill("1")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        bruno.goto(page.url + "?lang=en")
        bruno.get_by_test_id("join-name").fill("Bruno")
        bruno.get_by_test_id("join-seat-button").click()
        for n in (3, 4):
            page.get_by_test_id("add-bot").click()
            expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(n)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        deadline = time.monotonic() + 120
        while not (page.get_by_test_id("podium").is_visible() and bruno.get_by_test_id("podium").is_visible()):
            assert time.monotonic() < deadline, "the match did not end"
            moved = False
            for who, name in ((page, "Ana"), (bruno, "Bruno")):
                what = who.evaluate(DECIDE, name)
                if what not in (None, "done"):
                    step(who, what, challenger=False)
                    moved = True
            if not moved:
                time.sleep(0.05)  # polling the pages, as people watching them

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

        # The host may change the game for the next match; everyone sees what was chosen.
        expect(bruno.get_by_test_id("next-match")).to_have_count(0)
        page.get_by_test_id("next-match").locator("summary").click()
        page.get_by_test_id("next-edition").select_option("mario_kart")
        page.get_by_test_id("next-apply").click()
        chosen = bruno.locator("#side-panel .log-entry[data-kind=next_match]")
        expect(chosen).to_have_text("Ana chose Mario Kart for the next match.")

        # Playing again is the table's decision: the host asks (a countdown), Bruno leaves, it starts.
        waiting = page.get_by_test_id("waiting-rematch")
        expect(waiting).to_have_text("Waiting for: Ana, Bruno.")
        expect(bruno.get_by_test_id("rematch-button")).to_have_count(0)
        page.get_by_test_id("rematch-button").click()
        expect(page.get_by_test_id("rematch-button")).to_have_text("Start now")
        expect(waiting).to_contain_text("The rematch starts in")
        expect(bruno.get_by_test_id("waiting-rematch")).to_contain_text("Waiting for: Bruno.")
        bruno.get_by_test_id("leave-button").click()
        bruno.wait_for_url(bot_server.http + "/")
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("table")).to_have_attribute("data-edition", "mario_kart")
        expect(page.locator("[data-testid=round-summary]")).to_be_hidden()
        assert not page.errors and not bruno.errors, (page.errors, bruno.errors)  # type: ignore[attr-defined]
    finally:
        context.close()
        bruno_ctx.close()
