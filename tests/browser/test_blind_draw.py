"""Blind draw at the table (RULES.md HR-33, HX-2, HX-15): a card Ana draws comes into her hand as
a card back — not a button, labelled "face-down card", its face in neither the hand nor the log —
and shows normally once it turns up on her next turn.  On a phone and on a laptop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from app.engine.house import HouseRules
from tests.browser.puppets import Puppet, deal_with, drive, find_seed, nothing, opens_on_a_number
from tests.browser.test_play import new_player
from tests.browser.test_wording import open_room
from tests.live import LiveServer

VIEWPORTS: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 664}, "laptop": {"width": 1366, "height": 657}}


@pytest.fixture(params=list(VIEWPORTS))
def device(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    context: BrowserContext
    context, page = new_player(browser, VIEWPORTS[request.param])
    try:
        yield request.param, page
    finally:
        context.close()


def test_a_face_down_card_is_a_card_back_until_it_turns_up__HR_33__HX_2__HX_15(
        device: tuple[str, Page], live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, artifacts: Path) -> None:
    name, ana = device
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(blind_draw=True), opens_on_a_number))
    code = open_room(ana, live_server, "classic", 2, ("blind_draw",))
    bo = Puppet(live_server, code, "Bo")
    try:
        ana.get_by_test_id("start-button").click()
        table = ana.get_by_test_id("table")
        expect(table).to_have_attribute("data-my-turn", "true")
        backs = ana.get_by_test_id("face-down-card")
        expect(backs).to_have_count(0)
        faces_before = ana.get_by_test_id("card").count()
        ana.get_by_test_id("draw-button").click()
        expect(backs).to_have_count(1)  # HX-2: no drawn card to play or keep; the turn is over
        expect(table).to_have_attribute("data-my-turn", "false")
        back = backs.first
        expect(back).to_have_attribute("aria-label", "face-down card")
        assert back.evaluate("el => el.tagName") == "SPAN"  # nothing to click
        assert back.get_attribute("data-face") is None and back.get_attribute("data-colour") is None
        expect(ana.get_by_test_id("card")).to_have_count(faces_before)
        expect(table).to_have_attribute("data-hand-count", str(faces_before + 1))
        log = ana.get_by_test_id("event-log-list")
        assert "You drew" not in (log.text_content() or "")  # no line names the card
        ana.screenshot(path=str(artifacts / f"blind-draw-{name}-face-down.png"))
        # Bo plays or draws; at Ana's next turn the card turns up and shows like any other.
        drive(ana, [(bo, nothing)], lambda: table.get_attribute("data-my-turn") == "true", ana=lambda page: True)
        expect(backs).to_have_count(0)
        expect(ana.get_by_test_id("card")).to_have_count(faces_before + 1)
        expect(log).to_contain_text("Your face-down cards turned up:")
        ana.screenshot(path=str(artifacts / f"blind-draw-{name}-turned-up.png"))
        assert ana.errors == []  # type: ignore[attr-defined]
    finally:
        bo.close()
