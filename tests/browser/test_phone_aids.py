"""The phone's aids at the table (static/js/phone/): the screen kept on, a buzz on your turn, and
— while the page is out of sight — notifications (only when asked for), the tab's title and icon;
the Install hint where the browser offers one, and none of the secure-context offers on a plain
http address.

The APIs are Chromium's own (127.0.0.1 is a secure context): a script that runs before the page
wraps ``navigator.wakeLock.request``, ``navigator.vibrate`` and ``Notification`` to record their
calls, and keeps the real wake-lock sentinels to read their ``released``.  Headless Chromium
never hides a page (another tab brought to the front, a minimised window: the page stays
"visible"), so the page is hidden by stubbing ``document.visibilityState`` and sending the
``visibilitychange`` a browser sends.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import DEVICES, LAPTOP, LOCALES, PHONE, add_bots, new_room, open_seat, reach, take_seat, until
from tests.browser.test_play import DECIDE, step
from tests.live import LiveServer

RECORD = """
window.aids = { wake: [], buzz: [], notes: [], closed: 0 };
(() => {
  const lock = navigator.wakeLock;
  if (lock) {
    const request = lock.request.bind(lock);
    lock.request = (type) => {
      const i = window.aids.wake.push(null) - 1;
      const p = request(type);
      p.then((sentinel) => { window.aids.wake[i] = sentinel; }, () => { window.aids.wake[i] = 'refused'; });
      return p;
    };
  }
  navigator.vibrate = (pattern) => { window.aids.buzz.push(pattern); return true; };
  const Real = window.Notification;
  if (Real) {
    window.Notification = class extends Real {
      constructor(title, options) {
        window.aids.notes.push({ title, body: options && options.body, tag: options && options.tag });
        super(title, options);
      }
      close() { window.aids.closed += 1; super.close(); }
    };
  }
  // A page hidden and shown again, as a phone's other app or another tab does it.
  let state = 'visible';
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => state });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => state === 'hidden' });
  window.showPage = (visible) => {
    state = visible ? 'visible' : 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
  };
})();
"""
CATALOGUES = Path(__file__).resolve().parents[2] / "static" / "i18n"
WAKE = "window.aids.wake.map((s) => s === null ? 'asking' : s === 'refused' ? s : s.released ? 'released' : 'held')"
ICON = "document.querySelector('link[data-icon]').getAttribute('href')"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.05, rooms_per_address=100_000, **LIFTED)


def seated(browser: Browser, server: LiveServer, *, grant: bool = False, insecure: bool = False,
           buzz: str | None = None) -> tuple[Page, str]:
    """Ana's phone in the waiting room of a new room with one bot; the recorder installed."""
    code = new_room(server, "classic", seats=2, target_score=500)
    ana = take_seat(server, code, "Ana")
    add_bots(server, code, ana, 1)
    context = browser.new_context(locale=LOCALES["en"], reduced_motion="no-preference",
                                  service_workers="allow" if insecure else "block", **DEVICES[PHONE])
    if grant:
        context.grant_permissions(["notifications"], origin=server.http)
    stored = json.dumps({"token": ana["token"], "seat": ana["seat"], "name": ana["name"]})
    context.add_init_script(f"localStorage.setItem({json.dumps(f'uno.seat.{code}')}, {json.dumps(stored)})")
    if buzz:
        context.add_init_script(f"localStorage.setItem('uno.buzz', {json.dumps(buzz)})")
    if insecure:  # as on http://192.168.…: the page is not a secure context
        context.add_init_script("Object.defineProperty(window, 'isSecureContext', { get: () => false })")
    context.add_init_script(RECORD)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(f"{server.http}/r/{code}?lang=en")
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    return page, code


def aids(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate("({ buzz: window.aids.buzz.length, notes: window.aids.notes, "
                                         "closed: window.aids.closed })")
    return seen


def start(page: Page) -> None:
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")


def play_until(page: Page, done: Callable[[], bool], message: str) -> None:
    """Plays Ana's turns (the bot plays its own) until `done()`."""
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, message
        what = page.evaluate(DECIDE, "Ana")
        assert what != "done", f"the round ended first: {message}"
        if what:
            step(page, what, challenger=False)
            page.wait_for_timeout(150)
        else:
            time.sleep(0.03)


def test_the_screen_is_kept_on_at_the_table_and_let_go_when_hidden(browser: Browser, server: LiveServer) -> None:
    page, _ = seated(browser, server)
    try:
        page.wait_for_timeout(300)
        assert page.evaluate(WAKE) == [], "the waiting room asked to keep the screen on"
        start(page)
        until(page, f"{WAKE}.join() === 'held'", "no wake lock held at the table")
        page.evaluate("showPage(false)")
        until(page, f"{WAKE}.join() === 'released'", "the wake lock was kept while the page was hidden")
        page.evaluate("showPage(true)")
        until(page, f"{WAKE}.join() === 'released,held'", "the wake lock was not asked for again when seen again")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_the_phone_buzzes_on_your_turn_unless_turned_off(browser: Browser, server: LiveServer) -> None:
    page, _ = seated(browser, server)
    try:
        start(page)
        play_until(page, lambda: aids(page)["buzz"] > 0, "no buzz when Ana's turn came (on by default)")
        # Turned off in the Alerts menu (atop the drawer, on a phone at the table): remembered on
        # the device, and turns come in silence.
        page.get_by_test_id("side-toggle").click()
        page.get_by_test_id("phone-toggle").click()
        switch = page.get_by_test_id("buzz-toggle")
        expect(switch).to_be_checked()
        expect(page.get_by_test_id("phone-menu")).to_contain_text("Buzz on my turn")
        switch.uncheck()
        assert page.evaluate("localStorage.getItem('uno.buzz')") == "off"
        page.keyboard.press("Escape")
        expect(page.get_by_test_id("phone-menu")).to_be_hidden()
        page.keyboard.press("Escape")  # and the drawer
        expect(page.get_by_test_id("side-toggle")).to_have_attribute("aria-expanded", "false")
        before = aids(page)["buzz"]
        moves = {"n": 0}

        def two_more_turns() -> bool:
            mine = page.evaluate("document.querySelector('[data-testid=table]').dataset.myTurn === 'true'")
            if mine:
                moves["n"] += 1
                step(page, page.evaluate(DECIDE, "Ana") or "draw", challenger=False)
                page.wait_for_timeout(300)
            return moves["n"] >= 2

        play_until(page, two_more_turns, "Ana had no two more turns")
        assert aids(page)["buzz"] == before
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_a_hidden_page_is_told_of_its_turn_when_notifications_were_asked_for(browser: Browser,
                                                                          server: LiveServer) -> None:
    page, _ = seated(browser, server, grant=True)
    try:
        page.get_by_test_id("phone-toggle").click()
        page.get_by_test_id("notify-offer").click()  # the opt-in: the browser asks, the test granted
        expect(page.get_by_test_id("notify-row")).to_have_attribute("data-state", "on")
        assert page.evaluate("localStorage.getItem('uno.notify')") == "on"
        page.keyboard.press("Escape")
        page.evaluate("showPage(false)")  # away before the deal: the first turn of the round is news
        start(page)
        until(page, "window.aids.notes.length > 0", "no notification when Ana's turn came")
        note = aids(page)["notes"][0]
        assert note["title"] == "Your turn — UNO Table" and "your turn" in note["body"], note
        assert page.title().startswith("● Your turn · ")
        assert page.evaluate(ICON) == "/static/img/icon-turn.svg"
        # Seen again: the notification goes, the icon and title are the table's own again.
        page.evaluate("showPage(true)")
        until(page, "window.aids.closed > 0", "the notification stayed after the page was seen")
        assert page.evaluate(ICON) == "/static/img/icon.svg"
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_no_notification_without_the_players_permission(browser: Browser, server: LiveServer) -> None:
    # The browser would allow them, but the player never asked: the title and icon say it, nothing else.
    page, _ = seated(browser, server, grant=True)
    try:
        page.evaluate("showPage(false)")
        start(page)
        until(page, "document.title.startsWith('● Your turn')", "the title never showed Ana's turn", 30)
        assert page.evaluate(ICON) == "/static/img/icon-turn.svg"
        page.wait_for_timeout(500)
        assert aids(page)["notes"] == []
        assert page.evaluate("Notification.permission") == "granted"
    finally:
        page.context.close()


def test_the_install_hint_shows_only_when_the_browser_offers_it(browser: Browser, server: LiveServer) -> None:
    page, _ = seated(browser, server)
    try:
        button = page.get_by_test_id("install-app")
        expect(button).to_be_hidden()
        # What Chromium sends when the site can be installed (it does not, headless).
        page.evaluate("""() => {
          const offer = new Event('beforeinstallprompt', { cancelable: true });
          offer.prompt = () => { window.prompted = (window.prompted || 0) + 1; };
          offer.userChoice = Promise.resolve({ outcome: 'accepted' });
          window.dispatchEvent(offer);
        }""")
        expect(button).to_be_visible()
        expect(button).to_have_text("Install")
        button.click()
        assert page.evaluate("window.prompted") == 1
        expect(button).to_be_hidden()
    finally:
        page.context.close()


def test_a_plain_http_address_plays_as_before_without_the_secure_offers(browser: Browser,
                                                                      server: LiveServer) -> None:
    page, _ = seated(browser, server, insecure=True)
    try:
        page.evaluate("window.dispatchEvent(Object.assign(new Event('beforeinstallprompt'), { prompt() {} }))")
        expect(page.get_by_test_id("install-app")).to_be_hidden()
        page.get_by_test_id("phone-toggle").click()
        expect(page.get_by_test_id("notify-offer")).to_have_count(0)
        expect(page.get_by_test_id("phone-insecure")).to_be_visible()
        expect(page.get_by_test_id("buzz-toggle")).to_be_visible()  # vibrating needs no secure context
        page.keyboard.press("Escape")
        start(page)
        page.wait_for_timeout(500)
        assert page.evaluate(WAKE) == [], "a wake lock was asked for outside a secure context"
        assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.getRegistrations()"
                             ".then((r) => r.length) : 0") == 0
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "device"), [("en", PHONE), ("pl", PHONE), ("sl", LAPTOP), ("gl", PHONE)])
def test_the_alerts_menu_is_in_reach_and_worded_in_every_language(browser: Browser, server: LiveServer,
                                                                  artifacts: Path, lang: str, device: str) -> None:
    words = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    code = new_room(server, "classic", seats=2, target_score=500)
    ana = take_seat(server, code, "Ana")
    add_bots(server, code, ana, 1)
    page = open_seat(browser, server, code, ana, device, lang)
    try:
        toggle = page.get_by_test_id("phone-toggle")
        expect(toggle).to_have_text(words["phone.menu"])  # in the waiting room, with its word
        toggle.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"alerts-{lang}-{device}-waiting.png"))
        start(page)
        # At the table: atop the side panel, which is a drawer on a phone.
        if device == PHONE:
            page.get_by_test_id("side-toggle").click()
        toggle = page.locator(".side [data-testid=phone-toggle]")
        expect(toggle).to_have_text(words["phone.menu"])
        toggle.click()
        menu = page.get_by_test_id("phone-menu")
        expect(menu).to_be_visible()
        expect(menu).to_contain_text(words["phone.buzz"])
        expect(page.get_by_test_id("notify-offer")).to_have_text(words["phone.notify_offer"])
        box = menu.bounding_box()
        view = page.viewport_size
        assert box and view and box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= view["width"] and box["y"] + box["height"] <= view["height"], box
        assert "phone." not in (menu.text_content() or "")
        page.screenshot(path=str(artifacts / f"alerts-{lang}-{device}-table.png"))
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        expect(toggle).to_be_focused()
        if device == PHONE:
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("side-toggle")).to_have_attribute("aria-expanded", "false")
        reach(page, f"{lang} on the {device}, the Alerts menu used")
    finally:
        page.context.close()
