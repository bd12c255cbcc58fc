"""The strict preset (HR-34) at the browser's table against a bot: no hints (HR-32) — no card is lit
up, every card and the draw are offered, the server judges; forced play (HR-10) refuses a draw
while a card could be played, and says so; a misplay (HR-20) is acked and costs a card, shown as
such; a draw always asks play-or-keep; strict UNO! (HR-17) is said on its own once the hand holds
one card, never with the play.  On a phone (390×664) and a laptop window (1366×657).

The test plays Ana as a person would: it looks at the top card (a spectator's socket, which is
what the table shows everyone) and at her hand on the page, never at a list of legal moves."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from app.engine import VARIANTS
from app.engine.house import HouseRules
from app.engine.round import Round
from tests.browser.conftest import ARTIFACTS
from tests.browser.puppets import card, deal_with, find_seed, opens_on_a_number
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LAPTOP, PHONE, add_bots, new_room, open_seat, take_seat
from tests.live import LiveServer

STRICT = HouseRules.from_json({"preset": "strict"}, VARIANTS["classic"])


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # The bot's pauses at 60 %: its UNO! reflexes (0.2-0.7 s) leave a person time to declare.
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.6, rooms_per_address=100_000, **LIFTED)


def matches(c: dict[str, Any], top: dict[str, Any], colour: str | None) -> bool:
    """C-5, as a player reads the table: a wild, the colour in play, or the top card's face."""
    return c["colour"] is None or c["colour"] == colour or c["face"] == top["face"]


def good_deal(rnd: Round) -> bool:
    """Ana (seat 0) opens on a number, holding a card that matches and one that does not, no wild."""
    if not opens_on_a_number(rnd):
        return False
    top = card(rnd, rnd.discard[-1])
    hand = [card(rnd, c) for c in rnd.hands[0]]
    fits = [matches(c, top, rnd.colour) for c in hand]
    return any(fits) and not all(fits) and all(c["colour"] is not None for c in hand)


class Watcher:
    """A spectator's socket: the public table (top card, colour, log), as every seat sees it."""

    def __init__(self, server: LiveServer, code: str) -> None:
        self.stack = ExitStack()
        self.ws = self.stack.enter_context(connect(f"{server.ws}/ws/rooms/{code}"))
        self.view: dict[str, Any] = {}

    def pump(self) -> dict[str, Any]:
        wait = 0.02
        while True:
            try:
                frame = json.loads(self.ws.recv(timeout=wait))
            except TimeoutError:
                return self.view
            if frame["type"] == "snapshot":
                self.view = frame["view"]
            elif frame["type"] == "patch":
                self.view = jsonpatch.apply_patch(self.view, frame["ops"])
            wait = 0.005

    def table(self) -> dict[str, Any]:
        game = self.pump().get("game") or {}
        return dict(game.get("table") or {})

    def logged(self, kind: str, seat: int) -> bool:
        return any(e["kind"] == kind and e.get("seat") == seat for e in self.view.get("log", []))


def hand_of(page: Page) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll('[data-testid=card]')]
      .map((b) => ({
        id: Number(b.dataset.cardId), face: b.dataset.face,
        colour: b.dataset.colour === 'wild' ? null : b.dataset.colour,
        lit: b.classList.contains('playable'), dim: b.classList.contains('dim'), label: b.getAttribute('aria-label'),
      }))""")
    return cards


def my_turn(page: Page) -> bool:
    return page.get_by_test_id("table").get_attribute("data-my-turn") == "true"


def toast(page: Page, text: str) -> None:
    expect(page.get_by_test_id("toast").filter(has_text=text).first).to_be_visible()


def dialog_option(page: Page, option: str) -> Any:
    return page.locator(f"[data-testid=dialog]:not([hidden]) [data-option={option}]")


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_strict_round_against_a_bot__HR_32__HR_17__HR_20__HR_10__HR_34(
        browser: Browser, server: LiveServer, artifacts: Path, device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_with(monkeypatch, find_seed("classic", 2, STRICT, good_deal))
    code = new_room(server, "classic", seats=2, target_score=500, house_rules={"preset": "strict"})
    ana = take_seat(server, code, "Ana")
    add_bots(server, code, ana, 1)
    page = open_seat(browser, server, code, ana, device)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher = Watcher(server, code)
    try:
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
        page.wait_for_timeout(300)  # the deal's cards settle
        hand = hand_of(page)
        # HR-32: every card alike — none lit up, none dimmed, none called playable.
        assert hand and not any(c["lit"] or c["dim"] for c in hand), hand
        assert not any("playable" in c["label"] for c in hand), hand
        expect(page.get_by_test_id("draw-button")).to_be_enabled()
        page.screenshot(path=str(artifacts / f"no-hints-turn-{device}.png"))

        # HR-10: a draw while a card matches is refused, and the table says why.
        page.get_by_test_id("draw-button").click()
        toast(page, "You hold a card you can play")
        # HR-20: a card that does not match is acked as a misplay: it stays, and Ana draws one.
        table = watcher.table()
        wrong = next(c for c in hand if not matches(c, table["top"], table["colour"]))
        page.locator(f"[data-testid=card][data-card-id='{wrong['id']}']").click()
        flash = page.get_by_test_id("item-flash")
        expect(flash).to_have_attribute("data-kind", "misplay")
        expect(flash).to_contain_text("stays in your hand, and you draw 1")
        expect(page.get_by_test_id("card")).to_have_count(len(hand) + 1)
        until_logged(watcher, "misplay", 0)
        assert my_turn(page)
        expect(page.locator(f"[data-testid=card][data-card-id='{wrong['id']}']")).to_have_count(1)
        page.screenshot(path=str(artifacts / f"no-hints-misplay-{device}.png"))

        drew = declared = False
        deadline = time.monotonic() + 300
        while not (drew and declared):
            if time.monotonic() > deadline:
                page.screenshot(path=str(ARTIFACTS / "no-hints-stuck.png"))
                tail = [(e["kind"], e.get("seat")) for e in watcher.pump().get("log", [])[-15:]]
                status = watcher.view["room"]["status"]
                raise AssertionError(f"not seen: draw {drew}, UNO! {declared}; {status}, {tail}")
            assert not errors, errors
            uno = page.get_by_test_id("uno-button")
            mode = uno.get_attribute("data-uno-mode")
            # HR-17: never "say UNO! with the play" (arm); declare once exposed, catch the bot when it is.
            assert mode != "arm", "strict UNO! offered a call with the play"
            if mode in ("declare", "catch"):
                uno.click()
                if mode == "declare":
                    until_logged(watcher, "uno", 0)
                    declared = True
                    expect(page.get_by_test_id("me")).to_contain_text("UNO!")
                    page.screenshot(path=str(artifacts / f"no-hints-uno-{device}.png"))
                continue
            if watcher.pump().get("room", {}).get("status") == "between":  # the bot went out first: next round
                ready = page.get_by_test_id("ready-button")
                if ready.count() and ready.is_enabled():
                    ready.dispatch_event("click")  # the summary may still be unfolding
                time.sleep(0.1)
                continue
            if not my_turn(page) or page.get_by_test_id("table").get_attribute("data-busy") == "true":
                time.sleep(0.03)
                continue
            drew = ana_moves(page, watcher, artifacts, device, drew)
    finally:
        watcher.stack.close()
        page.context.close()
    assert not errors, errors


def until_logged(watcher: Watcher, kind: str, seat: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not (watcher.pump() and watcher.logged(kind, seat)):
        assert time.monotonic() < deadline, f"no {kind} by seat {seat} in the log"


def ana_moves(page: Page, watcher: Watcher, artifacts: Path, device: str, drew: bool) -> bool:
    """One decision of Ana's, as a player makes it; returns whether a draw's decision was seen."""
    table = watcher.table()
    pending = table.get("pending") or {}
    if pending.get("seat") != 0:
        return drew
    before = last_n(watcher)
    kind = pending["kind"]
    if kind == "colour" or dialog_option(page, "red").count():
        dialog_option(page, "red").click()
    elif kind in ("challenge", "stack"):
        dialog_option(page, "accept").click()
    elif kind == "drawn":
        # HR-32: the draw always asks, and does not say whether the card can be played.
        expect(page.get_by_test_id("dialog")).to_contain_text("You drew a card")
        expect(page.get_by_test_id("status-line")).to_have_text("You drew a card: play it or keep it.")
        if not drew:
            page.screenshot(path=str(artifacts / f"no-hints-drawn-{device}.png"))
        expect(dialog_option(page, "play")).to_be_visible()  # offered whatever the card is
        dialog_option(page, "keep").click()
        return True
    elif kind == "turn":
        hand = hand_of(page)
        fit = next((c for c in hand if c["colour"] is not None and matches(c, table["top"], table["colour"])), None)
        fit = fit or next((c for c in hand if c["colour"] is None), None)
        if fit is None:
            page.get_by_test_id("draw-button").click()
        else:
            page.locator(f"[data-testid=card][data-card-id='{fit['id']}']").click()
    expect_moved(page, watcher, before)
    return drew


def last_n(watcher: Watcher) -> int:
    return max((e["n"] for e in watcher.view.get("log", [])), default=0)


def expect_moved(page: Page, watcher: Watcher, before: int, seconds: float = 10) -> None:
    """Until Ana's move is in the public log (or a dialog asks its next step: a wild's colour)."""
    deadline = time.monotonic() + seconds
    while last_n(watcher) == before and not dialog_option(page, "red").count():
        if time.monotonic() > deadline:
            page.screenshot(path=str(ARTIFACTS / "no-hints-stuck.png"))
            raise AssertionError(f"Ana's move did not land: {watcher.table().get('pending')}")
        watcher.pump()
        time.sleep(0.02)
