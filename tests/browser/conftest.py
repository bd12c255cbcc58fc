"""Browser tests: Playwright driving Debian's Chromium (headless) against a live server.

``playwright install`` cannot download browsers here, so the system Chromium is used and
Playwright's own browser cache points at a throwaway directory.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("PLAYWRIGHT_BROWSERS_PATH", tempfile.mkdtemp(prefix="pw-browsers-"))

import pytest
from playwright.sync_api import expect

from tests.browser.servers import serve
from tests.live import LiveServer

CHROMIUM = os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Every expectation waits up to 20 s (Playwright's default: 5 s): a page on a busy machine
# gets there later, and one that never does still fails.
expect.set_options(timeout=20_000)


def _uses_browser(item: pytest.Item) -> bool:
    return "browser" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps an event loop running in the main thread for the rest of the
    # session, which breaks any later test that calls asyncio.run(): browser tests go last.
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
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    }


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    # A long pause between rounds, so the round summary stays up while the test looks at it.
    # Every page is on 127.0.0.1: one address creates every room of the session.
    yield from serve(between_rounds_seconds=120, rooms_per_address=1_000)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
