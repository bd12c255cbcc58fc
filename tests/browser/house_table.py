"""What the house-rule table tests share (test_house_table*.py): their server, a seated room
opened through the page, and Ana's own moves through it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from app.engine import VARIANTS
from app.engine.house import HouseRules
from tests.browser.puppets import (
    Pick,
    Puppet,
)
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import new_room, open_seat, take_seat
from tests.live import LiveServer


def house_server() -> Iterator[LiveServer]:
    """The server of a module of these tests (its ``server`` fixture): quick rounds and bots."""
    yield from serve(between_rounds_seconds=2, bot_delay_scale=0.02, rooms_per_address=100_000, **LIFTED)


def rules(house: dict[str, Any]) -> HouseRules:
    return HouseRules.from_json(house, VARIANTS["classic"])


def dialog(page: Page, kind: str):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid=dialog][data-kind={kind}]:not([hidden])")


def log_text(page: Page) -> str:
    return str(page.evaluate("() => document.querySelector('[data-testid=event-log-list]').textContent"))


def hand_count(page: Page) -> int:
    return int(page.get_by_test_id("table").get_attribute("data-hand-count") or 0)


def seated(browser: Browser, server: LiveServer, device: str, seats: int, house: dict[str, Any],
           **options: Any) -> tuple[str, dict[str, Any], Page]:
    """A room with these house rules, Ana in seat 0 on `device` (in the waiting room)."""
    code = new_room(server, seats=seats, house_rules=house, **options)
    ana = take_seat(server, code, "Ana")
    return code, ana, open_seat(browser, server, code, ana, device)


def start(page: Page) -> None:
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("table")).to_be_visible()


def first_legal_play(legal: list[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any] | None:
    """A puppet that plays whenever it can (its first legal play, a wild's first colour)."""
    return next((a for a in legal if a["kind"] == "play" and not a.get("more")), None)


def ana_plays(page: Page, stats: dict[str, int], only_draw: bool = False) -> bool:
    """Ana's move, through the page: a decision's safe option (a batch: every card added, then
    played), else her first playable card, else Draw; with `only_draw`, she draws and keeps.
    Each look and click waits a second or two only, not the suite's default: when the page has
    moved on under it, the loop (play_until) looks again at what it shows now."""
    try:
        box = page.locator("[data-testid=dialog]:not([hidden])")
        if box.count():
            kind = box.get_attribute("data-kind", timeout=1000)
            if kind == "batch":
                stats["batch_offers"] = stats.get("batch_offers", 0) + 1
                mate = box.locator("[data-option^=mate-][aria-pressed=false]")
                if mate.count():
                    mate.first.click(timeout=2000)
                else:
                    box.locator("[data-option=play-batch]").click(timeout=2000)
                    stats["batches"] = stats.get("batches", 0) + 1
                return True
            if only_draw and kind == "stack":
                return False  # a penalty coming is the test's to answer
            keep = box.locator("[data-option=keep]")
            if only_draw and keep.count():
                keep.click(timeout=2000)  # she keeps what she draws
                return True
            option = box.locator("[data-testid=dialog-option].btn-primary")
            (option if option.count() else box.get_by_test_id("dialog-option")).first.click(timeout=2000)
            return True
        if page.get_by_test_id("table").get_attribute("data-my-turn", timeout=1000) != "true":
            return False
        playable = page.locator("[data-testid=card][data-playable=true]")
        if playable.count() and not only_draw:
            playable.first.click(timeout=2000)
        elif page.get_by_test_id("draw-button").is_enabled():
            page.get_by_test_id("draw-button").click(timeout=2000)
        return True
    except PlaywrightError:
        return False  # the page moved on under the click: look again


def play_until(page: Page, done: Callable[[], bool], puppets: Sequence[tuple[Puppet, Pick]] = (),
               seconds: float = 300, only_draw: bool = False) -> dict[str, int]:
    """Until `done()`: Ana plays through the page (ana_plays), the puppets over the protocol.
    `seconds` only bounds a scenario that never comes about: on a loaded machine a random deal
    may take Ana a few minutes of turns to come down to one card."""
    stats: dict[str, int] = {}
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the scenario did not come about"
        for p, pick in puppets:
            p.pump()
            p.move(pick)
        if done():  # the scenario may have come about with the puppets' moves: Ana must not answer it
            break
        if not ana_plays(page, stats, only_draw):
            time.sleep(0.05)
    return stats


def status(page: Page) -> str:
    return page.get_by_test_id("table").get_attribute("data-status") or ""
