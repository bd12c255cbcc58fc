"""The table's log reads as a person would tell it (CL-9 draws, C-12 races, the fairness badges).

Ana plays classic against a bot at a laptop window.  When she draws, the log tells it once,
with the card she got ("You drew …"), not "Ana drew a card." and then "You drew …"; the
round's published commitment is a small badge linking to the match page, not a line of hex;
and no line is wider than the panel.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from app.engine.house import HouseRules
from tests.browser.puppets import against_a_bot, deal_with, find_seed, opens_on_a_number
from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import new_player
from tests.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bot_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=1, bot_delay_scale=0.05, **LIFTED)


@pytest.fixture(autouse=True)
def known_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana plays first, on a number card: her turn allows a draw (C-6)."""
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(), opens_on_a_number))


def test_your_draw_is_told_once_and_the_deal_is_a_badge__CL_9(browser: Browser, bot_server: LiveServer,
                                                               artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 1366, "height": 657})
    try:
        against_a_bot(page, bot_server.http)
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")

        log = page.locator("#side-panel [data-testid=event-log] .log-entry")
        badge = page.locator("#side-panel .log-entry[data-kind=commitment] a.fair-badge")
        expect(badge).to_have_count(1)
        expect(badge).to_have_text("Round 1: shuffle sealed")
        href = badge.get_attribute("href") or ""
        assert re.fullmatch(r"/matches/[0-9a-f]+", href), href
        assert httpx.get(bot_server.http + href).status_code == 200  # the match page is there
        assert len(badge.get_attribute("title") or "") > 64  # the hash is there, on hover, not in the line

        # Draw on Ana's turn (C-6: drawing instead of playing is always allowed in classic).
        draw = page.get_by_test_id("draw-button")
        expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
        expect(draw).to_be_enabled()
        drew = page.locator("#side-panel .log-entry[data-kind=drew]")
        before, drawn = log.count(), drew.count()  # (a first card may have made her draw already)
        draw.click()
        expect(drew).to_have_count(drawn + 1)
        texts = log.all_inner_texts()[before:]
        mine = [t for t in texts if "drew" in t]
        assert len(mine) == 1 and mine[0].startswith("You drew "), texts
        assert not any(t.startswith("Ana drew") for t in log.all_inner_texts()), log.all_inner_texts()

        # No line overflows the panel (the old commitment line ran out of it).
        wide = page.evaluate("""() => [...document.querySelectorAll('#side-panel .log-entry')]
            .filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.innerText)""")
        assert not wide, wide
        page.locator("#side-panel [data-testid=event-log]").screenshot(path=str(artifacts / "log-laptop.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
