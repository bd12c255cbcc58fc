"""A person's catch within 1 s beats a bot's (C-11, C-12): the bots wait a person's reaction time.

Ana (a page) hosts a classic room and adds a hard bot; Bo (a puppet over the protocol) joins, and
never says UNO!.  Seats: Ana 0, Bot 1 1, Bo 2 — so when Bo plays down to one card the turn is
usually Ana's, and the bot's only move is to catch Bo, racing Ana.  The bots here are fast at
everything else (``bot_delay_scale`` 0.05), as in the other tests; a catch keeps its floor.
When the UNO! button offers the catch, Ana presses it within a second; the log credits Ana, not
the bot.  (A chance that opens with the bot to play next closes when it plays: the loop waits
for the next one.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.puppets import Puppet
from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import new_player
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=1, bot_delay_scale=0.05, **LIFTED)


def any_play(legal: list[dict], table: dict) -> dict | None:  # type: ignore[type-arg]
    """Bo plays whatever he may (never with UNO!: the puppet leaves those out), colouring wilds red."""
    return next((a for a in legal if a["kind"] in ("play", "play_drawn") and a.get("colour") in (None, "red")
                 and not a.get("more") and "target" not in a), None)


def test_a_persons_catch_within_a_second_beats_the_bot__C_11_C_12(browser: Browser, server: LiveServer,
                                                                 artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 1100, "height": 900})
    bo: Puppet | None = None
    try:
        page.goto(server.http + "/?lang=en")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("3")
        page.get_by_test_id("create-more").click()  # the room's other options fold
        page.get_by_test_id("create-target").fill("100000")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        page.get_by_test_id("bot-level").select_option("hard")
        page.screenshot(path=str(artifacts / "waiting-bot-level-picker.png"))
        page.get_by_test_id("add-bot").click()
        badge = page.get_by_test_id("bot-badge")
        expect(badge).to_have_text("bot · hard")
        code = page.get_by_test_id("room-code").inner_text()
        bo = Puppet(server, code, "Bo")
        expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(3)
        page.screenshot(path=str(artifacts / "waiting-hard-bot.png"))
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")

        uno = page.get_by_test_id("uno-button")
        log = page.locator("#side-panel .log-entry")
        deadline = time.monotonic() + 120
        pressed_after: float | None = None
        while pressed_after is None:
            if time.monotonic() >= deadline:
                page.screenshot(path=str(artifacts / "human-catch-stuck.png"))
                raise AssertionError(f"Bo never played down to one card with Ana to play next: {bo.view.get('game')}")
            bo.pump()
            bo.move(any_play)
            table = page.get_by_test_id("table")
            if table.get_attribute("data-status") != "playing":
                time.sleep(0.05)
                continue
            if uno.is_visible() and uno.is_enabled() and "Catch" in uno.inner_text():
                seen = time.monotonic()
                uno.click()
                pressed_after = time.monotonic() - seen
                break
            keep = page.locator("[data-testid=dialog]:not([hidden]) [data-option=keep]")
            option = page.locator("[data-testid=dialog]:not([hidden]) [data-testid=dialog-option]")
            draw = page.get_by_test_id("draw-button")
            if keep.count():
                keep.click()
            elif option.count():
                option.first.click()  # any other decision (a first wild's colour, a penalty): its first answer
            elif table.get_attribute("data-my-turn") == "true" and draw.is_enabled():
                draw.click()  # Ana draws and keeps on her turns: Bo sheds his cards
            time.sleep(0.05)
        assert pressed_after < 1.0, f"Ana pressed Catch {pressed_after:.2f} s after it appeared"
        expect(log.filter(has_text="Ana caught Bo")).to_have_count(1, timeout=5000)
        page.screenshot(path=str(artifacts / "human-catch-beats-bot.png"))
        texts = log.all_inner_texts()
        assert not any("Bot 1 caught" in t for t in texts), texts
        # Any race the table is told of names Ana as the quicker one, never the bot.
        assert not page.get_by_text("Bot 1 was quicker").count()
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        assert not server.audit.violations
    finally:
        if bo is not None:
            bo.close()
        context.close()
