"""The pages run under their Content-Security-Policy: nothing they do is refused by it."""

from __future__ import annotations

from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.browser.test_behaviour import create_room, join
from tests.live import LiveServer


def test_the_pages_break_no_rule_of_their_policy(browser: Browser, live_server: LiveServer) -> None:
    contexts = [browser.new_context(locale="en-GB", reduced_motion="reduce") for _ in range(2)]
    refused: list[str] = []

    def watch(page: Page) -> Page:
        # Chromium reports each refusal on the console ("Refused to ... Content Security Policy").
        page.on("console", lambda m: _note(m, refused))
        return page

    try:
        host, guest = (watch(c.new_page()) for c in contexts)  # two players: two browsers' storage
        host.goto(live_server.http + "/")
        policy = host.evaluate("fetch('/').then(r => r.headers.get('content-security-policy'))")
        assert "frame-ancestors 'none'" in policy
        join(guest, create_room(host, live_server, "Ana"), "Ben")
        host.get_by_test_id("start-button").click()  # the table: cards, their patterns, the socket
        expect(host.locator("#card-defs")).to_have_count(1)
        expect(host.locator("#card-defs")).to_have_css("position", "absolute")
        guest.goto(live_server.http + "/lobby")
        expect(guest.get_by_test_id("lobby-status")).to_be_visible()
        host.wait_for_timeout(300)
    finally:
        for c in contexts:
            c.close()
    assert refused == []


def _note(message: ConsoleMessage, refused: list[str]) -> None:
    if "Content Security Policy" in message.text:
        refused.append(message.text)
