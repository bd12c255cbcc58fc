"""One person, two bots, house rules and a turn timer, all through the UI."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import PHONE, new_room, open_seat, take_seat
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
        # Each bot at the level picked beside "Add a bot" (normal unless changed); the pick stays
        # through the room's re-renders, and each seat says its bot's level.
        expect(page.get_by_test_id("bot-level")).to_have_value("normal")
        page.get_by_test_id("bot-level").select_option("easy")
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(1)
        expect(page.get_by_test_id("bot-level")).to_have_value("easy")
        page.get_by_test_id("bot-level").select_option("hard")
        page.screenshot(path=str(artifacts / "waiting-bot-level.png"))
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(2)
        expect(page.locator("[data-testid=bot-badge]")).to_have_text(["bot · easy", "bot · hard"])
        assert [p.level for p in room.players] == [None, "easy", "hard"]
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


LEVEL_WORDS = {"en": ("bot · hard", "Bot level"), "pl": ("bot · trudny", "Poziom bota"),
               "sl": ("robot · težko", "Težavnost robota"), "gl": ("bot · difícil", "Nivel do bot")}


@pytest.mark.parametrize("lang", sorted(LEVEL_WORDS))
def test_the_level_picker_and_badge_on_a_phone(browser: Browser, bot_server: LiveServer, artifacts: Path,
                                               lang: str) -> None:
    """At 390×664 in each language the picker and "Add a bot" sit side by side within the screen,
    and a hard bot's seat says so in that language."""
    code = new_room(bot_server, "classic", 4)
    host = take_seat(bot_server, code, "Ana")
    r = httpx.post(f"{bot_server.http}/api/rooms/{code}/bots", json={"level": "hard"},
                   headers={"Authorization": f"Bearer {host['token']}"})
    assert r.status_code == 201 and r.json()["level"] == "hard"
    page = open_seat(browser, bot_server, code, host, PHONE, lang)
    try:
        badge, label = LEVEL_WORDS[lang]
        expect(page.get_by_test_id("bot-badge")).to_have_text(badge)
        expect(page.get_by_label(label)).to_have_value("normal")  # labelled, if only for screen readers here
        page.get_by_test_id("add-bot").scroll_into_view_if_needed()
        width = page.viewport_size["width"] if page.viewport_size else 0
        for testid in ("bot-level", "add-bot"):
            box = page.get_by_test_id(testid).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (testid, box)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width  # nothing spills sideways
        level, add = (page.get_by_test_id(t).bounding_box() for t in ("bot-level", "add-bot"))
        assert level and add and abs(level["y"] - add["y"]) < 8, "the picker sits beside its button"
        page.screenshot(path=str(artifacts / f"waiting-bot-level-phone-{lang}.png"))
        page.get_by_test_id("bot-badge").evaluate("(e) => e.scrollIntoView({ block: \"center\" })")
        page.screenshot(path=str(artifacts / f"waiting-bot-badge-phone-{lang}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
