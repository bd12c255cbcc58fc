"""The site as an installable app, in Chromium (127.0.0.1 is a secure context): the manifest as
the browser reads it, with icons that load at their sizes; the service worker at /sw.js
registered for the whole site and controlling the page; the client's files served from its
cache when the network is gone, the offline page for a page asked for, and never an /api answer,
a room's data, a socket or the vendored Pyodide from the cache.

These tests allow service workers (the others block them: tests/browser/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.web.pwa import release
from tests.browser.tables import DEVICES, LOCALES, PHONE, new_room, until
from tests.live import LiveServer

CACHED = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out.push([name, new URL(request.url).pathname]);
  }
  return out;
}"""
STATUS = "(path) => fetch(path, { cache: 'no-store' }).then((r) => r.status, (e) => e.name)"


def app_context(browser: Browser, lang: str = "en") -> BrowserContext:
    return browser.new_context(locale=LOCALES[lang], service_workers="allow", **DEVICES[PHONE])


def controlled(context: BrowserContext, url: str) -> Page:
    """A page at `url` once the site's worker is active and controls it."""
    page = context.new_page()
    page.goto(url)
    until(page, "!!navigator.serviceWorker.controller", "the service worker never took control", 30)
    return page


def test_the_manifest_parses_with_what_installing_needs_and_its_icons_load(browser: Browser,
                                                                           live_server: LiveServer) -> None:
    context = app_context(browser)
    try:
        page = context.new_page()
        page.goto(f"{live_server.http}/?lang=sl")
        cdp = context.new_cdp_session(page)
        got = cdp.send("Page.getAppManifest")
        assert got["url"] == f"{live_server.http}/manifest.webmanifest?lang=sl"
        assert got["errors"] == [], got["errors"]
        manifest = json.loads(got["data"])
        assert manifest["lang"] == "sl" and manifest["name"] and manifest["short_name"]
        assert (manifest["display"], manifest["start_url"], manifest["scope"]) == ("standalone", "/", "/")
        assert manifest["theme_color"] and manifest["background_color"]
        # Each icon loads in the page as a PNG of the size it claims.
        sizes: list[str] = []
        for icon in manifest["icons"]:
            seen: dict[str, Any] = page.evaluate("""async (src) => {
              const r = await fetch(src);
              const bitmap = await createImageBitmap(await r.blob());
              const size = `${bitmap.width}x${bitmap.height}`;
              return { status: r.status, type: r.headers.get('content-type'), size };
            }""", icon["src"])
            assert seen == {"status": 200, "type": "image/png", "size": icon["sizes"]}, (icon, seen)
            sizes.append(icon["sizes"])
        assert {"192x192", "512x512"} <= set(sizes)
    finally:
        context.close()


def test_the_worker_controls_the_site_and_serves_its_files_offline_but_never_data(
        browser: Browser, live_server: LiveServer, artifacts: Path) -> None:
    code = new_room(live_server, "classic", seats=2)
    context = app_context(browser)
    try:
        page = controlled(context, f"{live_server.http}/")
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == f"{live_server.http}/"
        # A room watched, an /api answer and the vendored Pyodide fetched while online...
        page.goto(f"{live_server.http}/r/{code}?watch=1")
        until(page, "!!navigator.serviceWorker.controller", "the room page is not controlled")
        assert page.evaluate(STATUS, f"/api/rooms/{code}") == 200
        assert page.evaluate(STATUS, "/static/vendor/pyodide/SOURCE.md") == 200
        page.reload()  # every file of the room page through the worker
        until(page, "document.querySelector('[data-testid=lang-select]') !== null", "the room page did not load")
        kept = page.evaluate(CACHED)
        paths = [path for _, path in kept]
        # ... and none of them is kept: only the client's own files and the offline page are.
        assert "/offline" in paths and "/static/css/app.css" in paths and "/static/js/pages/room.js" in paths
        for path in paths:
            assert path in ("/offline", "/manifest.webmanifest") or path.startswith("/static/"), path
            assert not path.startswith("/static/vendor/"), path
        assert {name for name, _ in kept} == {f"uno-{release()}"}  # the cache named by this release

        context.set_offline(True)
        # The client's files come from the cache; data, vendor and pages never do.
        assert page.evaluate(STATUS, "/static/css/app.css") == 200
        assert page.evaluate(STATUS, "/static/js/pages/room.js") == 200
        assert page.evaluate(STATUS, f"/api/rooms/{code}") == "TypeError"
        assert page.evaluate(STATUS, "/static/vendor/pyodide/SOURCE.md") == "TypeError"
        page.goto(f"{live_server.http}/r/{code}")
        expect(page.get_by_test_id("offline")).to_be_visible()
        expect(page.get_by_test_id("offline")).to_contain_text("No connection")
        page.goto(f"{live_server.http}/lobby")
        expect(page.get_by_test_id("offline-retry")).to_be_visible()
        page.screenshot(path=str(artifacts / "offline-phone.png"))
        # "Try again" while still offline: the offline page again; back online, the page comes by itself.
        page.evaluate("window.beforeRetry = true")
        page.get_by_test_id("offline-retry").click()
        until(page, "window.beforeRetry === undefined", "Try again did not load the page again")
        expect(page.get_by_test_id("offline")).to_be_visible()
        context.set_offline(False)
        expect(page).to_have_url(f"{live_server.http}/lobby")
        expect(page.get_by_test_id("nav-lobby")).to_have_attribute("aria-current", "page")
        expect(page.get_by_test_id("offline")).to_have_count(0)
    finally:
        context.close()


def test_a_new_worker_deletes_the_caches_of_other_releases(browser: Browser, live_server: LiveServer) -> None:
    context = app_context(browser)
    try:
        page = controlled(context, f"{live_server.http}/")
        page.evaluate("caches.open('uno-0123456789ab').then((c) => c.put('/static/old.js', new Response('old')))")
        # The worker gone and registered again: it installs and activates as a new release's would.
        page.evaluate("navigator.serviceWorker.getRegistrations()"
                      ".then((rs) => Promise.all(rs.map((r) => r.unregister())))")
        page.reload()
        until(page, "!!navigator.serviceWorker.controller", "the worker did not come back", 30)
        until(page, "caches.keys().then((k) => !k.includes('uno-0123456789ab'))", "an old release's cache was kept")
        names = page.evaluate("caches.keys()")
        assert len(names) == 1 and names[0].startswith("uno-"), names
    finally:
        context.close()
