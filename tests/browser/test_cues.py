"""Sound at the table (static/js/cues.js): off until the player turns it on.

The page's Web Audio is counted by a script that wraps ``AudioContext`` before the page runs:
with the toggle off nothing is made or played; once on, your turn and a card played make sounds.
The toggle survives a reload and is labelled in every language.  (Vibration is the phone's own
setting, on by default: tests/browser/test_phone_aids.py.)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine.house import HouseRules
from app.engine.round import Round
from tests.browser.puppets import card, deal_with, find_seed, opens_on_a_number
from tests.browser.servers import LIFTED, serve
from tests.browser.tables import LAPTOP, PHONE, add_bots, new_room, open_seat, reach, take_seat
from tests.browser.test_play import DECIDE, step
from tests.live import LiveServer

CATALOGUES = Path(__file__).resolve().parents[2] / "static" / "i18n"

# Counts AudioContexts made and sounds started (and vibrations, which are not the toggle's).
COUNT = """
window.cueCalls = { contexts: 0, sounds: 0, vibrations: 0 };
(() => {
  const Real = window.AudioContext;
  if (Real) {
    window.AudioContext = class extends Real {
      constructor(...args) { super(...args); window.cueCalls.contexts += 1; }
    };
    for (const Node of [window.OscillatorNode, window.AudioBufferSourceNode]) {
      const start = Node.prototype.start;
      Node.prototype.start = function (...args) { window.cueCalls.sounds += 1; return start.apply(this, args); };
    }
  }
  navigator.vibrate = () => { window.cueCalls.vibrations += 1; return true; };
})();
"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, bot_delay_scale=0.05, rooms_per_address=100_000, **LIFTED)


def calls(page: Page) -> dict[str, int]:
    seen: dict[str, int] = page.evaluate("window.cueCalls")
    return seen


def play_until(page: Page, done: Callable[[int], bool], message: str, may_end: bool = False) -> None:
    """Plays Ana's turns (the bot plays its own) until `done(moves she made)`."""
    deadline = time.monotonic() + 30
    moves = 0
    while not done(moves):
        assert time.monotonic() < deadline, message
        what = page.evaluate(DECIDE, "Ana")
        if what == "done":
            assert may_end, f"the round ended first: {message}"
            return
        if what:
            step(page, what, challenger=False)
            moves += 1
            page.wait_for_timeout(150)
        else:
            time.sleep(0.03)


BOT_TAKES_TURNS_AGAIN = {"skip", "reverse", "draw2", "wild_draw4"}


def a_long_round(rnd: Round) -> bool:
    """Ana opens on a number and the bot holds nothing that would give it two turns in a row:
    it needs seven turns to go out, so Ana has the five turns the test plays before any summary
    (on a random deal the bot once went out first, and the summary covered the toggle)."""
    return opens_on_a_number(rnd) and not any(card(rnd, c)["face"] in BOT_TAKES_TURNS_AGAIN for c in rnd.hands[1])


def test_cues_are_off_until_turned_on_and_stay_as_set(browser: Browser, server: LiveServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(), a_long_round))
    code = new_room(server, "classic", seats=2, target_score=500)
    ana = take_seat(server, code, "Ana")
    add_bots(server, code, ana, 1)
    page = open_seat(browser, server, code, ana, LAPTOP, motion="no-preference")
    page.context.add_init_script(COUNT)
    try:
        page.reload()
        toggle = page.get_by_test_id("cue-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_accessible_name("Sound")
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")

        # Off (the default): turns come and cards are played, in silence.
        play_until(page, lambda moves: moves >= 2, "Ana never had two turns")
        assert (calls(page)["contexts"], calls(page)["sounds"]) == (0, 0)
        assert page.evaluate("localStorage.getItem('uno.cues')") is None

        # On: the click makes the one AudioContext; the next turn ticks, a play sounds.
        toggle = page.get_by_test_id("cue-toggle")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert page.evaluate("localStorage.getItem('uno.cues')") == "on"
        assert calls(page)["contexts"] == 1
        play_until(page, lambda _: calls(page)["sounds"] > 0, "no sound on Ana's turn")
        before = calls(page)["sounds"]
        assert before > 0, "Ana's turn made no sound"
        # Ana plays (or draws and plays) a card: the card on the pile sounds.
        top = page.get_by_test_id("discard").inner_html()
        play_until(page, lambda _: page.get_by_test_id("discard").inner_html() != top, "no card reached the pile")
        until_more = time.monotonic() + 5
        while calls(page)["sounds"] <= before:
            assert time.monotonic() < until_more, "a card was played without a sound"
            time.sleep(0.05)
        assert calls(page)["contexts"] == 1

        # The choice is remembered across a reload.
        page.reload()
        expect(page.get_by_test_id("table")).to_be_visible()
        expect(page.get_by_test_id("cue-toggle")).to_have_attribute("aria-pressed", "true")
        # Off again: no more sounds.
        page.get_by_test_id("cue-toggle").click()
        expect(page.get_by_test_id("cue-toggle")).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("localStorage.getItem('uno.cues')") == "off"
        quiet = calls(page)
        play_until(page, lambda moves: moves >= 1, "Ana had no turn after the reload", may_end=True)
        page.wait_for_timeout(500)
        assert calls(page)["sounds"] == quiet["sounds"]
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "pl", "sl", "gl"])
def test_the_toggle_is_labelled_in_every_language(browser: Browser, server: LiveServer, artifacts: Path,
                                                  lang: str) -> None:
    """In the waiting room with its words, at the table as an icon in the head that keeps them."""
    label = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))["cues.toggle"]
    assert label and label != "cues.toggle"
    code = new_room(server, "classic", seats=2)
    ana = take_seat(server, code, "Ana")
    add_bots(server, code, ana, 1)
    device = PHONE if lang in ("pl", "gl") else LAPTOP
    page = open_seat(browser, server, code, ana, device, lang)
    try:
        toggle = page.get_by_test_id("cue-toggle")
        expect(toggle).to_have_accessible_name(label)
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle.locator(".cue-label")).to_have_text(label)
        page.screenshot(path=str(artifacts / f"cues-{lang}-{device}-waiting.png"))
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
        # At the table it is an icon in the head, with the same name for screen readers.
        head = page.locator(".table-head [data-testid=cue-toggle]")
        expect(head).to_be_visible()
        expect(head).to_have_accessible_name(label)
        expect(head).to_have_attribute("title", label)
        assert "cues." not in (head.text_content() or "")
        head.click()
        expect(head).to_have_attribute("aria-pressed", "true")
        reach(page, f"{lang} on the {device}, with the sound toggle in the head")
        page.screenshot(path=str(artifacts / f"cues-{lang}-{device}-table.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
