"""Playing again after a team match (RULES.md HR-26), through the page: Ana hosts a 2v2 played to
the podium, starts the rematch countdown, and one seat leaves during it.  The countdown stops
with nothing dealt, the podium says why in Ana's language, and asking again is refused with the
same reason.  On a phone and on a laptop window; screenshots go to test-artifacts/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.house_table import first_legal_play, play_until, start
from tests.browser.puppets import Puppet
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LAPTOP, PHONE, new_room, open_seat, take_seat
from tests.live import LiveServer

BAD_TEAMS = "Teams of two need 4, 6, 8 or 10 players"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # A countdown long enough that only the seat leaving can end it within the test.
    yield from serve(between_rounds_seconds=2, bot_delay_scale=0.02, rooms_per_address=100_000,
                     rematch_countdown_seconds=120, **LIFTED)


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_seat_leaving_stops_the_team_rematch_and_the_podium_says_why__HR_26(
        browser: Browser, server: LiveServer, artifacts: Path, device: str) -> None:
    code = new_room(server, seats=4, house_rules={"team_play": True})
    ana = take_seat(server, code, "Ana")
    page = open_seat(browser, server, code, ana, device)
    puppets = [Puppet(server, code, name) for name in ("Bo", "Cy", "Di")]
    try:
        start(page)
        play_until(page, lambda: page.get_by_test_id("podium").count() > 0,
                   [(p, first_legal_play) for p in puppets])
        page.get_by_test_id("rematch-button").click()
        line = page.get_by_test_id("waiting-rematch")
        expect(line).to_contain_text("The rematch starts in")
        di = puppets[-1]
        di.ws.send(json.dumps({"type": "leave", "id": "leave-1"}))
        expect(line).to_contain_text("The rematch cannot start (players at the table: 3).")
        expect(line).to_contain_text(BAD_TEAMS)
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "over")  # nothing dealt
        line.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"team-rematch-stopped-{device}.png"))
        # Asking again is refused on the message itself, in the same words.
        page.get_by_test_id("rematch-button").click()
        expect(page.get_by_test_id("toast").filter(has_text=BAD_TEAMS).first).to_be_visible()
        page.screenshot(path=str(artifacts / f"team-rematch-refused-{device}.png"))
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "over")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        for p in puppets:
            p.close()
        page.context.close()
