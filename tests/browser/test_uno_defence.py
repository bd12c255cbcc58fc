"""Saying UNO! with the play: the player is never exposed, so a bot has nothing to catch (C-11, C-12).

Ana plays classic against a bot that catches a missed UNO! after a person's pause (1.5 s to 3 s,
app/bots/pauses.py; its other moves are quick here, ``bot_delay_scale``).  Whenever a play of
hers can leave one card, the page offers "Play and say UNO!" (for a card in hand and for a card
just drawn); the first time, a one-time tip explains it.  She takes that choice: the log shows
her UNO!, and no catch follows.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_contrast import CONTRAST
from tests.browser.test_play import new_player
from tests.live import LiveServer
from tests.waiting import eventually

NEXT = """() => {
  const q = (s) => document.querySelector(s);
  if (q('[data-testid=uno-tip]')) return 'tip';
  if (q('[data-testid=dialog]:not([hidden]) [data-option=play-uno]')) return 'uno';
  const table = q('[data-testid=table]');
  if (!table || table.dataset.busy === 'true' || table.dataset.status !== 'playing') return null;
  if (q('[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]')) return 'dialog';
  if (table.dataset.myTurn !== 'true') return null;
  if (q('[data-testid=card][data-playable=true]')) return 'card';
  const draw = q('[data-testid=draw-button]');
  return draw && !draw.disabled ? 'draw' : null;
}"""


@pytest.fixture(scope="module")
def bot_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=1, bot_delay_scale=0.05, **LIFTED)


def test_play_and_say_uno_leaves_the_bot_nothing_to_catch__C_11_C_12(browser: Browser, bot_server: LiveServer,
                                                                      artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 1100, "height": 900})
    try:
        page.goto(bot_server.http + "/?lang=en")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("2")
        page.get_by_test_id("create-more").click()  # the room's other options fold
        page.get_by_test_id("create-target").fill("100000")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        page.get_by_test_id("add-bot").click()
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        tip_seen = False
        what: str | None = None
        deadline = time.monotonic() + 60
        while True:
            if time.monotonic() > deadline:
                page.screenshot(path=str(artifacts / "uno-defence-stuck.png"))
                raise AssertionError(f"Ana never had a play that leaves one card (last step: {what})")
            what = page.evaluate(NEXT)
            if what == "tip":
                tip = page.get_by_test_id("uno-tip")
                expect(tip).to_contain_text("say UNO!")
                ratio = tip.locator("p").evaluate(CONTRAST)
                assert ratio >= 4.5, f"the tip's text: contrast {ratio:.2f}:1"
                tip_seen = True
                page.get_by_test_id("uno-tip-ok").click()
            elif what == "uno":
                option = page.locator("[data-testid=dialog]:not([hidden]) [data-option=play-uno]")
                expect(option).to_have_text("Play and say UNO!")
                # The safe choice has the focus: card, then Enter, plays it with UNO! said.
                expect(option).to_be_focused()
                page.keyboard.press("Enter")
                break
            elif what == "dialog":
                page.locator("[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]").first.click()
            elif what == "card":
                page.locator("[data-testid=card][data-playable=true]").first.click()
            elif what == "draw":
                page.get_by_test_id("draw-button").click()
            else:
                time.sleep(0.03)

        assert tip_seen, "the tip comes the first time a play can leave one card"
        said = page.locator("#side-panel .log-entry[data-kind=uno]", has_text="Ana said UNO!")
        while not said.count():  # a wild asks its colour (C-7) before the play and its UNO! go out
            assert time.monotonic() < deadline, "the play with UNO! never went out"
            options = page.locator("[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]")
            if options.count():
                options.first.click()
            time.sleep(0.05)
        expect(said.last).to_be_visible()
        # The room plans the bot's next move right after it publishes her play, in the same turn of
        # its loop: a catch would be planned now and still waiting its person's pause (1.5 s at
        # least).  None is.
        actor = bot_server.registry.get(page.url.split("/r/", 1)[1].split("?", 1)[0].split("#", 1)[0])
        planned = actor.automation.moves.timer.message
        assert planned is None or planned.action["kind"] != "catch", planned
        n_said = said.count()
        caught = page.locator("#side-panel .log-entry[data-kind=caught]", has_text="caught Ana")
        assert caught.count() == 0, caught.all_inner_texts()
        assert n_said >= 1
        # The tip was for once: this browser remembers it was read.
        assert page.evaluate("localStorage.getItem('uno.tip.uno')") == "1"
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()


# Ana's turn with two cards, and a coloured card of them playable: UNO! may be said first (C-11).
TWO_LEFT = """() => {
  const q = (s) => document.querySelector(s);
  const table = q('[data-testid=table]');
  if (!table || table.dataset.busy === 'true' || table.dataset.myTurn !== 'true') return false;
  if (q('[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]')) return false;
  const cards = document.querySelectorAll('[data-testid=hand] [data-testid=card]');
  const uno = q('[data-testid=uno-button]');
  return cards.length === 2 && uno.dataset.unoMode === 'declare'
    && !!q('[data-testid=card][data-playable=true]:not([data-colour=wild])');
}"""


def test_uno_said_first_then_the_card_plays_without_asking_again__C_11(browser: Browser, bot_server: LiveServer,
                                                                        artifacts: Path) -> None:
    """Ana presses UNO! on her turn with two cards (as the tip says), then taps a card: the
    declaration already made answers the question, so the card goes out at once — no "Play and
    say UNO!" box — and the log shows her UNO! then her play."""
    context, page = new_player(browser, {"width": 1100, "height": 900})
    context.add_init_script("localStorage.setItem('uno.tip.uno', '1')")  # the one-time tip, read before
    try:
        page.goto(bot_server.http + "/?lang=en")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("2")
        page.get_by_test_id("create-more").click()
        page.get_by_test_id("create-target").fill("100000")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        page.get_by_test_id("add-bot").click()
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        deadline = time.monotonic() + 90
        while not page.evaluate(TWO_LEFT):
            if time.monotonic() > deadline:
                page.screenshot(path=str(artifacts / "uno-first-stuck.png"))
                raise AssertionError("Ana never had two cards and a coloured card to play")
            what = page.evaluate(NEXT)
            if what == "uno":  # two cards but only a wild to play: play it with UNO!, go on
                page.locator("[data-testid=dialog]:not([hidden]) [data-option=play-uno]").click()
            elif what == "dialog":
                page.locator("[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]").first.click()
            elif what == "card":
                page.locator("[data-testid=card][data-playable=true]").first.click()
            elif what == "draw":
                page.get_by_test_id("draw-button").click()
            else:
                time.sleep(0.03)

        log = page.locator("#side-panel .log-entry")
        page.get_by_test_id("uno-button").click()
        early = page.locator("#side-panel .log-entry[data-kind=uno]", has_text="Ana said UNO! before playing")
        expect(early.last).to_be_visible()
        expect(page.get_by_test_id("uno-button")).to_have_attribute("aria-pressed", "true")
        played = page.locator("[data-testid=card][data-playable=true]:not([data-colour=wild])").first
        cid = played.get_attribute("data-card-id")
        played.click()
        # The card leaves the hand with no question asked on the way.
        ask = page.locator("[data-testid=dialog]:not([hidden]) [data-option=play-uno]")

        def played_without_asking() -> bool:
            assert not ask.count(), "the page asked about UNO! again after it was said"
            return not page.locator(f"[data-testid=hand] [data-card-id='{cid}']").count()

        eventually(played_without_asking, timeout=10, what="the card played")
        assert not ask.count()
        expect(log.filter(has_text="Ana played").last).to_be_visible()
        page.screenshot(path=str(artifacts / "uno-said-first-played.png"))
        lines = log.all_inner_texts()
        said = max(i for i, line in enumerate(lines) if "Ana said UNO! before playing" in line)
        # The declaration, then the play (its UNO! covering the play, not asked again).
        assert any("Ana played" in line for line in lines[said + 1:]), lines[said:]
        caught = page.locator("#side-panel .log-entry[data-kind=caught]", has_text="caught Ana")
        assert caught.count() == 0
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
