"""Players in the browser (docs/STATS.md), on a phone (390×664) and a laptop window (1366×657):
a player made on the player page, moved to a second browser by its one-time code (the QR
link's fragment), renamed and deleted; the home page remembers the name; the player page and
the leaderboard after real matches, in all four languages, with nothing wider than the screen
and every word from the catalogue."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from app.persistence.db import resolve_url
from app.web.lookalikes import tag_of
from tests.browser.test_play import new_player
from tests.browser.test_pseudo_locale import NOT_WORDS, UNMARKED
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_memory import open_room

VIEWPORTS = {"phone": {"width": 390, "height": 664}, "laptop": {"width": 1366, "height": 657}}
NAMES = ["Ana", "Bo", "Cy", "AN", "BO", "CY"]  # and the avatars' initials


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = remembering_server(resolve_url(None, tmp_path_factory.mktemp("players")), pseudo_locale=True,
                              leaderboard_min_matches=1, leaderboard_min_opponents=1)
    yield live
    live.stop()


@pytest.fixture(scope="module")
def played(server: LiveServer) -> dict[str, Any]:
    """Two matches of Ana, Bo and Cy over real sockets (in a thread: the browser owns this one's loop)."""
    out: dict[str, Any] = {}

    async def go() -> None:
        people = [Person(server, n) for n in NAMES[:3]]
        for seed in (1, 2):
            code = await open_room(server, 3)
            clients = [await p.join(code) for p in people]
            assert (await clients[0].request({"type": "start"}))["type"] == "ack"
            await asyncio.gather(*(play_bot(c, random.Random(f"{seed}/{i}")) for i, c in enumerate(clients)))
            for c in clients:
                await c.close()
        await settled(server, 2)
        out["ids"] = [(await p.me())["id"] for p in people]
        out["secret"] = people[0].http.cookies["uno_player"]
        for p in people:
            await p.close()

    worker = threading.Thread(target=lambda: asyncio.run(go()))
    worker.start()
    worker.join(180)
    assert "ids" in out, "the matches were not played"
    return out


def fits(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"


def words_not_from_the_catalogue(page: Page, names: list[str]) -> list[tuple[str, str]]:
    found = page.evaluate(UNMARKED, names)
    return [(whole, rest) for whole, rest in found if NOT_WORDS.sub("", rest)]


@pytest.mark.slow
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_a_player_is_made_moved_by_code_renamed_and_deleted(browser: Browser, server: LiveServer,
                                                           artifacts: Path, device: str) -> None:
    phone_ctx, first = new_player(browser, VIEWPORTS[device])  # type: ignore[arg-type]
    other_ctx, second = new_player(browser, VIEWPORTS[device])  # type: ignore[arg-type]
    try:
        first.goto(server.http + "/me?lang=en")
        expect(first.get_by_test_id("me-none")).to_be_visible()
        first.get_by_test_id("become-name").fill("Dora")
        first.get_by_test_id("become-submit").click()
        expect(first.get_by_test_id("me-name")).to_have_text("Dora")
        assert "uno_player" not in first.evaluate("() => document.cookie")  # HttpOnly: no script reads the secret
        first.get_by_test_id("make-code").click()
        code = first.get_by_test_id("move-code").inner_text()
        expect(first.get_by_test_id("move-qr")).to_be_visible()
        fits(first)
        first.screenshot(path=str(artifacts / f"players-me-{device}.png"))

        # The QR's link carries the code in its fragment; the page takes it out of the address bar.
        second.goto(server.http + f"/me?lang=en#code={code.replace('-', '')}")
        expect(second.get_by_test_id("claim-code")).to_have_value(code.replace("-", ""))
        assert "#" not in second.url
        second.get_by_test_id("claim-submit").click()
        expect(second.get_by_test_id("me-name")).to_have_text("Dora")

        # Used once: a third try with the same code is refused, in words.
        second.get_by_test_id("claim-code").fill(code)
        second.get_by_test_id("claim-submit").click()
        expect(second.get_by_test_id("claim-error")).not_to_be_empty()

        first.get_by_test_id("rename-name").fill("Dora B")
        first.get_by_test_id("rename-submit").click()
        expect(first.get_by_test_id("rename-saved")).not_to_be_empty()
        second.reload()
        expect(second.get_by_test_id("me-name")).to_have_text("Dora B")
        # The home page fills the remembered name in.
        second.goto(server.http + "/?lang=en")
        expect(second.get_by_test_id("create-name")).to_have_value("Dora B")
        expect(second.get_by_test_id("playing-as")).to_contain_text("Dora B")

        first.get_by_test_id("delete-me").click()
        first.get_by_test_id("delete-confirm").click()
        expect(first.get_by_test_id("me-none")).to_be_visible()
        second.goto(server.http + "/me?lang=en")
        expect(second.get_by_test_id("me-none")).to_be_visible()  # every browser of the player
        assert not first.errors and not second.errors  # type: ignore[attr-defined]
    finally:
        phone_ctx.close()
        other_ctx.close()


@pytest.mark.slow
@pytest.mark.parametrize("device", list(VIEWPORTS))
@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl", "xx"])
def test_the_player_page_and_the_leaderboard(browser: Browser, server: LiveServer, played: dict[str, Any],
                                            artifacts: Path, device: str, lang: str) -> None:
    context, page = new_player(browser, VIEWPORTS[device])  # type: ignore[arg-type]
    try:
        ana = played["ids"][0]
        page.goto(server.http + f"/players/{ana}?lang={lang}")
        expect(page.get_by_test_id("player-name")).to_have_text("Ana")
        expect(page.get_by_test_id("history-line")).to_have_count(2)
        expect(page.get_by_test_id("stats-classic")).to_be_visible()
        expect(page.get_by_test_id("group-row")).to_have_count(3)
        # Her own page shows her tag (from her id, app/web/lookalikes.py): a code, like a name not a word.
        expect(page.get_by_test_id("player-tag")).to_have_text(f"#{tag_of(ana)}")
        fits(page)
        if lang == "xx":
            assert not words_not_from_the_catalogue(page, [*NAMES, tag_of(ana)])
        page.screenshot(path=str(artifacts / f"players-page-{device}-{lang}.png"), full_page=True)

        page.goto(server.http + f"/leaderboard/classic?lang={lang}")
        rows = page.get_by_test_id("board-row")
        expect(rows).to_have_count(3)
        shown = [str(rows.nth(i).get_attribute("data-player")) for i in range(3)]
        assert sorted(shown) == sorted(played["ids"])
        ratings = [float(rows.nth(i).locator(".col-rating").inner_text().replace(",", ".").replace("\u2212", "-"))
                   for i in range(3)]
        assert ratings == sorted(ratings, reverse=True)
        expect(page.get_by_test_id("board-rule")).not_to_be_empty()
        expect(page.get_by_test_id("player-tag")).to_have_count(0)  # no look-alike names on the board
        fits(page)
        if lang == "xx":
            assert not words_not_from_the_catalogue(page, NAMES)
        page.goto(server.http + f"/leaderboard/pocket_pizza?lang={lang}")
        expect(page.get_by_test_id("board-empty")).to_be_visible()
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
