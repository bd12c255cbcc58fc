"""A player who closed the tab comes back and is told what happened meanwhile.

Ana hosts a classic room with Bruno and a bot.  She closes her tab; past the grace a bot plays
her seat and hosting moves to Bruno, who is there.  Bruno plays on until Ana's seat has moved
for her.  When Ana opens the room again (her seat is remembered in this browser), a notice says
what the bot did for her (cards played and drawn), where she stands and that Bruno hosts now,
in the head's place on her phone (over none of the seats' counts, the top card, the colour or
the hand); it goes once she has made a move of her own, the head's buttons back, and does not
come back on a reload.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.test_decision_sheet import COVERED
from tests.browser.test_play import DECIDE, new_player, step
from tests.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(away_grace_seconds=1.0, bot_delay_scale=0.05, **LIFTED)


def test_a_returning_player_is_told_what_happened(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    ana_ctx, ana = new_player(browser, {"width": 390, "height": 664})
    bruno_ctx, bruno = new_player(browser, {"width": 1366, "height": 657})
    try:
        ana.goto(server.http + "/?lang=en")
        ana.get_by_test_id("edition-classic").click()
        ana.get_by_test_id("create-name").fill("Ana")
        ana.get_by_test_id("create-seats").select_option("3")
        ana.get_by_test_id("create-more").click()  # the room's other options fold
        ana.get_by_test_id("create-target").fill("100000")
        ana.get_by_test_id("create-submit").click()
        ana.wait_for_url("**/r/*")
        room_url = ana.url
        bruno.goto(room_url + "?lang=en")
        bruno.get_by_test_id("join-name").fill("Bruno")
        bruno.get_by_test_id("join-seat-button").click()
        ana.get_by_test_id("add-bot").click()
        expect(ana.locator("[data-testid=seat][data-seat]")).to_have_count(3)
        ana.get_by_test_id("start-button").click()
        expect(bruno.get_by_test_id("table")).to_have_attribute("data-status", "playing")

        ana.close()  # the tab, not the browser: her seat stays remembered
        log = bruno.locator("#side-panel .log-entry")
        deadline = time.monotonic() + 90
        while True:
            texts = log.all_inner_texts()
            gone = next((i for i, t in enumerate(texts) if t.startswith("Ana is away")), None)
            # A move the bot made for her, as the notice counts them (absence.js): a play, or her turn's draw
            # of one card (classic); "Ana drew 2 cards." is Bruno's Draw Two, not a move of hers.
            if gone is not None and any(t.startswith(("Ana played", "Ana drew a card.")) for t in texts[gone:]):
                break
            assert time.monotonic() < deadline, texts[-8:]
            what = bruno.evaluate(DECIDE, "Bruno")
            if what in (None, "done"):
                time.sleep(0.05)  # polling the page, as a person watching it
                continue
            step(bruno, what, challenger=False)
        expect(bruno.locator("#side-panel .log-entry[data-kind=host]")).to_have_count(1)

        ana = ana_ctx.new_page()
        ana.goto(room_url + "?lang=en")
        notice = ana.get_by_test_id("away-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("While you were away")
        # It says what the bot did, in cards (not "3 moves"), and where she stands now.
        expect(notice).to_contain_text(re.compile(r"The bot played \d+ of your cards|It drew \d+ cards? on your turn"))
        expect(notice).to_contain_text(re.compile(r"Now you hold \d+ cards? and have \d+ points"))
        expect(notice).to_contain_text("Bruno is the host now.")
        box = notice.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 664, box
        ana.screenshot(path=str(artifacts / "coming-back-phone.png"))
        # On the phone it is a banner in the head's place: every seat's count, the top card, the
        # colour and whose turn it is stay uncovered, and it lies clear of the hand.
        covered = ana.evaluate(COVERED)
        assert not covered, covered
        hand = ana.get_by_test_id("hand").bounding_box()
        assert hand and box["y"] + box["height"] <= hand["y"] + 0.5, (box, hand)
        # Told; it goes by itself once Ana has made a move of her own (no "Got it" needed): any
        # decision of hers (a play, a draw, a colour, an answer to a Draw Two, UNO!), not a catch of
        # Bruno's missed UNO!, which is about his move.
        catching = "() => document.querySelector('[data-testid=uno-button]')?.dataset.unoMode === 'catch'"
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "Ana never got a move"
            expect(notice).to_be_visible()  # until her move, it stays
            what = ana.evaluate(DECIDE, "Ana")
            if what not in (None, "done") and not (what == "uno" and ana.evaluate(catching)):
                step(ana, what, challenger=False)
                if ana.evaluate(DECIDE, "Ana") == "dialog":  # a wild's colour, asked before it is played
                    step(ana, "dialog", challenger=False)
                break
            what = bruno.evaluate(DECIDE, "Bruno")
            if what in (None, "done"):
                time.sleep(0.05)  # polling the pages, as a person watching them
            else:
                step(bruno, what, challenger=False)
        expect(notice).to_have_count(0)
        expect(ana.get_by_test_id("keys-toggle")).to_be_visible()  # the head, aside while it was told
        ana.screenshot(path=str(artifacts / "coming-back-after-move.png"))
        ana.reload()
        expect(ana.get_by_test_id("table")).to_be_visible()
        expect(ana.get_by_test_id("away-notice")).to_have_count(0)
        assert not bruno.errors, bruno.errors  # type: ignore[attr-defined]
    finally:
        ana_ctx.close()
        bruno_ctx.close()
