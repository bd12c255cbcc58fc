"""Blind draw at the table (RULES.md HR-33, HX-2, HX-15): a card Ana draws comes into her hand as
a card back — not a button, labelled "face-down card", its face in neither the hand nor the log —
and shows normally once it turns up on her next turn; inside Bo's open hand (HR-31) his face-down
card is named as one on his seat (D-13).  On a phone and on a laptop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from app.engine import Match, apply, legal_actions
from app.engine.action_json import action_from_json
from app.engine.house import HouseRules
from app.engine.match import ROUND
from tests.browser.puppets import (
    Puppet,
    deal_with,
    drive,
    fallback,
    find_match_seed,
    find_seed,
    nothing,
    opens_on_a_number,
)
from tests.browser.test_play import new_player
from tests.browser.test_wording import open_room
from tests.live import LiveServer
from tests.waiting import eventually

VIEWPORTS: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 664}, "laptop": {"width": 1366, "height": 657}}


@pytest.fixture(params=list(VIEWPORTS))
def device(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    context: BrowserContext
    context, page = new_player(browser, VIEWPORTS[request.param])
    try:
        yield request.param, page
    finally:
        context.close()


def test_a_face_down_card_is_a_card_back_until_it_turns_up__HR_33__HX_2__HX_15(
        device: tuple[str, Page], live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, artifacts: Path) -> None:
    name, ana = device
    deal_with(monkeypatch, find_seed("classic", 2, HouseRules(blind_draw=True), opens_on_a_number))
    code = open_room(ana, live_server, "classic", 2, ("blind_draw",))
    bo = Puppet(live_server, code, "Bo")
    try:
        ana.get_by_test_id("start-button").click()
        table = ana.get_by_test_id("table")
        expect(table).to_have_attribute("data-my-turn", "true")
        backs = ana.get_by_test_id("face-down-card")
        expect(backs).to_have_count(0)
        faces_before = ana.get_by_test_id("card").count()
        ana.get_by_test_id("draw-button").click()
        expect(backs).to_have_count(1)  # HX-2: no drawn card to play or keep; the turn is over
        expect(table).to_have_attribute("data-my-turn", "false")
        back = backs.first
        expect(back).to_have_attribute("aria-label", "face-down card")
        assert back.evaluate("el => el.tagName") == "SPAN"  # nothing to click
        assert back.get_attribute("data-face") is None and back.get_attribute("data-colour") is None
        expect(ana.get_by_test_id("card")).to_have_count(faces_before)
        expect(table).to_have_attribute("data-hand-count", str(faces_before + 1))
        log = ana.get_by_test_id("event-log-list")
        assert "You drew" not in (log.text_content() or "")  # no line names the card
        ana.screenshot(path=str(artifacts / f"blind-draw-{name}-face-down.png"))
        # Bo plays or draws; at Ana's next turn the card turns up and shows like any other.
        drive(ana, [(bo, nothing)], lambda: table.get_attribute("data-my-turn") == "true", ana=lambda page: True)
        expect(backs).to_have_count(0)
        expect(ana.get_by_test_id("card")).to_have_count(faces_before + 1)
        expect(log).to_contain_text("Your face-down cards turned up:")
        ana.screenshot(path=str(artifacts / f"blind-draw-{name}-turned-up.png"))
        assert ana.errors == []  # type: ignore[attr-defined]
    finally:
        bo.close()


def bo_plays_what_he_can(legal: list[dict[str, Any]], table: dict[str, Any]) -> dict[str, Any] | None:
    return next((a for a in legal if a["kind"] == "play" and not a.get("more")), None)


def bo_opens_with_a_face_down_card(match: Match) -> bool:
    """Bo (seat 1) plays what he can, else draws (face down); Ana (the page) only ever draws: Bo's
    hand comes down to 3 or fewer, open (HR-31), holding a face-down card, on a plain turn of Ana's."""
    for _ in range(80):
        rnd = match.round
        if match.phase != ROUND or rnd.pending is None:
            return False
        seat = rnd.pending.seat
        if seat == 0 and rnd.pending.kind != "turn":
            return False  # the page only draws
        if seat == 0 and 1 <= len(rnd.hands[1]) <= 3 and rnd.face_down.by_seat[1]:
            return True
        legal = [a.to_json() for a in legal_actions(match, seat) if not a.uno]
        pick = (bo_plays_what_he_can(legal, {}) if seat == 1 else next((a for a in legal if a["kind"] == "draw"), None))
        pick = pick or fallback(legal)
        if pick is None:
            return False
        apply(match, seat, action_from_json(pick))
    return False


def test_an_open_hands_face_down_card_is_named_as_one_on_its_seat__D_13__HR_31__HR_33(
        device: tuple[str, Page], live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, artifacts: Path) -> None:
    """Bo's hand of 3 or fewer is open (HR-31) while he holds a card drawn face down (HR-33): Ana's
    table shows his face-up cards by name on his seat and the other as "face-down card" (D-13);
    the server's frame audit checks that no frame carried its face."""
    name, ana = device
    house = HouseRules(blind_draw=True, reveal_hands_at=3)
    deal_with(monkeypatch, find_match_seed("classic", 2, house, bo_opens_with_a_face_down_card))
    ana.goto(live_server.http + "/?lang=en")
    ana.get_by_test_id("edition-classic").click()
    ana.get_by_test_id("create-name").fill("Ana")
    ana.get_by_test_id("create-seats").select_option("2")
    ana.get_by_test_id("create-more").click()
    ana.get_by_test_id("house-blind_draw").check()
    ana.get_by_test_id("house-reveal_hands_at").select_option(label="3 or fewer")
    ana.get_by_test_id("create-submit").click()
    ana.wait_for_url("**/r/*")
    bo = Puppet(live_server, ana.get_by_test_id("room-code").inner_text(), "Bo")
    try:
        ana.get_by_test_id("start-button").click()
        open_hand = ana.get_by_test_id("open-hand")

        def seen(page: Page) -> tuple[bool, bool]:
            """Whether Bo's seat names a face-down card, and whether it is Ana's turn, read from the
            page at one instant: the frame that gives Ana her turn redraws Bo's seat too."""
            state = page.evaluate("""() => ({
                turn: document.querySelector("[data-testid=table]")?.dataset.myTurn === "true",
                open: [...document.querySelectorAll("[data-testid=open-hand]")].map(el => el.innerText)})""")
            return len(state["open"]) == 1 and "face-down card" in state["open"][0], state["turn"]

        def ana_draws_until_shown(page: Page) -> bool:
            """Ana draws on her turns until Bo's seat shows the card: her draw then would end her turn,
            and his card would turn up at his.  Read at once, not in two looks a frame can fall between."""
            shown, turn = seen(page)
            draw = page.get_by_test_id("draw-button")
            if not shown and turn and draw.is_enabled():
                draw.click()
                expect(page.get_by_test_id("table")).to_have_attribute("data-my-turn", "false")
            return True

        # Up to 90 s: on a loaded machine the dozens of moves this takes outlast drive's 40 s.
        drive(ana, [(bo, bo_plays_what_he_can)], lambda: seen(ana)[0], ana=ana_draws_until_shown, seconds=90)

        def bo_sees_it() -> bool:
            bo.pump(0.05)
            return bool(bo.view["game"]["table"].get("open_face_down", [0, 0])[1])

        eventually(bo_sees_it, what="Bo's own view of his open hand")
        table = bo.view["game"]["table"]
        down = table["open_face_down"][1]
        text = open_hand.inner_text()
        # Every card of the hand is named once: its face-up ones by name, each face-down one as such.
        assert text.count("face-down card") == down >= 1, text
        named = text.removeprefix("Open: ").split(", ")
        assert len(named) == table["hand_sizes"][1] == len(table["open_hands"][1]) + down, text
        assert table["hand"] == table["open_hands"][1]  # Bo sees his own open hand as Ana does (D-13)
        ana.screenshot(path=str(artifacts / f"blind-draw-{name}-open-hand.png"))
        assert ana.errors == []  # type: ignore[attr-defined]
    finally:
        bo.close()
