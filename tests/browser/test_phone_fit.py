"""A phone at the table, upright (390×664) and sideways (740×390), in every language.

- Upright, the table's head says edition and round on one line, nothing cut (its buttons, the
  rules among them, on their own row).
- Sideways, the seat chips sit in one row, in play order, with a chevron only between two chips
  of that row (never one left alone at the start of a second row), none cut.
- A decision whose "Why?" is opened, when the announcement area then scrolls, shows it: a fade
  at the edge with more beyond it, gone once scrolled to that edge.

Screenshots of each state go to ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LOCALES, new_room, open_seat, take_seat
from tests.browser.test_table_fit import DECISIONS, NAMES, SEATS, SHOW, started_table
from tests.live import LiveServer

SIDEWAYS: ViewportSize = {"width": 740, "height": 390}

# The head's words: one line when every one of them overlaps every other one vertically.
HEAD_LINES = """() => {
  const boxes = [...document.querySelectorAll('.head-info > *')].filter((el) => el.getClientRects().length)
    .map((el) => el.getBoundingClientRect());
  const top = Math.max(...boxes.map((b) => b.top));
  const bottom = Math.min(...boxes.map((b) => b.bottom));
  return top < bottom ? 1 : 2;
}"""

# The seat chips' rows, and the chevrons shown before a chip that starts a row.
CHIP_ROWS = """() => {
  const chips = [...document.querySelectorAll('[data-testid=opponent]')];
  const rows = new Set(chips.map((el) => Math.round(el.getBoundingClientRect().top)));
  const stray = chips.filter((el, i) => {
    if (i === 0) return false;
    const arrow = getComputedStyle(el, '::before');
    const shown = arrow.content !== 'none' && arrow.display !== 'none';
    return shown && Math.round(el.getBoundingClientRect().top) !== Math.round(chips[i - 1].getBoundingClientRect().top);
  }).map((el) => el.querySelector('.opp-name').textContent);
  return { rows: rows.size, stray };
}"""

FADE = """() => {
  const a = document.querySelector('[data-testid=announce]');
  return { scrolls: a.scrollHeight > a.clientHeight + 1, below: a.dataset.moreBelow, above: a.dataset.moreAbove,
           fade: getComputedStyle(a, '::after').opacity };
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, **LIFTED)


def check_seats(page: Page, where: str) -> None:
    seen = page.evaluate(SEATS)
    assert not seen["out"], f"{where}: {seen['out']}"


def timed_table(browser: Browser, server: LiveServer, lang: str) -> Page:
    """A Mario Kart table with a turn timer and house rules: the head's longest words."""
    code = new_room(server, "mario_kart", seats=4, turn_seconds=90, house_rules={"stacking": True, "jump_in": True})
    host = take_seat(server, code, NAMES[0])
    for name in NAMES[1:4]:
        take_seat(server, code, name)
    page = open_seat(browser, server, code, host, "phone", lang)
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
    return page


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_upright_phone_head_is_one_line(browser: Browser, server: LiveServer, artifacts: Path, lang: str) -> None:
    for edition in ("pocket_pizza", "timed"):
        if edition == "timed":
            page = timed_table(browser, server, lang)
        else:
            page = started_table(browser, server, edition, 4, "phone", lang)
        try:
            where = f"{edition}-{lang}"
            page.screenshot(path=str(artifacts / f"phone-head-{where}.png"))
            check_seats(page, where)
            assert page.evaluate(HEAD_LINES) == 1, f"{where}: the head's words take more than one line"
        finally:
            page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LOCALES))
def test_sideways_the_seats_sit_in_one_row_with_no_stray_chevron(browser: Browser, server: LiveServer,
                                                                  artifacts: Path, lang: str) -> None:
    for edition, seats in (("classic", 4), ("pocket_pizza", 5), ("classic", 10)):
        page = started_table(browser, server, edition, seats, "phone", lang)
        try:
            page.set_viewport_size(SIDEWAYS)
            where = f"{edition}-{lang}-{seats}"
            expect(page.get_by_test_id("opponent")).to_have_count(seats - 1)
            page.screenshot(path=str(artifacts / f"sideways-{where}.png"))
            check_seats(page, where)
            rows = page.evaluate(CHIP_ROWS)
            assert not rows["stray"], f"{where}: a chevron starts a row before {rows['stray']}"
            if seats <= 5:
                assert rows["rows"] == 1, f"{where}: the seats take {rows['rows']} rows"
        finally:
            page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["pl", "gl"])
def test_an_opened_why_shows_that_it_scrolls(browser: Browser, server: LiveServer, artifacts: Path, lang: str) -> None:
    page = started_table(browser, server, "classic", 4, "phone", lang)
    try:
        page.evaluate(DECISIONS, ["classic", False])
        page.evaluate(SHOW, "challenge")
        page.get_by_test_id("dialog-why-toggle").click()
        expect(page.get_by_test_id("dialog-text")).to_be_visible()
        state = page.evaluate(FADE)
        page.screenshot(path=str(artifacts / f"phone-why-open-{lang}.png"))
        if not state["scrolls"]:
            assert state["below"] == "false" and state["fade"] == "0", state  # nothing beyond: no fade
            return
        assert state["below"] == "true" and state["above"] == "false", state
        assert float(state["fade"]) > 0.9, state  # reduced motion in these browsers: no fade-in to wait for
        page.evaluate("() => { const a = document.querySelector('[data-testid=announce]'); a.scrollTop = 1e6; }")
        expect(page.get_by_test_id("announce")).to_have_attribute("data-more-below", "false")
        expect(page.get_by_test_id("announce")).to_have_attribute("data-more-above", "true")
        page.screenshot(path=str(artifacts / f"phone-why-scrolled-{lang}.png"))
    finally:
        page.context.close()
