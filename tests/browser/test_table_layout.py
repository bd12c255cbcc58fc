"""The table friends play at, on a laptop window (1366×657) and a phone (390×664, touch).

Everything a turn needs stays on screen without scrolling the page: the Draw and UNO! buttons,
the top card, the current colour and the hand, whatever the language and with a turn clock
running. The announcement area (decisions, a revealed hand, item flashes, toasts, the shortcuts
list) never covers any of them. The opponents are listed in the order they play after you,
following the direction (RULES.md C-1: a Reverse flips it), with a marker on who plays next.
Waiting-room updates leave the keyboard focus where it was; the round summary and the podium
take it; every move is read out by a polite live region.

One server with quick bots serves the whole module; screenshots of each state go to
``test-artifacts/``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from app.engine.cards import Face
from app.engine.config import MatchConfig, new_match
from app.engine.match import legal_actions
from app.rooms import play
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LAPTOP, PHONE, add_bots, in_view, new_room, open_seat, reach, take_seat, until
from tests.browser.test_play import DECIDE, step
from tests.live import LiveServer

# Everything the last-event line (a live region) says, as a screen reader would hear it.
LISTEN = """() => {
  const line = document.querySelector('[data-testid=last-event]');
  window.heard = [line.textContent];
  new MutationObserver(() => window.heard.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""

# Whether an opponent's chip ever wears the turn clock's ring. The clock's tick puts it on, up to
# a quarter second after a move shows, so it is watched for rather than sampled after a step.
WATCH_RING = """() => {
  const strip = document.querySelector('[data-testid=opponents]');
  window.ringSeen = false;
  new MutationObserver(() => { window.ringSeen ||= !!strip.querySelector('.opponent.clocked'); })
    .observe(strip, { attributes: true, attributeFilter: ['class'], childList: true, subtree: true });
}"""

# The opponents' strip as shown: seats in order, whose turn, who is next, which way play goes.
STRIP = """() => {
  const seats = (sel) => [...document.querySelectorAll(sel)].map((el) => Number(el.dataset.seat));
  return {
    order: seats('[data-testid=opponent]'),
    turn: seats('[data-testid=opponent].turn'),
    next: seats('[data-testid=opponent]:has([data-testid=next-marker])'),
    direction: document.querySelector('[data-testid=opponents]').dataset.direction,
    label: document.querySelector('[data-testid=turn-info]').textContent,
  };
}"""

# The chip of the seat to move lies inside the strip's visible part and inside the screen.
TURN_IN_VIEW = """() => {
  const strip = document.querySelector('[data-testid=opponents]').getBoundingClientRect();
  const chip = document.querySelector('[data-testid=opponent].turn');
  if (!chip) return 'no seat has the turn';
  const c = chip.getBoundingClientRect();
  const px = (v) => Math.round(v);
  return c.left >= strip.left - 0.5 && c.right <= strip.right + 0.5 && c.right <= innerWidth ? 'ok'
    : `turn chip at ${px(c.left)}..${px(c.right)}, strip ${px(strip.left)}..${px(strip.right)}`;
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.05, rooms_per_address=100_000, **LIFTED)


# Counts the cards sent flying to the pile (the page's animations carry the id "travel").
COUNT_FLIGHTS = """() => {
  window.flights = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (options && options.id === 'travel') window.flights += 1;
    return animate.call(this, frames, options);
  };
}"""


class _Seeded:
    """The rooms' source of secrets, dealing the next match from a chosen seed."""

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def token_hex(self, n: int | None = None) -> str:
        return self.seed if n == 16 else secrets.token_hex(n)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


def seed_where(edition: str, seats: int, good: Any) -> str:
    for i in range(5000):
        seed = f"table-layout-{seats}-{i}"
        match, _ = new_match(MatchConfig(edition, seats), seed)
        if good(match):
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize("edition", ["classic", "mario_kart", "all_wild", "pocket_pizza"])
def test_a_round_with_everything_in_reach__C_13(browser: Browser, server: LiveServer, artifacts: Path,
                                                 edition: str) -> None:
    """A laptop and a phone play a whole round against a bot, with a turn clock running."""
    code = new_room(server, edition, seats=3, turn_seconds=120)
    ana, bea = take_seat(server, code, "Ana"), take_seat(server, code, "Bea")
    add_bots(server, code, ana, 1)
    laptop = open_seat(browser, server, code, ana, LAPTOP)
    phone = open_seat(browser, server, code, bea, PHONE)
    players = [(laptop, "Ana", LAPTOP), (phone, "Bea", PHONE)]
    try:
        in_view(laptop, "start-button")
        laptop.get_by_test_id("start-button").click()
        for page, _, _ in players:
            expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
            page.evaluate(LISTEN)
            page.evaluate(WATCH_RING)
        deadline = time.monotonic() + 60
        done: set[str] = set()
        clock = ring = False
        shots: set[str] = set()
        steps = 0
        while len(done) < 2:
            assert time.monotonic() < deadline, f"{edition}: no round summary after {steps} steps"
            acted = False
            for page, name, device in players:
                if name in done:
                    continue
                what = page.evaluate(DECIDE, name)
                if what == "done":
                    done.add(name)
                    continue
                if not what:
                    continue
                step(page, what, challenger=name == "Bea")  # her challenges show her a hand
                steps += 1
                acted = True
                seen = reach(page, f"{edition}, {name} on the {device} after '{what}'")
                clock, ring = clock or seen["clock"], ring or seen["ring"]
                assert not seen["travel"], "a card flew to the pile although the browser asks for reduced motion"
                for shown in seen["announcing"]:
                    if f"{device}-{shown}" not in shots:
                        shots.add(f"{device}-{shown}")
                        page.screenshot(path=str(artifacts / f"layout-{edition}-{device}-{shown}.png"))
            if not acted:
                time.sleep(0.03)
        assert clock, "the turn clock was never seen on screen"
        ring = ring or any(page.evaluate("() => window.ringSeen") for page, _, _ in players)
        assert ring, "the seat to move never wore the clock's ring"
        # The last-event line is a polite live region, and it told each player of the others' moves.
        for page, name, _ in players:
            expect(page.get_by_test_id("last-event")).to_have_attribute("aria-live", "polite")
            heard: list[str] = page.evaluate("window.heard")
            others = page.locator("[data-testid=opponent] .opp-name").all_inner_texts()
            assert others and name not in others
            assert any(text.startswith(f"{other} ") for text in heard for other in others), (name, heard)
        for page, _, device in players:
            # The podium (target 1: the match is over) has the focus and is described by the result.
            expect(page.get_by_test_id("podium")).to_be_visible()
            expect(page.get_by_test_id("summary-title")).to_be_focused()
            described = page.get_by_test_id("round-summary").get_attribute("aria-describedby") or ""
            assert "match-winner" in described.split()
            page.screenshot(path=str(artifacts / f"layout-{edition}-{device}-podium.png"))
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        laptop.context.close()
        phone.context.close()


@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl"])
def test_waiting_room_and_a_turn_in_every_language(browser: Browser, server: LiveServer, artifacts: Path,
                                                   lang: str) -> None:
    """Galician's long words included: Start, Draw, UNO! and the hand stay on screen."""
    host_device = PHONE if lang in ("pl", "gl") else LAPTOP
    guest_device = LAPTOP if host_device == PHONE else PHONE
    code = new_room(server, "mario_kart", seats=3, turn_seconds=60, house_rules={"stacking": True})
    host_seat, guest_seat = take_seat(server, code, "Ana"), take_seat(server, code, "Bea")
    add_bots(server, code, host_seat, 1)
    host = open_seat(browser, server, code, host_seat, host_device, lang)
    guest = open_seat(browser, server, code, guest_seat, guest_device, lang)
    pages = {host_device: host, guest_device: guest}
    try:
        in_view(host, "start-button")
        in_view(guest, "waiting-for-host")
        for device, page in pages.items():
            page.screenshot(path=str(artifacts / f"layout-{lang}-{device}-waiting.png"))
        host.get_by_test_id("start-button").click()
        checked: set[str] = set()
        deadline = time.monotonic() + 30
        while len(checked) < 2:
            assert time.monotonic() < deadline, f"{lang}: no turn for {set(pages) - checked}"
            acted = False
            for device, page in pages.items():
                what = page.evaluate(DECIDE, "Ana" if page is host else "Bea")
                if not what or what == "done":
                    continue
                if device not in checked and page.get_by_test_id("table").get_attribute("data-my-turn") == "true":
                    seen = reach(page, f"{lang} on the {device}, its turn")
                    assert seen["clock"], f"{lang} on the {device}: no turn clock in view"
                    page.screenshot(path=str(artifacts / f"layout-{lang}-{device}-turn.png"))
                    checked.add(device)
                step(page, what, challenger=False)
                reach(page, f"{lang} on the {device}, after '{what}'")
                acted = True
            if not acted:
                time.sleep(0.03)

        # The shortcuts, listed on the page ("?"), open in the announcement area.
        for device, page in pages.items():
            page.get_by_test_id("keys-toggle").click()
            expect(page.get_by_test_id("keys-help")).to_be_visible()
            expect(page.get_by_test_id("keys-help").locator("kbd", has_text="U")).to_be_attached()
            reach(page, f"{lang} on the {device}, shortcuts shown")
            page.screenshot(path=str(artifacts / f"layout-{lang}-{device}-shortcuts.png"))
            page.get_by_test_id("keys-close").click()
            expect(page.get_by_test_id("keys-help")).to_be_hidden()
        laptop = pages[LAPTOP]
        laptop.keyboard.press("?")
        expect(laptop.get_by_test_id("keys-help")).to_be_visible()
        laptop.keyboard.press("Escape")
        expect(laptop.get_by_test_id("keys-help")).to_be_hidden()
        # On the phone the log and chat are a drawer.
        phone = pages[PHONE]
        expect(phone.get_by_test_id("chat-input")).to_be_hidden()
        phone.get_by_test_id("side-toggle").click()
        expect(phone.get_by_test_id("chat-input")).to_be_visible()
        expect(phone.get_by_test_id("drawer-close")).to_be_focused()
        phone.screenshot(path=str(artifacts / f"layout-{lang}-phone-drawer.png"))
        phone.get_by_test_id("drawer-close").click()
        expect(phone.get_by_test_id("chat-input")).to_be_hidden()
        expect(phone.get_by_test_id("side-toggle")).to_be_focused()
        for page in pages.values():
            assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        host.context.close()
        guest.context.close()


def test_seats_follow_the_direction_and_the_next_marker_moves_after_a_reverse__C_1(
        browser: Browser, server: LiveServer, artifacts: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four seats; Ana plays first and holds a Reverse (a chosen deal). The others never move."""
    def reverse_first(match: Any) -> bool:
        rnd = match.round
        return rnd.current == 0 and rnd.direction == 1 and any(
            a.kind == "play" and match.variant.cards[a.card].face == Face.REVERSE for a in legal_actions(match, 0))

    monkeypatch.setattr(play, "secrets", _Seeded(seed_where("classic", 4, reverse_first)))
    code = new_room(server, "classic", seats=4)
    ana = take_seat(server, code, "Ana")
    for name in ("Ben", "Cid", "Dee"):
        take_seat(server, code, name)
    page = open_seat(browser, server, code, ana, LAPTOP, motion="no-preference")
    try:
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "true")
        before = page.evaluate(STRIP)
        assert before["order"] == [1, 2, 3] and before["direction"] == "cw", before
        assert before["turn"] == [] and before["next"] == [1], before  # Ana's turn; Ben plays next
        expect(page.get_by_test_id("direction")).to_have_attribute("aria-hidden", "true")  # said once, in words
        assert before["label"].count("Clockwise") == 1

        page.evaluate(COUNT_FLIGHTS)
        page.locator("[data-testid=card][data-face=reverse][data-playable=true]").first.click()
        # The card travels from the hand to the pile (motion is welcome in this browser).
        until(page, "window.flights > 0", "no card travelled to the pile")
        expect(page.get_by_test_id("opponents")).to_have_attribute("data-direction", "ccw")
        after = page.evaluate(STRIP)
        # C-1: the Reverse flips the direction: Dee plays now, then Cid; the list turns round.
        assert after["order"] == [3, 2, 1], after
        assert after["turn"] == [3] and after["next"] == [2], after
        assert "Counter-clockwise" in after["label"]
        until(page, "!document.getAnimations().some((a) => a.id === 'travel')", "the card never landed")
        page.screenshot(path=str(artifacts / "layout-after-reverse.png"))
        # Everything stays in reach on a short, wide window too (a phone held sideways).
        page.set_viewport_size({"width": 740, "height": 390})
        reach(page, "740×390")
        page.screenshot(path=str(artifacts / "layout-sideways.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_ten_players_on_a_phone_show_whose_turn_it_is(browser: Browser, server: LiveServer, artifacts: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine opponents on a phone: all in view at once (no sideways scroll), the one to move marked."""
    monkeypatch.setattr(play, "secrets", _Seeded(seed_where("classic", 10, lambda m: m.round.current == 6)))
    code = new_room(server, "classic", seats=10)
    ana = take_seat(server, code, "Ana")
    for i in range(1, 10):
        take_seat(server, code, f"Player {i}")
    page = open_seat(browser, server, code, ana, PHONE)
    try:
        in_view(page, "start-button")
        page.get_by_test_id("start-button").click()
        expect(page.locator("[data-testid=opponent].turn")).to_have_attribute("data-seat", "6")
        strip = page.get_by_test_id("opponents")
        assert strip.evaluate("(s) => s.scrollWidth <= s.clientWidth + 1"), "the seats scroll sideways"
        for chip in page.get_by_test_id("opponent").all():
            in_box = chip.bounding_box()
            assert in_box and in_box["x"] >= 0 and in_box["x"] + in_box["width"] <= 390, in_box
        assert page.evaluate(TURN_IN_VIEW) == "ok"
        reach(page, "ten players on a phone")
        page.screenshot(path=str(artifacts / "layout-ten-players-phone.png"))
    finally:
        page.context.close()


def test_waiting_room_updates_keep_the_focus(browser: Browser, server: LiveServer) -> None:
    code = new_room(server, "classic", seats=4)
    ana = take_seat(server, code, "Ana")
    page = open_seat(browser, server, code, ana, LAPTOP)
    try:
        add = page.get_by_test_id("add-bot")
        add.focus()
        page.keyboard.press("Enter")
        expect(page.locator("[data-testid=bot-badge]")).to_have_count(1)
        expect(add).to_be_focused()  # the button rebuilt with the list keeps the focus
        # Someone joins while Ana is on the copy button: the focus stays with her.
        page.get_by_test_id("copy-link").focus()
        take_seat(server, code, "Ben")
        expect(page.locator("[data-testid=seat][data-seat]")).to_have_count(3)
        expect(page.get_by_test_id("copy-link")).to_be_focused()
        # The last seat filled: "Add a bot" goes, and the focus moves to Start, not to the page.
        add.focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("add-bot")).to_have_count(0)
        expect(page.get_by_test_id("start-button")).to_be_focused()
        assert page.evaluate("document.activeElement !== document.body")
    finally:
        page.context.close()
