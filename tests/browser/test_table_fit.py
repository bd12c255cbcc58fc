"""Every decision, seat and header word in view at once: a phone (390×664), a laptop window
(1366×657) and a tablet (820×1180), in every language, with 4 and with 10 seats.

The table is a real one (a room started by its host, its other seats taken and away, so the
table stays as dealt).  Each kind of decision the editions ask (colour, target — a Seven-O or
Forced Swap partner, a Green Shell's victim —, challenge, stack, Dip Into The Deck's pass, a
drawn card, UNO! with the play) is then drawn into the table's real dialog by the page's own
module (static/js/dialog_view.js) with the page's own wording (wording.js, the catalogue), and
measured with getBoundingClientRect: every option, the cancel button and the "Why?" toggle lie
inside the window, the felt and the dialog's visible box, with nothing scrolled and no text cut
(scrollWidth against clientWidth).  The header, the seat chips and their badges are measured
the same way.  Screenshots of each state go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.servers import LIFTED, serve
from tests.browser.tables import DEVICES, LOCALES, open_seat, take_seat
from tests.live import LiveServer

# The page-side probes, kept as JavaScript in their own file (one "// ---- NAME" section each).
_JS = (Path(__file__).parent / "fit_probes.js").read_text()
PROBES = dict(re.findall(r"// ---- (\w+)\n(.*?)(?=\n// ---- |\Z)", _JS, re.S))
TABLET = "tablet"
DEVICES.setdefault(TABLET, {"viewport": {"width": 820, "height": 1180}, "has_touch": True})  # open_seat's devices
EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"]
MOST = {"pocket_pizza": 5}  # seats an edition takes at most (10 otherwise)
# Long names, as friends type them (NAME_MAX is 24): the chips must show them whole.
NAMES = ["Anastazja", "Bartłomiej", "Ciril Žagar", "Dorotea", "Estefanía", "Fryderyk", "Gašper", "Hortensia",
         "Ignacy", "Jacinta"]

# The decision models room.js derives, built from the page's own wording for an edition.
DECISIONS = PROBES["DECISIONS"]

CONTROLS = "[data-testid=dialog-option], [data-testid=dialog-cancel], [data-testid=dialog-why-toggle], h2"

SHOW = PROBES["SHOW"]

# Which of a box's controls are not wholly in sight: outside the window, the felt, the dialog,
# or any box that clips it on the way up (the announcement area); or their text is cut.
UNSEEN = PROBES["UNSEEN"]

# No finite animation or transition running (the dialog rises into place over 0.2 s: measured
# during it, on a loaded machine, its buttons sat a pixel below the box); endless glows go on.
SETTLED = ("() => document.getAnimations().every((a) => a.playState !== 'running'"
           " || a.effect.getTiming().iterations === Infinity)")

# The head, every seat chip and badge: inside the window, none cut, none scrolled sideways.
SEATS = PROBES["SEATS"]


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from serve(between_rounds_seconds=120, rooms_per_address=100_000, **LIFTED)


def new_room(server: LiveServer, edition: str, seats: int) -> str:
    body = {"variant": edition, "max_seats": seats, "target_score": 500, "away_grace_seconds": 600}
    r = httpx.post(f"{server.http}/api/rooms", json=body)
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def started_table(browser: Browser, server: LiveServer, edition: str, seats: int, device: str, lang: str) -> Page:
    """Anastazja's view of a dealt table whose other seats are away (nothing moves)."""
    code = new_room(server, edition, seats)
    host = take_seat(server, code, NAMES[0])
    for name in NAMES[1:seats]:
        take_seat(server, code, name)
    page = open_seat(browser, server, code, host, device, lang)
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("table")).to_have_attribute("data-status", "playing")
    expect(page.get_by_test_id("opponent")).to_have_count(seats - 1)
    return page


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("device", list(DEVICES))
def test_every_decision_shows_all_its_buttons_in_the_box(browser: Browser, server: LiveServer, artifacts: Path,
                                                         device: str, lang: str) -> None:
    for edition in EDITIONS:
        for seats in (MOST.get(edition, 10), 4) if edition == "classic" else (MOST.get(edition, 10),):
            page = started_table(browser, server, edition, seats, device, lang)
            try:
                shot = f"{edition}-{lang}-{device}-{seats}"
                kinds = page.evaluate(DECISIONS, [edition, seats > 4])
                for kind in kinds:
                    page.evaluate(SHOW, kind)
                    expect(page.get_by_test_id("dialog")).to_be_visible()
                    page.wait_for_function(SETTLED)
                    page.screenshot(path=str(artifacts / f"fit-{shot}-{kind}.png"))
                    where = f"{shot}, {kind}"
                    unseen = page.evaluate(UNSEEN, ["[data-testid=dialog]", CONTROLS])
                    assert not unseen, f"{where}: {unseen}"
                    assert page.evaluate("document.scrollingElement.scrollTop") == 0, where
                    toggle = page.get_by_test_id("dialog-why-toggle")
                    if toggle.count():
                        # The explanation, on demand; the buttons stay in view.
                        expect(page.get_by_test_id("dialog-text")).to_be_hidden()
                        toggle.click()
                        expect(page.get_by_test_id("dialog-text")).to_be_visible()
                        page.wait_for_function(SETTLED)
                        page.screenshot(path=str(artifacts / f"fit-{shot}-{kind}-why.png"))
                        unseen = page.evaluate(UNSEEN, ["[data-testid=dialog]", "[data-testid=dialog-option]"])
                        assert not unseen, f"{where} (why? open): {unseen}"
                assert not page.errors, page.errors  # type: ignore[attr-defined]
            finally:
                page.context.close()


@pytest.mark.slow
@pytest.mark.parametrize("seats", [4, 10])
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("device", list(DEVICES))
def test_the_head_and_every_seat_are_whole_and_the_turn_and_next_marked(
        browser: Browser, server: LiveServer, artifacts: Path, device: str, lang: str, seats: int) -> None:
    # The edition's name is the head's longest word: each language gets two of them (Pocket
    # Pizza seats five at most).
    i = list(LOCALES).index(lang)
    edition = EDITIONS[(i + 3) % 4] if seats == 4 else ["mario_kart", "all_wild", "classic"][i % 3]
    page = started_table(browser, server, edition, seats, device, lang)
    try:
        shot = f"{edition}-{lang}-{device}-{seats}"
        seen = page.evaluate(SEATS)
        page.screenshot(path=str(artifacts / f"fit-{shot}-seats.png"))
        assert not seen["out"], f"{shot}: {seen['out']}"
        assert seen["seats"] == seats - 1
        assert seen["turn"] == 1 and seen["next"] == 1, f"{shot}: current and next not marked: {seen}"
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


# The side panel at the table: the scores, the chat and the spectator settings as shown.
SIDE = PROBES["SIDE"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_laptop_side_panel_shows_every_score_four_chat_lines_and_folded_settings(
        browser: Browser, server: LiveServer, artifacts: Path, lang: str) -> None:
    page = started_table(browser, server, "classic", 10, "laptop", lang)
    try:
        seen = page.evaluate(SIDE)
        page.screenshot(path=str(artifacts / f"fit-side-{lang}-laptop-10.png"))
        assert not seen["out"], seen
        assert seen["rows"] == 10
        assert seen["chatLines"] >= 4, seen
        assert seen["folded"] and seen["watchHeight"] <= 60, seen  # the host's settings, one line
        page.get_by_test_id("spectator-options-toggle").click()
        expect(page.get_by_test_id("spectator-delay")).to_be_visible()
    finally:
        page.context.close()
