"""Spectators and table annoyances in a real browser: the offer to watch a full room, the
watching mode (hand sizes only), refusals explained, dimmed cards that keep their colour, and
the chat's unread badge on a phone."""

from __future__ import annotations

import colorsys
import re
import struct
import zlib
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser.test_behaviour import create_room, join
from tests.live import LiveServer

PHONE: ViewportSize = {"width": 390, "height": 664}
LAPTOP: ViewportSize = {"width": 1100, "height": 900}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for c in made:
        c.close()


def page_for(browser: Browser, contexts: list[BrowserContext], viewport: ViewportSize = LAPTOP,
             locale: str = "en-GB") -> Page:
    context = browser.new_context(locale=locale, reduced_motion="reduce", viewport=viewport,
                                  has_touch=viewport["width"] < 500)
    contexts.append(context)
    return context.new_page()


def two_players(browser: Browser, contexts: list[BrowserContext], live_server: LiveServer,
                viewport: ViewportSize = LAPTOP, start: bool = True) -> tuple[Page, Page, str]:
    host, guest = page_for(browser, contexts, viewport), page_for(browser, contexts, viewport)
    link = create_room(host, live_server, "Ana")
    join(guest, link, "Ben")
    if start:
        host.get_by_test_id("start-button").click()
        for page in (host, guest):
            expect(page.get_by_test_id("table")).to_be_visible()
            # Seven cards dealt; nine when the first card turned up is a Draw Two for this seat.
            expect(page.locator("[data-testid=card]").first).to_be_visible()
            assert page.locator("[data-testid=card]").count() in (7, 9)
    return host, guest, link


def test_a_full_room_offers_to_watch_and_watching_shows_hand_sizes_only(
        browser: Browser, contexts: list[BrowserContext], live_server: LiveServer) -> None:
    host, guest, link = two_players(browser, contexts, live_server, start=False)
    visitor = page_for(browser, contexts)
    visitor.goto(link)
    # Full: said so, with a way to watch — no name form, no silent spectating.
    expect(visitor.get_by_test_id("watch-reason")).to_have_text("This room is full (2 seats). You can watch the game "
                                                                 "instead.")
    expect(visitor.get_by_test_id("join-seat-form")).to_have_count(0)
    expect(visitor.get_by_test_id("watching-banner")).to_have_count(0)
    visitor.get_by_test_id("watch-offer-button").click()
    expect(visitor.get_by_test_id("watching-banner")).to_have_text("You are watching")
    # The players see one watcher (the count is published within a second).
    expect(host.get_by_test_id("watcher-count")).to_have_text("1 watching")

    host.get_by_test_id("start-button").click()
    expect(visitor.get_by_test_id("table")).to_be_visible()
    expect(visitor.get_by_test_id("watching-banner")).to_be_visible()
    # Hand sizes only: both seats as opponents with their counts, no hand, no action bar.
    opponents = visitor.locator("[data-testid=opponent]")
    expect(opponents).to_have_count(2)
    for seat, page in enumerate((host, guest)):
        held = page.locator("[data-testid=card]").count()
        seen = visitor.locator(f"[data-testid=opponent][data-seat='{seat}']")
        expect(seen).to_have_attribute("data-cards", str(held))
    expect(visitor.get_by_test_id("hand")).to_be_hidden()
    expect(visitor.get_by_test_id("uno-button")).to_be_hidden()
    expect(visitor.get_by_test_id("draw-button")).to_be_hidden()
    expect(visitor.locator("[data-testid=card]")).to_have_count(0)
    expect(host.get_by_test_id("watcher-count")).to_have_text("1 watching")

    # Once the match has started, the link itself offers to watch.
    late = page_for(browser, contexts, locale="pl-PL")
    late.goto(link)
    expect(late.get_by_test_id("watch-reason")).to_have_text("Ta gra już się zaczęła. Możesz ją oglądać.")
    late.get_by_test_id("watch-offer-button").click()
    expect(late.get_by_test_id("watching-banner")).to_have_text("Oglądasz grę")
    expect(host.get_by_test_id("watcher-count")).to_have_text("2 watching")


def test_spectator_chat_follows_the_hosts_switch(browser: Browser, contexts: list[BrowserContext],
                                                live_server: LiveServer) -> None:
    host, _guest, link = two_players(browser, contexts, live_server, start=False)
    visitor = page_for(browser, contexts)
    visitor.goto(link + "?watch")
    expect(visitor.get_by_test_id("watching-banner")).to_be_visible()
    expect(visitor.get_by_test_id("chat-input")).to_be_disabled()
    host.get_by_test_id("spectator-options-toggle").click()  # the host's settings fold in the side panel
    host.get_by_test_id("spectator-chat-toggle").check()
    expect(visitor.get_by_test_id("chat-input")).to_be_enabled()
    visitor.get_by_test_id("chat-input").fill("go Ana!")
    visitor.get_by_test_id("chat-send").click()
    expect(host.get_by_test_id("chat-list")).to_contain_text("Spectator 1: go Ana!")


def my_turn(page: Page) -> bool:
    return page.get_by_test_id("table").get_attribute("data-my-turn") == "true"


def test_a_refused_card_says_why(browser: Browser, contexts: list[BrowserContext], live_server: LiveServer) -> None:
    host, guest, _ = two_players(browser, contexts, live_server)
    expect(host.get_by_test_id("status-line")).not_to_have_text("")
    mover, waiter = (host, guest) if my_turn(host) else (guest, host)
    mover_name = "Ana" if mover is host else "Ben"
    # Not your turn: named who plays now.
    waiter.locator("[data-testid=card]").first.click(force=True)  # aria-disabled, yet a tap answers
    expect(waiter.get_by_test_id("toasts")).to_contain_text(f"Not your turn — {mover_name} plays now.")
    # Your turn, a card that does not match: the colour and the face it must match.
    dim = mover.locator("[data-testid=card][data-playable=false]")
    if mover.get_by_test_id("table").get_attribute("data-pending-kind") == "turn" and dim.count():
        top = mover.get_by_test_id("discard").get_by_role("img").get_attribute("aria-label") or ""
        dim.first.click(force=True)
        expect(mover.get_by_test_id("toasts")).to_contain_text(
            re.compile(r"It must match the (red|yellow|green|blue) colour(?: or the .+| chosen for the wild card)\."))
        colour = re.search(r"(red|yellow|green|blue)", mover.get_by_test_id("toasts").inner_text())
        assert colour is not None and (colour.group(1) in top or "wild" in top.lower()), top
    # In Slovenian too.
    waiter.get_by_test_id("lang-select").select_option("sl")
    expect(waiter.locator("html")).to_have_attribute("lang", "sl")
    expect(waiter.locator("[data-testid=card]").first).to_be_visible()
    waiter.locator("[data-testid=card]").first.click(force=True)  # aria-disabled, yet a tap answers
    expect(waiter.get_by_test_id("toasts")).to_contain_text(f"Nisi na potezi — zdaj igra {mover_name}.")


# ---------------------------------------------------------------------- pixels of a screenshot


def png_pixels(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium's screenshots are) into rows of RGB."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type in (2, 6)
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, [[tuple(r[x * channels:x * channels + 3]) for x in range(width)]  # type: ignore[misc]
                           for r in rows]


def luminance(rgb: tuple[int, int, int]) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def hue(rgb: tuple[int, int, int]) -> tuple[float, float]:
    """Hue in degrees and (HSV) saturation: darkening keeps both, greying or fading into the felt does not."""
    h, s, _v = colorsys.rgb_to_hsv(*(v / 255 for v in rgb))
    return h * 360, s


def test_dimmed_cards_keep_their_colour_and_stand_off_the_table(browser: Browser, contexts: list[BrowserContext],
                                                                 live_server: LiveServer) -> None:
    host, guest, _ = two_players(browser, contexts, live_server)
    waiter = guest if my_turn(host) else host
    # Not their turn: every card is dimmed.
    card = waiter.locator("[data-testid=card][data-playable=false]:not([data-colour=wild])").first
    expect(card).to_be_visible()
    colour = card.get_attribute("data-colour")
    expected = waiter.evaluate(f"getComputedStyle(document.documentElement).getPropertyValue('--c-{colour}')").strip()
    want = tuple(int(expected[i:i + 2], 16) for i in (1, 3, 5))
    waiter.evaluate("document.querySelectorAll('.card-btn').forEach(el => el.style.transition = 'none')")
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box is not None
    shot = waiter.screenshot(
        clip={"x": box["x"] - 8, "y": box["y"] - 8, "width": 16 + min(box["width"], 30), "height": box["height"] + 16})
    _w, _h, px = png_pixels(shot)
    felt = px[2][2]  # the table just outside the card
    row = px[8 + int(box["height"] * 0.5)]
    frame = max(row[8:14], key=luminance)  # the card's white edge
    fill = px[8 + int(box["height"] * 0.3)][8 + 7]  # its coloured field, left of the oval
    assert contrast(frame, felt) >= 3.0, (frame, felt)
    (want_hue, _), (got_hue, got_sat) = hue(want), hue(fill)  # type: ignore[arg-type]
    off = min(abs(want_hue - got_hue), 360 - abs(want_hue - got_hue))
    assert off <= 12 and got_sat >= 0.5, f"{colour} dimmed reads as {fill} ({off:.0f}° off, saturation {got_sat:.2f})"


def test_the_chat_badge_counts_unread_lines_on_a_phone(browser: Browser, contexts: list[BrowserContext],
                                                       live_server: LiveServer) -> None:
    host, guest, _ = two_players(browser, contexts, live_server, viewport=PHONE)
    host.evaluate("window.scrollTo(0, 0)")
    badge = host.get_by_test_id("chat-unread")
    expect(badge).to_be_hidden()
    guest.get_by_test_id("side-toggle").click()  # at the table a phone's chat is in the drawer
    for text in ("hi Ana", "good luck"):
        guest.get_by_test_id("chat-input").fill(text)
        guest.get_by_test_id("chat-input").press("Enter")
    expect(badge).to_be_visible()
    expect(badge).to_have_attribute("data-count", "2")
    expect(badge).to_have_attribute("aria-label", "Unread chat messages: 2")
    box = badge.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert box["x"] + box["width"] <= PHONE["width"]
    # The sender has seen their own lines: no badge there.
    expect(guest.get_by_test_id("chat-unread")).to_be_hidden()
    badge.click()
    expect(host.get_by_test_id("chat")).to_be_in_viewport()
    expect(badge).to_be_hidden()
    # Seen means cleared: a new line counts from one again.
    host.get_by_test_id("drawer-close").click()
    expect(host.get_by_test_id("chat")).not_to_be_in_viewport()  # closed before the next line comes
    guest.get_by_test_id("chat-input").fill("your turn")
    guest.get_by_test_id("chat-input").press("Enter")
    expect(badge).to_have_attribute("data-count", "1")
    # Opening the drawer to the chat reads it too.
    host.get_by_test_id("side-toggle").click()
    expect(badge).to_be_hidden()


def test_the_hosts_spectator_delay_holds_the_watchers_table_back(browser: Browser, contexts: list[BrowserContext],
                                                                 live_server: LiveServer) -> None:
    host, _guest, link = two_players(browser, contexts, live_server, start=False)
    host.get_by_test_id("spectator-options-toggle").click()
    host.get_by_test_id("spectator-delay").select_option("5")
    expect(host.get_by_test_id("spectator-delay")).to_have_value("5")
    visitor = page_for(browser, contexts)
    visitor.goto(link + "?watch")
    # Nothing of the table for 5 s: a note says why, then the table comes, marked as late.
    expect(visitor.get_by_test_id("watch-delay")).to_have_text("Spectators see this table 5 s late: it appears in 5 s.")
    visitor.wait_for_timeout(3000)
    expect(visitor.get_by_test_id("watching-banner")).to_have_count(0)
    expect(visitor.get_by_test_id("watching-banner")).to_have_text("You are watching (the table is shown 5 s late)")
    expect(host.get_by_test_id("watcher-count")).to_have_text("1 watching")
