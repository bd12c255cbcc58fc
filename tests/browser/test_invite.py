"""The waiting room's invite: the link friends can open, to copy or hand to the phone's share sheet."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from app.config import Settings
from app.web.invite import qr_svg
from tests.live import LiveServer

PUBLIC = "http://192.168.1.20:8000"


def test_the_invite_link_is_the_configured_public_url(browser: Browser) -> None:
    server = LiveServer(Settings(public_url=PUBLIC + "/", _env_file=None,  # type: ignore[call-arg]
                                 rooms_per_address=1_000)).start()
    context = browser.new_context(viewport={"width": 390, "height": 664}, has_touch=True, locale="en-GB",
                                  reduced_motion="reduce")
    # Headless Chromium has no share sheet: a stand-in records what the page would share.
    context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    try:
        page = context.new_page()
        page.goto(server.http + "/")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        code = page.get_by_test_id("room-code").inner_text()
        expect(page.get_by_test_id("share-link")).to_have_value(f"{PUBLIC}/r/{code}")
        expect(page.get_by_test_id("copy-link")).to_be_visible()
        page.get_by_test_id("share-native").click()
        page.wait_for_function("() => window.shared !== undefined")
        assert page.evaluate("window.shared.url") == f"{PUBLIC}/r/{code}"
        # The QR code on screen encodes the same link.
        qr = page.get_by_test_id("share-qr")
        expect(qr).to_be_hidden()  # folded until asked for
        page.get_by_test_id("share-qr-toggle").click()
        expect(qr).to_be_visible()
        page.wait_for_function("() => document.querySelector('[data-testid=share-qr]').naturalWidth > 0")
        svg = page.request.get(f"{server.http}/rooms/{code}/qr.svg")
        assert svg.headers["content-type"] == "image/svg+xml"
        assert svg.body() == qr_svg(f"{PUBLIC}/r/{code}")
    finally:
        context.close()
        server.stop()


def test_without_a_public_url_the_invite_uses_the_browsers_address(browser: Browser,
                                                                    live_server: LiveServer) -> None:
    context = browser.new_context(locale="en-GB", reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(live_server.http + "/")
        page.get_by_test_id("edition-classic").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        code = page.get_by_test_id("room-code").inner_text()
        expect(page.get_by_test_id("share-link")).to_have_value(f"{live_server.http}/r/{code}")
        svg = page.request.get(f"{live_server.http}/rooms/{code.lower()}/qr.svg")
        assert svg.body() == qr_svg(f"{live_server.http}/r/{code}")
        assert page.request.get(f"{live_server.http}/rooms/not-a-code!/qr.svg").status == 404
        if not page.evaluate("typeof navigator.share === 'function'"):
            expect(page.get_by_test_id("share-native")).to_have_count(0)
    finally:
        context.close()
