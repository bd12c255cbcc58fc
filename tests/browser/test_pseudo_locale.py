"""Every word on the room page comes from the catalogue: a round of each edition in a pseudo-language.

The server, started with ``pseudo_locale``, serves a language ``xx`` whose every string is
the English one wrapped in ``⟦…⟧``.  One person plays a round of each edition with two bots;
along the way and at the round's end every visible text node of the page is read, the marked
parts are taken out, and what is left must be one of the explicit exceptions below — player
names, the room code, numbers and punctuation.  Any other word was written by the code or sent
by the server in English, and would not be translated for a Polish, Slovenian or Galician
player.  Card faces are drawn as SVG symbols and are not text the catalogue words.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_play import DECIDE, new_player, step
from tests.live import LiveServer

EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"]
NAMES = ["Ana", "Bot 1", "Bot 2"]  # what people (and the room, for bots) name themselves
# Not words: digits, whitespace, punctuation, arrows and the ⟦⟧ marks' leftovers.
NOT_WORDS = re.compile(r"[\d\s.,:;!?()\[\]/+\-–—·•…↻↺↓→×#%'\"“”«»„]")

# Every visible text node (outside SVG card faces), with its marked parts taken out.
UNMARKED = """(allowed) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, noscript, [hidden], option")) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    let text = node.textContent;
    let before;
    do { before = text; text = text.replace(/⟦[^⟦⟧]*⟧/g, ""); } while (text !== before);
    for (const name of allowed) text = text.split(name).join("");
    if (text.trim()) out.push([node.textContent, text]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def pseudo_server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.05, pseudo_locale=True, rooms_per_address=1_000,
                     **LIFTED)


def unmarked(page: Page, code: str) -> list[tuple[str, str]]:
    found = page.evaluate(UNMARKED, [*NAMES, code])
    return [(whole, rest) for whole, rest in found if NOT_WORDS.sub("", rest)]


def test_the_pseudo_language_is_only_on_a_server_started_for_tests(live_server: LiveServer,
                                                                    pseudo_server: LiveServer) -> None:
    import httpx
    assert httpx.get(f"{live_server.http}/static/i18n/xx.json").status_code == 404
    assert '<html lang="en">' in httpx.get(f"{live_server.http}/?lang=xx").text
    marked = httpx.get(f"{pseudo_server.http}/static/i18n/xx.json").json()
    assert marked["home.title"] == "⟦Play UNO with friends⟧"
    assert '<html lang="xx">' in httpx.get(f"{pseudo_server.http}/?lang=xx").text


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_visible_word_of_a_round_comes_from_the_catalogue(browser: Browser, pseudo_server: LiveServer,
                                                                artifacts: Path, edition: str) -> None:
    context, page = new_player(browser, {"width": 1100, "height": 900})
    try:
        page.goto(f"{pseudo_server.http}/?lang=xx")
        assert not unmarked(page, ""), unmarked(page, "")
        page.get_by_test_id(f"edition-{edition}").click()
        page.get_by_test_id("create-name").fill("Ana")
        page.get_by_test_id("create-seats").select_option("3")
        page.get_by_test_id("create-more").click()  # the room's other options fold
        page.get_by_test_id("create-target").fill("1")
        page.get_by_test_id("create-submit").click()
        page.wait_for_url("**/r/*")
        code = page.get_by_test_id("room-code").inner_text()
        page.get_by_test_id("add-bot").click()
        page.get_by_test_id("add-bot").click()
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(2)
        problems = unmarked(page, code)
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        deadline = time.monotonic() + 120
        steps = 0
        statuses: set[str] = set()  # what the status line asked of Ana on her turns
        while True:
            assert time.monotonic() < deadline, "no round summary"
            what = page.evaluate(DECIDE, "Ana")
            if what == "done":
                break
            if what:
                if page.get_by_test_id("table").get_attribute("data-my-turn") == "true":
                    statuses.add(page.get_by_test_id("status-line").inner_text())
                if steps % 4 == 0 or what == "dialog":  # dialogs are where most words are
                    problems += unmarked(page, code)
                step(page, what, challenger=steps % 2 == 0)
                steps += 1
            else:
                time.sleep(0.03)
        expect(page.get_by_test_id("round-summary")).to_be_visible()
        problems += unmarked(page, code)
        page.screenshot(path=str(artifacts / f"pseudo-{edition}.png"))
        log = page.locator("#side-panel .log-entry")
        assert log.count() > 5 and all(e.startswith("⟦") for e in log.all_inner_texts()), log.all_inner_texts()
        assert not problems, sorted(set(problems))
        turn = [s for s in statuses if s.startswith("⟦Your turn")]
        assert turn, statuses
        if edition == "all_wild":  # AW-5: a turn is a play; the table never offers a draw
            assert all("may not draw" in s and "or draw" not in s for s in turn), turn
        else:  # C-6: drawing instead of playing is always allowed
            assert all("or draw" in s for s in turn), turn
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
