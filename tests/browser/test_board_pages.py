"""The leaderboard a page at a time in the browser (docs/STATS.md): next and previous walk the
pages, each page's ranks follow the last, and the pager says where it is — in all four languages
(and the pseudo-language: every word from the catalogue), on a phone and a laptop window, with
nothing wider than the screen."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import insert

from app.persistence.db import create_engine, resolve_url, upgrade
from app.persistence.player_models import PlayerRow, PlayerStandingRow
from tests.browser.test_play import new_player
from tests.browser.test_players import VIEWPORTS, fits, words_not_from_the_catalogue
from tests.live import LiveServer
from tests.players.conftest import remembering_server

RANKED, SIZE = 12, 5  # three pages: 5, 5 and 2
NAMES = [f"Ranked {i}" for i in range(RANKED)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = resolve_url(None, tmp_path_factory.mktemp("board"))

    async def put() -> None:
        await asyncio.to_thread(upgrade, url)
        engine = create_engine(url)
        async with engine.begin() as conn:
            await conn.execute(insert(PlayerRow), [{"id": f"r{i:03d}", "name": n} for i, n in enumerate(NAMES)])
            await conn.execute(insert(PlayerStandingRow), [
                {"player_id": f"r{i:03d}", "edition": "classic", "ranked": True, "mu": 30.0 - i, "sigma": 2.0,
                 "ordinal": 24.0 - i, "matches": 5, "opponents": 3, "counted": 5, "wins": 2}
                for i in range(RANKED)])
        await engine.dispose()

    seeding = threading.Thread(target=asyncio.run, args=(put(),))  # the browser owns this thread's loop
    seeding.start()
    seeding.join()
    live = remembering_server(url, pseudo_locale=True, leaderboard_size=SIZE)
    yield live
    live.stop()


@pytest.mark.parametrize("device", list(VIEWPORTS))
@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl", "xx"])
def test_next_and_previous_walk_the_leaderboards_pages(browser: Browser, server: LiveServer, artifacts: Path,
                                                        device: str, lang: str) -> None:
    context, page = new_player(browser, VIEWPORTS[device])  # type: ignore[arg-type]
    try:
        page.goto(server.http + f"/leaderboard/classic?lang={lang}")
        rows = page.get_by_test_id("board-row")
        expect(rows).to_have_count(SIZE)
        expect(rows.first).to_have_attribute("data-player", "r000")
        expect(page.get_by_test_id("board-prev")).to_have_count(0)  # the first page has none before it
        where = page.get_by_test_id("board-where")
        first_words = where.inner_text()
        assert "1" in first_words and "3" in first_words and str(RANKED) in first_words
        page.get_by_test_id("board-next").click()
        expect(rows.first).to_have_attribute("data-player", "r005")
        expect(rows.first.locator(".col-rank")).to_have_text("6")
        assert "page=2" in page.url and f"lang={lang}" in page.url
        page.get_by_test_id("board-next").click()
        expect(rows).to_have_count(RANKED - 2 * SIZE)
        expect(page.get_by_test_id("board-next")).to_have_count(0)  # the last page has none after it
        fits(page)
        if lang == "xx":
            initials = [f"R{d}" for d in "0123456789"]  # the avatars' letters, from the names
            assert not words_not_from_the_catalogue(page, [*NAMES, *initials])
        page.screenshot(path=str(artifacts / f"board-pages-{device}-{lang}.png"), full_page=True)
        page.get_by_test_id("board-prev").click()
        expect(rows.first).to_have_attribute("data-player", "r005")
        assert where.inner_text() != first_words
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
