"""The table on a big screen and the phones as controllers (RULES.md D-14): a 1920×1080 screen and
three 390×664 touch phones play a whole round; the screen shows every seat, the piles and the
current player in one screen, its text measured at 1920×1080 and 1280×720; the phones' cards in
the controller layout; ten seats fit; revoking the link closes the screen.  Screenshots of the
screen at both sizes and of a controller go to test-artifacts/."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from websockets.sync.client import connect

from tests.browser.house_table import ana_plays
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import PHONE, new_room, open_seat, take_seat, until
from tests.browser.test_cues import COUNT
from tests.live import LiveServer

TV: ViewportSize = {"width": 1920, "height": 1080}
SMALL_TV: ViewportSize = {"width": 1280, "height": 720}
MIN_FONT = {1920: 24.0, 1280: 18.0}  # the legibility floor, CSS px

# The smallest text on the screen the table needs: every text node shown (not inside a card's
# picture, not the language picker's options), by its element's computed size.
SMALLEST_TEXT = """() => {
  let min = Infinity, where = '';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('svg, [hidden], noscript, option, .visually-hidden')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width < 2 || r.height < 2 || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const size = parseFloat(style.fontSize);
    if (size < min) {
      min = size;
      where = `${el.className || el.tagName}: ${node.textContent.trim().slice(0, 40)}`;
    }
  }
  return { min, where };
}"""

# Everything the table needs, in the window, with nothing to scroll and no seat over another or the piles.
ONE_SCREEN = """() => {
  const problems = [];
  const inView = (r) => r.top >= -0.5 && r.left >= -0.5
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const px = (v) => Math.round(v);
  const seats = [...document.querySelectorAll('.sc-seat')];
  const piles = document.querySelector('.sc-piles');
  for (const el of [...seats, piles, document.querySelector('[data-testid=screen-head]')]) {
    if (!el) { problems.push('missing'); continue; }
    const r = el.getBoundingClientRect();
    if (!inView(r)) {
      problems.push(`${el.className} out of view: ${px(r.top)}..${px(r.bottom)}, `
        + `${px(r.left)}..${px(r.right)}`);
    }
    if (seats.includes(el) && meets(r, piles.getBoundingClientRect())) {
      problems.push(`seat ${el.dataset.seat} over the piles`);
    }
  }
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b) => {
    if (meets(a.getBoundingClientRect(), b.getBoundingClientRect())) {
      problems.push(`seats ${a.dataset.seat} and ${b.dataset.seat} overlap`);
    }
  }));
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight + 1 || page.scrollWidth > innerWidth + 1) {
    problems.push(`page scrolls: ${page.scrollWidth}×${page.scrollHeight}`);
  }
  return { problems, seats: seats.length, turn: document.querySelectorAll('.sc-seat.turn').length };
}"""

CARD_WIDTHS = """() => [...document.querySelectorAll('[data-testid=hand] [data-testid=card]')]
  .map((c) => c.getBoundingClientRect().width)"""

# A hand of `n` cards laid out in the controller layout (the hand's own cards cloned, measured and
# taken out again in one go): each card's width, whether all are in sight, and whether the page scrolls.
HAND_OF = """(n) => {
  const hand = document.querySelector('[data-testid=hand]');
  const first = hand.querySelector('[data-testid=card]');
  const clones = [];
  while (hand.children.length + clones.length < n) clones.push(first.cloneNode(true));
  hand.append(...clones);
  const cards = [...hand.children];
  const box = hand.getBoundingClientRect();
  const widths = cards.map((c) => c.getBoundingClientRect().width);
  const inSight = cards.every((c) => {
    const r = c.getBoundingClientRect();
    return r.top >= box.top - 14 && r.bottom <= box.bottom + 0.5;
  });
  const scrolls = hand.scrollHeight > hand.clientHeight + 1;
  const pageScrolls = document.scrollingElement.scrollHeight > innerHeight + 1;
  const rows = [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().bottom)))];
  clones.forEach((c) => c.remove());
  return { widths, inSight, scrolls, pageScrolls, box: [Math.round(box.top), Math.round(box.bottom)], rows };
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(**LIFTED, between_rounds_seconds=120, rooms_per_address=1_000, qr_per_minute=10_000)


def smallest(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate(SMALLEST_TEXT)
    return seen


def settled(page: Page) -> None:
    """Until no finite transition or animation runs on the screen (a seat lit up for its turn
    grows); the current seat's endless glow is left to glow."""
    until(page, "document.getAnimations().every((a) => a.playState !== 'running'"
          " || a.effect.getTiming().iterations === Infinity)",
          "the screen never came to rest")


def legible(page: Page, where: str, artifacts: Path, shot: str) -> dict[int, float]:
    """The screen at both sizes: its smallest text measured, a screenshot of each; back to 1920×1080."""
    sizes = {}
    for size in (TV, SMALL_TV):
        page.set_viewport_size(size)
        until(page, f"innerWidth === {size['width']}", "the window did not resize")
        settled(page)  # a seat lit up for its turn grows over 0.3 s
        seen = smallest(page)
        assert seen["min"] >= MIN_FONT[size["width"]], f"{where} at {size['width']}: {seen}"
        sizes[size["width"]] = seen["min"]
        page.screenshot(path=str(artifacts / f"{shot}-{size['width']}x{size['height']}.png"))
    page.set_viewport_size(TV)
    return sizes


def screen_link(page: Page) -> str:
    """The host opens "Show on a big screen" on their phone and reads the link."""
    page.get_by_test_id("screen-button").click()
    url = page.get_by_test_id("screen-url").input_value()
    expect(page.get_by_test_id("screen-qr-code")).to_be_visible()
    page.get_by_test_id("screen-close").click()
    return url


def open_screen(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport=TV, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # Chromium reports each refusal of the page's Content-Security-Policy on the console.
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


@pytest.mark.parametrize("edition", ["classic", "mario_kart", "all_wild", "pocket_pizza"])
def test_a_screen_and_three_phones_play_a_round__D_14(browser: Browser, server: LiveServer, artifacts: Path,
                                                      edition: str) -> None:
    code = new_room(server, edition, seats=3, turn_seconds=60, name="Sofa night")
    seats = [take_seat(server, code, name) for name in ("Ana", "Bruno", "Cleo")]
    phones = [open_seat(browser, server, code, seat, PHONE) for seat in seats]
    url = screen_link(phones[0])
    assert "/screen?key=" in url and "lang=en" in url
    tv = open_screen(browser, url)
    audited = server.audit.screen_frames
    try:
        expect(tv.get_by_test_id("screen-lobby")).to_be_visible()
        expect(tv.get_by_test_id("screen-player")).to_have_count(3)
        expect(tv.get_by_test_id("screen-room-name")).to_have_text("Sofa night")
        expect(tv.get_by_test_id("screen-qr")).to_be_visible()
        expect(tv.get_by_test_id("screen-code")).to_have_text(code)
        lobby_sizes = legible(tv, "the lobby", artifacts, f"screen-lobby-{edition}")
        # Everyone's page says a screen is on; the host starts.
        for phone in phones:
            expect(phone.get_by_test_id("screen-state")).to_be_visible()
        phones[0].get_by_test_id("start-button").click()
        expect(tv.get_by_test_id("screen-board")).to_be_visible()
        for phone in phones:
            expect(phone.get_by_test_id("table")).to_be_visible()
            until(phone, "document.body.dataset.layout === 'controller'", "no controller layout on a phone")
            widths = phone.evaluate(CARD_WIDTHS)
            assert widths and min(widths) >= 80, widths
        seen = tv.evaluate(ONE_SCREEN)
        assert not seen["problems"] and seen["seats"] == 3, seen
        phones[1].screenshot(path=str(artifacts / f"controller-{edition}-390x664.png"))
        twelve = phones[1].evaluate(HAND_OF, 12)
        assert min(twelve["widths"]) >= 80 and twelve["inSight"] and not twelve["pageScrolls"], twelve
        more = phones[1].evaluate(HAND_OF, 20)
        assert min(more["widths"]) >= 80 and more["scrolls"] and not more["pageScrolls"], more
        # Cleo goes back to the full table, which her phone remembers, and comes back to the controller.
        cleo = phones[2]
        cleo.get_by_test_id("layout-toggle").click()
        until(cleo, "document.body.dataset.layout === undefined", "the full table did not come back")
        expect(cleo.locator("[data-testid=opponent]")).to_have_count(2)
        cleo.reload()
        expect(cleo.get_by_test_id("layout-toggle")).to_be_visible()
        assert cleo.evaluate("document.body.dataset.layout") is None  # remembered on this device
        cleo.get_by_test_id("layout-toggle").click()
        until(cleo, "document.body.dataset.layout === 'controller'", "the controller did not come back")
        # A reaction from Bruno's phone shows, large, at his seat on the screen.
        phones[1].get_by_test_id("react-toggle").click()
        phones[1].get_by_test_id("react-option").first.click()
        bubble = tv.locator(f".sc-seat[data-seat='{seats[1]['seat']}'] [data-testid=screen-reaction]")
        expect(bubble).to_be_visible()
        # They play the round from their phones; the screen follows every turn.
        stats: dict[str, int] = {}
        shot = False
        deadline = time.monotonic() + 300
        while tv.get_by_test_id("screen-board").get_attribute("data-status") == "playing":
            assert time.monotonic() < deadline, "the round never ended"
            moved = any([ana_plays(phone, stats) for phone in phones])
            if not shot and moved:
                seen = tv.evaluate(ONE_SCREEN)
                assert not seen["problems"] and seen["seats"] == 3, seen
                playing = tv.get_by_test_id("screen-board").get_attribute("data-status") == "playing"
                assert seen["turn"] == (1 if playing else 0), seen
                game_sizes = legible(tv, "the table", artifacts, f"screen-table-{edition}")
                shot = True
            if not moved:
                time.sleep(0.05)
        assert shot, "no turn was played"
        # The round's end: the summary (the match's podium: target 1) on the screen, in one screen.
        expect(tv.get_by_test_id("round-summary")).to_be_visible()
        expect(tv.get_by_test_id("waiting-rematch")).to_be_visible()
        end = smallest(tv)
        assert end["min"] >= MIN_FONT[1920], end
        assert tv.evaluate("document.scrollingElement.scrollHeight <= innerHeight + 1")
        tv.screenshot(path=str(artifacts / f"screen-podium-{edition}-1920x1080.png"))
        assert server.audit.screen_frames > audited + 5  # the frame audit saw the screen's frames (C-16)
        for page in (tv, *phones):
            assert not page.errors, page.errors  # type: ignore[attr-defined]
        print(json.dumps({"edition": edition, "lobby_min_px": lobby_sizes, "table_min_px": game_sizes,
                          "podium_min_px": end["min"]}))
    finally:
        for page in (tv, *phones):
            page.context.close()


def test_ten_seats_fit_one_screen_at_both_sizes(
        browser: Browser, server: LiveServer, artifacts: Path) -> None:
    code = new_room(server, "classic", seats=10, away_grace_seconds=1)
    host = take_seat(server, code, "Ana Maria de la Cruz")
    auth = {"Authorization": f"Bearer {host['token']}"}
    for _ in range(9):
        assert httpx.post(f"{server.http}/api/rooms/{code}/bots", headers=auth).status_code == 201
    link = httpx.post(f"{server.http}/api/rooms/{code}/screen", headers=auth).json()
    tv = open_screen(browser, server.http + link["path"] + "&lang=pl")
    try:
        expect(tv.get_by_test_id("screen-player")).to_have_count(10)
        legible(tv, "ten seats waiting", artifacts, "screen-lobby-10-seats")
        with connect(f"{server.ws}/ws/rooms/{code}?token={host['token']}") as ws:
            ws.send(json.dumps({"type": "start", "id": "s1"}))
            expect(tv.get_by_test_id("screen-board")).to_be_visible()
        for size in (TV, SMALL_TV):
            tv.set_viewport_size(size)
            until(tv, f"innerWidth === {size['width']}", "the window did not resize")
            settled(tv)
            seen = tv.evaluate(ONE_SCREEN)
            assert not seen["problems"] and seen["seats"] == 10, (size, seen)
        legible(tv, "ten seats at play", artifacts, "screen-table-10-seats")
        assert tv.evaluate("document.documentElement.lang") == "pl"
    finally:
        tv.context.close()


def test_revoking_the_link_closes_the_screen_and_it_can_watch_instead(browser: Browser,
                                                                     server: LiveServer) -> None:
    code = new_room(server, "classic", seats=3)
    seats = [take_seat(server, code, name) for name in ("Ana", "Bruno")]
    phones = [open_seat(browser, server, code, seat, PHONE) for seat in seats]
    url = screen_link(phones[0])
    expect(phones[1].get_by_test_id("screen-button")).to_be_hidden()  # the host's alone
    tv = open_screen(browser, url)
    try:
        expect(tv.get_by_test_id("screen-lobby")).to_be_visible()
        expect(phones[1].get_by_test_id("screen-state")).to_be_visible()
        phones[0].get_by_test_id("screen-button").click()
        phones[0].get_by_test_id("screen-revoke").click()
        expect(tv.get_by_test_id("screen-revoked")).to_be_visible()
        expect(phones[1].get_by_test_id("screen-state")).to_be_hidden()
        tv.get_by_test_id("screen-watch").click()
        expect(tv.get_by_test_id("screen-lobby")).to_be_visible()
        expect(tv.get_by_test_id("screen-note")).to_be_visible()  # a spectator, and told so
        # Without a key at all: a spectator from the start.
        tv.goto(f"{server.http}/r/{code}/screen")
        expect(tv.get_by_test_id("screen-note")).to_be_visible()
        assert not tv.errors  # type: ignore[attr-defined]
    finally:
        for page in (tv, *phones):
            page.context.close()


def test_the_screen_sounds_the_table_only_once_turned_on__D_14(browser: Browser, server: LiveServer) -> None:
    """The screen's optional sound: silent by default while cards are played; the corner's
    loudspeaker turns on the table's cues (cards played, UNO!), as a seat's toggle does."""
    code = new_room(server, "classic", seats=2, turn_seconds=60)
    seats = [take_seat(server, code, name) for name in ("Ana", "Bruno")]
    phones = [open_seat(browser, server, code, seat, PHONE) for seat in seats]
    context = browser.new_context(viewport=TV, locale="en-GB")
    context.add_init_script(COUNT)
    tv = context.new_page()
    try:
        tv.goto(screen_link(phones[0]))
        toggle = tv.get_by_test_id("cue-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        phones[0].get_by_test_id("start-button").click()
        expect(tv.get_by_test_id("screen-board")).to_be_visible()
        stats: dict[str, int] = {}

        def play(moves: int, until: str = "false") -> None:
            """The phones play `moves` moves, or until `until` holds on the screen."""
            deadline = time.monotonic() + 60
            while moves > 0 and not tv.evaluate(until):
                assert time.monotonic() < deadline, f"the table stalled ({until})"
                assert tv.get_by_test_id("screen-board").get_attribute("data-status") == "playing"
                moved = sum(ana_plays(phone, stats) for phone in phones)
                moves -= moved
                if not moved:
                    time.sleep(0.05)

        play(4)  # off: the table moves on in silence
        assert tv.evaluate("window.cueCalls") == {"contexts": 0, "sounds": 0, "vibrations": 0}
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        play(10_000, until="window.cueCalls.sounds > 0")
        assert tv.evaluate("window.cueCalls.sounds") > 0, "cards were played on the screen without a sound"
        assert tv.evaluate("window.cueCalls.vibrations") == 0  # a screen never buzzes
    finally:
        for page in (tv, *phones):
            page.context.close()
