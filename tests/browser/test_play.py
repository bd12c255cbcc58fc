"""Three browsers create and join a room and play a full round of each edition through the UI only.

Every step is a click on what a person would click (found by ``data-testid``): a dialog's
option when a decision is asked for, else a playable card, else the draw button; UNO! at
two cards — except Cleo, who forgets, so the others race to catch her with their UNO!
buttons and everyone gets the server's receipt.  The test ends at the round summary; a
screenshot of each edition's table is saved in ``test-artifacts/``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.live import LiveServer

EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"]
# Two editions end the match with the round (podium, rematch); two go on to a next round (ready).
TARGETS = {"classic": 1, "mario_kart": 5000, "all_wild": 5000, "pocket_pizza": 1}
STEP_CAP = 600
EDITION_SECONDS = 100

# What to do next, read from the page the way a player reads the screen.
DECIDE = """(name) => {
  const q = (s) => document.querySelector(s);
  if (q('[data-testid=round-summary]:not([hidden])')) return 'done';
  const table = q('[data-testid=table]');
  if (!table || table.dataset.busy === 'true' || table.dataset.status !== 'playing') return null;
  const uno = q('[data-testid=uno-button]');
  if (uno && uno.dataset.unoMode === 'catch') return 'uno';
  if (q('[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]')) return 'dialog';
  if (table.dataset.myTurn !== 'true') return null;
  if (uno && uno.dataset.unoMode === 'declare' && table.dataset.handCount === '2' && name !== 'Cleo') return 'uno';
  if (q('[data-testid=card][data-playable=true]')) return 'card';
  const draw = q('[data-testid=draw-button]');
  if (draw && !draw.disabled) return 'draw';
  const special = q('[data-testid=special-draw]');
  if (special && !special.hidden) return 'special';
  return null;
}"""

PLAYERS: list[tuple[str, ViewportSize]] = [
    ("Ana", {"width": 1280, "height": 860}),
    ("Bruno", {"width": 360, "height": 760}),
    ("Cleo", {"width": 820, "height": 1000}),
]


def new_player(browser: Browser, viewport: ViewportSize) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=viewport, reduced_motion="reduce", locale="en-GB",
                                  has_touch=viewport["width"] < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return context, page


def step(page: Page, what: str, challenger: bool) -> None:
    if what == "uno":
        # When UNO! is due the button throbs (a scale animation) unless reduced motion is asked
        # for: never "stable" to Playwright, though a person clicks it as it is.
        page.get_by_test_id("uno-button").click(force=True)
    elif what == "dialog":
        options = page.locator("[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]")
        challenge = options.and_(page.locator("[data-option=challenge]"))
        (challenge if challenger and challenge.count() else options.first).click()
    elif what == "card":
        page.locator("[data-testid=card][data-playable=true]").first.click()
    elif what == "draw":
        page.get_by_test_id("draw-button").click()
    elif what == "special":
        page.get_by_test_id("special-draw").click()


@pytest.mark.parametrize("edition", EDITIONS)
def test_full_round_through_the_ui__C_13(browser: Browser, live_server: LiveServer, artifacts: Path,
                                          edition: str) -> None:
    players = [new_player(browser, viewport) for _, viewport in PLAYERS]
    host, bruno, cleo = (page for _, page in players)
    home = live_server.http + "/"
    try:
        # The host creates a room from the home page.
        host.goto(home)
        host.get_by_test_id(f"edition-{edition}").click()
        host.get_by_test_id("create-name").fill("Ana")
        host.get_by_test_id("create-seats").select_option("3")
        host.get_by_test_id("create-more").click()  # the room's other options fold
        host.get_by_test_id("create-target").fill(str(TARGETS[edition]))
        host.get_by_test_id("create-private").check()
        host.get_by_test_id("create-submit").click()
        host.wait_for_url("**/r/*")
        expect(host.get_by_test_id("waiting-room")).to_be_visible()
        code = host.get_by_test_id("room-code").inner_text()
        share = host.get_by_test_id("share-link").input_value()
        assert share.endswith(f"/r/{code}")

        # Bruno joins by code from the home page; Cleo opens the share link.
        bruno.goto(home)
        bruno.get_by_test_id("join-code").fill(code.lower())
        bruno.get_by_test_id("join-submit").click()
        bruno.get_by_test_id("join-name").fill("Bruno")
        bruno.get_by_test_id("join-seat-button").click()
        cleo.goto(share)
        cleo.get_by_test_id("join-name").fill("Cleo")
        cleo.get_by_test_id("join-seat-button").click()
        expect(host.locator("[data-testid=seat][data-seat]")).to_have_count(3)
        expect(cleo.get_by_test_id("waiting-for-host")).to_contain_text("Ana")

        host.get_by_test_id("start-button").click()
        for page in (host, bruno, cleo):
            expect(page.get_by_test_id("table")).to_be_visible()
            expect(page.locator("[data-testid=opponent]")).to_have_count(2)

        # Play until every player sees the round summary.
        deadline = time.monotonic() + EDITION_SECONDS
        steps = 0
        shot = dialog_shot = False
        finished: set[int] = set()
        while len(finished) < 3:
            assert time.monotonic() < deadline, f"{edition}: no round summary after {steps} steps"
            assert steps < STEP_CAP, f"{edition}: still playing after {steps} steps"
            acted = False
            for i, page in enumerate((host, bruno, cleo)):
                what = page.evaluate(DECIDE, PLAYERS[i][0])
                if what == "done":
                    finished.add(i)
                elif what:
                    if what == "dialog" and not dialog_shot:
                        page.screenshot(path=str(artifacts / f"dialog-{edition}.png"))
                        dialog_shot = True
                    step(page, what, challenger=i == 1)
                    steps += 1
                    acted = True
            if not shot and steps >= 12:
                host.screenshot(path=str(artifacts / f"table-{edition}.png"))
                bruno.screenshot(path=str(artifacts / f"table-{edition}-phone.png"))
                shot = True
            if not acted:
                time.sleep(0.03)

        for page in (host, bruno, cleo):
            summary = page.get_by_test_id("round-summary")
            expect(summary).to_be_visible()
            expect(page.get_by_test_id("round-winner")).to_contain_text("went out")
        if not shot:
            host.screenshot(path=str(artifacts / f"table-{edition}.png"))
        host.screenshot(path=str(artifacts / f"summary-{edition}.png"))
        if TARGETS[edition] == 1:
            # The match is over: the podium; when everyone says "play again", a new match is dealt.
            for page in (host, bruno, cleo):
                expect(page.get_by_test_id("podium")).to_be_visible()
            expect(bruno.get_by_test_id("rematch-button")).to_have_count(0)
            host.get_by_test_id("rematch-button").click()  # a countdown; the others answer at once
            for page in (bruno, cleo):
                page.get_by_test_id("ready-button").click()
        else:
            # Between rounds: when everyone is ready the next round is dealt.
            for page in (host, bruno, cleo):
                expect(page.get_by_test_id("podium")).to_have_count(0)
                page.get_by_test_id("ready-button").click()
        for page in (host, bruno, cleo):
            expect(page.get_by_test_id("round-summary")).to_be_hidden()
            expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
            expect(page.locator("[data-testid=card]")).not_to_have_count(0)  # a fresh deal

        # Every UNO! race receipt reads the same for everyone.
        receipts = [page.locator(".log-entry.log-uno_race").all_inner_texts() for page in (host, bruno, cleo)]
        assert receipts[0] == receipts[1] == receipts[2]
        for page in (host, bruno, cleo):
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        for context, _ in players:
            context.close()
