"""What is left before the leaderboard ranks you, where a player looks (issue 39 #11).

Ana becomes a player on a 390×664 phone, opens a one-round classic room and plays it against a
bot to the podium.  A one-round match is counted but not rated (docs/STATS.md), so under the
podium she reads that she is ranked after 3 more rated matches against 2 more players — the
server's rule (3 and 2 by default) minus what she has — with a link to how the ranking works;
her player page and /me say the same, and the leaderboard explains its rating in a player's words.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from app.persistence.db import resolve_url
from tests.browser.test_play import DECIDE, new_player, step
from tests.live import LiveServer
from tests.players.conftest import remembering_server

pytestmark = pytest.mark.slow
LEFT = "Ranked after 3 more rated matches against 2 more players."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = remembering_server(resolve_url(None, tmp_path_factory.mktemp("standing")))
    yield live
    live.stop()


def test_the_podium_the_player_page_and_me_say_what_is_left_before_ranking(browser: Browser, server: LiveServer,
                                                                           artifacts: Path) -> None:
    context, page = new_player(browser, {"width": 390, "height": 664})
    try:
        page.goto(server.http + "/me?lang=en")
        page.get_by_test_id("become-name").fill("Ana")
        page.get_by_test_id("become-submit").click()
        expect(page.get_by_test_id("me-name")).to_have_text("Ana")
        # Before any match: the whole rule is left, edition by edition.
        expect(page.get_by_test_id("standing-classic")).to_contain_text(f"Classic: {LEFT}")
        me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")

        code = httpx.post(f"{server.http}/api/rooms", json={"variant": "classic", "max_seats": 2,
                                                             "house_rules": {"single_round": True}}).json()["code"]
        page.goto(f"{server.http}/r/{code}?lang=en")
        page.get_by_test_id("join-name").fill("Ana")
        page.get_by_test_id("join-seat-button").click()
        page.get_by_test_id("add-bot").click()
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        summary = page.get_by_test_id("round-summary")
        deadline = time.monotonic() + 120
        while summary.get_attribute("data-final") != "true" or summary.is_hidden():
            assert time.monotonic() < deadline, "the match never ended"
            what = page.evaluate(DECIDE, "Ana")
            if what in (None, "done"):
                time.sleep(0.05)
                continue
            step(page, what, challenger=False)
        expect(page.get_by_test_id("podium")).to_be_visible()
        # Once the server has counted the match (a moment after its end), the podium says what is left.
        standing = page.get_by_test_id("podium-standing")
        expect(standing).to_have_text(f"Classic leaderboard: {LEFT} How the ranking works", timeout=30_000)
        expect(page.get_by_test_id("podium-standing-how")).to_have_attribute("href", "/leaderboard/classic")
        standing.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "standing-podium-phone.png"))
        # The API agrees: nothing rated yet, the match just played her newest.
        mine = httpx.get(f"{server.http}/api/players/{me['id']}/standing").json()["editions"]["classic"]
        assert (mine["matches_left"], mine["opponents_left"], mine["ranked"]) == (3, 2, False)

        page.goto(f"{server.http}/players/{me['id']}?lang=en")
        expect(page.get_by_test_id("standing-classic")).to_have_text(f"{LEFT} How the ranking works")
        page.screenshot(path=str(artifacts / "standing-player-page-phone.png"), full_page=True)
        page.goto(f"{server.http}/me?lang=en")
        expect(page.get_by_test_id("standing-classic")).to_have_text(f"Classic: {LEFT}")
        page.screenshot(path=str(artifacts / "standing-me-phone.png"), full_page=True)
        page.goto(f"{server.http}/leaderboard/classic?lang=en")
        rule = page.get_by_test_id("board-rule")
        expect(rule).to_contain_text("rises when you finish a match ahead of other players")
        expect(rule).to_contain_text("3 rated matches against 2 different players")
        expect(rule).not_to_contain_text("σ")
        page.screenshot(path=str(artifacts / "standing-leaderboard-phone.png"), full_page=True)
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
