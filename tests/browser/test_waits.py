"""The suite's one default wait (conftest.WAIT_MS) reaches every way a test makes a page."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import WAIT_MS


def default_wait(context: BrowserContext) -> float | None:
    # Playwright offers no getter for it: its own settings object is read.
    return context._impl_obj._timeout_settings.default_timeout()


def test_every_context_and_page_waits_the_suites_default(browser: Browser, context: BrowserContext,
                                                         page: Page) -> None:
    made = browser.new_context(locale="en-GB")
    alone = browser.new_page()
    try:
        assert WAIT_MS >= 30_000  # a busy machine's navigation has taken over 10 s
        for c in (context, page.context, made, made.new_page().context, alone.context):
            assert default_wait(c) == WAIT_MS
    finally:
        made.close()
        alone.context.close()
