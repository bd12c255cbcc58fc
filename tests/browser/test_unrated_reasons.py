"""Why a match did not count, or was not rated, on the player page (docs/STATS.md, "Inflating a
rating"): with the server's checks as shipped, a match played at a person's pace is a new
player's first (in the stats, not rated) and one a script played is not counted; each line says
so in words from the catalogue, on a phone and a laptop window."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from app.persistence.db import resolve_url
from app.web.lookalikes import tag_of
from tests.browser.test_play import new_player
from tests.browser.test_players import VIEWPORTS, fits, words_not_from_the_catalogue
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server, settled
from tests.players.test_farm import SHIPPED, by_hand, two_round_room


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = remembering_server(resolve_url(None, tmp_path_factory.mktemp("unrated")), pseudo_locale=True,
                              **SHIPPED)
    yield live
    live.stop()


@pytest.fixture(scope="module")
def ana(server: LiveServer) -> str:
    """Ana and Bo: one match at a person's pace, then one played by a script (in a thread: the
    browser owns this one's loop)."""
    out: dict[str, Any] = {}

    async def go() -> None:
        people = [Person(server, "Ana"), Person(server, "Bo")]
        for n, pace in enumerate((True, False)):
            code = await two_round_room(server, 2)
            clients = [await p.join(code) for p in people]
            assert (await clients[0].request({"type": "start"}))["type"] == "ack"
            rngs = [random.Random(f"{n}/{i}") for i in range(len(clients))]
            await asyncio.gather(*((by_hand(c, rng, (0.16, 0.24)) if pace else play_bot(c, rng))
                                   for c, rng in zip(clients, rngs, strict=True)))
            for c in clients:
                await c.close()
        await settled(server, 2, timeout=60)
        out["ana"] = (await people[0].me())["id"]
        for p in people:
            await p.close()

    worker = threading.Thread(target=lambda: asyncio.run(go()))
    worker.start()
    worker.join(240)
    assert "ana" in out, "the matches were not played"
    return str(out["ana"])


@pytest.mark.slow
@pytest.mark.parametrize("device", list(VIEWPORTS))
@pytest.mark.parametrize("lang", ["en", "xx"])
def test_the_history_says_why_a_match_was_not_counted_or_not_rated(
        browser: Browser, server: LiveServer, ana: str, artifacts: Path, device: str, lang: str) -> None:
    context, page = new_player(browser, VIEWPORTS[device])  # type: ignore[arg-type]
    try:
        page.goto(server.http + f"/players/{ana}?lang={lang}")
        expect(page.get_by_test_id("history-line")).to_have_count(2)
        lines = page.get_by_test_id("history-line")
        scripted, first = lines.nth(0), lines.nth(1)
        expect(scripted.get_by_test_id("not-counted")).to_contain_text("person")
        expect(first.get_by_test_id("not-rated")).to_contain_text("first match")
        fits(page)
        if lang == "xx":
            # Her tag (from her id) is a code, like a name, not a word.
            assert not words_not_from_the_catalogue(page, ["Ana", "Bo", "AN", "BO", tag_of(ana)])
        page.screenshot(path=str(artifacts / f"unrated-reasons-{device}-{lang}.png"), full_page=True)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
