"""The one-time UNO! tip (static/js/uno_tip.js; C-11 says a play that leaves one card may say
UNO! with it): shown once per device, gone by itself after the player's move, and never over
the pile, the colour, the seats' counts or the hand.

A known deal (puppets.py ``plays_down_to_one``) brings Ana, on a phone (390×664), to two cards
on her turn with a play that can say UNO!: the tip comes, and the browser remembers it.  After
a reload, at that same moment, it does not come again.  In a browser of its own (another device,
nothing remembered) it comes once more, and leaves as soon as Ana has played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.house_table import house_server, rules, seated, start
from tests.browser.puppets import Puppet, deal_with, find_match_seed, nothing, plays_down_to_one
from tests.browser.tables import DEVICES, LOCALES, PHONE
from tests.browser.test_decision_sheet import COVERED
from tests.browser.test_house_table import TAP_DOWN_TO
from tests.live import LiveServer

# Whether the tip lies over the pile, the colour or the hand (their boxes meet).
OVER = """() => {
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const tip = document.querySelector('[data-testid=uno-tip]').getBoundingClientRect();
  const parts = { pile: '[data-testid=discard]', colour: '[data-testid=declared-colour]', hand: '[data-testid=hand]',
                  actions: '.actions', draw: '[data-testid=draw-pile]' };
  return Object.entries(parts).filter(([, s]) => {
    const el = document.querySelector(s);
    return el && el.getClientRects().length && meets(tip, el.getBoundingClientRect());
  }).map(([name]) => name);
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from house_server()


def reopen(browser: Browser, server: LiveServer, code: str, seat: dict[str, Any]) -> Page:
    """Ana's seat opened in a new browser (another device: nothing in its storage but the seat)."""
    context = browser.new_context(locale=LOCALES["en"], reduced_motion="reduce", **DEVICES[PHONE])
    stored = json.dumps({"token": seat["token"], "seat": seat["seat"], "name": seat["name"]})
    context.add_init_script(f"localStorage.setItem({json.dumps(f'uno.seat.{code}')}, {json.dumps(stored)})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.http}/r/{code}?lang=en")
    return page


def at_two_cards_with_uno_due(page: Page) -> None:
    """Ana's turn, two cards, a card to play (it leaves one: it can say UNO!): the tip's moment."""
    table = page.get_by_test_id("table")
    expect(table).to_have_attribute("data-my-turn", "true")
    expect(table).to_have_attribute("data-hand-count", "2")
    expect(page.locator("[data-testid=card][data-playable=true]").first).to_be_visible()


@pytest.mark.slow
def test_the_uno_tip_comes_once_per_device_leaves_after_the_move_and_covers_nothing__C_11(
        browser: Browser, server: LiveServer, artifacts: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_with(monkeypatch, find_match_seed("classic", 2, rules({}), plays_down_to_one))
    code, ana, page = seated(browser, server, PHONE, 2, {})
    bo = Puppet(server, code, "Bo")
    other: Page | None = None
    try:
        start(page)
        tip = page.get_by_test_id("uno-tip")
        deadline = time.monotonic() + 120
        while (tapped := page.evaluate(TAP_DOWN_TO, 2)) != "done":  # Bo draws and keeps between her taps
            assert tapped not in ("over", "stuck") and time.monotonic() < deadline, f"the deal went otherwise: {tapped}"
            bo.pump()
            bo.move(nothing)
            time.sleep(0.05)
        at_two_cards_with_uno_due(page)
        expect(tip).to_be_visible()
        expect(tip).to_contain_text("say UNO!")
        page.screenshot(path=str(artifacts / "tip-phone.png"))
        assert page.evaluate(OVER) == [], "the tip lies over the table"
        assert page.evaluate(COVERED) == [], "something covers the counts, the pile, the colour or the turn"
        assert page.evaluate("localStorage.getItem('uno.tip.uno')") == "1", "shown: remembered at once"

        # The same device, reloaded at the same moment: the tip was shown, it does not come again.
        page.reload()
        at_two_cards_with_uno_due(page)
        expect(tip).to_have_count(0)
        page.context.close()

        # Another device: the tip comes once there too, and leaves with Ana's move.
        other = reopen(browser, server, code, ana)
        at_two_cards_with_uno_due(other)
        tip = other.get_by_test_id("uno-tip")
        expect(tip).to_be_visible()
        other.locator("[data-testid=card][data-playable=true]").first.click()
        expect(tip).to_be_visible()  # choosing how to play is not yet the move
        other.locator("[data-testid=dialog]:not([hidden]) [data-option=play-uno]").click()
        expect(other.get_by_test_id("event-log-list")).to_contain_text("Ana said UNO!")
        expect(tip).to_have_count(0)
        other.screenshot(path=str(artifacts / "tip-phone-after-move.png"))
        assert not other.errors, other.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        if other is not None:
            other.context.close()
        if not page.is_closed():
            page.context.close()
