"""Browser tests: Playwright driving Debian's Chromium (headless) against a live server.

``playwright install`` cannot download browsers here, so the system Chromium is used and
Playwright's own browser cache points at a throwaway directory.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from functools import wraps
from pathlib import Path
from typing import Any

os.environ.setdefault("PLAYWRIGHT_BROWSERS_PATH", tempfile.mkdtemp(prefix="pw-browsers-"))

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.live import LiveServer

CHROMIUM = os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# How long any browser action (a click, a fill, a goto, a wait_for_url) and any expectation
# waits, set here once for every test: on a busy CI machine (two cores, load 10) creating a room
# and landing on its page has taken over 10 s.  A page that never gets there still fails.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


def _uses_browser(item: pytest.Item) -> bool:
    # ``browser_type``: a test that launches a browser of its own (test_lan_https.py) as well.
    fixtures = getattr(item, "fixturenames", ())
    return "browser" in fixtures or "browser_type" in fixtures


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps an event loop running in the main thread for the rest of the
    # session, which breaks any later test that calls asyncio.run(): browser tests go last.  (Under
    # pytest-xdist each worker runs the tests it is given in this order too.)
    items[:] = [i for i in items if not _uses_browser(i)] + [i for i in items if _uses_browser(i)]
    for item in items:  # a browser per test: not in the quick subset (-m "not slow")
        if _uses_browser(item):
            item.add_marker(pytest.mark.slow)
    if Path(CHROMIUM).exists():
        return
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (scripts/test.sh installs it)")
    for item in items:
        if _uses_browser(item):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """No base URL: each test opens its own server's address.  (pytest-playwright's fallback for it is
    a method of a class, which pytest deprecates for session fixtures: this one takes its place.)"""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    }


@pytest.fixture(scope="session")
def browser(browser: Browser) -> Browser:
    """The session's browser, each context it makes (pytest-playwright's ``context`` and ``page``,
    a test's own ``browser.new_context(...)``, ``browser.new_page()``) waiting WAIT_MS by default.
    A test should not lower it again with its own ``set_default_timeout``.

    Service workers are blocked unless a test asks for them (``service_workers="allow"``, as
    test_installable.py does): a request the site's worker answers never reaches ``page.route``,
    which several tests use to hold a catalogue back."""
    new_context, new_page = browser.new_context, browser.new_page

    @wraps(new_context)
    def patient_context(*args: Any, **kwargs: Any) -> BrowserContext:
        kwargs.setdefault("service_workers", "block")
        context = new_context(*args, **kwargs)
        context.set_default_timeout(WAIT_MS)
        return context

    @wraps(new_page)
    def patient_page(*args: Any, **kwargs: Any) -> Page:
        kwargs.setdefault("service_workers", "block")
        page = new_page(*args, **kwargs)  # (in a context of its own, made without new_context)
        page.context.set_default_timeout(WAIT_MS)
        return page

    browser.new_context = patient_context  # type: ignore[method-assign]
    browser.new_page = patient_page  # type: ignore[method-assign]
    return browser


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    # A long pause between rounds, so the round summary stays up while the test looks at it.
    # Every page is on 127.0.0.1: one address creates every room of the session, and a quick
    # stretch of the suite creates more than the default 20 a minute.
    yield from serve(**LIFTED, between_rounds_seconds=120, rooms_per_address=1_000)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
