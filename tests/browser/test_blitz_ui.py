"""HR-25 blitz in the browser: the `quick` preset keeps its 5-minute match clock, the table's head
counts it down (mm:ss) apart from the turn clock, and its expiry ends the match with the log
saying why.  The expiry is driven through the room's inbox rather than waited for."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from app.rooms.inbox import BlitzExpired
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LAPTOP, PHONE
from tests.browser.test_house_rules_ui import created_rules, open_home
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, bot_delay_scale=20.0, **LIFTED)


def run_out(server: LiveServer, code: str) -> None:
    """Five minutes later, as the room sees it: the deadline passed, the clock's message arrives."""
    async def tell() -> None:
        actor = server.registry.get(code)
        actor.state.blitz_deadline = time.time() - 1
        actor.tell(BlitzExpired(actor.state.match_no))

    loop = server.registry.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(tell(), loop).result(5)


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_the_quick_preset_shows_the_match_clock_in_the_head__HR_25(browser: Browser, server: LiveServer,
                                                                   artifacts: Path, device: str) -> None:
    context, page = open_home(browser, server, device)
    try:
        page.get_by_test_id("house-preset").select_option("quick")
        blitz = page.get_by_test_id("house-blitz_seconds")
        expect(blitz).to_be_enabled()  # offered now that the server plays it
        assert blitz.evaluate("s => s.selectedOptions[0].textContent") == "5 min"  # the preset's 300 s
        page.get_by_test_id("create-timer").select_option("60")  # a turn clock too, to tell the two apart
        rules = created_rules(page, server)
        assert rules["preset"] == "quick" and rules["blitz_seconds"] == 300
        code = page.get_by_test_id("room-code").inner_text()
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(1)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        clock = page.locator(".table-head [data-testid=match-clock]")
        expect(clock).to_be_visible()
        expect(clock).to_have_text(re.compile(r"^Match [45]:[0-5]\d$"))
        expect(clock).to_have_attribute("role", "timer")
        first = clock.inner_text()
        expect(clock).not_to_have_text(first)  # it counts down
        turn = page.get_by_test_id("turn-clock")
        expect(turn).to_have_text(re.compile(r"\d+\s+s left"))  # the turn clock stays on the status line
        a, b = clock.bounding_box(), turn.bounding_box()
        assert a is not None and b is not None
        assert a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"], (a, b)  # never on each other
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"] if page.viewport_size else True  # no sideways scroll
        page.screenshot(path=str(artifacts / f"blitz-clock-{device}.png"))

        run_out(server, code)
        expect(page.get_by_test_id("round-summary")).to_be_visible()
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Time! The match clock ran out;")
        expect(page.get_by_test_id("event-log-list")).to_contain_text("had the fewest cards and wins the round")
        expect(clock).to_be_hidden()  # the match is over: the clock stops showing
        page.screenshot(path=str(artifacts / f"blitz-over-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
