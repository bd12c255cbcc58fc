"""One person, two bots, house rules and a turn timer, all through the UI."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import DECIDE, new_player, step
from tests.live import LiveServer


@pytest.fixture(scope="module")
def bot_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.05, **LIFTED)


def test_a_room_with_house_rules_a_timer_and_bots(browser: Browser, bot_server: LiveServer, artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 1280, "height": 860})
    try:
        page.goto(f"{bot_server.http}/")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("3")
        page.get_by_test_id("create-more").click()  # the room's other options fold
        page.get_by_test_id("create-target").fill("1")
        page.get_by_test_id("house-stacking").check()
        page.get_by_test_id("house-seven_o").check()
        page.get_by_test_id("create-timer").select_option("60")
        page.get_by_test_id("create-public").check()  # listed in the lobby, looked at below
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        options = page.get_by_test_id("room-options")
        expect(options).to_contain_text("Stacking")
        expect(options).to_contain_text("Seven-O")
        expect(options).to_contain_text("60 s")
        code = page.get_by_test_id("room-code").inner_text()
        room = bot_server.registry.get(code).state
        assert room.house.stacking and room.house.seven_o and room.turn_seconds == 60

        lobby = context.new_page()
        lobby.goto(f"{bot_server.http}/lobby")
        expect(lobby.locator(f"[data-code=\"{code}\"] [data-testid=lobby-options]")).to_contain_text("Stacking")
        lobby.close()
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(1)
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(2)
        expect(page.get_by_test_id("add-bot")).to_have_count(0)  # the room is full
        page.screenshot(path=str(artifacts / "waiting-with-bots.png"))
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()
        expect(page.locator("[data-testid=opponent]")).to_have_count(2)
        expect(page.get_by_test_id("table-options")).to_contain_text("Stacking")

        # Ana plays her turns by clicking; the bots play theirs.
        deadline = time.monotonic() + 90
        saw_clock = False
        while True:
            assert time.monotonic() < deadline, "no round summary"
            if not saw_clock and page.get_by_test_id("turn-clock").is_visible():
                saw_clock = "s left" in page.get_by_test_id("turn-clock").inner_text()
            what = page.evaluate(DECIDE, "Ana")
            if what == "done":
                break
            if what:
                step(page, what, challenger=False)
            else:
                time.sleep(0.03)
        expect(page.get_by_test_id("round-summary")).to_be_visible()
        page.screenshot(path=str(artifacts / "summary-with-bots.png"))
        assert saw_clock
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        assert not bot_server.audit.violations
    finally:
        context.close()
